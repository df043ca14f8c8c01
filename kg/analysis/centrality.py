"""Per-author measures of a co-authorship graph, run by igraph behind one API.

Every function takes an :class:`~kg.analysis._igraph.IGraph` and returns a
NumPy array aligned with its vertices, on the same scale as the NetworkX
function of the same name:

- :func:`betweenness`: ``nx.betweenness_centrality`` (normalised, unweighted
  hops). Exact in components whose nodes x edges is at most ``exact_limit``
  (see :func:`~kg.analysis.network.is_large`); in larger ones estimated from ``samples`` pivots drawn with ``seed`` and scaled by
  ``size/samples`` (Brandes & Pich 2007; what ``nx`` does with ``k=``).
- :func:`closeness`: ``nx.closeness_centrality`` (Wasserman-Faust scaling for
  disconnected graphs). Exact up to ``exact_limit``; beyond, each node's sum
  of distances is estimated from BFS out of ``samples`` sources of its
  component (Eppstein & Wang 2004).
- :func:`eigenvector`: ``nx.eigenvector_centrality`` (unit Euclidean norm),
  weighted by collaboration strength. Computed on the whole graph, so it is
  meaningful in the largest component; elsewhere it is about 0.
- :func:`pagerank`: ``nx.pagerank`` (damping 0.85), weighted by
  collaboration strength.

Examples
--------
>>> import networkx as nx
>>> from kg.analysis._igraph import to_igraph
>>> h = to_igraph(nx.star_graph(3))  # centre 0 and three leaves
>>> betweenness(h).tolist(), closeness(h).round(4).tolist()
([1.0, 0.0, 0.0, 0.0], [1.0, 0.6, 0.6, 0.6])
"""
from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from kg.analysis._igraph import IGraph, seeded, to_igraph
from kg.analysis.network import (
    EXACT_LIMIT,
    SAMPLES,
    BfsSample,
    bfs_sample,
    component_vertices,
    is_large,
)
from kg.models import JsonObject

__all__ = [
    "betweenness", "closeness", "eigenvector", "pagerank", "degree_centrality",
    "AuthorMetrics", "author_metrics", "METRICS",
]

METRICS = ("papers", "collaborators", "strength", "degree_centrality", "betweenness",
           "closeness", "eigenvector", "pagerank")


def _split(h: IGraph, comps: Sequence[Sequence[int]] | None, exact_limit: int
           ) -> tuple[list[int], list[Sequence[int]]]:
    comps = component_vertices(h) if comps is None else comps
    large = [c for c in comps if is_large(h, c, exact_limit)]
    big = {c[0] for c in large}
    small = sorted(v for c in comps if c and c[0] not in big for v in c)
    return small, large


def betweenness(h: IGraph, *, exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                seed: int = 0, comps: Sequence[Sequence[int]] | None = None) -> np.ndarray:
    """Normalised shortest-path betweenness, as ``nx.betweenness_centrality``.

    Examples
    --------
    >>> h = to_igraph(nx.path_graph(4))
    >>> betweenness(h).round(4).tolist()
    [0.0, 0.6667, 0.6667, 0.0]
    >>> betweenness(h, exact_limit=1, samples=4).round(4).tolist()  # all pivots: exact
    [0.0, 0.6667, 0.6667, 0.0]
    """
    g = h.graph
    n = g.vcount()
    out = np.zeros(n)
    small, large = _split(h, comps, exact_limit)
    if small and g.ecount():
        sub = g.induced_subgraph(small)
        out[small] = sub.betweenness(directed=False)
    for comp in large:
        k = min(samples, len(comp))
        pivots = sorted(random.Random(seed).sample(list(comp), k))
        b = np.asarray(g.betweenness(directed=False, sources=pivots), dtype=float)
        idx = np.asarray(comp)
        out[idx] = b[idx] * (len(comp) / k)
    if n > 2:
        out *= 2.0 / ((n - 1) * (n - 2))
    return out


