"""Communities of a co-authorship graph: Louvain and Leiden with a fixed seed.

Both maximise modularity on the collaboration-strength weights (igraph's
implementations, its random numbers drawn from ``random.Random(seed)``).
Communities are numbered by size, largest first (ties: the one holding the
first node), so ids are stable. :func:`describe` says what each community is
about: its most productive authors and, through its papers, its dominant
tracks and entities. A paper belongs to the community holding most of its
authors (ties: the lower id).

Examples
--------
>>> import networkx as nx
>>> G = nx.barbell_graph(4, 0)  # two 4-cliques joined by one edge
>>> p = leiden(G, seed=1)
>>> p.sizes, round(p.modularity, 4)
((4, 4), 0.4231)
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import igraph as ig
import networkx as nx
import numpy as np

from kg.analysis._igraph import IGraph, seeded, to_igraph
from kg.analysis.graphs import paper_author_keys
from kg.models import Build, Corpus, JsonObject

__all__ = ["Partition", "louvain", "leiden", "modularity", "relabel", "paper_communities",
           "describe"]


@dataclass(frozen=True)
class Partition:
    """A division of the nodes into communities.

    ``membership`` maps each node to its community id (0 = largest);
    ``sizes[i]`` is the size of community ``i``; ``modularity`` is ``None``
    for a graph without edges.
    """

    method: str
    membership: Mapping[str, int]
    sizes: tuple[int, ...]
    modularity: float | None
    seed: int

    def communities(self) -> list[list[str]]:
        out: list[list[str]] = [[] for _ in self.sizes]
        for node, c in self.membership.items():
            out[c].append(node)
        return out


def relabel(membership: Sequence[int]) -> list[int]:
    """Renumber communities by size (largest 0), ties by first member.

    Examples
    --------
    >>> relabel([5, 5, 2, 9, 9, 9])
    [1, 1, 2, 0, 0, 0]
    """
    size: Counter[int] = Counter(membership)
    first: dict[int, int] = {}
    for i, c in enumerate(membership):
        first.setdefault(c, i)
    order = sorted(size, key=lambda c: (-size[c], first[c]))
    new = {c: i for i, c in enumerate(order)}
    return [new[c] for c in membership]


def modularity(G: nx.Graph | None, membership: Mapping[str, int], weight: str | None = "weight",
               h: IGraph | None = None) -> float | None:
    """Newman-Girvan modularity of a membership (``None`` without edges).

    Examples
    --------
    >>> G = nx.Graph([(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)])
    >>> round(modularity(G, {0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1}), 6)  # 2 (3/7 - 1/4)
    0.357143
    """
    h = h or to_igraph(G, weight=weight or "__none__")
    g = h.graph
    if g.ecount() == 0:
        return None
    mem = [membership[k] for k in h.keys]
    q = g.modularity(mem, weights="weight" if weight else None)
    return None if math.isnan(q) else float(q)


def _partition(method: str, G: nx.Graph, raw: list[int], h: IGraph, seed: int) -> Partition:
    mem = relabel(raw)
    sizes = Counter(mem)
    q = modularity(G, dict(zip(h.keys, mem, strict=True)), h=h)
    return Partition(method=method, membership=dict(zip(h.keys, mem, strict=True)),
                     sizes=tuple(sizes[i] for i in range(len(sizes))), modularity=q, seed=seed)


def _detect(method: str, G: nx.Graph | None, h: IGraph | None, seed: int,
            run: Callable[[ig.Graph], ig.VertexClustering]) -> Partition:
    """Run an igraph community method with a seed; no edges: everyone alone."""
    h = h or to_igraph(G)
    g = h.graph
    if g.ecount() == 0:
        raw = list(range(g.vcount()))
    else:
        with seeded(seed):
            raw = run(g).membership
    return _partition(method, G, raw, h, seed)


def louvain(G: nx.Graph | None, seed: int = 0, h: IGraph | None = None) -> Partition:
    """Louvain (Blondel et al. 2008) on collaboration strengths, seeded.

    Examples
    --------
    >>> louvain(nx.barbell_graph(4, 0), seed=1).sizes
    (4, 4)
    """
    return _detect("louvain", G, h, seed,
                   lambda g: g.community_multilevel(weights="weight"))


def leiden(G: nx.Graph | None, seed: int = 0, resolution: float = 1.0, n_iterations: int = 2,
           h: IGraph | None = None) -> Partition:
    """Leiden (Traag et al. 2019) maximising modularity on strengths, seeded.

    Runs ``n_iterations`` passes (igraph's default 2; a negative number runs
    until a pass no longer improves, which can take minutes on a million
    edges); unlike Louvain, its communities are guaranteed connected.

    Examples
    --------
    >>> G = nx.Graph([(0, 1), (2, 3)])
    >>> leiden(G).membership
    {0: 0, 1: 0, 2: 1, 3: 1}
    """
    return _detect("leiden", G, h, seed, lambda g: g.community_leiden(
        objective_function="modularity", weights="weight", resolution=resolution,
        n_iterations=n_iterations))


def paper_communities(corpus: Corpus, membership: Mapping[str, int]) -> dict[str, int]:
    """Each paper's community: the one holding most of its authors.

    Papers without a known author have none. Ties go to the lower id.

    Examples
    --------
    >>> from kg.models import Paper
    >>> c = Corpus((Paper("p", ("A", "B", "C"), "x"), Paper("q", (), "y")))
    >>> paper_communities(c, {"a": 1, "b": 0, "c": 1})
    {'p': 1}
    """
    out: dict[str, int] = {}
    for p in corpus.papers:
        votes = Counter(membership[k] for k in paper_author_keys(p) if k in membership)
        if votes:
            out[p.id] = min(votes, key=lambda c: (-votes[c], c))
    return out


def describe(partition: Partition, G: nx.Graph | None, build: Build | Corpus, *, top: int = 10,
             per: int = 5, h: IGraph | None = None) -> list[JsonObject]:
    """The ``top`` largest communities: size, papers, leading authors, tracks, entities.

    Tracks and entities are counted over the community's papers (see
    :func:`paper_communities`): an entity counts once per paper mentioning
    it. Each list is sorted by count, then name. ``G`` may be ``None`` when
    ``h`` (its igraph copy) is given.

    Examples
    --------
    >>> from kg.models import Paper, Track
    >>> t = Track("Theory", "Game Theory")
    >>> c = Corpus((Paper("p", ("A", "B"), "x", track=t), Paper("q", ("C", "D"), "y")))
    >>> from kg.analysis.graphs import coauthor_graph
    >>> G = coauthor_graph(c)
    >>> d = describe(leiden(G), G, c)
    >>> d[0]["size"], d[0]["papers"], d[0]["tracks"]
    (2, 1, [['Theory · Game Theory', 1]])
    """
    build = Build(corpus=build) if isinstance(build, Corpus) else build
    wanted = set(range(min(top, len(partition.sizes))))
    by_paper = paper_communities(build.corpus, partition.membership)
    papers: Counter[int] = Counter()
    tracks: dict[int, Counter[str]] = defaultdict(Counter)
    entities: dict[int, Counter[str]] = defaultdict(Counter)
    labels: dict[str, str] = {}
    for p in build.corpus.papers:
        c = by_paper.get(p.id)
        if c not in wanted:
            continue
        papers[c] += 1
        if p.track is not None:
            tracks[c][p.track.label] += 1
        ex = build.extractions.get(p.id)
        if ex is not None:
            keys: dict[str, None] = {}
            for m in ex.mentions:
                k = m.key or m.canonical.casefold()
                labels.setdefault(k, m.canonical)
                keys[k] = None
            for k in keys:
                entities[c][k] += 1
    h = h or to_igraph(G)
    mem = np.asarray([partition.membership[k] for k in h.keys], dtype=np.int64)
    el = np.asarray(h.graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    same = mem[el[:, 0]] == mem[el[:, 1]]
    internal = np.bincount(mem[el[same, 0]], minlength=len(partition.sizes))
    g = h.graph
    names = g.vs["name"] if g.vcount() else []
    papers_of = g.vs["papers"] if g.vcount() else []
    degree = g.degree()
    members: dict[int, list[int]] = defaultdict(list)
    for i, c in enumerate(mem.tolist()):
        if c in wanted:
            members[c].append(i)

    def ranked(counter: Counter[str], name: Callable[[str], str] = lambda k: k
               ) -> list[list[str | int]]:
        items = sorted(counter.items(), key=lambda kv: (-kv[1], name(kv[0])))[:per]
        return [[name(k), n] for k, n in items]

    out = []
    for c in sorted(wanted):
        lead = sorted(members[c], key=lambda i: (-papers_of[i], -degree[i], h.keys[i]))[:per]
        out.append({
            "id": c,
            "size": partition.sizes[c],
            "papers": papers[c],
            "internal_edges": int(internal[c]),
            "authors": [[names[i], papers_of[i]] for i in lead],
            "tracks": ranked(tracks[c]),
            "entities": ranked(entities[c], name=lambda k: labels[k]),
        })
    return out
