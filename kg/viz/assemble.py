"""From an attributed NetworkX graph to a :class:`~kg.viz.network.ViewNetwork`.

:func:`assemble` is where every view ends: it applies the size caps (keeping
the top nodes by the view's stated measure, then the strongest edges, and
noting what was left out), lays the graph out in Python
(:func:`kg.viz.layout.layout`), numbers the nodes ``0 .. n-1`` and writes the
vis-network node and edge dicts, the legend, the track table and the
options (:func:`vis_options`: no physics, straight edges). A paper row
``[id, label, track labels]`` of the view's table gets the tracks' indices
instead, which the page's track filter counts papers by.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import networkx as nx

from kg.models import JsonObject
from kg.viz.layout import layout, ordered_subgraph
from kg.viz.network import LegendEntry, ViewNetwork
from kg.viz.style import Group

__all__ = ["assemble", "kept_nodes", "vis_options", "BIG_NODES", "BIG_EDGES", "MAX_NODES", "MAX_EDGES",
           "PAGE_ATTRS"]

#: Above this many nodes a view keeps the top ones by its stated measure.
MAX_NODES = 10_000
#: Above this many edges a view keeps the strongest ones.
MAX_EDGES = 40_000
#: From this size on the page hides edges while dragging or zooming and skips hover.
BIG_NODES = 2000
BIG_EDGES = 5000
#: Optional node attributes the page reads: ``o`` occurrences (the minimum-papers
#: control), ``top`` (the initial scope), ``p`` indices into the view's paper
#: table, ``pid`` a paper's id, ``q`` more text the search box matches.
PAGE_ATTRS = ("o", "top", "p", "pid", "q")
#: how a view ranks its nodes (best first: the lowest)
NodeScore = Callable[[Any], tuple[Any, ...]]


def kept_nodes(nodes: list[Hashable], max_nodes: int, node_score: NodeScore
               ) -> set[Hashable]:
    """The nodes :func:`assemble` keeps of ``nodes`` (a graph's nodes in its order): all
    of them, or above ``max_nodes`` the best by ``node_score`` (ties: node order).

    A view may ask before it builds the graph, to make the tooltips and links
    of the nodes shown only.

    >>> sorted(kept_nodes(["a", "b", "c"], 2, lambda v: (v == "a",)))
    ['b', 'c']
    """
    if len(nodes) <= max_nodes:
        return set(nodes)
    order = {v: i for i, v in enumerate(nodes)}
    return set(sorted(nodes, key=lambda v: (node_score(v), order[v]))[:max_nodes])


def assemble(
    net: ViewNetwork,
    G: nx.Graph,
    groups: Iterable[Group],
    *,
    max_nodes: int,
    max_edges: int,
    node_score: NodeScore,
    node_measure: str,
    edge_score: Callable[[Any, Any, JsonObject], tuple[Any, ...]] | None = None,
    edge_measure: str = "",
    seed: int = 0,
    weight: str | None = None,
    positions: dict[Hashable, tuple[int, int]] | None = None,
) -> ViewNetwork:
    """Cap, lay out and convert an attributed NetworkX graph into ``net``.

    Nodes of ``G`` carry ``group``, ``label``, ``name``, ``title``, ``value``,
    ``tracks`` and optionally ``extra`` (vis options); edges ``relation`` and
    optionally ``width`` and ``n`` (a count the page puts in the tooltip).
    ``weight`` names an edge attribute the layout pulls by; ``positions``
    may give some nodes' positions (the others are laid out). Nodes left out
    by ``max_nodes`` need a ``group`` only.
    """
    order = {v: i for i, v in enumerate(G)}
    total = G.number_of_nodes()
    groups = list(groups)
    group_label = {g.name: g.label for g in groups}
    if total > max_nodes:
        kept = kept_nodes(list(G), max_nodes, node_score)
        left = Counter(d["group"] for v, d in G.nodes(data=True) if v not in kept)
        net.notes.append(
            f"Big graph: this page shows {max_nodes:,} of {total:,} nodes, those with the "
            f"{node_measure}. Left out: "
            + ", ".join(f"{group_label.get(g, g)} {c:,}" for g, c in
                        sorted(left.items(), key=lambda kv: (-kv[1], kv[0]))) + ".")
        nodes = [v for v in G if v in kept]
    else:
        nodes = list(G)
    H = nx.Graph()
    H.add_nodes_from(nodes)
    # edges oriented and sorted by node order: the output never depends on set order
    keep = set(nodes)
    sub_edges = [(u, v, d) for u, nbrs in G.adjacency() if u in keep
                 for v, d in nbrs.items() if order[u] <= order[v] and v in keep]
    sub_edges.sort(key=lambda e: (order[e[0]], order[e[1]]))
    if len(sub_edges) > max_edges:
        assert edge_score is not None
        ranked_e = sorted(range(len(sub_edges)), key=lambda i: (edge_score(*sub_edges[i]), i))
        keep_e = sorted(ranked_e[:max_edges])
        net.notes.append(f"Big graph: this page shows the {max_edges:,} strongest of "
                         f"{len(sub_edges):,} links ({edge_measure}).")
        sub_edges = [sub_edges[i] for i in keep_e]
    H.add_edges_from(sub_edges)

    fixed = positions or {}
    # (a subgraph view of every node iterates as H does, only slower)
    pos = layout(ordered_subgraph(H, [v for v in nodes if v not in fixed]) if fixed else H, seed=seed,
                 weight=weight)
    pos.update((v, fixed[v]) for v in nodes if v in fixed)
    ids = {v: i for i, v in enumerate(nodes)}
    track_set = sorted({t for v in nodes for t in G.nodes[v].get("tracks", ())})
    track_ix = {t: i for i, t in enumerate(track_set)}
    vis_nodes = []
    for v in nodes:
        d = G.nodes[v]
        x, y = pos[v]
        node = {"id": ids[v], "label": d["label"], "name": d["name"], "title": d["title"],
                "group": d["group"], "value": d["value"], "x": x, "y": y}
        tr = d.get("tracks", ())
        if tr:
            node["t"] = [track_ix[t] for t in tr]
        node.update((k, d[k]) for k in PAGE_ATTRS if k in d)
        node.update(d.get("extra", {}))
        vis_nodes.append(node)
    vis_edges = []
    for u, v, d in sub_edges:
        e = {"from": ids[u], "to": ids[v], "relation": d["relation"]}
        if d.get("width", 1) != 1:
            e["width"] = d["width"]
        if "n" in d:
            e["n"] = d["n"]
        if "s" in d:  # association strength, for the tooltip
            e["s"] = d["s"]
        vis_edges.append(e)
    net.set_graph(vis_nodes, vis_edges)
    net.keys = nodes
    net.tracks = track_set
    net.papers = [_paper_row(row, track_ix) for row in net.papers]
    counts = Counter(G.nodes[v]["group"] for v in nodes)
    net.legend = [LegendEntry(g.name, g.label, g.colour, g.shape, counts[g.name], g.shown)
                  for g in groups if counts[g.name]]
    big = len(vis_nodes) > BIG_NODES or len(vis_edges) > BIG_EDGES
    net.options = vis_options(net.legend, big)
    return net


def _paper_row(row: list[Any], track_ix: dict[str, int]) -> list[Any]:
    """``[id, label, track labels]`` -> ``[id, label, track indices]``; ``[id, label]``
    when the view has no tracks (or the row gave none)."""
    if len(row) < 3 or not track_ix:
        return row[:2]
    return [row[0], row[1], [track_ix[t] for t in row[2] if t in track_ix]]


def vis_options(legend: list[LegendEntry], big: bool) -> JsonObject:
    """vis-network options: no physics, straight edges, value-scaled nodes."""
    return {
        "autoResize": True,
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False},
        "nodes": {
            "shape": "dot",
            "borderWidth": 1,
            "font": {"size": 12, "face": "system-ui, sans-serif", "color": "#222222"},
            "scaling": {"min": 6, "max": 24,
                        "label": {"enabled": True, "min": 10, "max": 22, "drawThreshold": 5,
                                  "maxVisible": 20}},
        },
        "edges": {"smooth": False, "width": 1, "selectionWidth": 2,
                  "color": {"inherit": False}},
        "interaction": {"hover": not big, "tooltipDelay": 150, "hideEdgesOnDrag": big,
                        "hideEdgesOnZoom": big, "multiselect": False, "keyboard": False},
        "groups": {e.group: {"color": e.colour, "shape": e.shape} for e in legend},
    }