def closeness(h: IGraph, *, exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
              seed: int = 0, comps: Sequence[Sequence[int]] | None = None,
              bfs: dict[int, BfsSample] | None = None) -> np.ndarray:
    """Closeness, as ``nx.closeness_centrality`` (``wf_improved=True``).

    A node reaching ``r - 1`` others at total distance ``D`` scores
    ``(r-1)/D * (r-1)/(n-1)``; an isolated node 0. ``bfs`` may pass
    searches already run (:func:`~kg.analysis.network.bfs_sample`) in some
    components, keyed by their first vertex: from every node of a component
    they give its exact closeness, from a sample an estimate.

    Examples
    --------
    >>> G = nx.Graph([(0, 1), (1, 2), (3, 4)])
    >>> closeness(to_igraph(G)).round(4).tolist()
    [0.3333, 0.5, 0.3333, 0.25, 0.25]
    """
    g = h.graph
    n = g.vcount()
    out = np.zeros(n)
    if n < 2:
        return out
    comps = component_vertices(h) if comps is None else comps
    size = np.zeros(n)
    for c in comps:
        size[list(c)] = len(c)
    done = bfs or {}
    small, large = _split(h, [c for c in comps if c[0] not in done], exact_limit)
    large += [c for c in comps if c[0] in done]
    if small:
        sub = g.induced_subgraph(small)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            raw = np.asarray(sub.closeness(), dtype=float)
        raw = np.nan_to_num(raw, nan=0.0)
        out[small] = raw * (size[small] - 1) / (n - 1)
    for comp in large:
        s = done.get(comp[0]) or bfs_sample(h, comp, samples, seed)
        idx = np.asarray(comp)
        r = len(comp)
        est = s.dist_sum[idx] * (r / len(s.sources))
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = np.where(est > 0, (r - 1) / est, 0.0)
        out[idx] = scores * (r - 1) / (n - 1)
    return out


def eigenvector(h: IGraph, weighted: bool = True) -> np.ndarray:
    """Eigenvector centrality with unit Euclidean norm, as NetworkX.

    Examples
    --------
    >>> eigenvector(to_igraph(nx.complete_graph(4))).round(4).tolist()
    [0.5, 0.5, 0.5, 0.5]
    """
    g = h.graph
    if g.ecount() == 0:
        return np.zeros(g.vcount())
    with warnings.catch_warnings(), seeded(0):  # ARPACK's start vector is random
        warnings.simplefilter("ignore", RuntimeWarning)
        x = np.asarray(g.eigenvector_centrality(weights="weight" if weighted else None), dtype=float)
    x[np.abs(x) < 1e-12] = 0.0
    x = np.abs(x)
    norm = float(np.sqrt((x * x).sum()))
    out: np.ndarray = x / norm if norm > 0 else x
    return out


