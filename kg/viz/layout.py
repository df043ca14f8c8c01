"""Deterministic node positions, computed in Python so the browser runs no physics.

Each connected component is laid out on its own and the components are then
packed in rows, largest first, so a graph of many small teams (the usual
co-authorship graph) fills a rectangle instead of flying apart:

- one node: a point; up to :data:`CIRCLE_MAX` nodes: a circle (small
  components of co-author graphs are mostly cliques, which a circle shows
  best), best-connected first;
- larger: Fruchterman-Reingold, igraph's implementation (C; with its grid
  approximation and 300 rather than 500 iterations above 1,000 nodes) drawing random numbers from
  ``random.Random(seed)``. NetworkX's ``spring_layout`` needs SciPy from 500
  nodes on and its ``forceatlas2_layout`` is far slower than igraph's (bench/RESULTS.md),
  while the co-author graph of one conference has 10,000 people.

A force-directed component is scaled so its median edge is
:data:`EDGE_LENGTH` spacings long; coordinates are rounded to whole pixels:
the same graph and seed give the same positions, byte for byte.

Examples
--------
>>> import networkx as nx
>>> G = nx.Graph([(0, 1), (1, 2), (3, 4)])
>>> G.add_node(5)
>>> pos = layout(G)
>>> sorted(pos) == [0, 1, 2, 3, 4, 5], pos == layout(G)
(True, True)
"""
from __future__ import annotations

import math
from collections.abc import Hashable

import networkx as nx
import numpy as np

__all__ = ["layout", "CIRCLE_MAX", "SPACING", "EDGE_LENGTH"]

CIRCLE_MAX = 12
SPACING = 36.0
#: Median edge length of a force-directed component, in spacings.
EDGE_LENGTH = 3.0


def _circle(nodes: list[Hashable], G: nx.Graph, spacing: float) -> np.ndarray:
    """``nodes`` (best-connected first) on a circle; a hub of a star in its centre."""
    n = len(nodes)
    if n == 1:
        return np.zeros((1, 2))
    members = set(nodes)
    sub_edges = sum(1 for u in nodes for v in G[u] if v in members and v != u) // 2
    hub = n >= 4 and G.degree(nodes[0]) >= n - 1 and sub_edges < n * (n - 1) // 2
    ring = n - 1 if hub else n
    r = max(spacing * 1.5 if hub else spacing * 0.75, spacing * ring / (2 * math.pi))
    angles = np.pi / 2 - 2 * np.pi * np.arange(ring) / ring
    xy = np.column_stack((r * np.cos(angles), r * np.sin(angles)))
    return np.vstack((np.zeros((1, 2)), xy)) if hub else xy


def _edge_index(nodes: list[Hashable], G: nx.Graph) -> list[tuple[int, int]]:
    """The edges among ``nodes`` as sorted index pairs (never in set order)."""
    index = {v: i for i, v in enumerate(nodes)}
    out = set()
    for u in nodes:
        i = index[u]
        for v in G[u]:
            j = index.get(v)
            if j is not None and j != i:
                out.add((min(i, j), max(i, j)))
    return sorted(out)


def _edge_weights(nodes: list[Hashable], edges: list[tuple[int, int]], G: nx.Graph,
                  weight: str | None) -> list[float] | None:
    """Edge weights for the force layout, scaled to a median of 1 (``None``: unweighted)."""
    if weight is None or not edges:
        return None
    w = np.array([float(G.edges[nodes[i], nodes[j]].get(weight, 1.0)) for i, j in edges])
    med = float(np.median(w)) or 1.0
    return [float(x) for x in np.clip(w / med, 0.1, 10.0)]


def _iterations(n: int) -> int:
    """Fruchterman-Reingold iterations: igraph's 500, but 300 above 1,000 nodes,
    where the grid approximation runs and the ICML co-author graph's largest
    component looked the same at 300 as at 500 (its edge lengths alike) in less
    time (bench/RESULTS.md)."""
    return 500 if n <= 1000 else 300


def _igraph_fr(nodes: list[Hashable], edges: list[tuple[int, int]], seed: int,
               weights: list[float] | None = None) -> np.ndarray:
    import igraph as ig

    from kg.analysis._igraph import seeded

    g = ig.Graph(n=len(nodes), edges=edges, directed=False)
    with seeded(seed):
        # (GraphBase's method returns the plain list, without Layout's copy of it)
        coords = ig.GraphBase.layout_fruchterman_reingold(g, weights=weights,
                                                          niter=_iterations(len(nodes)),
                                                          grid="auto")
    return np.array(coords, dtype=float)


