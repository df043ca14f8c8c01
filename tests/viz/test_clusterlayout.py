"""kg.viz.clusterlayout: each cluster in a region of its own, deterministic; the silhouette."""
from __future__ import annotations

import math

import networkx as nx
import pytest

from kg.viz.clusterlayout import DENSITY, cluster_layout, leiden_layout, silhouette
from kg.viz.layout import SPACING


def planted(k: int = 5, size: int = 30, seed: int = 2, p_in: float = 0.25, p_out: float = 0.05
            ) -> tuple[nx.Graph, dict[int, int]]:
    """``k`` groups of ``size`` nodes, by default a quarter of their pairs linked
    inside and one in twenty across (real concept maps are as mixed), nodes interleaved."""
    G = nx.planted_partition_graph(k, size, p_in, p_out, seed=seed)
    H = nx.Graph()  # the groups interleaved in node order, so order gives nothing away
    H.add_nodes_from(sorted(G, key=lambda v: (v % size, v)))
    H.add_edges_from((u, v, {"weight": 1.0 + (u + v) % 3}) for u, v in G.edges())
    return H, {v: v // size for v in H}


def _disc(pos, nodes) -> tuple[float, float, float]:
    xs = [pos[v][0] for v in nodes]
    ys = [pos[v][1] for v in nodes]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    return cx, cy, max(math.hypot(x - cx, y - cy) for x, y in zip(xs, ys, strict=True))


def test_each_cluster_gets_a_region_of_its_own():
    G, member = planted()
    pos = cluster_layout(G, member, seed=0, weight="weight")
    assert set(pos) == set(G) and pos == cluster_layout(G, member, seed=0, weight="weight")
    assert all(isinstance(c, int) for xy in pos.values() for c in xy)
    groups = [[v for v in G if member[v] == c] for c in range(5)]
    # every node is nearer its own cluster's centre than any other's
    centres = [_disc(pos, g)[:2] for g in groups]
    for v, (x, y) in pos.items():
        d = [math.hypot(x - cx, y - cy) for cx, cy in centres]
        assert d.index(min(d)) == member[v], v
    # no two nodes on one spot
    assert len(set(pos.values())) == len(pos)
    # the discs are sized by their clusters
    radius = DENSITY * SPACING * math.sqrt(30)
    for c in range(5):
        assert _disc(pos, groups[c])[2] <= 1.15 * radius
    assert silhouette([pos[v] for v in G], [member[v] for v in G]) > 0.5
    # the whole-graph force layout interleaves them
    from kg.viz.layout import layout

    flat = layout(G, seed=0, weight="weight")
    assert silhouette([flat[v] for v in G], [member[v] for v in G]) < 0.3


def test_linked_clusters_sit_closer_than_unlinked_ones():
    # a chain of three cliques: the two ends are linked only through the middle
    G = nx.Graph()
    for c in range(3):
        G.add_edges_from((20 * c + i, 20 * c + j, {"weight": 1.0})
                         for i in range(20) for j in range(i + 1, 20))
    G.add_edge(0, 20, weight=5.0)
    G.add_edge(21, 40, weight=5.0)
    member = {v: v // 20 for v in G}
    pos = cluster_layout(G, member, weight="weight")
    c0, c1, c2 = (_disc(pos, [v for v in G if member[v] == c])[:2] for c in range(3))
    assert math.dist(c0, c1) < math.dist(c0, c2) and math.dist(c1, c2) < math.dist(c0, c2)


def test_small_parts_and_lone_nodes_go_under_the_map():
    G, member = planted(k=2)
    G.add_edge("a", "b")
    G.add_node("lone")
    pos = cluster_layout(G, member)
    lowest = max(pos[v][1] for v in G if isinstance(v, int))
    assert all(pos[v][1] > lowest for v in ("a", "b", "lone"))
    assert len(set(pos.values())) == len(pos)


def test_leiden_layout_finds_the_clusters_itself():
    G, member = planted(k=3, p_in=0.4, p_out=0.01)
    pos = leiden_layout(G, seed=0, weight="weight")
    assert pos == leiden_layout(G, seed=0, weight="weight")
    assert silhouette([pos[v] for v in G], [member[v] for v in G]) > 0.5
    assert leiden_layout(nx.empty_graph(3)) == cluster_layout(nx.empty_graph(3), {})
    assert cluster_layout(nx.Graph(), {}) == {}


def test_silhouette_matches_its_definition():
    pts = [(0, 0), (0, 2), (6, 0), (6, 2), (20, 0)]
    lab = [0, 0, 1, 1, 2]
    # point 0: a = 2, b = mean(6, sqrt(40)) to cluster 1; point 4 alone: 0
    b0 = (6 + math.sqrt(40)) / 2
    s0 = (b0 - 2) / b0
    got = silhouette(pts, lab)
    b2 = (6 + math.sqrt(40)) / 2
    s2 = (b2 - 2) / b2
    assert got == pytest.approx((2 * s0 + 2 * s2 + 0) / 5)
    with pytest.raises(ValueError):
        silhouette(pts, [0] * 5)
