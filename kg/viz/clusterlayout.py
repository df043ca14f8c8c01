"""A clustered layout: each cluster in a region of its own, as VOSviewer draws them.

Two levels, both deterministic:

1. each cluster is laid out on its own (Fruchterman-Reingold on the links
   inside it, igraph's, pulled by the edge weights) and scaled to a disc whose
   area grows with its number of nodes, so every cluster is about as dense;
2. the clusters become super-nodes linked by the summed weights of the
   links between them; a weighted force layout places their centres (linked
   clusters side by side), then the discs are pushed apart until none
   overlaps, with a pull towards the middle so the map stays compact.

Connected parts of at most :data:`~kg.viz.layout.CIRCLE_MAX` nodes (a
co-mention pair, a lone term) are no region: :func:`kg.viz.layout.layout`
packs them in rows under the map.

:func:`silhouette` measures how well the positions separate the clusters
(``bench/layout_quality.py`` prints it for a build's maps).

Examples
--------
>>> import networkx as nx
>>> G = nx.barbell_graph(7, 0)  # two 7-cliques joined by one link
>>> pos = cluster_layout(G, {v: v // 7 for v in G})
>>> sorted(pos) == list(range(14)), pos == cluster_layout(G, {v: v // 7 for v in G})
(True, True)
>>> silhouette([pos[v] for v in range(14)], [v // 7 for v in range(14)]) > 0.5
True
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import networkx as nx
import numpy as np

from kg.viz.layout import CIRCLE_MAX, SPACING, _iterations, layout, ordered_subgraph

__all__ = ["cluster_layout", "leiden_layout", "silhouette", "DENSITY"]

#: A cluster of ``n`` nodes fills a disc of radius ``DENSITY · spacing · sqrt(n)``.
DENSITY = 0.95
#: Room left between two cluster discs, in spacings.
GAP = 1.5
_PUSH_ROUNDS = 300


def _fr(n: int, edges: list[tuple[int, int]], weights: list[float] | None, seed: int
        ) -> np.ndarray:
    """igraph's Fruchterman-Reingold of ``n`` nodes, drawing from ``random.Random(seed)``."""
    import igraph as ig

    from kg.analysis._igraph import seeded

    g = ig.Graph(n=n, edges=edges, directed=False)
    with seeded(seed):
        coords = ig.GraphBase.layout_fruchterman_reingold(g, weights=weights,
                                                          niter=_iterations(n), grid="auto")
    return np.array(coords, dtype=float).reshape(n, 2)


def _scaled_weights(w: list[float]) -> list[float] | None:
    if not w:
        return None
    arr = np.array(w, dtype=float)
    med = float(np.median(arr)) or 1.0
    return [float(x) for x in np.clip(arr / med, 0.1, 10.0)]


def _disc(nodes: list[Hashable], G: nx.Graph, weight: str | None, seed: int,
          radius: float) -> np.ndarray:
    """The nodes of one cluster laid out and fitted into a disc of ``radius``."""
    n = len(nodes)
    if n == 1:
        return np.zeros((1, 2))
    if n == 2:
        return np.array([[-radius / 2, 0.0], [radius / 2, 0.0]])
    index = {v: i for i, v in enumerate(nodes)}
    edges: list[tuple[int, int]] = []
    w: list[float] = []
    for v in nodes:
        i = index[v]
        for u, d in G[v].items():
            j = index.get(u)
            if j is not None and i < j:
                edges.append((i, j))
                w.append(float(d.get(weight, 1.0)) if weight else 1.0)
    xy = _fr(n, edges, _scaled_weights(w) if weight else None, seed)
    xy -= xy.mean(axis=0)
    # scaled as a uniform disc of ``radius`` would be (root mean square
    # distance from the centre radius / sqrt 2); stragglers pulled in
    rms = math.sqrt(float((xy ** 2).sum(axis=1).mean())) or 1.0
    xy *= radius / math.sqrt(2) / rms
    r = np.sqrt((xy ** 2).sum(axis=1))
    far = r > radius * 1.1
    xy[far] *= (radius * 1.1 / r[far])[:, None]
    return xy


def _centres(sizes: np.ndarray, links: dict[tuple[int, int], float], seed: int,
             gap: float) -> np.ndarray:
    """Centres of discs of radii ``sizes``: linked ones close, none overlapping."""
    k = len(sizes)
    if k == 1:
        return np.zeros((1, 2))
    pairs = sorted(links)
    xy = _fr(k, pairs, _scaled_weights([links[p] for p in pairs]), seed)
    xy -= xy.mean(axis=0)
    # start with the discs roughly apart: the mean link as long as two mean radii
    if pairs:
        d = np.array([np.hypot(*(xy[a] - xy[b])) for a, b in pairs])
        scale = 2 * float(sizes.mean()) / (float(np.median(d)) or 1.0)
    else:
        scale = 2 * float(sizes.mean())
    xy *= scale
    need = sizes[:, None] + sizes[None, :] + gap
    np.fill_diagonal(need, 0.0)
    area = math.sqrt(float((sizes ** 2).sum()))
    for _ in range(_PUSH_ROUNDS):
        # a gentle pull to the middle, then overlaps pushed apart (the bigger disc moves less)
        xy *= 0.98 if float(np.abs(xy).max()) > area else 1.0
        diff = xy[:, None, :] - xy[None, :, :]
        dist = np.sqrt((diff ** 2).sum(axis=2))
        np.fill_diagonal(dist, np.inf)
        over = need - dist
        over[over < 0] = 0.0
        if not over.any():
            break
        dist[dist == 0] = 1e-6
        share = sizes[None, :] / (sizes[:, None] + sizes[None, :])
        move = (diff / dist[:, :, None]) * (over * share)[:, :, None]
        xy += move.sum(axis=1) * 0.5
    return xy


