"""NetworkX views of a build: the whole knowledge graph and the co-author graph.

Both are built from the typed values directly (one pass over the papers), not
by walking RDF triples.

- :func:`knowledge_graph`: a :class:`networkx.MultiDiGraph` with nodes of
  ``kind`` ``paper``, ``person``, ``track``, ``entity`` and ``concept`` (each
  with a ``label``; entities and concepts with a ``type``) and edges with a
  ``relation``: ``author`` (paper -> person, with ``position``), ``subject``
  (paper -> track), ``broader`` (subarea -> area), ``mentions`` (paper ->
  entity or concept, with a ``count``) and ``proposes`` (paper -> entity). A
  concept node (``concept:<id>``) is a concept mention's (``layer ==
  "concept"``); the hierarchy of concepts is the RDF graph's.
- :func:`coauthor_graph`: a :class:`networkx.Graph` with one node per person
  (keyed by :func:`kg.identity.person_key`: people are identified by name,
  homonyms merge) and one edge per pair who wrote together, with ``papers``
  (joint papers) and ``weight`` (Newman's collaboration strength: each joint
  paper with ``n`` authors adds ``1/(n-1)``). A paper with more than
  :data:`~kg.util.teams.MAX_LINKED_TEAM` authors adds its authors and their
  paper counts but no pairs (:mod:`kg.util.teams`), so one hyper-authored paper
  costs time and memory linear in its authors, not quadratic.

Only the authors a listing shows are known: a list cut by ``等`` contributes
its shown authors and ``n`` counts those, so its weights are upper bounds
and its hidden collaborations are missing.

Examples
--------
>>> from kg.models import Corpus, Paper
>>> c = Corpus(papers=(Paper("p1", ("Ann", "Bob", "Cy"), "x"), Paper("p2", ("Ann", "Bob"), "y")))
>>> G = coauthor_graph(c)
>>> G.edges["ann", "bob"]
{'papers': 2, 'weight': 1.5}
>>> G.nodes["ann"]["name"], G.nodes["ann"]["papers"]
('Ann', 2)
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx
import numpy as np

from kg.extract.labels import paper_label
from kg.identity import person_key
from kg.models import Build, Corpus, Extraction, Paper, Track
from kg.util.teams import links_pairs

__all__ = [
    "paper_author_keys",
    "collaboration_weights",
    "CoauthorData",
    "coauthor_data",
    "coauthor_graph",
    "knowledge_graph",
    "node_id",
]


def paper_author_keys(paper: Paper) -> tuple[str, ...]:
    """The distinct person keys of a paper's shown authors, in listed order.

    Blank names are dropped; a name listed twice on one paper counts once.

    Examples
    --------
    >>> paper_author_keys(Paper("p", ("Ann  Lee", "ann lee", " ", "Bob"), "x"))
    ('ann lee', 'bob')
    """
    keys = dict.fromkeys(map(_cached_key, paper.authors))
    keys.pop("", None)
    return tuple(keys)


# Names repeat across papers (and analyses ask for each paper's keys several
# times): normalising each spelling once saves seconds on large corpora.
_cached_key = lru_cache(maxsize=1 << 20)(person_key)


def collaboration_weights(author_lists: Iterable[Iterable[str]]) -> dict[tuple[str, str], tuple[int, float]]:
    """Joint-paper counts and Newman collaboration strengths of every pair.

    Parameters
    ----------
    author_lists : iterable of iterables of str
        The (distinct) author keys of each paper.

    Returns
    -------
    dict
        ``(a, b) -> (papers, weight)`` with ``a < b``; a paper with ``n >= 2``
        authors adds 1 to ``papers`` and ``1/(n-1)`` to ``weight`` of each of
        its pairs, so an author's strengths sum to their number of papers with
        co-authors (Newman 2001, PNAS 98:404). A paper with more than
        :data:`~kg.util.teams.MAX_LINKED_TEAM` authors adds no pairs (see
        :mod:`kg.util.teams`).

    Examples
    --------
    >>> w = collaboration_weights([["a", "b"], ["a", "b", "c"], ["a"]])
    >>> w[("a", "b")], w[("a", "c")]
    ((2, 1.5), (1, 0.5))
    """
    papers: dict[tuple[str, str], int] = defaultdict(int)
    weight: dict[tuple[str, str], float] = defaultdict(float)
    for authors in author_lists:
        keys = sorted(set(authors))
        n = len(keys)
        if not links_pairs(n):
            continue
        w = 1.0 / (n - 1)
        for i in range(n - 1):
            a = keys[i]
            for b in keys[i + 1:]:
                papers[(a, b)] += 1
                weight[(a, b)] += w
    return {pair: (papers[pair], weight[pair]) for pair in papers}


@dataclass(frozen=True, eq=False)
class CoauthorData:
    """The co-authorship graph as arrays (what :func:`coauthor_graph` is built from).

    Node ``i`` is person key ``keys[i]`` (sorted) with ``names[i]``,
    ``papers[i]`` and ``tracks[i]``; edge ``e`` joins ``source[e] <
    target[e]`` with ``edge_papers[e]`` joint papers and collaboration
    strength ``edge_weight[e]``; edges are sorted. The analysis runs on
    these directly, without building the NetworkX graph.
    """

    keys: tuple[str, ...]
    names: tuple[str, ...]
    papers: tuple[int, ...]
    tracks: tuple[tuple[str, ...], ...]
    source: np.ndarray
    target: np.ndarray
    edge_papers: np.ndarray
    edge_weight: np.ndarray

    def to_networkx(self) -> nx.Graph:
        """The NetworkX graph (see :func:`coauthor_graph`)."""
        G = nx.Graph()
        keys = self.keys
        for i, k in enumerate(keys):
            G.add_node(k, name=self.names[i], papers=self.papers[i], tracks=self.tracks[i])
        # Edges go straight into the adjacency (what add_edges_from does, without
        # its per-edge checks: every node exists and every pair is new), which
        # is several times faster on a million edges.
        adj = G._adj
        for u, v, n, w in zip(self.source.tolist(), self.target.tolist(),
                              self.edge_papers.tolist(), self.edge_weight.tolist(), strict=True):
            d = {"papers": n, "weight": w}
            adj[keys[u]][keys[v]] = d
            adj[keys[v]][keys[u]] = d
        return G


def coauthor_data(corpus: Corpus | Build) -> CoauthorData:
    """Count the co-authorship graph of a corpus into :class:`CoauthorData`.

    Examples
    --------
    >>> d = coauthor_data(Corpus((Paper("1", ("B", "A", "C"), "x"),)))
    >>> d.keys, d.source.tolist(), d.target.tolist(), d.edge_weight.tolist()
    (('a', 'b', 'c'), [0, 0, 1], [1, 2, 2], [0.5, 0.5, 0.5])
    """
    if isinstance(corpus, Build):
        corpus = corpus.corpus
    spellings, lists = _author_keys(corpus)
    ordered_keys = sorted(spellings)
    n = len(ordered_keys)
    papers, tracks, pair_papers, pair_weight = _count_papers_and_pairs(ordered_keys, lists)
    names = []
    track_lists = []
    for i, k in enumerate(ordered_keys):
        sp = spellings[k]
        name = max(sp, key=sp.__getitem__) if len(sp) > 1 else next(iter(sp))
        names.append(" ".join(name.split()))
        tc = tracks.get(i)
        track_lists.append(
            tuple(t for t, _ in sorted(tc.items(), key=lambda kv: (-kv[1], kv[0]))) if tc else ())
    codes = sorted(pair_papers)
    code_arr = np.asarray(codes, dtype=np.int64)
    return CoauthorData(
        keys=tuple(ordered_keys), names=tuple(names), papers=tuple(papers),
        tracks=tuple(track_lists),
        source=code_arr // max(n, 1), target=code_arr % max(n, 1),
        edge_papers=np.asarray([pair_papers[c] for c in codes], dtype=np.int64),
        edge_weight=np.asarray([pair_weight[c] for c in codes], dtype=np.float64),
    )


def _author_keys(corpus: Corpus) -> tuple[dict[str, dict[str, int]],
                                          list[tuple[list[str], str | None]]]:
    """Every person key's spellings with their counts, and per paper its distinct
    author keys (in order) with its track label."""
    key_of: dict[str, str] = {}
    spellings: dict[str, dict[str, int]] = {}
    lists: list[tuple[list[str], str | None]] = []
    for paper in corpus.papers:
        keys: dict[str, None] = {}
        for name in paper.authors:
            k = key_of.get(name)
            if k is None:
                k = key_of[name] = person_key(name)
            if k:
                sp = spellings.get(k)
                if sp is None:
                    spellings[k] = {name: 1}
                else:
                    sp[name] = sp.get(name, 0) + 1
                keys[k] = None
        lists.append((list(keys), paper.track.label if paper.track is not None else None))
    return spellings, lists


def _count_papers_and_pairs(ordered_keys: list[str], lists: list[tuple[list[str], str | None]]
                            ) -> tuple[list[int], dict[int, dict[str, int]],
                                       dict[int, int], dict[int, float]]:
    """Per person (by rank in ``ordered_keys``) the papers and the papers per track
    label; per pair (coded ``i * n + j``, ``i < j``) the papers and the weight."""
    rank = {k: i for i, k in enumerate(ordered_keys)}
    n = len(ordered_keys)
    papers = [0] * n
    tracks: dict[int, dict[str, int]] = {}
    pair_papers: dict[int, int] = {}
    pair_weight: dict[int, float] = {}
    for paper_keys, label in lists:
        ids = sorted([rank[k] for k in paper_keys])
        for i in ids:
            papers[i] += 1
            if label is not None:
                tc = tracks.get(i)
                if tc is None:
                    tracks[i] = {label: 1}
                else:
                    tc[label] = tc.get(label, 0) + 1
        m = len(ids)
        if not links_pairs(m):
            continue
        w = 1.0 / (m - 1)
        for x in range(m - 1):
            base = ids[x] * n
            for j in ids[x + 1:]:
                code = base + j
                if code in pair_papers:
                    pair_papers[code] += 1
                    pair_weight[code] += w
                else:
                    pair_papers[code] = 1
                    pair_weight[code] = w
    return papers, tracks, pair_papers, pair_weight


def coauthor_graph(corpus: Corpus | Build) -> nx.Graph:
    """The co-authorship graph of a corpus.

    Parameters
    ----------
    corpus : Corpus or Build
        The papers (a :class:`Build` is read through its corpus).

    Returns
    -------
    networkx.Graph
        Nodes are person keys (sorted), with ``name`` (the spelling used
        most often, ties to the first met), ``papers`` (how many papers list
        them) and ``tracks`` (the labels of their papers' tracks, most
        frequent first). Edges (sorted) carry ``papers`` and ``weight`` as in
        :func:`collaboration_weights`. Authors of single-author papers are
        isolated nodes.

    Examples
    --------
    >>> from kg.models import Track
    >>> t = Track("Theory", "Game Theory", "Theory · Game Theory")
    >>> c = Corpus(papers=(Paper("p1", ("A", "B", "C"), "x", track=t),
    ...                    Paper("p2", ("D",), "y"), Paper("p3", ("a", "D"), "z")))
    >>> G = coauthor_graph(c)
    >>> sorted(G.nodes), G.number_of_edges()
    (['a', 'b', 'c', 'd'], 4)
    >>> G.nodes["a"]["tracks"], G.nodes["a"]["papers"], G.edges["a", "b"]["weight"]
    (('Theory · Game Theory',), 2, 0.5)
    """
    return coauthor_data(corpus).to_networkx()


def node_id(kind: str, key: str) -> str:
    """The node id of the knowledge graph for a ``kind`` and identity key.

    Examples
    --------
    >>> node_id("person", "ann lee")
    'person:ann lee'
    """
    return f"{kind}:{key}"


def _track_ids(track: Track) -> tuple[str, str | None]:
    area = node_id("track", track.area)
    sub = node_id("track", f"{track.area} · {track.subarea}") if track.subarea else None
    return area, sub


def knowledge_graph(build: Build | Corpus) -> nx.MultiDiGraph:
    """The whole knowledge graph as a NetworkX multigraph.

    Parameters
    ----------
    build : Build or Corpus
        Papers and (for a Build) their extractions.

    Returns
    -------
    networkx.MultiDiGraph
        Node ids are ``kind:key`` (:func:`node_id`); every node has ``kind``
        and ``label`` (a paper's is :func:`kg.extract.labels.paper_label`). Papers also have ``truncated`` (list cut by ``等``);
        entities ``type``. Edges have ``relation`` as listed in the module
        docstring.

    Examples
    --------
    >>> from kg.models import Extraction, Mention, Track
    >>> p = Paper("p1", ("Ann", "Bob"), "We use BERT.", track=Track("Theory", "Game Theory"))
    >>> m = Mention("BERT", "BERT", "model", 7, 11, key="bert")
    >>> K = knowledge_graph(Build(Corpus((p,)), {"p1": Extraction("p1", p.abstract, (m,))}))
    >>> sorted(K.nodes)  # doctest: +NORMALIZE_WHITESPACE
    ['entity:bert', 'paper:p1', 'person:ann', 'person:bob', 'track:Theory',
     'track:Theory · Game Theory']
    >>> sorted(d["relation"] for _, _, d in K.edges(data=True))
    ['author', 'author', 'broader', 'mentions', 'subject']
    """
    if isinstance(build, Corpus):
        build = Build(corpus=build)
    K = nx.MultiDiGraph()
    broader: set[tuple[str, str]] = set()
    for paper in build.corpus.papers:
        pid = node_id("paper", paper.id)
        ex = build.extractions.get(paper.id)
        K.add_node(pid, kind="paper", label=paper_label(paper, ex), truncated=paper.authors_truncated)
        _add_authors(K, pid, paper)
        if paper.track is not None:
            _add_track(K, pid, paper.track, broader)
        if ex is not None:
            _add_mentions(K, pid, ex)
    return K


def _add_authors(K: nx.MultiDiGraph, pid: str, paper: Paper) -> None:
    seen: set[str] = set()
    for pos, name in enumerate(paper.authors, start=1):
        k = person_key(name)
        if not k or k in seen:
            continue
        seen.add(k)
        nid = node_id("person", k)
        if nid not in K:
            K.add_node(nid, kind="person", label=" ".join(name.split()))
        K.add_edge(pid, nid, relation="author", position=pos)


def _add_track(K: nx.MultiDiGraph, pid: str, track: Track, broader: set[tuple[str, str]]) -> None:
    """The paper's subject (its subarea, else its area) and, once, subarea broader area."""
    area, sub = _track_ids(track)
    if area not in K:
        K.add_node(area, kind="track", label=track.area)
    target = area
    if sub is not None:
        if sub not in K:
            K.add_node(sub, kind="track", label=track.label)
        if (sub, area) not in broader:
            broader.add((sub, area))
            K.add_edge(sub, area, relation="broader")
        target = sub
    K.add_edge(pid, target, relation="subject")


def _add_mentions(K: nx.MultiDiGraph, pid: str, ex: Extraction) -> None:
    counts: Counter[str] = Counter()
    proposed: dict[str, None] = {}
    for m in ex.mentions:
        kind = "concept" if m.layer == "concept" else "entity"
        eid = node_id(kind, m.identity_key)
        if eid not in K:
            K.add_node(eid, kind=kind, label=m.canonical, type=m.type)
        counts[eid] += 1
        if m.proposed:
            proposed[eid] = None
    for eid, n in counts.items():
        K.add_edge(pid, eid, relation="mentions", count=n)
    for eid in proposed:
        K.add_edge(pid, eid, relation="proposes")
