"""Scoring links before they are fetched."""

from __future__ import annotations

from scrapy.settings import Settings

from focused import settings as project_settings
from focused.pages.extract import Link
from focused.profile import Profile
from focused.relevance.similarity import TopicSimilarity, url_words
from focused.strategies import ParentPage
from focused.strategies.bfs import BreadthFirst
from focused.strategies.lexical import Lexical

PROFILE = Profile(
    "sql", "Relational databases: SQL queries and transactions.", ("sql", "query", "transaction"), ("http://a/",)
)
SETTINGS = Settings()
SETTINGS.setmodule(project_settings)
LINKS = [
    Link("http://a/sql/query-planning.html", "SQL query planning", "how the database runs a query"),
    Link("http://a/cooking/bread.html", "Baking bread", "flour water salt"),
]


def test_lexical_prefers_topical_anchor_context_and_url_and_explains_itself():
    lexical = Lexical(PROFILE, SETTINGS)
    parent = ParentPage("http://a/", 1, relevance=0.0, relevant=False)
    topical, other = lexical.score(parent, LINKS)
    assert topical.score > other.score
    assert set(topical.signals) == {"inherited", "anchor", "context", "url"}
    assert abs(sum(topical.signals.values()) - topical.score) < 1e-9


def test_lexical_relevance_is_inherited_and_fades_through_irrelevant_pages():
    lexical = Lexical(PROFILE, SETTINGS)
    relevant_parent = ParentPage("http://a/", 1, relevance=1.0, relevant=True)
    child = lexical.score(relevant_parent, LINKS[1:])[0]
    grandchild_parent = ParentPage("http://a/c", 2, relevance=0.0, relevant=False, signals=child.signals)
    grandchild = lexical.score(grandchild_parent, LINKS[1:])[0]
    decay = SETTINGS.getfloat("FOCUSED_LEXICAL_DECAY")
    assert child.signals["inherited"] > 0
    assert abs(grandchild.signals["inherited"] - decay * child.signals["inherited"]) < 1e-9
    orphan = lexical.score(ParentPage("http://a/d", 2, 0.0, False), LINKS[1:])[0]
    assert orphan.signals["inherited"] == 0


def test_breadth_first_scores_by_depth():
    bfs = BreadthFirst(PROFILE, SETTINGS)
    shallow = bfs.score(ParentPage("http://a/", 0, 0.0, False), LINKS)
    deep = bfs.score(ParentPage("http://a/x", 3, 0.0, False), LINKS)
    assert shallow[0].score == -1 and deep[0].score == -4 and bfs.seed("http://a/").score == 0


def test_a_links_whole_text_is_as_similar_as_its_parts_joined():
    """The fourth row adds up the parts' word counts instead of counting the joined text again."""
    similarity = TopicSimilarity(PROFILE)
    anchors, contexts, urls = [k.anchor for k in LINKS], [k.context for k in LINKS], [k.url for k in LINKS]
    rows = similarity.links(anchors, contexts, urls)
    joined = similarity([f"{a} {c} {url_words(u)}" for a, c, u in zip(anchors, contexts, urls)])
    assert rows.shape == (4, 2) and rows[3, 0] > rows[3, 1] > -1e-12
    assert abs(rows[3] - joined).max() < 1e-12
    parts = [similarity(anchors), similarity(contexts), similarity([url_words(u) for u in urls])]
    assert abs(rows[:3] - parts).max() < 1e-12
