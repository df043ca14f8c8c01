"""The bridge to igraph, which runs the heavy algorithms in C.

NetworkX stays the public data structure; the analysis converts once with
:func:`to_igraph` and maps results back to person keys. igraph draws random
numbers from a Python generator; :func:`seeded` swaps in a seeded one for
the duration of a call so results do not depend on global state.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import igraph as ig
import networkx as nx

if TYPE_CHECKING:
    from kg.analysis.graphs import CoauthorData


@dataclass(frozen=True)
class IGraph:
    """An undirected igraph copy of a NetworkX graph.

    ``keys[i]`` is the NetworkX node of igraph vertex ``i`` (nodes in the
    graph's own order); ``index`` the inverse; edge attributes ``weight``
    (1.0 where the NetworkX edge has none) and ``papers`` (1 where none);
    vertex attributes ``name`` and ``papers`` from the nodes' (the key and 0
    where none).
    """

    graph: ig.Graph
    keys: tuple[str, ...]
    index: dict[str, int]


def to_igraph(G: nx.Graph, weight: str = "weight") -> IGraph:
    """Convert ``G`` (undirected, simple) to an :class:`IGraph`.

    Examples
    --------
    >>> G = nx.Graph([("a", "b", {"weight": 2.0}), ("b", "c", {})])
    >>> h = to_igraph(G)
    >>> h.graph.vcount(), h.graph.ecount(), h.graph.es["weight"], h.graph.es["papers"]
    (3, 2, [2.0, 1.0], [1, 1])
    """
    keys = tuple(G.nodes)
    index = {k: i for i, k in enumerate(keys)}
    edges = []
    weights = []
    papers = []
    for i, (u, nbrs) in enumerate(G.adjacency()):
        for v, d in nbrs.items():
            j = index[v]
            if j > i or (j == i and u == v):
                edges.append((i, j))
                weights.append(float(d.get(weight, 1.0)))
                papers.append(int(d.get("papers", 1)))
    g = ig.Graph(n=len(keys), edges=edges, directed=False)
    g.es["weight"] = weights
    g.es["papers"] = papers
    nodes = G.nodes
    g.vs["name"] = [str(nodes[k].get("name", k)) for k in keys]
    g.vs["papers"] = [int(nodes[k].get("papers", 0)) for k in keys]
    return IGraph(graph=g, keys=keys, index=index)


def from_data(data: CoauthorData) -> IGraph:
    """An :class:`IGraph` straight from :class:`kg.analysis.graphs.CoauthorData`.

    The same graph as ``to_igraph(data.to_networkx())``, without building
    the NetworkX graph.

    Examples
    --------
    >>> from kg.analysis.graphs import coauthor_data
    >>> from kg.models import Corpus, Paper
    >>> h = from_data(coauthor_data(Corpus((Paper("1", ("A", "B"), "x"),))))
    >>> h.keys, h.graph.vs["name"], h.graph.es["weight"]
    (('a', 'b'), ['A', 'B'], [1.0])
    """
    import numpy as np

    keys = tuple(data.keys)
    edges = np.column_stack([data.source, data.target]).astype(np.int64).tolist()
    g = ig.Graph(n=len(keys), edges=edges, directed=False)
    g.es["weight"] = data.edge_weight.tolist()
    g.es["papers"] = data.edge_papers.tolist()
    g.vs["name"] = list(data.names)
    g.vs["papers"] = list(data.papers)
    return IGraph(graph=g, keys=keys, index={k: i for i, k in enumerate(keys)})


@contextmanager
def seeded(seed: int) -> Iterator[random.Random]:
    """Make igraph's random numbers come from ``random.Random(seed)``.

    Examples
    --------
    >>> g = ig.Graph.Famous("Zachary")
    >>> with seeded(1):
    ...     a = g.community_multilevel().membership
    >>> with seeded(1):
    ...     b = g.community_multilevel().membership
    >>> a == b
    True
    """
    rng = random.Random(seed)
    ig.set_random_number_generator(rng)
    try:
        yield rng
    finally:
        ig.set_random_number_generator(random)
