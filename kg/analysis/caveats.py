"""What the data cannot tell: cut author lists and identity by name.

Listings cut long author lists (``等``), so those papers' hidden authors and
their collaborations are missing and the shown pairs' weights are too high
(``1/(n-1)`` with ``n`` the shown count). People are identified by their
normalised name: two people with one name merge into one node; one person
written two ways (diacritics, initials) splits into two.

Examples
--------
>>> from kg.models import Corpus, Paper
>>> c = Corpus((Paper("1", ("Michał Nowak", "B"), "x", authors_truncated=True),
...             Paper("2", ("Michal Nowak",), "y")))
>>> d = data_caveats(c)
>>> d["truncated_papers"], d["missing_coauthor_links_at_least"], d["possible_name_variants"]
(1, 2, 1)
"""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

from kg.graph import paper_author_keys
from kg.models import Corpus

__all__ = ["fold_name", "name_variants", "data_caveats"]

_FOLD = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i"})
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def fold_name(key: str) -> str:
    """A person key without diacritics, punctuation or spaces.

    Examples
    --------
    >>> fold_name("michał bortkiewicz") == fold_name("Michal Bortkiewicz".casefold())
    True
    >>> fold_name("jean-luc o'neil")
    'jeanluconeil'
    """
    text = key.casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_FOLD))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NON_ALNUM.sub("", text)


def name_variants(keys) -> list[list[str]]:
    """Groups of distinct keys that agree once folded (:func:`fold_name`).

    Each group is sorted; groups are sorted by their first key.

    Examples
    --------
    >>> name_variants(["zoe li", "zoë li", "bob"])
    [['zoe li', 'zoë li']]
    """
    groups: dict[str, set[str]] = defaultdict(set)
    for k in keys:
        f = fold_name(k)
        if f:
            groups[f].add(k)
    return sorted((sorted(g) for g in groups.values() if len(g) > 1), key=lambda g: g[0])


def data_caveats(corpus: Corpus, examples: int = 10) -> dict:
    """Counts that qualify every co-authorship statistic.

    ``missing_coauthor_links_at_least``: a cut list hides at least one
    author, who wrote with each shown author, so at least as many links as
    distinct shown people per cut paper are missing.
    ``papers_listing_a_name_twice``: two authors of one paper with the same
    name, certainly two people, counted as one. ``possible_name_variants``: groups of names
    that differ only in diacritics, case, spaces or punctuation (maybe one
    person split in two).
    """
    keys: set[str] = set()
    cut = cut_names = cut_shown = single = none = repeated = 0
    for p in corpus.papers:
        ks = paper_author_keys(p)
        keys.update(ks)
        named = sum(1 for a in p.authors if a.strip())
        repeated += len(ks) < named
        if not ks:
            none += 1
        elif len(ks) == 1:
            single += 1
        if p.authors_truncated:
            cut += 1
            cut_names += named
            cut_shown += len(ks)
    variants = name_variants(keys)
    n = len(corpus.papers)
    return {
        "papers": n,
        "truncated_papers": cut,
        "truncated_share": (cut / n) if n else None,
        "authors_shown_on_truncated_papers": cut_names,
        "hidden_authorships_at_least": cut,
        "missing_coauthor_links_at_least": cut_shown,
        "single_author_papers": single,
        "papers_without_authors": none,
        "papers_listing_a_name_twice": repeated,
        "possible_name_variants": len(variants),
        "name_variant_examples": variants[:examples],
        "identity": "people are identified by their name as written (normalised: case, "
                    "spaces, Unicode form); homonyms merge into one node and spelling "
                    "variants of one person stay separate",
        "notes": [
            f"{cut} of {n} papers had their author list cut by 等: their hidden authors "
            "and at least " f"{cut_shown} co-author links are missing, and the shown pairs' "
            "collaboration weights (1/(n-1) with n shown) are overstated",
            "people are identified by name: homonyms merge, spelling variants split "
            f"({len(variants)} groups of names differ only in diacritics or punctuation; "
            f"{repeated} papers list one name twice, counted as one person)",
        ],
    }
