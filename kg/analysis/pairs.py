"""Who works with whom: the strongest collaborating pairs and ego networks.

Examples
--------
>>> from kg.analysis.graphs import coauthor_graph
>>> from kg.models import Corpus, Paper
>>> c = Corpus((Paper("1", ("A", "B"), "x"), Paper("2", ("A", "B", "C"), "y")))
>>> G = coauthor_graph(c)
>>> [(p["a"], p["b"], p["papers"], p["weight"]) for p in strongest_pairs(G, 2)]
[('A', 'B', 2, 1.5), ('A', 'C', 1, 0.5)]
>>> ego_summary(G, "c")["collaborators"]
[['A', 1, 0.5], ['B', 1, 0.5]]
"""
from __future__ import annotations

import networkx as nx
import numpy as np

from kg.analysis._igraph import IGraph, to_igraph
from kg.errors import KgError
from kg.identity import person_key
from kg.models import JsonObject

__all__ = ["strongest_pairs", "find_author", "ego_network", "ego_summary"]


def strongest_pairs(G: nx.Graph | None, n: int = 20, by: str = "weight",
                    h: IGraph | None = None) -> list[JsonObject]:
    """The ``n`` pairs with the largest ``by`` (``weight`` or ``papers``).

    Ties are broken by the other measure, then by the pair's names. ``h``
    may pass the graph's igraph copy (:func:`~kg.analysis._igraph.to_igraph`)
    to skip the conversion.

    Examples
    --------
    >>> G = nx.Graph()
    >>> G.add_edge("x", "y", papers=3, weight=1.0)
    >>> G.add_edge("y", "z", papers=1, weight=1.0)
    >>> [p["b"] for p in strongest_pairs(G, by="weight")]
    ['y', 'z']
    >>> strongest_pairs(nx.Graph()) == []
    True
    """
    if by not in ("weight", "papers"):
        raise ValueError("by must be 'weight' or 'papers'")
    other = "papers" if by == "weight" else "weight"
    h = h or to_igraph(G)
    g = h.graph
    if g.ecount() == 0 or n <= 0:
        return []
    prim = np.asarray(g.es[by], dtype=float)
    sec = np.asarray(g.es[other], dtype=float)
    order = np.lexsort((-sec, -prim))
    last = order[min(n, len(order)) - 1]
    t_prim, t_sec = prim[last], sec[last]
    chosen = np.flatnonzero((prim > t_prim) | ((prim == t_prim) & (sec >= t_sec)))
    names = g.vs["name"]
    rows = []
    for e in chosen.tolist():
        u, v = g.es[e].tuple
        a, b = sorted((names[u], names[v]))
        rows.append({"a": a, "b": b, "papers": int(g.es[e]["papers"]),
                     "weight": float(g.es[e]["weight"])})
    rows.sort(key=lambda r: (-r[by], -r[other], r["a"], r["b"]))
    return rows[:n]


def find_author(G: nx.Graph, author: str) -> str:
    """The node of ``author`` (a name as written or a person key).

    Raises
    ------
    KgError
        If no author has that name.

    Examples
    --------
    >>> find_author(nx.Graph([("ann lee", "bob")]), "Ann  LEE")
    'ann lee'
    """
    if author in G:
        return author
    key = person_key(author)
    if key in G:
        return key
    raise KgError(f"no author named {author!r} in the co-authorship graph")


def ego_network(G: nx.Graph, author: str, radius: int = 1) -> nx.Graph:
    """The subgraph of ``author`` and everyone within ``radius`` steps.

    Examples
    --------
    >>> sorted(ego_network(nx.path_graph(["a", "b", "c", "d"]), "a", 2))
    ['a', 'b', 'c']
    """
    return nx.ego_graph(G, find_author(G, author), radius=radius)


def ego_summary(G: nx.Graph | None, author: str, top: int = 10,
                h: IGraph | None = None) -> JsonObject:
    """An author's ego network in numbers, and their strongest collaborators.

    ``collaborators`` lists ``[name, joint papers, weight]``, strongest
    first (ties by name); ``density`` and ``clustering`` describe the ego
    network (how much the collaborators also work with each other). With
    ``h`` (the graph's igraph copy), ``G`` may be ``None``.
    """
    if h is None:
        h = to_igraph(nx.ego_graph(G, find_author(G, author)))
    g = h.graph
    key = author if author in h.index else person_key(author)
    if key not in h.index:
        raise KgError(f"no author named {author!r} in the co-authorship graph")
    v = h.index[key]
    nbrs = g.neighbors(v)
    ego = g.induced_subgraph(sorted([v, *nbrs]))
    names = g.vs["name"]
    rows = []
    for u in nbrs:
        e = g.es[g.get_eid(v, u)]
        rows.append([names[u], int(e["papers"]), float(e["weight"])])
    rows.sort(key=lambda r: (-r[2], -r[1], r[0]))
    n = ego.vcount()
    return {
        "name": names[v],
        "key": key,
        "papers": g.vs[v]["papers"],
        "degree": len(nbrs),
        "ego_nodes": n,
        "ego_edges": ego.ecount(),
        "density": (2 * ego.ecount() / (n * (n - 1))) if n > 1 else 0.0,
        "clustering": float(g.transitivity_local_undirected([v], mode="zero")[0]),
        "collaborators": rows[:top],
    }
