"""`scrapy train`: examples from files and from URLs, cross-validation, artifact and card, tamper check."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from focused.relevance.classifier import ClassifierError, load_auditor, load_classifier
from testbed.harness import crawl_command
from testbed.localweb.web import LocalWeb
from tests.conftest import REPO


def train(
    profile: Path, output: Path, model: str = "tfidf", proxy: str | None = None, **env_vars: str
) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", **({"http_proxy": proxy} if proxy else {}), **env_vars}
    command = [sys.executable, "-m", "scrapy", "train", str(profile), "--model", model, "--output", str(output)]
    command += ["-s", "DOWNLOAD_DELAY=0", "-s", "TELNETCONSOLE_ENABLED=False"]
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


def profile_with(tmp_path: Path, positive: list[str], negative: list[str]) -> Path:
    path = tmp_path / "sql.toml"
    text = (REPO / "profiles" / "sql.toml").read_text()
    text = text.replace('positive = ["training_data/sql/positive/"]', f"positive = {json.dumps(positive)}")
    text = text.replace('negative = ["training_data/sql/negative/"]', f"negative = {json.dumps(negative)}")
    path.write_text(text)
    return path


pytestmark = pytest.mark.e2e  # every test trains or loads models through `scrapy train`

FOLDERS = ([str(REPO / "training_data/sql/positive")], [str(REPO / "training_data/sql/negative")])


def test_train_from_files_and_urls_writes_artifact_card_and_metrics(web, tmp_path):
    """Files from training_data/ plus example URLs fetched from the local web through the proxy."""
    urls = ["http://sqlzone.example/section0/article1.html", "http://kitchen.example/section0/article1.html"]
    profile = profile_with(tmp_path, FOLDERS[0] + urls[:1], FOLDERS[1] + urls[1:])
    done = train(profile, tmp_path / "models", proxy=web.proxy)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ROC AUC" in done.stdout and "<- kept" in done.stdout
    card = json.loads((tmp_path / "models" / "sql.json").read_text())
    assert card["profile"] == "sql" and card["model"] == "tfidf"
    assert {"precision", "recall", "f1", "roc_auc"} <= set(card["metrics"]["tfidf"])
    assert card["metrics"]["tfidf"]["roc_auc"] > 0.9
    assert len(card["training_set"]) == 1 + 48 + 2 and all(len(e["sha256"]) == 64 for e in card["training_set"])
    assert card["training_set"][0]["source"] == "profile:sql"  # the description and keywords count too
    assert {"scikit-learn", "python"} <= set(card["versions"])
    assert set(card["envelope"]["high"]) == {"topic_density", "compression", "popular_words"}
    assert 0 <= card["metrics"]["tfidf"]["calibration_error"] < 0.5
    # the auditor's, as it reads a page (main text alone): what widens the crawl's estimate
    assert 0 <= card["metrics"]["embedding"]["audit_calibration_error"] < 0.5
    assert "audit_calibration_error" not in card["metrics"]["tfidf"]
    fetched = {(e["host"], e["path"]) for e in web.entries()}
    assert ("sqlzone.example", "/section0/article1.html") in fetched  # really fetched, over HTTP
    assert ("sqlzone.example", "/robots.txt") in fetched  # politely
    classifier = load_classifier(tmp_path / "models", "sql")
    on_topic, off_topic = classifier(held_out())
    assert on_topic > 0.5 > off_topic
    assert card["audit"]["model"] == "embedding" and (tmp_path / "models" / card["audit"]["artifact"]).exists()
    auditor = load_auditor(tmp_path / "models", classifier)  # trained beside the kept model, to judge the harvest
    assert auditor.kind == "embedding" and "audits the harvest" in done.stdout
    on_topic, off_topic = auditor(held_out())
    assert on_topic > 0.5 > off_topic


def held_out() -> list[tuple[str, str]]:
    """An article about databases and one about cooking from the crawled web (not the training web)."""
    web = LocalWeb()
    pages = [
        web.pages["http://dbtalk.example/section1/article3.html"],
        web.pages["http://kitchen.example/section2/article5.html"],
    ]
    return [(page.title, " ".join(page.paragraphs)) for page in pages]


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sql profile trained once from its folders (a model and its auditor), for the tests that alter a copy."""
    folder = tmp_path_factory.mktemp("trained")
    done = train(profile_with(folder, *FOLDERS), folder / "models")
    assert done.returncode == 0, done.stderr[-2000:]
    return folder


def copy_of(trained: Path, tmp_path: Path) -> Path:
    """The trained profile and models in tmp_path; returns the profile."""
    shutil.copytree(trained, tmp_path, dirs_exist_ok=True)
    return tmp_path / "sql.toml"


def test_a_title_cannot_make_relevant_what_the_text_does_not_bear_out(trained):
    """A short page about cooking under a title stuffed with the topic's words (a cloaked shop's trick) is judged by
    its text; a page on the topic keeps its title's support."""
    classifier = load_classifier(trained / "models", "sql")
    (title, on_topic), (_, cooking) = held_out()
    stuffed = "SQL database query index transaction join | " + title
    judged = classifier([(stuffed, cooking[:300]), ("", cooking[:300]), (title, on_topic)])
    assert judged[0] <= judged[1] + 1e-9 and judged[0] < 0.5 < judged[2]
    assert classifier.pipeline.predict_proba([f"{stuffed}\n{cooking[:300]}"])[0, 1] > judged[0]  # the title's pull


