"""kg.analysis.summary: the analysis from arrays is the analysis from NetworkX."""
from __future__ import annotations

import networkx as nx

from kg.analysis import analyse
from kg.analysis.graphs import coauthor_graph
from tests.report.test_exports import small_build


def test_analysis_from_arrays_equals_analysis_from_networkx():
    from kg.analysis import ego_summary

    b = small_build()
    G = coauthor_graph(b.corpus)
    fast, slow = analyse(b), analyse(b, G)
    assert fast.report == slow.report
    assert nx.utils.graphs_equal(fast.graph, G)
    assert list(fast.graph.edges(data=True)) == list(G.edges(data=True))
    assert ego_summary(G, "Ann Lee") == ego_summary(None, "ann lee", h=fast.igraph)
