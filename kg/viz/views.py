"""The seven views of a build, each a :class:`~kg.viz.network.ViewNetwork`.

- :func:`kg_view`: papers, people, tracks and entities (the knowledge graph),
  or the overview of tracks, top concepts and entities;
- :func:`coauthors_view`, :func:`ego_view`: people (:mod:`kg.viz.peopleviews`);
- :func:`track_view`: the concept map of a track's papers, its people hidden;
- :func:`entity_view`: the papers mentioning an entity and the entities
  mentioned with it;
- :func:`entities_view`: the co-mention network of models, methods and
  datasets (linked when one paper mentions both);
- ``concepts``: the concept map (:mod:`kg.viz.conceptmap`).

Big graphs: above ``max_nodes`` a view keeps the nodes ranked highest by a
measure it states (most links, most papers) and above ``max_edges`` the
strongest edges; the page says what was left out. Positions come from
:func:`kg.viz.layout.layout`; the page runs no physics.
"""
from __future__ import annotations

from collections import Counter
from heapq import nsmallest
from itertools import combinations
from typing import Any

import networkx as nx

from kg.analysis.graphs import knowledge_graph
from kg.errors import KgError
from kg.models import Build, Corpus, JsonObject
from kg.viz.assemble import MAX_EDGES, MAX_NODES, assemble
from kg.viz.clusterlayout import leiden_layout
from kg.viz.lookup import BuildIndex, paper_nos
from kg.viz.network import ViewNetwork
from kg.viz.peopleviews import coauthors_view, ego_view
from kg.viz.style import (
    KIND_GROUPS,
    count_noun,
    join_limited,
    short_label,
)

__all__ = ["VIEWS", "MAX_NODES", "MAX_EDGES", "view", "kg_view", "coauthors_view", "ego_view",
           "track_view", "entity_view", "entities_view"]

#: Entity types of the co-mention view.
ENTITY_VIEW_TYPES = ("model", "method", "dataset")
#: The co-mention view hides one-paper entities at the start when this many are left.
MIN_SHOWN = 30

_KIND_ORDER = tuple(KIND_GROUPS)


def _as_build(build: Build | Corpus) -> Build:
    return Build(corpus=build) if isinstance(build, Corpus) else build


_n = count_noun


# ------------------------------------------------------- knowledge-graph views


def _kind_group(kind: str, typ: str | None) -> str:
    if kind == "entity":
        return typ if typ in KIND_GROUPS and typ not in ("paper", "person", "track") else "other"
    return kind


def _from_kg(net: ViewNetwork, K: nx.MultiDiGraph, ix: BuildIndex, *, max_nodes: int,
             max_edges: int, seed: int, focus: str | None = None) -> ViewNetwork:
    """A view of (part of) the knowledge graph: one node per KG node, parallel edges merged."""
    G = nx.Graph()
    pids = [nid.split(":", 1)[1] for nid in K if nid.startswith("paper:")]
    paper_no = {pid: i for i, pid in enumerate(pids)}
    net.papers = [ix.paper_row(pid) for pid in pids]
    for nid, d in K.nodes(data=True):
        kind, key = nid.split(":", 1)
        label = d.get("label", key)
        attrs: dict[str, object]
        if kind == "paper":
            attrs = dict(label=short_label(ix.paper_label(key), 40), name=ix.paper_label(key),
                         title=ix.paper_tooltip(key), tracks=ix.paper_tracks(key), pid=key,
                         q=ix.paper_search(key))
        elif kind == "person":
            attrs = dict(label=short_label(label), name=label, title=ix.person_tooltip(key, label),
                         tracks=ix.person_tracks(key), p=paper_nos(ix.person_papers, key, paper_no))
        elif kind == "track":
            area, _, sub = key.partition(" · ")
            n = ix.track_counts.get(key, 0)
            title = "\n".join([key, f"subarea of {area}" if sub else "area",
                               _n(n, "paper") + " in this build"])
            attrs = dict(label=ix.track_names.get(key) or short_label(sub or area), name=key,
                         title=title, tracks=(key, area) if sub else (area,))
        elif kind == "concept":
            n = sum(1 for _ in K.predecessors(nid))
            attrs = dict(label=short_label(label), name=label,
                         title=f"{label}\nconcept ({d.get('type')}): mentioned in "
                               + _n(n, "paper") + " here", tracks=())
        else:
            attrs = dict(label=short_label(label), name=label, title=ix.entity_tooltip(key),
                         tracks=ix.entity_tracks(key), p=paper_nos(ix.entity_papers, key, paper_no))
        attrs["group"] = _kind_group(kind, d.get("type"))
        if nid == focus:
            attrs["extra"] = {"borderWidth": 4, "focus": True}
        G.add_node(nid, **attrs)
    rels: dict[tuple[str, str], JsonObject] = {}
    for u, v, d in K.edges(data=True):
        pair = (u, v)
        r = rels.setdefault(pair, {"relation": d["relation"]})
        if d["relation"] == "proposes":
            r["relation"] = "proposes"
            r["width"] = 2
        if d["relation"] == "mentions" and d.get("count", 1) > 1:
            r["n"] = d["count"]
    for (u, v), d in rels.items():
        if G.has_edge(u, v):  # both directions: keep the stronger relation
            if d["relation"] == "proposes":
                G.edges[u, v].update(d)
            continue
        G.add_edge(u, v, **d)
    deg = dict(G.degree())
    for v in G:
        G.nodes[v]["value"] = deg[v] + (4 if v == focus else 0)
    kind_rank = {k: i for i, k in enumerate(_KIND_ORDER)}
    return assemble(
        net, G, KIND_GROUPS.values(), max_nodes=max_nodes, max_edges=max_edges, seed=seed,
        node_score=lambda v: (v != focus, -deg[v], kind_rank.get(G.nodes[v]["group"], 99)),
        node_measure="most links (ties: papers, people, tracks, entities, then first listed)",
        edge_score=lambda u, v, d: (d["relation"] not in ("proposes", "subject", "broader"),
                                    -(deg[u] + deg[v])),
        edge_measure="proposals and track links first, then links between the best-linked nodes",
    )


