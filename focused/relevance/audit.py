"""The crawl's harvest, judged on a random sample of its pages by a model it does not follow.

A crawl that orders its frontier by a classifier's verdicts goes looking for the pages that
classifier is wrong about: every false positive it can reach scores high, so the share of
its pages the classifier calls relevant overstates the harvest, and the more so the better
the crawl optimizes (Goodhart). On the benchmark web, the TF-IDF classifier called 46% of a
crawl's pages relevant where the labels said 1.4%. A second model of another kind (sentence
embeddings, not word counts), trained on the same examples, has errors of its own, but the
crawl did not select for them: its verdicts on a sample of the pages, chosen by a hash of
the URL, are an unbiased count of what that model believes: within 8 points of the labels
on every benchmark crawl measured in session 31 (docs/design.md, "The crawl's own estimate").

The auditor reads a page's main text alone, one text a page: the crawl's classifier reads each page with
its title and without (a title cannot make relevant a page its text does not bear out), which
would double the embedding model's cost, the largest of the audit's. On the benchmark web's tuning
crawls the text alone was within 0.031 of the labels' harvest on average, both readings 0.035
(docs/benchmarks.md, session 60).

The auditor is sure of few pages: calibrated on examples a tenth of which are positive, it called 0.60 to 0.64 of
`dataframes`' relevant pages relevant, and the estimate read 0.16 under there. A page it leans toward
(SECOND_OPINION of the threshold) counts where the crawl's classifier, a model of the other view, judged it
relevant: two models that err apart agree. Replayed on 60 crawls, the estimate came within 0.10 of the labels on
every topic (docs/benchmarks.md, session 66). Neither decides alone: the crawl's classifier called 40% of
`regex`'s pages relevant where the labels say 1%.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from focused.relevance.classifier import page_text

SECOND_OPINION = 0.8  # of the threshold: how far the auditor must lean to bear out the crawl's verdict of relevant


def sampled(url: str, share: float) -> bool:
    """Whether the audit judges this page: a share of all URLs, by hash, whatever the crawl thinks of them."""
    return zlib.crc32(url.encode("utf-8", "surrogatepass")) < share * 2**32


@dataclass
class Auditor:
    classifier: Callable[[Sequence[str]], np.ndarray] | None  # of texts; None: the crawl's own model audits
    share: float  # of the pages judged (FOCUSED_AUDIT_SHARE)
    threshold: float  # the profile's relevance_threshold

    def wants(self, url: str) -> bool:
        return sampled(url, self.share)

    def verdict(self, text: str, probability: float, relevant: bool) -> bool:
        """Relevant or not, by the auditor on the main text: at the threshold, or past SECOND_OPINION of it where the
        crawl judged the page `relevant`. `probability` is the crawl's own model's (with the title), the verdict
        when it audits."""
        if self.classifier is None:
            return probability >= self.threshold
        audited = float(self.classifier([page_text("", text)])[0])
        return audited >= self.threshold or (relevant and audited >= SECOND_OPINION * self.threshold)
