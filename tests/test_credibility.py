"""Plausibility against the examples' envelope, novelty of text, and the credible probability, as pure logic."""

from __future__ import annotations

import pytest

from focused.pages.credibility import (
    Envelope,
    NoveltyIndex,
    Reading,
    content_features,
    credible,
    new_content,
    sampled_shingles,
    tokens,
    topic_words,
)

WORDS = topic_words(["sql", "database", "query plan"])
PROSE = (
    "A query planner reads the statistics of each table and chooses how the rows are found: it may use "
    "an index, scan the whole table, or join two tables in a different order. The database keeps these "
    "statistics up to date as rows are inserted and deleted, and you can ask for the plan it chose. "
)


def features(text: str, words: frozenset[str]) -> dict[str, float]:
    return content_features(text, tokens(text), words)


def shingles(text: str) -> frozenset[int]:
    return sampled_shingles(tokens(text))


def rows(texts: list[str]) -> list[dict[str, float]]:
    return [features(text, WORDS) for text in texts]


def test_features_tell_stuffing_from_prose():
    prose = features(PROSE * 3, WORDS)
    stuffed = features("sql database query plan index " * 60, WORDS)
    assert stuffed["topic_density"] > 0.5 > prose["topic_density"]
    assert stuffed["compression"] < prose["compression"]  # repetition compresses
    assert stuffed["popular_words"] == 0 < prose["popular_words"]


def test_a_page_inside_the_examples_envelope_is_plausible_and_one_beyond_it_is_not():
    texts = [PROSE * k for k in (1, 2, 3)] + ["Cooking pasta: boil water, add salt and the pasta, and wait. " * 5]
    envelope = Envelope.fit(rows(texts), [True, True, True, False])
    assert envelope.plausibility(features(PROSE * 2, WORDS)) == pytest.approx(1.0, abs=0.05)
    stuffed = features(("sql database query plan " * 5 + PROSE) * 3, WORDS)
    assert stuffed["topic_density"] > envelope.high["topic_density"]  # far more topic words than any positive
    assert envelope.plausibility(stuffed) < 0.25
    densest = max(row["topic_density"] for row in rows(texts[:3]))
    central = features(("sql query " + PROSE) * 3, WORDS)  # denser than every positive, as a topic's HOWTO may be
    assert densest < central["topic_density"] < 2 * densest
    assert envelope.plausibility(central) == pytest.approx(1.0, abs=0.05)
    again = Envelope.from_dict(envelope.to_dict(), envelope.tolerance)
    assert again.plausibility(stuffed) == envelope.plausibility(stuffed)


def test_novelty_is_the_share_of_text_not_read_before_and_says_where_the_rest_was_read():
    index = NoveltyIndex()
    first = " ".join(f"word{i}" for i in range(400))
    second = " ".join(f"other{i}" for i in range(400))
    assert index.read("http://a/1", shingles(first)) == Reading(1.0)
    assert index.read("http://b/1", shingles(first)) == Reading(0.0, (("http://a/1", 1.0, 1.0),))  # read on a/1
    assert index.read("http://a/2", shingles(second)).novelty == 1.0
    spun = " ".join(first.split()[:300] + second.split()[300:])  # parts of two pages read before
    reading = index.read("http://c/1", shingles(spun))
    assert reading.novelty < 0.1 and reading.source == "http://a/1" and 0.6 < reading.copied < 0.9
    (_, mine, theirs), (_, rest, of_second) = reading.sources  # and how much of each earlier page it repeats
    assert theirs == pytest.approx(mine, rel=0.2) and rest + mine == pytest.approx(1.0) and of_second < 0.3
    assert index.read("http://d/1", shingles("too short to tell")) == Reading()


def test_a_short_page_is_judged_from_all_its_5_grams():
    def stub(name: str) -> str:  # one of a generated API reference's pages: a method of each of many classes
        return (
            f"{name}.rollback() Roll provided date backward to next offset only if not on offset. Rolled "
            f"timestamp if not on offset, otherwise unchanged timestamp. previous {name}.is_year_start next "
            f"{name}.rollforward"
        )

    index = NoveltyIndex()
    assert index.read("http://a/DateOffset.rollback", shingles(stub("DateOffset"))) == Reading(1.0)
    reading = index.read("http://a/BusinessDay.rollback", shingles(stub("BusinessDay")))
    assert reading.novelty < 0.5 and reading.source == "http://a/DateOffset.rollback"
    long = " ".join(f"word{i}" for i in range(400))
    assert len(shingles(long)) < len(long.split()) / 4  # a long page keeps a sample: memory stays small


