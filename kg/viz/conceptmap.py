"""The concept map: VOSviewer's term map, done offline (``concepts.html``).

Terms are the concepts of the concept layer (mentions with
``layer == "concept"``) and the named entities; a term occurs in a paper
when the paper mentions it. The map keeps the terms that occur in at least
``N`` papers, ``N`` the smallest threshold that leaves at most
:data:`TARGET_TERMS` terms (the page has a control to change it, down to the
floor that leaves :data:`MAX_TERMS`).

Two terms are linked by their **association strength** (VOSviewer's
normalisation; van Eck & Waltman 2009), ``s = c · P / (n_i · n_j)``: the papers
``c`` mentioning both over the number expected if they were independent
(``P`` papers in all, ``n_i`` and ``n_j`` mentioning each), so ``LLM`` does not
link to everything merely by being frequent. Each term keeps its
:data:`LINKS_PER_TERM` strongest links. Clusters are Leiden communities (seed 0,
modularity on the association strengths, passes until no improvement);
each is coloured and named in the legend by its most distinctive terms
(:func:`distinctive`). The layout gives each cluster a region of its own
(:func:`kg.viz.clusterlayout.cluster_layout`), and the page can draw the
density view over it. :func:`term_map` is all of it before drawing.

Examples
--------
>>> threshold([9, 5, 5, 3, 1, 1], target=3)
4
>>> round(association_strength(2, 4, 4, 16), 2)
2.0
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import networkx as nx

from kg.models import Build
from kg.viz.assemble import assemble
from kg.viz.clusterlayout import cluster_layout, leiden_layout
from kg.viz.lookup import BuildIndex
from kg.viz.network import ViewNetwork
from kg.viz.style import (
    COMMUNITY_COLOURS,
    KIND_GROUPS,
    OTHER_COLOUR,
    Group,
    count_noun,
    short_label,
)

__all__ = ["Term", "TermMap", "term_map", "distinctive", "terms_of", "threshold", "association_strength", "concept_map", "overview_map",
           "OVERVIEW_TERMS",
           "TARGET_TERMS", "MAX_TERMS", "LINKS_PER_TERM"]

#: The threshold is chosen so the map starts with at most this many terms.
TARGET_TERMS = 300
#: The page's control can lower the threshold until this many terms show.
MAX_TERMS = 600
#: The overview (``kg.html``) starts with at most this many terms.
OVERVIEW_TERMS = 150
#: Each track links to this many of its most strongly associated terms.
TERMS_PER_TRACK = 6
#: Each term keeps this many of its strongest links.
LINKS_PER_TERM = 8
CONCEPT_PREFIX = "concept:"


@dataclass(frozen=True)
class Term:
    """A concept or entity of the map: its key, name, type, layer and papers."""

    key: str
    name: str
    type: str
    layer: str
    papers: tuple[str, ...]


def terms_of(build: Build, ix: BuildIndex | None = None) -> dict[str, Term]:
    """Every concept and entity of ``build`` with the papers mentioning it.

    Concept keys are prefixed ``concept:`` so a concept never merges with an
    entity of the same key. Order: most papers first, then name.
    """
    names: dict[str, tuple[str, str, str]] = {}
    papers: dict[str, list[str]] = {}
    for p in build.corpus.papers:
        ex = build.extractions.get(p.id)
        if ex is None:
            continue
        seen: set[str] = set()
        for m in ex.mentions:
            key = (CONCEPT_PREFIX if m.layer == "concept" else "") + m.identity_key
            names.setdefault(key, (m.canonical, m.type, m.layer))
            if key not in seen:
                seen.add(key)
                papers.setdefault(key, []).append(p.id)
    order = sorted(papers, key=lambda k: (-len(papers[k]), names[k][0], k))
    return {k: Term(k, *names[k], tuple(papers[k])) for k in order}


def threshold(counts: Sequence[int], target: int = TARGET_TERMS) -> int:
    """The smallest ``N >= 1`` such that at most ``target`` counts are ``>= N``.

    >>> threshold([1, 1, 1], target=5), threshold([4, 3, 2, 2, 2], target=2)
    (1, 3)
    """
    ranked = sorted(counts, reverse=True)
    if len(ranked) <= target:
        return 1
    return ranked[target] + 1


def association_strength(both: int, n_i: int, n_j: int, total: int) -> float:
    """Co-occurrences over those expected by chance: ``both · total / (n_i · n_j)``."""
    return both * total / (n_i * n_j)


def _links(terms: list[Term], total: int, min_both: int) -> dict[tuple[str, str], tuple[int, float]]:
    """The strongest links of every term: ``(a, b) -> (papers in common, strength)``."""
    index = {t.key: i for i, t in enumerate(terms)}
    by_paper: dict[str, list[int]] = {}
    for i, t in enumerate(terms):
        for pid in t.papers:
            by_paper.setdefault(pid, []).append(i)
    both: Counter[tuple[int, int]] = Counter()
    for members in by_paper.values():
        for x, i in enumerate(members):
            for j in members[x + 1:]:
                both[(i, j)] += 1
    best: dict[int, list[tuple[bool, float, int, int]]] = {}
    for (i, j), c in both.items():
        if c < min_both:
            continue
        s = association_strength(c, len(terms[i].papers), len(terms[j].papers), total)
        # a pair seen in one paper only is chance as often as not: repeated pairs first
        best.setdefault(i, []).append((c < 2, -s, j, c))
        best.setdefault(j, []).append((c < 2, -s, i, c))
    out: dict[tuple[str, str], tuple[int, float]] = {}
    for i, cands in best.items():
        for _, neg, j, c in sorted(cands)[:LINKS_PER_TERM]:
            a, b = sorted((terms[i].key, terms[j].key), key=index.__getitem__)
            out[(a, b)] = (c, -neg)
    return dict(sorted(out.items(), key=lambda kv: (index[kv[0][0]], index[kv[0][1]])))


@dataclass(frozen=True)
class TermMap:
    """The terms of a map, their links and clusters (before any drawing).

    ``terms``: those with at least ``floor`` papers, most papers first;
    ``n_min``: the threshold the page starts with; ``in_all``: terms of the
    build, ``concepts_in_all`` of them concepts; ``links``: ``(a, b) -> (papers in common, association strength)``;
    ``graph``: the terms linked with ``weight`` = strength; ``membership``:
    each term's Leiden cluster (0 = largest); ``modularity``: of that
    partition (``None`` without links); ``groups``: the legend, each cluster
    named by its most distinctive terms (:func:`distinctive`).
    """

    terms: tuple[Term, ...]
    n_min: int
    floor: int
    in_all: int
    concepts_in_all: int
    links: dict[tuple[str, str], tuple[int, float]]
    graph: nx.Graph
    membership: dict[str, int]
    modularity: float | None
    groups: tuple[Group, ...]


def term_map(build: Build, ix: BuildIndex | None = None, *, target: int = TARGET_TERMS,
             max_terms: int = MAX_TERMS, seed: int = 0) -> TermMap:
    """The terms, links and clusters :func:`concept_map` draws."""
    from kg.analysis.communities import leiden  # (igraph: imported on first use)

    ix = BuildIndex(build) if ix is None else ix
    all_terms = list(terms_of(build, ix).values())
    counts = [len(t.papers) for t in all_terms]
    n_min = threshold(counts, target)
    floor = min(threshold(counts, max_terms), n_min)
    terms = [t for t in all_terms if len(t.papers) >= floor]
    links = _links(terms, len(build.corpus.papers) or 1, 1)
    T = nx.Graph()
    T.add_nodes_from(t.key for t in terms)
    T.add_edges_from((a, b, {"weight": s}) for (a, b), (_, s) in links.items())
    if T.number_of_edges():
        part = leiden(T, seed=seed, n_iterations=-1)
        membership, modularity = dict(part.membership), part.modularity
    else:
        membership, modularity = {t.key: i for i, t in enumerate(terms)}, None
    tops = distinctive(T, terms, membership)
    groups = [Group(f"k{c}", f"{c + 1}: " + ", ".join(short_label(n, 18) for n in tops.get(c, [])[:3]),
                    colour) for c, colour in enumerate(COMMUNITY_COLOURS) if c in tops]
    if any(c >= len(COMMUNITY_COLOURS) for c in tops):
        groups.append(Group("k-rest", "smaller clusters", OTHER_COLOUR))
    concepts = sum(1 for t in all_terms if t.layer == "concept")
    return TermMap(tuple(terms), n_min, floor, len(all_terms), concepts, links, T, membership,
                   modularity, tuple(groups))


def distinctive(G: nx.Graph, terms: Sequence[Term], membership: dict[str, int]
                ) -> dict[int, list[str]]:
    """Each cluster's term names, most distinctive first.

    A term is distinctive of its cluster when it is frequent and its links
    stay inside the cluster: the score is its papers times the square of the
    share of its link strength within the cluster (a term linked only
    inside scores its papers; a generic term such as *deep learning*, linked
    all over the map, little). Ties: most papers, then the terms' order.

    >>> G = nx.Graph([("a", "b", {"weight": 1.0}), ("a", "c", {"weight": 3.0})])
    >>> ts = [Term("a", "A", "concept", "concept", ("p",) * 9), Term("b", "B", "x", "concept", ("p",))]
    >>> distinctive(G, ts + [Term("c", "C", "x", "concept", ("p",))], {"a": 0, "b": 0, "c": 1})
    {0: ['B', 'A'], 1: ['C']}
    """
    scored: dict[int, list[tuple[float, int, str]]] = {}
    for i, t in enumerate(terms):
        c = membership[t.key]
        total = inside = 0.0
        for u, d in G[t.key].items() if t.key in G else ():
            w = float(d.get("weight", 1.0))
            total += w
            inside += w if membership.get(u) == c else 0.0
        share = inside / total if total else 1.0
        scored.setdefault(c, []).append((-len(t.papers) * share * share, i, t.name))
    return {c: [name for *_, name in sorted(v)] for c, v in sorted(scored.items())}


def _group(c: int) -> str:
    return f"k{c}" if c < len(COMMUNITY_COLOURS) else "k-rest"


def concept_map(build: Build, *, title: str = "Concept map", target: int = TARGET_TERMS,
                max_terms: int = MAX_TERMS, people: bool = False, seed: int = 0,
                note: str = "", index: BuildIndex | None = None) -> ViewNetwork:
    """The term map of ``build``'s papers (see the module's description).

    ``people=True`` adds the papers' authors, each linked to the three most
    frequent terms of their papers and placed among them; their legend box
    starts unticked. ``index`` may pass the build's :class:`BuildIndex` when
    another view made it already. The view's ``clusters`` holds each term's
    Leiden cluster (what :func:`kg.report.exports.term_map_files` writes for
    VOSviewer, with the positions drawn here).

    Examples
    --------
    >>> from kg.models import Corpus, Extraction, Mention, Paper
    >>> ps = tuple(Paper(f"p{i}", ("Ann Lee",), "BERT and GPT.") for i in range(3))
    >>> ms = (Mention("BERT", "BERT", "model", 0, 4, key="bert"),
    ...       Mention("GPT", "GPT", "model", 9, 12, key="gpt"))
    >>> net = concept_map(Build(Corpus(ps), {p.id: Extraction(p.id, p.abstract, ms) for p in ps}))
    >>> sorted(n["name"] for n in net.nodes), net.edges[0]["n"], net.controls["min"]["value"]
    (['BERT', 'GPT'], 3, 1)
    """
    ix = BuildIndex(build) if index is None else index
    tm = term_map(build, ix, target=target, max_terms=max_terms, seed=seed)
    terms, links, membership, n_min, floor = (list(tm.terms), tm.links, tm.membership, tm.n_min,
                                              tm.floor)
    counts = [len(t.papers) for t in terms]
    groups = list(tm.groups)
    pids = ix.in_corpus_order({pid for t in terms for pid in t.papers})
    paper_no = {pid: i for i, pid in enumerate(pids)}
    G = nx.Graph()
    for t in terms:
        kind = "concept" if t.layer == "concept" else t.type
        G.add_node(t.key, label=short_label(t.name), name=t.name, group=_group(membership[t.key]),
                   title=_term_tooltip(t, kind, ix, membership[t.key]), value=len(t.papers),
                   o=len(t.papers), tracks=ix.tracks_of(t.papers), q=kind,
                   p=[paper_no[pid] for pid in t.papers])
    for (a, b), (c, s) in links.items():
        G.add_edge(a, b, relation="association", n=c, s=round(s, 2), weight=s,
                   width=round(min(1 + math.log2(max(s, 1.0)) / 2, 4), 2))
    positions = cluster_layout(tm.graph, membership, seed=seed, weight="weight")
    if people:
        _add_people(G, build, ix, terms, paper_no)
        groups.append(Group("person", "people (authors)", KIND_GROUPS["person"].colour, "dot",
                            shown=False))
        _place_people(G, positions)
    net = ViewNetwork("concepts", title)
    shown = sum(1 for t in terms if len(t.papers) >= n_min)
    kinds = "concepts and entities" if any(t.layer == "concept" for t in terms) else "entities"
    concepts = tm.concepts_in_all
    in_all = f"{tm.in_all - concepts:,} entities mentioned" + (
        f" and {concepts:,} concepts mentioned" if concepts else "")
    net.notes.append(
        (note + " " if note else "")
        + f"{shown:,} {kinds} mentioned in at least {count_noun(n_min, 'paper')} (change it below; "
        f"of the {in_all}). Links: association strength (papers mentioning both over "
        "those expected by chance), each term's strongest; colours: Leiden clusters, each in a "
        "region, named by their most distinctive terms. Size: papers (Density: where they "
        "concentrate).")
    net.papers = [ix.paper_row(pid) for pid in pids]
    net.controls = {"min": {"value": n_min, "floor": floor,
                            "max": max(counts, default=1), "label": "in at least N papers"},
                    "regions": True, "density": True}
    net.clusters = {k: c for k, c in membership.items()}
    return _big_nodes(assemble(
        net, G, groups, max_nodes=max(len(G), 1), max_edges=max(G.number_of_edges(), 1),
        seed=seed, weight="weight", positions=positions,
        node_score=lambda k: (0,), node_measure="", edge_score=lambda u, v, d: (0,)))


def _big_nodes(net: ViewNetwork) -> ViewNetwork:
    """Terms drawn larger than people are (sizes span 6 to 40 instead of 24)."""
    net.options["nodes"]["scaling"].update(min=6, max=40)
    return net


def _term_tooltip(t: Term, kind: str, ix: BuildIndex, cluster: int | None) -> str:
    lines = [t.name, f"{kind}: mentioned in {len(t.papers):,} paper{'s' * (len(t.papers) != 1)}",
             *([f"cluster {cluster + 1}"] if cluster is not None else []),
             ix.track_summary(ix.tracks_of(t.papers))]
    return "\n".join(lines)


def _add_people(G: nx.Graph, build: Build, ix: BuildIndex, terms: list[Term],
                paper_no: dict[str, int]) -> None:
    """Each author, linked to the three most frequent terms of their papers."""
    rank = {t.key: i for i, t in enumerate(terms)}
    of_paper: dict[str, list[str]] = {}
    for t in terms:
        for pid in t.papers:
            of_paper.setdefault(pid, []).append(t.key)
    for key, pids in ix.person_papers.items():
        name = ix.person_names.get(key, key)
        G.add_node(f"person:{key}", label=short_label(name), name=name, group="person",
                   title=ix.person_tooltip(key, name), value=len(pids), tracks=ix.person_tracks(key),
                   p=[paper_no[pid] for pid in pids if pid in paper_no])
        mine = sorted({k for pid in pids for k in of_paper.get(pid, ())}, key=rank.__getitem__)[:3]
        for k in mine:
            G.add_edge(f"person:{key}", k, relation="mentions")


def _place_people(G: nx.Graph, pos: dict[Hashable, tuple[int, int]]) -> None:
    """People at the centre of their terms, on a small spiral so they do not stack."""
    placed = 0
    for v in list(G):
        if not str(v).startswith("person:"):
            continue
        nbrs = [pos[u] for u in G[v] if u in pos]
        if nbrs:
            cx = sum(x for x, _ in nbrs) / len(nbrs)
            cy = sum(y for _, y in nbrs) / len(nbrs)
        else:
            cx = cy = 0.0
        a = placed * 2.39996  # golden angle
        r = 12 + 3 * math.sqrt(placed % 400)
        pos[v] = (int(round(cx + r * math.cos(a))), int(round(cy + r * math.sin(a))))
        placed += 1


def overview_map(build: Build, *, target: int = OVERVIEW_TERMS, seed: int = 0,
                 index: BuildIndex | None = None) -> ViewNetwork:
    """The overview of a build: its tracks and its most mentioned concepts and
    entities (no people, no papers), coloured by kind.

    A track links to the :data:`TERMS_PER_TRACK` terms most strongly
    associated with it (association strength of "in the track" and "mentions
    the term"); terms link as in :func:`concept_map`. ``index`` as there.

    Examples
    --------
    >>> from kg.models import Corpus, Extraction, Mention, Paper, Track
    >>> t = Track("ML", None, "ML")
    >>> ps = tuple(Paper(f"p{i}", ("A B",), "BERT.", track=t) for i in range(2))
    >>> m = (Mention("BERT", "BERT", "model", 0, 4, key="bert"),)
    >>> net = overview_map(Build(Corpus(ps), {p.id: Extraction(p.id, p.abstract, m) for p in ps}))
    >>> sorted((n["group"], n["name"]) for n in net.nodes), len(net.edges)
    ([('model', 'BERT'), ('track', 'ML')], 1)
    """
    ix = BuildIndex(build) if index is None else index
    all_terms = list(terms_of(build, ix).values())
    counts = [len(t.papers) for t in all_terms]
    n_min = threshold(counts, target)
    floor = min(threshold(counts, 2 * target), n_min)
    terms = [t for t in all_terms if len(t.papers) >= floor]
    total = len(build.corpus.papers) or 1
    min_both = 2 if n_min >= 2 else 1
    links = _links(terms, total, min_both)
    by_track: dict[str, list[str]] = {}
    for p in build.corpus.papers:
        if p.track is not None:
            by_track.setdefault(p.track.label, []).append(p.id)
    pids = ix.in_corpus_order({pid for t in terms for pid in t.papers})
    paper_no = {pid: i for i, pid in enumerate(pids)}
    G = nx.Graph()
    for label, tp in sorted(by_track.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        G.add_node(f"track:{label}", label=ix.track_names[label], name=label,
                   group="track", value=len(tp), tracks=ix.paper_tracks(tp[0]),
                   title=f"{label}\ntrack: {len(tp):,} paper{'s' * (len(tp) != 1)}")
    for t in terms:
        kind = "concept" if t.layer == "concept" else (t.type if t.type in KIND_GROUPS else "other")
        G.add_node(t.key, label=short_label(t.name), name=t.name, group=kind, value=len(t.papers),
                   o=len(t.papers), tracks=ix.tracks_of(t.papers), q=kind,
                   title=_term_tooltip(t, kind, ix, None), p=[paper_no[pid] for pid in t.papers])
    for (a, b), (c, s) in links.items():
        G.add_edge(a, b, relation="association", n=c, weight=s)
    # each term's papers per track label, counted once
    track_of = {p.id: p.track.label for p in build.corpus.papers if p.track is not None}
    in_track = [Counter(track_of[pid] for pid in t.papers if pid in track_of) for t in terms]
    for label, tp in by_track.items():
        cands = []
        for t, per_track in zip(terms, in_track, strict=True):
            c = per_track[label]
            if c >= min_both:
                cands.append((-association_strength(c, len(tp), len(t.papers), total), t.key, c))
        for neg, key, c in sorted(cands)[:TERMS_PER_TRACK]:
            G.add_edge(f"track:{label}", key, relation="subject", n=c, weight=-neg, width=2)
    net = ViewNetwork("kg", "Overview: tracks, concepts and entities")
    shown = sum(1 for t in terms if len(t.papers) >= n_min)
    tracks = (f"{len(by_track):,} track{'s' * (len(by_track) != 1)} and the" if by_track
              else "This build has no tracks. The")
    net.notes.append(
        f"{tracks} {shown:,} concepts and entities mentioned in at least "
        f"{count_noun(n_min, 'paper')} (change it below), placed by Leiden cluster. People and papers "
        "are in coauthors.html and in the panels; concepts.html colours the clusters. Size: papers.")
    net.papers = [ix.paper_row(pid) for pid in pids]
    net.controls = {"min": {"value": n_min, "floor": floor, "max": max(counts, default=1),
                            "label": "in at least N papers"}, "regions": True}
    groups = [KIND_GROUPS[g] for g in ("track", "concept", "model", "method", "dataset", "task",
                                       "metric", "other")]
    return _big_nodes(assemble(
        net, G, groups, max_nodes=max(len(G), 1), max_edges=max(G.number_of_edges(), 1),
        seed=seed, weight="weight", positions=leiden_layout(G, seed=seed, weight="weight"),
        node_score=lambda k: (0,), node_measure="",
        edge_score=lambda u, v, d: (0,)))