def kg_view(build: Build | Corpus, *, max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES,
            seed: int = 0, graph: nx.MultiDiGraph | None = None,
            full: bool = True, index: BuildIndex | None = None) -> ViewNetwork:
    """The whole knowledge graph: papers, people, tracks and entities.

    Node size is the number of links; colour and shape the kind (entities by
    type). Above ``max_nodes`` the best-linked nodes are kept. ``graph`` may
    pass the knowledge graph when already built. ``full=False`` gives the
    overview instead (:func:`kg.viz.conceptmap.overview_map`: tracks, top
    concepts and entities, no people), the page a build writes. ``index`` may
    pass the build's :class:`~kg.viz.lookup.BuildIndex` when already made.

    Examples
    --------
    >>> from kg.models import Paper, Track
    >>> c = Corpus((Paper("p1", ("Ann Lee", "Bob Xu"), "We study X.", track=Track("ML", "NLP")),))
    >>> net = kg_view(c)
    >>> sorted(n["group"] for n in net.nodes)
    ['paper', 'person', 'person', 'track', 'track']
    >>> len(net.edges), net.tracks
    (4, ['ML', 'ML · NLP'])
    """
    build = _as_build(build)
    if not full:
        from kg.viz.conceptmap import overview_map

        return overview_map(build, seed=seed, index=index)
    net = ViewNetwork("kg", "Knowledge graph")
    net.notes.append("Node size: number of links. Papers are labelled by their title, else by "
                     "the name they propose (where the extractor is sure of it), else by their "
                     "authors and the first content words of the abstract.")
    K = knowledge_graph(build) if graph is None else graph
    ix = BuildIndex(build) if index is None else index
    return _from_kg(net, K, ix, max_nodes=max_nodes, max_edges=max_edges, seed=seed)


def _norm(text: str) -> str:
    return " ".join(text.replace("·", " · ").split()).casefold()


def find_track(build: Build | Corpus, name: str) -> tuple[str, list[str]]:
    """The track called ``name`` and the ids of its papers.

    ``name`` may be a label as listed (``Area · Subarea``), a subarea alone
    or an area alone (all its subareas), in any case.

    Raises
    ------
    KgError
        When no track has that name.

    Examples
    --------
    >>> from kg.models import Paper, Track
    >>> c = Corpus((Paper("p1", ("A",), "x", track=Track("ML", "NLP")),
    ...             Paper("p2", ("B",), "y", track=Track("ML", "Vision"))))
    >>> find_track(c, "nlp"), find_track(c, "ML")
    (('ML · NLP', ['p1']), ('ML', ['p1', 'p2']))
    """
    corpus = _as_build(build).corpus
    want = _norm(name)
    with_track = [(p.id, p.track) for p in corpus.papers if p.track is not None]
    hits = [(pid, t) for pid, t in with_track if t.subarea and _norm(t.label) == want]
    if hits:
        return hits[0][1].label, [pid for pid, _ in hits]
    hits = [(pid, t) for pid, t in with_track if _norm(t.area) == want]
    if hits:
        return hits[0][1].area, [pid for pid, _ in hits]
    hits = [(pid, t) for pid, t in with_track if t.subarea and _norm(t.subarea) == want]
    if hits:
        labels = sorted({t.label for _, t in hits})
        return (labels[0] if len(labels) == 1 else " / ".join(labels)), [pid for pid, _ in hits]
    known = sorted({t.label for t in corpus.tracks})
    hint = f"; tracks include {join_limited(known, 5, '; ')}" if known else "; this build has no tracks"
    raise KgError(f"no track named {name!r}{hint}")


