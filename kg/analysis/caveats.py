"""What the data cannot tell: cut author lists, identity by name, huge teams.

Listings cut long author lists (``等``), so those papers' hidden authors and
their collaborations are missing and the shown pairs' weights are too high
(``1/(n-1)`` with ``n`` the shown count). People are identified by their
normalised name: two people with one name merge into one node; one person
written two ways (diacritics, initials) splits into two. A paper with more
than :data:`~kg.util.teams.MAX_LINKED_TEAM` authors keeps its authors but adds no
co-author pairs (:mod:`kg.util.teams`); the caveats say so when a build has one.
:func:`homonym_suspects` flags names whose ego network looks like several
people (:data:`HOMONYM_RULE`).

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
from collections.abc import Iterable

from kg.analysis._igraph import IGraph
from kg.analysis.graphs import paper_author_keys
from kg.identity import fold_name
from kg.models import Corpus, JsonObject
from kg.util.teams import MAX_LINKED_TEAM

__all__ = ["name_variants", "large_teams", "data_caveats", "homonym_suspects",
           "HOMONYM_RULE", "homonym_note"]

#: how many authors, by number of collaborators, :func:`homonym_suspects` examines
HOMONYM_EXAMINED = 50
#: groups of at least this many co-authors count
HOMONYM_GROUP = 2
HOMONYM_MIN_GROUPS = 3
HOMONYM_MAX_CLUSTERING = 0.2
HOMONYM_MAX_LARGEST_SHARE = 0.5
HOMONYM_RULE = (
    f"of the {HOMONYM_EXAMINED} authors with most collaborators, those whose co-authors fall "
    f"into at least {HOMONYM_MIN_GROUPS} groups of {HOMONYM_GROUP} or more once the author is "
    "removed (connected components of the ego network without its centre), with local "
    f"clustering under {HOMONYM_MAX_CLUSTERING} and no group holding half of the co-authors; "
    "most groups first, then the smallest largest group; a busy person with separate teams "
    "also fits, so this flags, it does not prove")


def name_variants(keys: Iterable[str]) -> list[list[str]]:
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


def large_teams(team_sizes: Iterable[int], limit: int = MAX_LINKED_TEAM) -> JsonObject | None:
    """What leaving out the pairs of teams over ``limit`` authors leaves out.

    Parameters
    ----------
    team_sizes : iterable of int
        Each paper's number of distinct shown authors.
    limit : int
        :data:`kg.util.teams.MAX_LINKED_TEAM`.

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


def data_caveats(corpus: Corpus, examples: int = 10) -> JsonObject:
    """Counts that qualify every co-authorship statistic.

    ``missing_coauthor_links_at_least``: a cut list hides at least one
    author, who wrote with each shown author, so at least as many links as
    distinct shown people per cut paper are missing.
    ``papers_listing_a_name_twice``: two authors of one paper with the same
    name, certainly two people, counted as one. ``possible_name_variants``: groups of names
    that differ only in diacritics, case, spaces or punctuation (maybe one
    person split in two). ``large_teams`` (only when a paper has more than
    :data:`~kg.util.teams.MAX_LINKED_TEAM` authors, so that other builds' reports
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


def homonym_suspects(h: IGraph, top: int = 5, examined: int = HOMONYM_EXAMINED) -> JsonObject:
    """Names whose ego network looks like several people (:data:`HOMONYM_RULE`).

    For each of the ``examined`` authors with most collaborators (ties by
    name): ``groups``, the sizes of the connected components of their
    co-authors once they are removed (largest first); ``clustering``, their
    local clustering coefficient. Returns the rule, how many were examined,
    how many fit, and the ``top`` that fit best, each with its evidence.

    Examples
    --------
    >>> from kg.analysis._igraph import from_data
    >>> from kg.analysis.graphs import coauthor_data
    >>> from kg.models import Corpus, Paper
    >>> ps = [Paper(str(i), ("X", f"a{i}", f"b{i}"), str(i)) for i in range(4)]
    >>> d = homonym_suspects(from_data(coauthor_data(Corpus(tuple(ps)))))
    >>> s = d["suspects"][0]
    >>> s["name"], s["groups"], s["group_sizes"], s["clustering"], s["papers"]
    ('X', 4, [2, 2, 2, 2], 0.142857, 4)
    """
    g = h.graph
    degree = g.degree()
    names = g.vs["name"]
    order = sorted(range(g.vcount()), key=lambda v: (-degree[v], names[v], h.keys[v]))
    order = [v for v in order[:examined] if degree[v] > 0]
    clustering = g.transitivity_local_undirected(order, mode="zero") if order else []
    found = []
    for v, cc in zip(order, clustering, strict=True):
        nbrs = g.neighbors(v)
        sizes = sorted((len(c) for c in g.induced_subgraph(nbrs).connected_components()),
                       reverse=True)
        groups = sum(1 for n in sizes if n >= HOMONYM_GROUP)
        share = sizes[0] / len(nbrs)
        if (groups >= HOMONYM_MIN_GROUPS and cc < HOMONYM_MAX_CLUSTERING
                and share < HOMONYM_MAX_LARGEST_SHARE):
            found.append({"name": names[v], "papers": int(g.vs[v]["papers"]),
                          "collaborators": len(nbrs), "groups": groups,
                          "group_sizes": sizes, "largest_share": round(share, 6),
                          "clustering": round(float(cc), 6)})
    found.sort(key=lambda r: (-r["groups"], r["largest_share"], r["name"]))
    return {"rule": HOMONYM_RULE, "examined": len(order), "flagged": len(found),
            "suspects": found[:top]}


def homonym_note(d: JsonObject) -> str:
    """One line of the caveats naming the suspects of :func:`homonym_suspects` and their evidence."""
    if not d["suspects"]:
        return (f"no name looks like several people ({d['examined']} authors with most "
                "collaborators examined)")
    ev = "; ".join(
        f"{s['name']} ({s['papers']} papers, {s['collaborators']} co-authors in {s['groups']} "
        f"groups {'/'.join(map(str, s['group_sizes'][:6]))}"
        f"{'/…' if len(s['group_sizes']) > 6 else ''}, clustering {s['clustering']:.2f})"
        for s in d["suspects"])
    return (f"{d['flagged']} of the {d['examined']} authors with most collaborators have ego "
            f"networks that look like several people sharing a name (separate co-author "
            f"groups, low clustering); most likely: {ev}")
