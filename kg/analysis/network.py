"""Whole-network statistics of a co-authorship graph (Newman; bibliometrix).

Productivity comes from the corpus (papers per author, authors per paper,
Lotka's law); structure from the graph (components, density, clustering,
assortativity, distances in the largest component). All-pairs work grows as
nodes x edges of a component: up to ``exact_limit`` (2e8, a few seconds)
distances are exact; beyond, they are estimated from breadth-first searches
out of ``samples`` sources drawn with a fixed seed, and the result says so.

Examples
--------
>>> import networkx as nx
>>> G = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
>>> s = network_stats(G)
>>> s["components"]["count"], round(s["transitivity"], 6), s["largest_component"]["diameter"]
(1, 0.6, 2)
"""
from __future__ import annotations

import math
import random
import statistics
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np

from kg.analysis._igraph import IGraph, to_igraph
from kg.analysis.graphs import paper_author_keys
from kg.models import Corpus, JsonObject

EXACT_LIMIT = 200_000_000  # nodes x edges of a component computed exactly
SAMPLES = 256

__all__ = [
    "EXACT_LIMIT", "SAMPLES", "is_large", "distribution", "describe_counts", "lotka", "productivity",
    "component_vertices", "BfsSample", "csr", "bfs_sample", "distance_stats", "network_stats",
]


def distribution(values: Iterable[int]) -> list[list[int]]:
    """``[[value, how many], ...]`` sorted by value.

    Examples
    --------
    >>> distribution([3, 1, 3, 2])
    [[1, 1], [2, 1], [3, 2]]
    """
    return [[k, n] for k, n in sorted(Counter(values).items())]


def describe_counts(values: Sequence[int]) -> JsonObject:
    """Mean, median, min, max and distribution of a list of counts.

    Examples
    --------
    >>> describe_counts([1, 2, 2, 5])
    {'mean': 2.5, 'median': 2.0, 'min': 1, 'max': 5, 'distribution': [[1, 1], [2, 2], [5, 1]]}
    >>> describe_counts([])["mean"] is None
    True
    """
    if not values:
        return {"mean": None, "median": None, "min": None, "max": None, "distribution": []}
    return {
        "mean": sum(values) / len(values),
        "median": float(statistics.median(values)),
        "min": min(values),
        "max": max(values),
        "distribution": distribution(values),
    }


def lotka(papers_per_author: Sequence[int]) -> JsonObject | None:
    """Lotka's law fitted as bibliometrix does: least squares on log-log.

    The share of authors with ``k`` papers is modelled as ``C / k**beta``;
    ``beta`` and ``C`` come from a linear fit of ``log10(share)`` on
    ``log10(k)``; ``r2`` is the fit's coefficient of determination. Lotka
    observed ``beta`` near 2. ``None`` with fewer than two distinct ``k``.

    Examples
    --------
    >>> fit = lotka([1] * 16 + [2] * 4 + [4])  # shares 16/21, 4/21, 1/21: beta = 2
    >>> round(fit["beta"], 6), round(fit["r2"], 6)
    (2.0, 1.0)
    >>> lotka([1, 1]) is None
    True
    """
    counts = Counter(papers_per_author)
    if len(counts) < 2:
        return None
    total = sum(counts.values())
    xs = np.log10(np.array(sorted(counts), dtype=float))
    ys = np.log10(np.array([counts[k] / total for k in sorted(counts)], dtype=float))
    slope, intercept = np.polyfit(xs, ys, 1)
    pred = slope * xs + intercept
    ss_res = float(((ys - pred) ** 2).sum())
    ss_tot = float(((ys - ys.mean()) ** 2).sum())
    return {
        "beta": float(-slope),
        "C": float(10 ** intercept),
        "r2": 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0,
        "method": "least squares of log10(share of authors) on log10(papers), as bibliometrix lotka()",
    }


def productivity(corpus: Corpus) -> JsonObject:
    """Papers, authors, and the two bipartite degree distributions.

    Counts use the authors a listing shows (distinct person keys per paper):
    ``people`` and ``paper_person_links`` as :mod:`kg.analysis.counts` defines them.

    Examples
    --------
    >>> from kg.models import Paper
    >>> c = Corpus((Paper("1", ("A", "B"), "x"), Paper("2", ("A",), "y")))
    >>> p = productivity(c)
    >>> p["papers"], p["people"], p["paper_person_links"], p["single_author_papers"]
    (2, 2, 3, 1)
    >>> p["papers_per_author"]["mean"], p["authors_per_paper"]["mean"]
    (1.5, 1.5)
    """
    per_paper = [paper_author_keys(p) for p in corpus.papers]
    per_author: Counter[str] = Counter(k for keys in per_paper for k in keys)
    sizes = [len(keys) for keys in per_paper]
    ppa = list(per_author.values())
    return {
        "papers": len(per_paper),
        "papers_without_authors": sum(1 for n in sizes if n == 0),
        "single_author_papers": sum(1 for n in sizes if n == 1),
        "people": len(per_author),
        "paper_person_links": sum(sizes),
        "authors_per_paper": describe_counts(sizes),
        "papers_per_author": describe_counts(ppa),
        "lotka": lotka(ppa),
    }