def cluster_layout(G: nx.Graph, membership: Mapping[Any, int], *, seed: int = 0,
                   spacing: float = SPACING, weight: str | None = None
                   ) -> dict[Hashable, tuple[int, int]]:
    """Integer ``(x, y)`` positions of ``G``'s nodes, each cluster in a region.

    Parameters
    ----------
    G : networkx.Graph
        Undirected; its node order decides ties, so build it in a
        deterministic order.
    membership : mapping
        Each node's cluster (any integers; a node missing is a cluster of its own).
    seed : int
        Seed of the force layouts.
    spacing : float
        Roughly the distance between neighbouring nodes, in pixels.
    weight : str, optional
        An edge attribute: stronger links pull their ends closer, and
        clusters with stronger links between them sit closer.

    Returns
    -------
    dict
        ``node -> (x, y)``, centred on the origin.
    """
    if G.number_of_nodes() == 0:
        return {}
    own = max(membership.values(), default=-1) + 1
    cluster_of: dict[Hashable, int] = {}
    ids: dict[int, int] = {}
    clusters: list[list[Hashable]] = []
    alone: set[Hashable] = set()
    for comp in nx.connected_components(G):
        if len(comp) <= CIRCLE_MAX:
            alone |= comp
    small = [v for v in G if v in alone]
    if len(small) == len(G):
        return layout(G, seed=seed, spacing=spacing, weight=weight)
    for v in G:
        if v in alone:
            continue
        c = membership.get(v)
        if c is None:
            c, own = own, own + 1
        if c not in ids:
            ids[c] = len(clusters)
            clusters.append([])
        cluster_of[v] = ids[c]
        clusters[ids[c]].append(v)
    radii = np.array([DENSITY * spacing * math.sqrt(len(c)) for c in clusters])
    links: dict[tuple[int, int], float] = {}
    for u, v, d in G.edges(data=True):
        if u in alone:
            continue
        a, b = cluster_of[u], cluster_of[v]
        if a != b:
            key = (min(a, b), max(a, b))
            links[key] = links.get(key, 0.0) + (float(d.get(weight, 1.0)) if weight else 1.0)
    centres = _centres(radii, links, seed, GAP * spacing)
    out: dict[Hashable, tuple[int, int]] = {}
    for i, nodes in enumerate(clusters):
        xy = _disc(nodes, G, weight, seed, float(radii[i])) + centres[i]
        for v, (x, y) in zip(nodes, xy, strict=True):
            out[v] = (int(round(x)), int(round(y)))
    xs = [p[0] for p in out.values()]
    ys = [p[1] for p in out.values()]
    dx, dy = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
    out = {v: (x - dx, y - dy) for v, (x, y) in out.items()}
    if small:  # the small parts packed under the map, as layout() packs them
        rest = layout(ordered_subgraph(G, small), seed=seed, spacing=spacing, weight=weight)
        top = (max(ys) - min(ys)) / 2 + GAP * spacing - min(y for _, y in rest.values())
        out.update((v, (x, int(round(y + top)))) for v, (x, y) in rest.items())
    return out


def leiden_layout(G: nx.Graph, *, seed: int = 0, weight: str | None = None
                  ) -> dict[Hashable, tuple[int, int]]:
    """:func:`cluster_layout` of ``G``'s Leiden communities (modularity on
    ``weight``, or on link counts; seeded), for views coloured otherwise."""
    from kg.analysis.communities import leiden

    if not G.number_of_edges():
        return cluster_layout(G, {}, seed=seed)
    H = nx.Graph()
    H.add_nodes_from(G)
    H.add_edges_from((u, v, {"weight": float(d.get(weight, 1.0)) if weight else 1.0})
                     for u, v, d in G.edges(data=True))
    membership = dict(leiden(H, seed=seed).membership)
    return cluster_layout(G, membership, seed=seed, weight=weight)


def silhouette(points: Sequence[Sequence[float]], labels: Sequence[Any]) -> float:
    """The mean silhouette of ``points`` grouped by ``labels`` (Rousseeuw 1987).

    For a point, ``a`` is its mean distance to the others of its cluster and
    ``b`` the smallest mean distance to another cluster's points; its
    silhouette is ``(b - a) / max(a, b)``, 0 in a cluster of one (as
    scikit-learn's ``silhouette_score``). Euclidean distances.

    >>> round(silhouette([(0, 0), (0, 1), (10, 0), (10, 1)], [0, 0, 1, 1]), 3)
    0.9
    """
    xy = np.asarray(points, dtype=float)
    lab = np.asarray(labels)
    kinds = np.unique(lab)
    if len(kinds) < 2 or len(kinds) >= len(lab):
        raise ValueError("silhouette needs 2 to n-1 clusters")
    dist = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2))
    masks = [lab == k for k in kinds]
    sums = np.stack([dist[:, m].sum(axis=1) for m in masks], axis=1)
    counts = np.array([m.sum() for m in masks], dtype=float)
    own = np.searchsorted(kinds, lab)
    n_own = counts[own]
    a = np.where(n_own > 1, sums[np.arange(len(lab)), own] / np.maximum(n_own - 1, 1), 0.0)
    mean_other = sums / counts[None, :]
    mean_other[np.arange(len(lab)), own] = np.inf
    b = mean_other.min(axis=1)
    s = np.where(n_own > 1, (b - a) / np.maximum(np.maximum(a, b), 1e-12), 0.0)
    return float(s.mean())