def pagerank(h: IGraph, alpha: float = 0.85, weighted: bool = True,
             tol: float = 1e-15, max_iter: int = 10_000) -> np.ndarray:
    """PageRank with damping ``alpha``, as ``nx.pagerank``, bit-for-bit reproducible.

    Power iteration in NumPy from the uniform vector, a dangling (isolated)
    author's rank spread evenly, until the L1 change is below ``tol`` per
    node. igraph's PRPACK sums in OpenMP threads, so its last digits
    differed between runs (relative 2e-11 on ICML 2024); ``np.bincount``
    and NumPy's sums run in one thread in a fixed order.

    Examples
    --------
    >>> pagerank(to_igraph(nx.complete_graph(4))).round(4).tolist()
    [0.25, 0.25, 0.25, 0.25]
    >>> pagerank(to_igraph(nx.star_graph(2))).round(4).tolist()
    [0.4865, 0.2568, 0.2568]
    """
    g = h.graph
    n = g.vcount()
    if n == 0:
        return np.zeros(0)
    edges = np.asarray(g.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    if weighted and "weight" in g.es.attributes():
        w = np.asarray(g.es["weight"], dtype=float)
    else:
        w = np.ones(len(edges))
    src = np.concatenate([edges[:, 0], edges[:, 1]])
    dst = np.concatenate([edges[:, 1], edges[:, 0]])
    ww = np.concatenate([w, w])
    strength = np.bincount(src, weights=ww, minlength=n)
    dangling = strength == 0
    inv = np.zeros(n)
    inv[~dangling] = 1.0 / strength[~dangling]
    x = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        flow = np.bincount(dst, weights=ww * (x * inv)[src], minlength=n)
        new = alpha * flow + (alpha * x[dangling].sum() + 1.0 - alpha) / n
        done = np.abs(new - x).sum() < n * tol
        x = new
        if done:
            break
    ranks: np.ndarray = x / x.sum()
    return ranks


def degree_centrality(h: IGraph) -> np.ndarray:
    """Degree over ``n - 1``, as ``nx.degree_centrality`` (1 for a lone node).

    Examples
    --------
    >>> degree_centrality(to_igraph(nx.star_graph(2))).tolist()
    [1.0, 0.5, 0.5]
    """
    n = h.graph.vcount()
    if n <= 1:
        return np.ones(n)
    out: np.ndarray = np.asarray(h.graph.degree(), dtype=float) / (n - 1)
    return out


@dataclass(frozen=True)
class AuthorMetrics:
    """Per-author measures, column-wise and aligned with ``keys``.

    ``columns`` holds ``name`` plus every entry of :data:`METRICS`;
    ``method`` says how each was computed (exact or estimated).
    """

    keys: tuple[str, ...]
    columns: dict[str, list[Any]]
    method: dict[str, str | bool]

    def row(self, key: str) -> JsonObject:
        i = self.keys.index(key)
        return {"key": key, **{c: v[i] for c, v in self.columns.items()}}

    def top(self, by: str, n: int = 10) -> list[JsonObject]:
        """The ``n`` best authors by column ``by``; ties by key."""
        # rank on 10 significant digits, so values equal in theory but not in
        # their last bits (iterative solvers) tie and fall back to the key
        col = [float(f"{v:.10g}") for v in self.columns[by]]
        order = sorted(range(len(self.keys)), key=lambda i: (-col[i], self.keys[i]))[:n]
        return [{"key": self.keys[i], **{c: v[i] for c, v in self.columns.items()}} for i in order]


def author_metrics(G: nx.Graph | None, *, exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                   seed: int = 0, h: IGraph | None = None,
                   bfs: dict[int, BfsSample] | None = None) -> AuthorMetrics:
    """Every per-author measure of a co-authorship graph.

    ``G`` may be ``None`` when ``h`` (its igraph copy) is given.
    ``papers`` comes from the node attribute of that name (0 if absent),
    ``collaborators`` is the degree, ``strength`` the sum of collaboration
    weights (Newman), the rest as in this module's functions.

    Examples
    --------
    >>> G = nx.Graph([("a", "b"), ("b", "c")])
    >>> m = author_metrics(G)
    >>> m.top("betweenness", 1)[0]["key"], m.row("a")["collaborators"]
    ('b', 1)
    """
    h = h or to_igraph(G)
    g = h.graph
    comps = component_vertices(h)
    kw = dict(exact_limit=exact_limit, samples=samples, seed=seed)
    big = [c for c in comps if is_large(h, c, exact_limit)]
    if big and bfs is None:
        bfs = {c[0]: bfs_sample(h, c, samples, seed) for c in big}
    columns = {
        "name": list(g.vs["name"]) if g.vcount() else [],
        "papers": list(g.vs["papers"]) if g.vcount() else [],
        "collaborators": g.degree(),
        "strength": [float(x) for x in g.strength(weights="weight")],
        "degree_centrality": degree_centrality(h).tolist(),
        "betweenness": betweenness(h, comps=comps, **kw).tolist(),
        "closeness": closeness(h, comps=comps, bfs=bfs, **kw).tolist(),
        "eigenvector": eigenvector(h).tolist(),
        "pagerank": pagerank(h).tolist(),
    }
    sampled = [len(c) for c in big]
    how = ("exact" if not sampled else
           f"estimated in the {len(sampled)} component(s) of more than {exact_limit:.3g} "
           f"nodes x edges (sizes {sampled}) from {min(samples, max(sampled))} sources drawn with seed {seed}; "
           "exact elsewhere")
    method: dict[str, str | bool] = {
        "betweenness": f"shortest paths in hops, normalised as NetworkX; {how}"
                       + ("; pivots scaled by size/samples (Brandes-Pich)" if sampled else ""),
        "closeness": f"Wasserman-Faust (NetworkX); {how}"
                     + ("; sums of distances from sampled BFS (Eppstein-Wang)" if sampled else ""),
        "eigenvector": "weighted by collaboration strength, unit norm; meaningful in the "
                       "largest component (about 0 elsewhere)",
        "pagerank": "weighted by collaboration strength, damping 0.85",
        "degree_centrality": "collaborators / (authors - 1)",
        "strength": "sum of Newman collaboration weights",
        "exact": not sampled,
    }
    return AuthorMetrics(keys=tuple(h.keys), columns=columns, method=method)
