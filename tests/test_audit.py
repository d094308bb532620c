"""The auditor: a hash-chosen sample of pages, judged by a model the crawl does not follow."""

from __future__ import annotations

import numpy as np
import pytest
from scrapy.statscollectors import StatsCollector
from scrapy.utils.test import get_crawler

from focused.evaluation.metrics import FetchedPage, calibration
from focused.output.progress import estimate_basis, harvest_estimate
from focused.relevance.audit import Auditor, sampled
from focused.relevance.classifier import PageClassifier
from focused.spiders.focused import FocusedSpider

URLS = [f"http://site{i % 7}.example/page/{i}.html" for i in range(20000)]


def test_the_sample_is_the_share_asked_for_and_the_same_every_time():
    chosen = [url for url in URLS if sampled(url, 0.1)]
    assert len(chosen) == pytest.approx(2000, rel=0.1)
    assert chosen == [url for url in URLS if sampled(url, 0.1)]
    assert all(sampled(url, 0.2) for url in chosen)  # a larger share keeps what a smaller one chose
    assert not any(sampled(url, 0.0) for url in URLS)


def judge(texts):
    """A model whose verdict is in the text: 'yes' pages are relevant to it, 'maybe' pages nearly."""
    return np.array([{"yes": 0.9, "maybe": 0.45}.get(text.strip(), 0.1) for text in texts])


def test_the_auditors_verdict_is_its_own_not_the_crawls_models():
    auditor = Auditor(judge, share=0.1, threshold=0.5)
    assert [url for url in URLS if auditor.wants(url)] == [url for url in URLS if sampled(url, 0.1)]
    assert auditor.verdict("yes", probability=0.01, relevant=False)
    assert not auditor.verdict("no", probability=0.99, relevant=True)
    own = Auditor(None, share=0.1, threshold=0.5)  # the crawl's model is the auditor: its probability decides
    assert own.verdict("no", probability=0.99, relevant=True)
    assert not own.verdict("yes", probability=0.01, relevant=False)


def test_a_page_the_auditor_leans_toward_counts_where_the_crawls_classifier_judged_it_relevant():
    auditor = Auditor(judge, share=0.1, threshold=0.5)
    assert auditor.verdict("maybe", probability=0.9, relevant=True)  # 0.45: past SECOND_OPINION of the threshold
    assert not auditor.verdict("maybe", probability=0.3, relevant=False)  # leaning alone is not enough
    assert not Auditor(judge, share=0.1, threshold=0.6).verdict("maybe", probability=0.9, relevant=True)  # 0.45 < 0.48


def test_the_auditor_reads_a_page_once_by_its_main_text():
    read: list[str] = []

    def recording(texts):
        read.extend(texts)
        return judge(texts)

    assert Auditor(recording, share=0.1, threshold=0.5).verdict("yes", probability=0.01, relevant=False)
    assert read == ["\nyes"]  # one text, as page_text reads a page without its title


def test_the_estimate_is_the_auditors_share_when_the_crawl_has_one():
    stats = StatsCollector(get_crawler())
    for name, value in (("pages", 1000), ("relevant", 460), ("audit/pages", 100), ("audit/relevant", 5)):
        stats.set_value(f"focused/{name}", value)
    assert harvest_estimate(stats)[0] == 0.46  # no auditor named: the classifier's own share
    assert estimate_basis(stats) == "unaudited"
    stats.set_value("focused/estimate/source", "audit")
    assert estimate_basis(stats) == "audited on 100 pages"
    estimate, low, high = harvest_estimate(stats)
    assert estimate == 0.05 and low < 0.05 < high < 0.12
    stats.set_value("focused/audit/pages", 0)
    assert harvest_estimate(stats) == (0.0, 0.0, 1.0)  # nothing audited yet: nothing known


def test_evaluate_reports_the_audited_estimate_beside_the_classifiers():
    pages = [FetchedPage(f"http://a.example/{i}", 0.9, True, audited=(i == 0) if i < 4 else None) for i in range(10)]
    result = calibration(pages, {"http://a.example/0"})
    assert result["estimated_harvest"] == 0.25 and result["audited_pages"] == 4
    assert result["classifier_harvest"] == 1.0 and result["labeled_harvest"] == 0.1


def test_the_estimates_interval_widens_by_the_calibration_error_of_the_reading_it_counts():
    metrics = {
        "tfidf": {"calibration_error": 0.05},
        "embedding": {"calibration_error": 0.1, "audit_calibration_error": 0.15},
    }
    classifier = PageClassifier(None, {"model": "tfidf", "metrics": metrics})
    judge = PageClassifier(None, {"model": "embedding", "metrics": metrics})
    error = FocusedSpider._calibration_error
    card = classifier.card
    assert error(card, Auditor(judge.read, 0.1, 0.5), judge, classifier) == 0.15  # its own auditor: the text alone
    assert error(card, Auditor(None, 0.1, 0.5), classifier, classifier) == 0.05  # the crawl's model audits itself
    assert error(card, None, None, classifier) == 0.05  # no auditor: the classifier's own share
    # a card trained before the auditor's own reading was measured: the reading with the title stands in
    before = {"metrics": {"tfidf": metrics["tfidf"], "embedding": {"calibration_error": 0.1}}}
    assert error(before, Auditor(judge.read, 0.1, 0.5), judge, classifier) == 0.1
