"""kg.viz.layout: positions are deterministic and keep nodes apart; a star's hub in its middle."""
from __future__ import annotations

import networkx as nx

from kg.viz.layout import layout

# ----------------------------------------------------------------- layout


def test_layout_is_deterministic_and_keeps_nodes_apart():
    G = nx.Graph()
    G.add_edges_from(nx.barabasi_albert_graph(300, 2, seed=3).edges())
    G.add_edges_from((1000 + i, 1000 + j) for i in range(5) for j in range(i + 1, 5))  # a clique
    G.add_node("alone")
    pos = layout(G, seed=1)
    assert set(pos) == set(G) and pos == layout(G, seed=1)
    assert all(isinstance(c, int) for xy in pos.values() for c in xy)
    assert len(set(pos.values())) == len(pos)  # no two nodes on one spot
    # the clique sits outside the big component's bounding box
    xs = [pos[v][0] for v in range(300)]
    ys = [pos[v][1] for v in range(300)]
    inside = [min(xs) <= pos[v][0] <= max(xs) and min(ys) <= pos[v][1] <= max(ys)
              for v in range(1000, 1005)]
    assert not all(inside)


def test_star_component_puts_its_hub_in_the_middle():
    G = nx.star_graph(5)  # hub 0 and 5 leaves
    pos = layout(G)
    cx = sum(p[0] for p in pos.values()) / 6
    cy = sum(p[1] for p in pos.values()) / 6
    assert abs(pos[0][0] - cx) < 10 and abs(pos[0][1] - cy) < 10