def test_an_implausible_page_is_as_uncertain_as_the_prior():
    assert credible(0.9, 1.0, 0.2) == pytest.approx(0.9)
    assert credible(0.9, 0.0, 0.2) == pytest.approx(0.2)
    assert credible(0.9, 0.5, 0.2) == pytest.approx(0.55)
    assert credible(0.1, 0.0, 0.2) == pytest.approx(0.1)  # never raised above what the classifier said


def test_a_short_page_is_too_short_to_judge():
    envelope = Envelope.fit(rows([PROSE * 3] * 12), [True] * 12)
    assert envelope.plausibility(features("sql database query " * 20, WORDS)) == 1.0  # 60 words
    assert envelope.plausibility(features("sql database query " * 40, WORDS)) < 0.25


def test_a_page_mostly_read_before_counts_as_nothing_new():
    assert new_content(1.0) == 1.0 and new_content(0.75) == pytest.approx(0.5)
    assert new_content(0.5) == 0.0 and new_content(0.2) == 0.0


STITCHED = (
    "Each backup is written to a tape archive every night. The planner reads statistics about tables. "
    "Cooking pasta needs salted water and patience. Certificates expire after a number of days. "
    "Logging handlers send records to files or sockets. Unicode strings hold characters, not bytes. "
    "A calendar shows meetings for the coming weeks. Gardeners prune roses early in spring."
)


def test_cohesion_tells_a_page_that_keeps_to_its_subject_from_stitched_sentences():
    assert features(PROSE * 3, WORDS)["cohesion"] > 0.5
    assert features(STITCHED, WORDS)["cohesion"] == 0.0  # eight sentences, no content word shared by neighbours
    assert features("Too short. To tell.", WORDS)["cohesion"] == -1.0
    envelope = Envelope.fit(rows([PROSE * 3] * 12), [True] * 12)
    assert envelope.low["cohesion"] == features(PROSE * 3, WORDS)["cohesion"]
    stitched = features((STITCHED + " " + PROSE) * 2, WORDS)
    assert 0.0 < stitched["cohesion"] < envelope.low["cohesion"] / 2
    assert 0.0 < envelope.plausibility(stitched) < 0.6
    assert envelope.plausibility(features(PROSE * 3, WORDS)) == pytest.approx(1.0)
    older = Envelope.from_dict(
        {"low": {k: v for k, v in envelope.low.items() if k != "cohesion"}, "high": envelope.high}, 0.25
    )  # a card trained before cohesion was measured
    assert older.plausibility(stitched) > envelope.plausibility(stitched)


def test_a_short_page_of_three_stitched_sentences_is_believed_less_and_one_on_its_subject_is_not():
    envelope = Envelope.fit(rows([PROSE * 3] * 12), [True] * 12)
    review = (  # a directory's review: three sentences of three pages, as the honey pot writes them
        "The planner reads statistics about tables before it runs a query. Certificates expire after a number "
        "of days unless renewed. Gardeners prune roses early in spring every year."
    )
    on_subject = (
        "The planner reads statistics about every table. Those statistics tell the planner how many rows "
        "each table holds. Old statistics make the planner choose slow plans."
    )
    assert features(review, WORDS)["words"] < 100  # too short for the envelope's other features
    assert envelope.plausibility(features(review, WORDS)) < 0.6
    assert envelope.plausibility(features(on_subject, WORDS)) == 1.0
    two = "The planner reads statistics about tables before it runs. Gardeners prune roses early in spring."
    assert envelope.plausibility(features(two, WORDS)) == 1.0  # two sentences: too few to tell


def test_a_short_page_quoting_a_long_one_is_measured_where_the_long_one_was_sampled():
    index = NoveltyIndex()
    manual = " ".join(f"word{i}" for i in range(800))
    index.read("http://docs/page", shingles(manual))
    quote = " ".join(manual.split()[200:290])  # a message quoting a paragraph of it: 90 words
    reading = index.read("http://lists/message", shingles(quote))
    assert reading.novelty < 0.2 and reading.source == "http://docs/page"
    ((_, mine, theirs),) = reading.sources
    assert mine > 0.8 and theirs < 0.2  # most of the message, a little of the page
    fresh = " ".join(f"fresh{i}" for i in range(90))
    assert index.read("http://lists/other", shingles(fresh)).novelty == 1.0
