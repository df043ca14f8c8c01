"""What the data cannot tell: cut author lists, identity by name, huge teams.

Listings cut long author lists (``等``), so those papers' hidden authors and
their collaborations are missing and the shown pairs' weights are too high
(``1/(n-1)`` with ``n`` the shown count). People are identified by their
normalised name: two people with one name merge into one node; one person
written two ways (diacritics, initials) splits into two. A paper with more
than :data:`~kg.teams.MAX_LINKED_TEAM` authors keeps its authors but adds no
co-author pairs (:mod:`kg.teams`); the caveats say so when a build has one.

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

from collections import defaultdict

from kg.graph import paper_author_keys
from kg.identity import fold_name  # re-exported: it lived here
from kg.models import Corpus
from kg.teams import MAX_LINKED_TEAM

__all__ = ["fold_name", "name_variants", "large_teams", "data_caveats"]


def name_variants(keys) -> list[list[str]]:
    """Groups of distinct keys that agree once folded (:func:`kg.identity.fold_name`).

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


def large_teams(team_sizes, limit: int = MAX_LINKED_TEAM) -> dict | None:
    """What leaving out the pairs of teams over ``limit`` authors leaves out.

    Parameters
    ----------
    team_sizes : iterable of int
        Each paper's number of distinct shown authors.
    limit : int
        :data:`kg.teams.MAX_LINKED_TEAM`.

    Returns
    -------
    dict or None
        ``None`` when no team is over ``limit``; else ``max_linked_team``,
        ``papers`` (over the limit), ``authorships`` (on those papers),
        ``largest`` (team) and ``pairs_not_linked`` (their ``n(n-1)/2``
        pairs, summed).

    Examples
    --------
    >>> large_teams([3, 250, 2], limit=200)
    {'max_linked_team': 200, 'papers': 1, 'authorships': 250, 'largest': 250, 'pairs_not_linked': 31125}
    >>> large_teams([3, 200], limit=200) is None
    True
    """
    big = [n for n in team_sizes if n > limit]
    if not big:
        return None
    return {"max_linked_team": limit, "papers": len(big), "authorships": sum(big),
            "largest": max(big), "pairs_not_linked": sum(n * (n - 1) // 2 for n in big)}


def data_caveats(corpus: Corpus, examples: int = 10) -> dict:
    """Counts that qualify every co-authorship statistic.

    ``missing_coauthor_links_at_least``: a cut list hides at least one
    author, who wrote with each shown author, so at least as many links as
    distinct shown people per cut paper are missing.
    ``papers_listing_a_name_twice``: two authors of one paper with the same
    name, certainly two people, counted as one. ``possible_name_variants``: groups of names
    that differ only in diacritics, case, spaces or punctuation (maybe one
    person split in two). ``large_teams`` (only when a paper has more than
    :data:`~kg.teams.MAX_LINKED_TEAM` authors, so that other builds' reports
    are unchanged): see :func:`large_teams`, with a note.
    """
    keys: set[str] = set()
    sizes: list[int] = []
    cut = cut_names = cut_shown = single = none = repeated = 0
    for p in corpus.papers:
        ks = paper_author_keys(p)
        keys.update(ks)
        sizes.append(len(ks))
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
    notes = [
        f"{cut} of {n} papers had their author list cut by 等: their hidden authors "
        "and at least " f"{cut_shown} co-author links are missing, and the shown pairs' "
        "collaboration weights (1/(n-1) with n shown) are overstated",
        "people are identified by name: homonyms merge, spelling variants split "
        f"({len(variants)} groups of names differ only in diacritics or punctuation; "
        f"{repeated} papers list one name twice, counted as one person)",
    ]
    out: dict[str, object] = {
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
        "notes": notes,
    }
    big = large_teams(sizes)
    if big is not None:
        out["large_teams"] = big
        notes.append(
            f"{big['papers']} of {n} papers have more than {big['max_linked_team']} authors "
            f"(the largest {big['largest']:,}): their {big['authorships']:,} authorships count, "
            f"but their {big['pairs_not_linked']:,} co-author pairs are not links of the "
            "network (under fractional counting each would weigh 1/(n-1), at most "
            f"1/{big['max_linked_team']}), so collaborators, strengths, centralities and "
            "communities leave those papers out")
    return out