def _component_positions(nodes: list[Hashable], G: nx.Graph, seed: int, spacing: float,
                         weight: str | None = None) -> np.ndarray:
    n = len(nodes)
    if n <= CIRCLE_MAX:
        return _circle(nodes, G, spacing)
    edges = _edge_index(nodes, G)
    xy = _igraph_fr(nodes, edges, seed, _edge_weights(nodes, edges, G, weight))
    xy -= xy.mean(axis=0)
    # scale so the median edge is EDGE_LENGTH spacings long
    pairs = np.array(edges)
    lengths = np.sqrt(((xy[pairs[:, 0]] - xy[pairs[:, 1]]) ** 2).sum(axis=1))
    median = float(np.median(lengths)) or 1.0
    return xy * (spacing * EDGE_LENGTH / median)


def ordered_subgraph(G: nx.Graph, nodes: list[Hashable]) -> nx.Graph:
    """The subgraph of ``G`` on ``nodes``, its nodes in ``G``'s order.

    ``G.subgraph`` iterates a small node set in the set's own (hash) order, so
    a layout of it would change from run to run.

    Examples
    --------
    >>> G = nx.path_graph(["c", "b", "a", "d"])
    >>> list(ordered_subgraph(G, ["a", "b", "c"])), ordered_subgraph(G, ["a", "b"]).number_of_edges()
    (['c', 'b', 'a'], 1)
    """
    keep = set(nodes)
    H = nx.Graph()
    H.add_nodes_from((v, G.nodes[v]) for v in G if v in keep)
    H.add_edges_from((u, v, d) for u, v, d in G.edges(data=True) if u in keep and v in keep)
    return H


def layout(G: nx.Graph, *, seed: int = 0, spacing: float = SPACING,
           weight: str | None = None) -> dict[Hashable, tuple[int, int]]:
    """Integer ``(x, y)`` positions (screen pixels, y down) of every node of ``G``.

    Parameters
    ----------
    G : networkx.Graph
        Undirected; node order decides ties (which component, which node
        comes first), so build it in a deterministic order.
    seed : int
        Seed of the force-directed layouts.
    spacing : float
        Roughly the distance between neighbouring nodes, in pixels.
    weight : str, optional
        An edge attribute that pulls its ends closer in force layouts
        (stronger links, shorter edges); unweighted by default.

    Returns
    -------
    dict
        ``node -> (x, y)``.
    """
    if G.number_of_nodes() == 0:
        return {}
    order = {v: i for i, v in enumerate(G)}
    comps = [sorted(c, key=order.__getitem__) for c in nx.connected_components(G)]
    comps.sort(key=lambda c: (-len(c), order[c[0]]))
    # best-connected first inside a circle, then by node order
    placed: list[tuple[list[Hashable], np.ndarray, float]] = []
    for nodes in comps:
        if 1 < len(nodes) <= CIRCLE_MAX:
            nodes = sorted(nodes, key=lambda v: (-G.degree(v), order[v]))
        xy = _component_positions(nodes, G, seed, spacing, weight)
        radius = float(np.sqrt((xy ** 2).sum(axis=1)).max()) if len(nodes) > 1 else 0.0
        placed.append((nodes, xy, radius))

    # shelf packing: rows of cells as wide as each component, row width ~ sqrt(total area)
    gap = spacing * 1.5
    cells = [2 * r + gap for _, _, r in placed]
    width = max(max(cells, default=0.0), math.sqrt(sum(c * c for c in cells)) * 1.15)
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, c in enumerate(cells):
        if rows[-1] and used + c > width:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += c
    out: dict[Hashable, tuple[int, int]] = {}
    y = 0.0
    for row in rows:
        height = max(cells[i] for i in row)
        x = -sum(cells[i] for i in row) / 2
        for i in row:
            nodes, xy, _ = placed[i]
            cx, cy = x + cells[i] / 2, y + height / 2
            for v, (px, py) in zip(nodes, xy, strict=True):
                out[v] = (int(round(cx + px)), int(round(cy + py)))
            x += cells[i]
        y += height
    # centre the drawing on the origin
    if out:
        xs = [p[0] for p in out.values()]
        ys = [p[1] for p in out.values()]
        dx, dy = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
        out = {v: (px - dx, py - dy) for v, (px, py) in out.items()}
    return out