def track_view(build: Build | Corpus, track: str, *, seed: int = 0) -> ViewNetwork:
    """The concept map of a track's papers (see :func:`find_track`), with the
    track's people as a group whose legend box starts unticked."""
    from kg.viz.conceptmap import concept_map

    build = _as_build(build)
    label, pids = find_track(build, track)
    keep = set(pids)
    sub = Build(Corpus(tuple(p for p in build.corpus.papers if p.id in keep)),
                {k: v for k, v in build.extractions.items() if k in keep})
    net = concept_map(sub, title=f"Track: {label}", people=True, seed=seed,
                      note=f"{_n(len(pids), 'paper')} in this track; its people are hidden "
                      "until you tick them in the legend.")
    net.view = "track"
    return net


def find_entity(build: Build, name: str) -> str:
    """The key of the entity called ``name`` (canonical name, spelling or key).

    Raises
    ------
    KgError
        When no paper mentions an entity of that name.
    """
    from kg.identity import entity_key

    ix = BuildIndex(build)
    info = ix.entity_info
    if not info:
        raise KgError(f"no entity named {name!r}: this build has no extracted entities")
    key = entity_key(name)
    if key in info:
        return key
    want = _norm(name)
    for k, (canonical, _, spellings, _) in info.items():
        if _norm(canonical) == want or any(_norm(s) == want for s in spellings):
            return k
    top = sorted(info, key=lambda k: (-len(ix.entity_papers.get(k, ())), k))[:5]
    raise KgError(f"no entity named {name!r}; entities include "
                  + ", ".join(info[k][0] for k in top))


def entity_view(build: Build, name: str, *, max_nodes: int = MAX_NODES,
                max_edges: int = MAX_EDGES, seed: int = 0) -> ViewNetwork:
    """The papers mentioning an entity and the entities mentioned with it."""
    key = find_entity(build, name)
    ix = BuildIndex(build)
    pids = set(ix.entity_papers.get(key, ()))
    sub = Build(Corpus(tuple(p for p in build.corpus.papers if p.id in pids)),
                {k: v for k, v in build.extractions.items() if k in pids})
    K = knowledge_graph(sub)
    K.remove_nodes_from([v for v, d in K.nodes(data=True) if d["kind"] not in ("paper", "entity")])
    canonical = ix.entity_info[key][0]
    net = ViewNetwork("entity", f"Entity: {canonical}")
    net.notes.append(f"{_n(len(pids), 'paper')} mentioning {canonical}, and the other entities "
                     "they mention. Node size: number of links here.")
    return _from_kg(net, K, ix, max_nodes=max_nodes, max_edges=max_edges, seed=seed,
                    focus=f"entity:{key}")


# ------------------------------------------------------------ entities view