def component_vertices(h: IGraph) -> list[list[int]]:
    """Connected components as lists of vertex ids, largest first.

    Ties in size are broken by the smallest vertex id, so the order is
    deterministic.
    """
    comps = [sorted(c) for c in h.graph.connected_components()]
    comps.sort(key=lambda c: (-len(c), c[0] if c else -1))
    return comps


def is_large(h: IGraph, component: Sequence[int], exact_limit: int = EXACT_LIMIT) -> bool:
    """Whether ``component`` is too big for exact all-pairs work.

    The work of one all-pairs pass (BFS from every node) is about
    ``nodes x edges``; a component is large when that exceeds
    ``exact_limit``.

    Examples
    --------
    >>> h = to_igraph(nx.path_graph(10))  # 10 nodes x 9 edges
    >>> is_large(h, range(10), 90), is_large(h, range(10), 89)
    (False, True)
    """
    n = len(component)
    if n < 2:  # one author: no pairs (a build with a 10,000-author paper has 10,000 of these)
        return False
    if n * (n - 1) > exact_limit:  # a connected component has at least n - 1 edges
        return True
    m = sum(h.graph.degree(list(component))) // 2
    return bool(n * m > exact_limit)


@dataclass(frozen=True)
class BfsSample:
    """Breadth-first searches from sampled sources of one component.

    ``dist_sum[v]`` is the sum over the sources of ``d(source, v)`` (vertex
    ids of the whole graph; zero outside the component); ``total`` the sum of
    all those distances; ``max_ecc`` the largest eccentricity seen (a lower
    bound of the diameter, improved by a double sweep).
    """

    component: tuple[int, ...]
    sources: tuple[int, ...]
    dist_sum: np.ndarray
    total: float
    max_ecc: int


def csr(h: IGraph) -> tuple[np.ndarray, np.ndarray]:
    """The adjacency of ``h`` in compressed sparse rows: ``(indptr, indices)``.

    Examples
    --------
    >>> indptr, indices = csr(to_igraph(nx.path_graph(3)))
    >>> indptr.tolist(), indices.tolist()
    ([0, 1, 3, 4], [1, 0, 2, 1])
    """
    g = h.graph
    n = g.vcount()
    el = np.asarray(g.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    src = np.concatenate([el[:, 0], el[:, 1]])
    dst = np.concatenate([el[:, 1], el[:, 0]])
    order = np.lexsort((dst, src))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order]


def bfs_sample(h: IGraph, component: Sequence[int], samples: int, seed: int) -> BfsSample:
    """Distances from ``samples`` sources drawn from ``component`` with ``seed``.

    The searches run 64 at a time as one bit-parallel breadth-first search
    (a 64-bit mask per node says which searches have reached it; a level is a
    few NumPy passes over the edges), so hundreds of sources cost about as
    much as a handful of ordinary searches. After them, one more search runs
    from the farthest node found (a double sweep), which tightens the
    diameter bound; it is not counted in ``dist_sum``.
    """
    g = h.graph
    n = g.vcount()
    comp = tuple(component)
    k = min(samples, len(comp))
    sources = tuple(sorted(random.Random(seed).sample(comp, k)))
    dist_sum = np.zeros(n, dtype=np.float64)
    total = 0.0
    best_ecc, far = 0, comp[0]
    indptr, indices = csr(h)
    has_nbrs = np.flatnonzero(np.diff(indptr) > 0)
    starts = indptr[has_nbrs]
    for b0 in range(0, k, 64):
        batch = np.asarray(sources[b0:b0 + 64], dtype=np.int64)
        frontier = np.zeros(n, dtype=np.uint64)
        frontier[batch] = np.left_shift(np.uint64(1), np.arange(len(batch), dtype=np.uint64))
        visited = frontier.copy()
        level = 0
        while True:
            level += 1
            reach = np.zeros(n, dtype=np.uint64)
            if len(indices):
                reach[has_nbrs] = np.bitwise_or.reduceat(frontier[indices], starts)
            new = reach & ~visited
            if not new.any():
                break
            visited |= new
            counts = np.bitwise_count(new).astype(np.float64)  # uint8 would overflow
            dist_sum += level * counts
            total += float(level) * float(counts.sum())
            if level > best_ecc:
                best_ecc, far = level, int(np.flatnonzero(new)[0])
            frontier = new
    if sources:
        _, layers, _ = g.bfs(far)
        best_ecc = max(best_ecc, len(layers) - 2)
    return BfsSample(comp, sources, dist_sum, total, best_ecc)


