"""How large a team's co-author pairs may be before kg stops writing them out.

A paper with ``n`` authors has ``n (n - 1) / 2`` co-author pairs: 4,950 for
100 authors, two million for 2,000 (a physics collaboration), fifty million
for 10,000. Every pair would be an edge of the co-authorship graph, a row of
the exports and a candidate ``kgo:Collaboration`` of the RDF graph, so one
such paper used to take minutes and gigabytes.

Above :data:`MAX_LINKED_TEAM` authors a paper's pairs are not materialised.
Its authors are kept everywhere a person appears (``corpus.jsonl``, the
knowledge graph's ``schema:author`` links, the co-authorship graph's nodes
and their paper counts); only the pair links of that one paper are left out.
Under fractional counting (Newman 2001; Perianes-Rodriguez, Waltman and van
Eck 2016), which kg's collaboration strength already uses, each of those
pairs would weigh ``1/(n - 1)``, at most 1/200: such a paper says little about
who works with whom. (VOSviewer goes further and ignores documents with
more than a set number of authors altogether.) Work and memory then grow
linearly with the number of authors.

Why 200: the full author lists of the 6,834 papers of ICML 2023, ICML 2024
and CVPR 2023 (``shared/corpora/*.truth.jsonl`` beside the repository) have at most 125
authors (99% have 14 or fewer), and the listings cut lists at 10 (``等``),
so no real paper is affected; 200 authors make 19,900 pairs, which a build
handles in a fraction of a second.

Examples
--------
>>> links_pairs(2), links_pairs(MAX_LINKED_TEAM), links_pairs(MAX_LINKED_TEAM + 1)
(True, True, False)
>>> links_pairs(1)
False
"""
from __future__ import annotations

__all__ = ["MAX_LINKED_TEAM", "links_pairs"]

#: The largest number of (distinct, shown) authors whose co-author pairs are written out.
MAX_LINKED_TEAM = 200


def links_pairs(n_authors: int) -> bool:
    """Whether a paper with ``n_authors`` distinct authors contributes co-author pairs.

    Parameters
    ----------
    n_authors : int
        The paper's distinct shown authors (person keys).

    Returns
    -------
    bool
        ``True`` for 2 to :data:`MAX_LINKED_TEAM` authors.
    """
    return 2 <= n_authors <= MAX_LINKED_TEAM