def entities_view(build: Build, *, types: tuple[str, ...] = ENTITY_VIEW_TYPES,
                  max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES,
                  seed: int = 0, index: BuildIndex | None = None) -> ViewNetwork:
    """Models, methods and datasets, linked when a paper mentions both.

    Node size: papers mentioning the entity; edge width: papers mentioning
    both. The page's *Min. papers* starts at 2 when at least
    :data:`MIN_SHOWN` entities have two papers (else 1); nodes are placed by
    Leiden cluster of the co-mentions (:func:`kg.viz.clusterlayout.leiden_layout`).
    Above the caps, the most-mentioned entities and the most frequent
    pairs are kept. ``index`` may pass the build's
    :class:`~kg.viz.lookup.BuildIndex` when already made.
    """
    ix = BuildIndex(build) if index is None else index
    info = ix.entity_info
    keys = [k for k in sorted(info, key=lambda k: (-len(ix.entity_papers.get(k, ())), info[k][0], k))
            if info[k][1] in types and ix.entity_papers.get(k)]
    wanted = set(keys)
    pairs: Counter[tuple[str, str]] = Counter()
    for p in build.corpus.papers:
        ents = sorted({e[0] for e in ix.paper_entities.get(p.id, ()) if e[0] in wanted})
        pairs.update(combinations(ents, 2))
    partners: dict[str, Counter[str]] = {k: Counter() for k in keys}
    for (a, b), n in pairs.items():
        partners[a][info[b][0]] = n
        partners[b][info[a][0]] = n
    pids = [p.id for p in build.corpus.papers if p.id in ix.paper_entities]
    paper_no = {pid: i for i, pid in enumerate(pids)}
    G = nx.Graph()
    for k in keys:
        top = nsmallest(4, partners[k].items(), key=lambda kv: (-kv[1], kv[0]))
        extra = (f"Often with: {', '.join(f'{n} ({c})' for n, c in top)}",) if top else ()
        canonical, typ = info[k][0], info[k][1]
        G.add_node(k, label=short_label(canonical), name=canonical, group=typ,
                   title=ix.entity_tooltip(k, extra), value=len(ix.entity_papers[k]),
                   o=len(ix.entity_papers[k]),
                   tracks=ix.entity_tracks(k), p=paper_nos(ix.entity_papers, k, paper_no))
    for (a, b), n in sorted(pairs.items()):
        G.add_edge(a, b, relation="comention", n=n, width=min(1 + (n - 1), 8))
    counts = [len(ix.entity_papers[k]) for k in keys]
    # one-paper entities start hidden, unless that leaves next to nothing (a small listing)
    least = 2 if sum(c >= 2 for c in counts) >= MIN_SHOWN else 1
    net = ViewNetwork("entities", "Co-mentioned " + ", ".join(f"{t}s" for t in types))
    net.papers = [ix.paper_row(pid) for pid in pids]
    mentioned = sum(1 for k in info if ix.entity_papers.get(k))
    shown = sum(1 for c in counts if c >= least)
    net.notes.append(f"{_n(shown, 'entity')} mentioned in at least {_n(least, 'paper')} "
                     f"(change it below; {len(keys):,} of the {mentioned:,} entities mentioned: "
                     f"{', '.join(f'{t}s' for t in types)}); two are linked when a paper "
                     "mentions both. Placed by Leiden cluster of the co-mentions. Node size: "
                     "papers mentioning it; edge width: papers mentioning both.")
    net.controls = {"min": {"value": least, "floor": 1, "max": max(counts, default=1),
                            "label": "in at least N papers"}, "regions": True}
    papers: dict[object, int] = {k: len(ix.entity_papers[k]) for k in keys}  # keyed like G's nodes
    return assemble(
        net, G, [KIND_GROUPS[t] for t in types if t in KIND_GROUPS],
        max_nodes=max_nodes, max_edges=max_edges, seed=seed,
        positions=leiden_layout(G, seed=seed, weight="n"),
        node_score=lambda k: (-papers[k],),
        node_measure="most papers mentioning them (ties: name)",
        edge_score=lambda u, v, d: (-d["n"], -(papers[u] + papers[v])),
        edge_measure="most papers in common first",
    )


# ---------------------------------------------------------------- dispatch

VIEWS = ("kg", "coauthors", "ego", "track", "entity", "entities", "concepts")


def view(build: Build, name: str, arg: str | None = None, **options: Any) -> ViewNetwork:
    """The view called ``name`` (one of :data:`VIEWS`); ``arg`` names its subject.

    ``kg`` is the overview (``full=True`` in ``options``: the whole graph).

    Raises
    ------
    KgError
        For an unknown view, a missing or unknown subject.
    """
    if name not in VIEWS:
        raise KgError(f"unknown view {name!r}; views: {', '.join(VIEWS)}")
    needs = {"ego": "an author", "track": "a track", "entity": "an entity"}
    if name in needs:
        if not arg:
            raise KgError(f"'{name}' needs {needs[name]}: kg viz {name} NAME")
        if name == "ego":
            return ego_view(build, arg, **options)
        if name == "track":
            return track_view(build, arg, **options)
        return entity_view(build, arg, **options)
    if arg:
        raise KgError(f"'{name}' takes no subject (got {arg!r}); "
                      "ego, track and entity take one")
    if name == "kg":
        return kg_view(build, **{"full": False, **options})
    if name == "concepts":
        from kg.viz.conceptmap import concept_map

        return concept_map(build, **options)
    if name == "coauthors":
        return coauthors_view(build, **options)
    return entities_view(build, **options)