def distance_stats(h: IGraph, component: Sequence[int], *, exact_limit: int = EXACT_LIMIT,
                   samples: int = SAMPLES, seed: int = 0, sample: BfsSample | None = None
                   ) -> JsonObject:
    """Mean distance and diameter of one component (unweighted hops).

    Exact unless the component :func:`is_large`: a search from every node
    (:func:`bfs_sample` with all of them as sources). Beyond, the mean
    distance is the mean over all nodes of their distances from ``samples``
    uniformly drawn sources (unbiased), and the diameter the largest
    eccentricity of those sources and of one double sweep (a lower bound).
    ``sample`` may pass the searches already run for this component.

    Examples
    --------
    >>> h = to_igraph(nx.path_graph(5))
    >>> d = distance_stats(h, range(5))
    >>> d["mean_distance"], d["diameter"], d["exact"]
    (2.0, 4, True)
    >>> d = distance_stats(h, range(5), exact_limit=2, samples=5)
    >>> d["mean_distance"], d["diameter"], d["exact"]
    (2.0, 4, False)
    """
    n = len(component)
    out: JsonObject = {"nodes": n, "mean_distance": None, "diameter": 0, "exact": True,
                 "method": "all pairs (exact)", "sources": None}
    if n < 2:
        return out
    if not is_large(h, component, exact_limit):
        s = sample if sample is not None and len(sample.sources) == n else \
            bfs_sample(h, component, n, seed)
        out["mean_distance"] = s.total / (n * (n - 1))
        out["diameter"] = s.max_ecc
        return out
    s = sample or bfs_sample(h, component, samples, seed)
    k = len(s.sources)
    out.update(
        mean_distance=s.total / (k * (n - 1)),
        diameter=s.max_ecc,
        exact=False,
        sources=k,
        method=(f"estimated: breadth-first search from {k} sources drawn uniformly with "
                f"seed {seed}; mean over their distances to all nodes; diameter is a lower "
                f"bound (largest eccentricity seen, plus a double sweep)"),
    )
    return out


def network_stats(G: nx.Graph | None, *, exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                  seed: int = 0, h: IGraph | None = None, sample: BfsSample | None = None
                  ) -> JsonObject:
    """Structure of the co-authorship graph.

    Returns a dict with ``nodes``, ``edges``, ``isolates``, ``density``,
    ``collaborators_per_author`` (degree: mean, distribution),
    ``components`` (count, size distribution, largest and its share of the
    nodes), ``transitivity`` (global clustering: 3 x triangles / connected
    triples), ``mean_clustering`` (mean local clustering, nodes of degree < 2
    counting 0 as in NetworkX), ``degree_assortativity`` (Pearson correlation
    of the degrees at either end of an edge; ``None`` where undefined, e.g. a
    star or a regular graph) and ``largest_component`` (see
    :func:`distance_stats`).

    Examples
    --------
    >>> G = nx.Graph([(0, 1), (2, 3), (3, 4)])
    >>> s = network_stats(G)
    >>> s["components"]["sizes"], s["components"]["largest_share"], s["density"]
    ([[2, 1], [3, 1]], 0.6, 0.3)
    """
    h = h or to_igraph(G)
    g = h.graph
    n, m = g.vcount(), g.ecount()
    degrees = g.degree()
    comps = component_vertices(h)
    largest = comps[0] if comps else []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assort = g.assortativity_degree(directed=False) if m else float("nan")
        trans = g.transitivity_undirected() if m else 0.0
    local = g.transitivity_local_undirected(mode="zero") if n else []
    return {
        "nodes": n,
        "edges": m,
        "isolates": sum(1 for d in degrees if d == 0),
        "density": (2.0 * m / (n * (n - 1))) if n > 1 else None,
        "collaborators_per_author": describe_counts(degrees),
        "components": {
            "count": len(comps),
            "sizes": distribution(len(c) for c in comps),
            "largest": len(largest),
            "largest_share": (len(largest) / n) if n else None,
            "largest_edges": (g.induced_subgraph(largest).ecount() if largest else 0),
        },
        "transitivity": 0.0 if math.isnan(trans) else trans,  # no triples: 0, as NetworkX
        "mean_clustering": (sum(local) / n) if n else None,
        "degree_assortativity": None if math.isnan(assort) else assort,
        "largest_component": distance_stats(h, largest, exact_limit=exact_limit,
                                            samples=samples, seed=seed, sample=sample),
    }
