"""A link's own words, computed once and kept: the same features as computing them again, within a bound."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from scrapy.settings import Settings
from sklearn.feature_extraction.text import HashingVectorizer

from focused import settings as project_settings
from focused.profile import Profile
from focused.relevance.similarity import TopicSimilarity, url_words
from focused.strategies.crawlgraph import LAYERS
from focused.strategies.learned import Learned
from focused.strategies.linkwords import LinkWords

PROFILE = Profile("sql", "Relational databases: SQL queries.", ("sql", "query"), ("http://a/",))
LINKS = [
    {"url": "http://a/sql/joins.html", "anchor": "SQL joins", "context": "how a query joins two tables"},
    {"url": "http://b/bread", "anchor": "Bread", "context": "flour water salt"},
    {"url": "http://a/sql/index.html", "anchor": "Indexes", "context": ""},
]


def test_kept_words_and_similarities_are_those_computed_afresh_in_any_batch():
    similarity = TopicSimilarity(PROFILE)
    warm = LinkWords(similarity, limit=10)
    warm(LINKS[1:])  # two of them met before, in another batch
    kept_words, kept_sims = warm([LINKS[2], LINKS[0], LINKS[1], LINKS[2]])
    fresh_words, fresh_sims = LinkWords(similarity, limit=10)([LINKS[2], LINKS[0], LINKS[1], LINKS[2]])
    assert (kept_words != fresh_words).nnz == 0 and np.array_equal(kept_sims, fresh_sims)
    order = [LINKS[i] for i in (2, 0, 1, 2)]
    urls = [link["url"] for link in order]
    expected = similarity.links([link["anchor"] for link in order], [link["context"] for link in order], urls)
    assert kept_sims == pytest.approx(expected)
    assert len(warm.kept) == 3


def test_the_least_recently_used_links_go_beyond_the_limit_and_none_are_pickled():
    words = LinkWords(TopicSimilarity(PROFILE), limit=2)
    words(LINKS[:2])
    words([LINKS[0]])  # used again: the bread link is now the oldest
    words([LINKS[2]])
    assert [url for url, _, _ in words.kept] == ["http://a/sql/joins.html", "http://a/sql/index.html"]
    restored = pickle.loads(pickle.dumps(words))
    assert len(restored.kept) == 0 and restored([LINKS[0]])[0].nnz > 0
    batch, _ = LinkWords(TopicSimilarity(PROFILE), limit=1)(LINKS)  # a page with more links than the limit
    assert batch.shape[0] == 3 and all(batch[row].nnz for row in range(3))
    empty, sims = words([])
    assert empty.shape == (0, 2**18) and sims.shape == (4, 0)


def test_the_link_models_words_are_one_text_of_its_parts_and_its_distance_normalized():
    """The link model's features are those of the text "a:... c:... u:... d:N", l2-normalized, as before the
    words were kept (session 59)."""
    settings = Settings()
    settings.setmodule(project_settings)
    strategy = Learned(PROFILE, settings)
    infos = [{**link, "parent_url": None} for link in LINKS]
    X = strategy._link_matrix(infos, [-1] * len(infos), [(0.5, 1.0)] * len(infos), *strategy.link_words(infos))
    texts = [
        " ".join(
            [f"a:{w}" for w in link["anchor"].lower().split()]
            + [f"c:{w}" for w in link["context"].lower().split()]
            + [f"u:{w}" for w in url_words(link["url"]).split()]
            + [f"d:{LAYERS - 1}"]  # no parent page: as far from a relevant page as counted
        )
        for link in LINKS
    ]
    expected = HashingVectorizer(n_features=2**18, alternate_sign=False, norm="l2", token_pattern=r"\S+")
    assert np.abs(X[:, : 2**18] - expected.transform(texts)).max() < 1e-12