@pytest.mark.parametrize("name", ["sql.joblib", "sql.audit.joblib"])
def test_a_tampered_artifact_is_refused_before_unpickling(trained, tmp_path, name):
    profile = copy_of(trained, tmp_path)
    artifact = tmp_path / "models" / name
    artifact.write_bytes(artifact.read_bytes() + b"\0")
    with pytest.raises(ClassifierError, match="does not match its card"):
        load_auditor(tmp_path / "models", load_classifier(tmp_path / "models", "sql"))
    command = crawl_command(profile, settings={"FOCUSED_CLASSIFIERS_DIR": tmp_path / "models"})
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "does not match its card" in done.stderr and "refusing to unpickle" in done.stderr


def test_a_classifier_of_another_profile_is_refused(trained, tmp_path):
    copy_of(trained, tmp_path)
    card = tmp_path / "models" / "sql.json"
    card.write_text(card.read_text().replace('"profile": "sql"', '"profile": "cooking"'))
    with pytest.raises(ClassifierError, match="trained for profile 'cooking'"):
        load_classifier(tmp_path / "models", "sql")


def test_the_embedding_model_trains_offline(tmp_path):
    profile = profile_with(tmp_path, *FOLDERS)
    done = train(profile, tmp_path / "models", model="embedding")
    assert done.returncode == 0, done.stderr[-2000:]
    card = json.loads((tmp_path / "models" / "sql.json").read_text())
    assert card["model"] == "embedding" and card["embedding_model"] == "all-MiniLM-L6-v2"
    classifier = load_classifier(tmp_path / "models", "sql")
    on_topic, off_topic = classifier(held_out())
    assert on_topic > 0.5 > off_topic
    assert card["audit"] == {"model": "embedding"} and load_auditor(tmp_path / "models", classifier) is classifier


def test_the_ensemble_distills_its_embedding_offline_and_carries_it_in_the_artifact(tmp_path):
    profile = profile_with(tmp_path, *FOLDERS)
    cache = tmp_path / "cache"
    done = train(profile, tmp_path / "models", model="ensemble", FOCUSED_CACHE=str(cache))
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(cache.glob("all-MiniLM-L6-v2-static-*/model.safetensors"))  # distilled from the bundled files
    card = json.loads((tmp_path / "models" / "sql.json").read_text())
    assert card["model"] == "ensemble" and card["embedding_model"] == "all-MiniLM-L6-v2"
    assert card["metrics"]["ensemble"]["roc_auc"] > 0.9 and "model2vec" in card["versions"]
    shutil.rmtree(cache)  # the classifier reads pages with the vectors it was trained on, not the cache's
    on_topic, off_topic = load_classifier(tmp_path / "models", "sql")(held_out())
    assert on_topic > 0.5 > off_topic


@pytest.mark.parametrize(
    ("positive", "negative", "message"),
    [
        (FOLDERS[0], [], "no negative examples"),
        (FOLDERS[0][:1], [str(REPO / "training_data/sql/negative/negative-00.html")], "too few examples"),
        (["training_data/nowhere/"], FOLDERS[1], "neither a URL nor an existing file or folder"),
    ],
)
def test_unusable_examples_get_a_clear_error(web, tmp_path, positive, negative, message):
    done = train(profile_with(tmp_path, positive, negative), tmp_path / "models", proxy=web.proxy)
    assert done.returncode == 2
    assert message in done.stderr
    assert not (tmp_path / "models" / "sql.joblib").exists()


def test_examples_that_cannot_be_fetched_are_skipped_with_a_warning_and_listed(web, tmp_path):
    """A dead host, a 404 and a page robots.txt disallows: training goes on without them."""
    dead = [
        "http://gone.example/",
        "http://sqlzone.example/no-such-page.html",
        "http://sqlzone.example/private/drafts.html",
    ]
    done = train(profile_with(tmp_path, FOLDERS[0] + dead, FOLDERS[1]), tmp_path / "models", proxy=web.proxy)
    assert done.returncode == 0, done.stderr[-2000:]
    for url in dead:
        assert f"warning: skipped example {url}" in done.stderr
    card = json.loads((tmp_path / "models" / "sql.json").read_text())
    assert sorted(e["source"] for e in card["skipped_examples"]) == sorted(dead)
    assert "robots.txt" in next(e["reason"] for e in card["skipped_examples"] if "/private/" in e["source"])
    assert ("sqlzone.example", "/private/drafts.html") not in {(e["host"], e["path"]) for e in web.entries()}


def test_five_examples_and_the_profile_train_a_useful_model(tmp_path):
    positives = sorted((REPO / "training_data/sql/positive").iterdir())[:4]
    negatives = sorted((REPO / "training_data/sql/negative").iterdir())[:5]
    done = train(profile_with(tmp_path, [str(p) for p in positives], [str(n) for n in negatives]), tmp_path / "models")
    assert done.returncode == 0, done.stderr[-2000:]
    on_topic, off_topic = load_classifier(tmp_path / "models", "sql")(held_out())
    assert on_topic > off_topic


def test_crawling_without_a_classifier_says_how_to_train_one(tmp_path):
    profile = profile_with(tmp_path, *FOLDERS)
    command = crawl_command(profile, settings={"FOCUSED_CLASSIFIERS_DIR": tmp_path / "none"})
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"scrapy train {profile}" in done.stderr and "-a strategy=lexical" in done.stderr
