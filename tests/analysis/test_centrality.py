"""Per-author measures against hand-worked values and independent computations."""
from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from kg.analysis._igraph import to_igraph
from kg.analysis.centrality import (
    author_metrics,
    betweenness,
    closeness,
    degree_centrality,
    eigenvector,
    pagerank,
)
from kg.analysis.graphs import coauthor_graph
from kg.models import Corpus, Paper


def graph(*edges: str) -> nx.Graph:
    return coauthor_graph(Corpus(tuple(Paper(str(i), tuple(e), f"x{i}")
                                       for i, e in enumerate(edges))))


def by_key(G: nx.Graph, values: np.ndarray) -> dict:
    return dict(zip(G.nodes, values.tolist(), strict=True))


TP = graph("ab", "bc", "ca", "cd")          # triangle plus pendant
TWO = graph("ab", "bc", "ca", "de")         # two components
STAR = graph("sa", "sb", "sc", "sd")        # star, centre s


def power_pagerank(G: nx.Graph, alpha: float = 0.85) -> dict:
    """PageRank by solving (I - alpha M) x = (1 - alpha)/n, dangling mass spread evenly."""
    nodes = list(G)
    n = len(nodes)
    A = nx.to_numpy_array(G, nodelist=nodes, weight="weight")
    out = A.sum(axis=1)
    M = np.zeros((n, n))
    for j in range(n):
        M[:, j] = A[j] / out[j] if out[j] else 1.0 / n
    x = np.linalg.solve(np.eye(n) - alpha * M, np.full(n, (1 - alpha) / n))
    return dict(zip(nodes, x / x.sum(), strict=True))


def test_triangle_plus_pendant_by_hand():
    h = to_igraph(TP)
    # c lies on the shortest paths a-d and b-d: 2 of (n-1)(n-2)/2 = 3 pairs
    assert by_key(TP, betweenness(h)) == pytest.approx({"a": 0, "b": 0, "c": 2 / 3, "d": 0})
    # closeness (n-1)/sum of distances: a 3/4, b 3/4, c 3/3, d 3/5
    assert by_key(TP, closeness(h)) == pytest.approx({"a": 0.75, "b": 0.75, "c": 1.0, "d": 0.6})
    assert by_key(TP, degree_centrality(h)) == pytest.approx(
        {"a": 2 / 3, "b": 2 / 3, "c": 1.0, "d": 1 / 3})
    # eigenvector: the leading eigenvector of the adjacency matrix, unit norm
    A = nx.to_numpy_array(TP, nodelist=list(TP))
    w, v = np.linalg.eigh(A)
    lead = np.abs(v[:, -1])
    assert eigenvector(h) == pytest.approx(lead / np.linalg.norm(lead))
    assert by_key(TP, pagerank(h)) == pytest.approx(power_pagerank(TP))


def test_two_components_by_hand():
    h = to_igraph(TWO)
    assert betweenness(h).tolist() == [0.0] * 5
    # Wasserman-Faust: triangle nodes reach 2 at distance 2 -> 1 * 2/4; d, e -> 1 * 1/4
    assert by_key(TWO, closeness(h)) == pytest.approx(
        {"a": 0.5, "b": 0.5, "c": 0.5, "d": 0.25, "e": 0.25})
    pr = by_key(TWO, pagerank(h))
    assert sum(pr.values()) == pytest.approx(1.0)
    assert pr == pytest.approx(power_pagerank(TWO))
    ev = by_key(TWO, eigenvector(h))
    # the triangle (eigenvalue 2) dominates the edge (eigenvalue 1)
    assert ev["d"] == ev["e"] == 0.0
    assert ev["a"] == pytest.approx(1 / math.sqrt(3))


def test_star_by_hand():
    h = to_igraph(STAR)
    assert by_key(STAR, betweenness(h))["s"] == pytest.approx(1.0)  # all 6 leaf pairs
    c = by_key(STAR, closeness(h))
    assert c["s"] == pytest.approx(1.0) and c["a"] == pytest.approx(4 / 7)
    ev = by_key(STAR, eigenvector(h))
    assert ev["s"] == pytest.approx(1 / math.sqrt(2))
    assert ev["a"] == pytest.approx(1 / math.sqrt(8))
    # x = 0.03 + 0.85 * 4y, y = 0.03 + 0.85 x / 4  ->  x = 0.132 / 0.2775
    pr = by_key(STAR, pagerank(h))
    assert pr["s"] == pytest.approx(0.132 / 0.2775)
    assert pr["a"] == pytest.approx(0.03 + 0.2125 * 0.132 / 0.2775)


def test_weights_change_pagerank_and_eigenvector_not_betweenness():
    # a-b wrote 3 papers together, b-c one: b's strongest tie pulls rank to a
    G = coauthor_graph(Corpus(tuple(Paper(str(i), p, f"x{i}") for i, p in enumerate(
        [("A", "B"), ("A", "B"), ("A", "B"), ("B", "C")]))))
    h = to_igraph(G)
    pr = by_key(G, pagerank(h))
    assert pr["a"] > pr["c"]
    assert pr == pytest.approx(power_pagerank(G))
    assert by_key(G, betweenness(h)) == pytest.approx({"a": 0, "b": 1, "c": 0})


def test_agrees_with_networkx_on_random_graphs():
    G = nx.gnm_random_graph(200, 500, seed=11)
    G.add_edges_from([(300, 301), (301, 302)])  # a second component
    h = to_igraph(G)
    nb = nx.betweenness_centrality(G)
    nc = nx.closeness_centrality(G)
    assert by_key(G, betweenness(h)) == pytest.approx(nb, abs=1e-12)
    assert by_key(G, closeness(h)) == pytest.approx(nc, abs=1e-12)
    assert by_key(G, degree_centrality(h)) == pytest.approx(nx.degree_centrality(G))
    C = nx.gnm_random_graph(100, 400, seed=5)
    assert by_key(C, eigenvector(to_igraph(C))) == pytest.approx(
        nx.eigenvector_centrality(C, tol=1e-12, max_iter=5000), abs=1e-6)


def test_sampled_betweenness_and_closeness():
    G = nx.connected_watts_strogatz_graph(800, 6, 0.2, seed=4)
    h = to_igraph(G)
    exact_b, exact_c = betweenness(h), closeness(h)
    # every node a pivot / source: the estimate is exact
    assert betweenness(h, exact_limit=10, samples=800) == pytest.approx(exact_b)
    assert closeness(h, exact_limit=10, samples=800) == pytest.approx(exact_c)
    # with 200 of 800: close, and deterministic for a seed
    est_b = betweenness(h, exact_limit=10, samples=200, seed=3)
    est_c = closeness(h, exact_limit=10, samples=200, seed=3)
    assert np.array_equal(est_b, betweenness(h, exact_limit=10, samples=200, seed=3))
    assert np.corrcoef(est_b, exact_b)[0, 1] > 0.9
    assert np.abs(est_c / exact_c - 1).max() < 0.1
    top_exact = set(np.argsort(-exact_b)[:10].tolist())
    top_est = set(np.argsort(-est_b)[:20].tolist())
    assert len(top_exact & top_est) >= 7
    # the same as NetworkX's own k-sample estimator with the same pivots
    import random
    pivots = sorted(random.Random(3).sample(range(800), 200))
    nxb = nx.betweenness_centrality_subset(G, pivots, list(G), normalized=False)
    scale = 800 / 200 * 2 / (799 * 798)
    assert est_b == pytest.approx(np.array([nxb[v] * scale for v in G]))


def test_author_metrics_table_and_top():
    m = author_metrics(TP)
    assert m.keys == ("a", "b", "c", "d")
    assert m.row("c")["collaborators"] == 3 and m.row("c")["papers"] == 3
    assert m.row("d")["strength"] == pytest.approx(1.0)
    top = m.top("betweenness", 2)
    assert [r["key"] for r in top] == ["c", "a"]  # ties (a, b, d at 0) broken by key
    assert m.top("closeness", 1)[0]["name"] == "c"
    assert m.method["exact"] is True
    sampled = author_metrics(nx.path_graph(30), exact_limit=10, samples=5)
    assert sampled.method["exact"] is False
    assert "estimated" in sampled.method["betweenness"]


def test_edge_cases():
    G = nx.Graph()
    G.add_node("x")
    h = to_igraph(G)
    assert betweenness(h).tolist() == [0.0] and closeness(h).tolist() == [0.0]
    assert eigenvector(h).tolist() == [0.0] and pagerank(h).tolist() == [1.0]
    assert degree_centrality(h).tolist() == [1.0]
    e = to_igraph(nx.Graph())
    assert betweenness(e).size == 0 and pagerank(e).size == 0


def test_pagerank_is_bit_for_bit_reproducible_on_a_large_graph():
    # igraph's PRPACK sums in OpenMP threads above about 4,000 nodes, so its last
    # digits changed from run to run; kg's own power iteration must not
    rng = np.random.default_rng(0)
    G = nx.Graph()
    G.add_nodes_from(range(6000))
    for u, v in rng.integers(0, 6000, size=(15000, 2)).tolist():
        if u != v:
            G.add_edge(u, v, weight=float(1 + (u * v) % 3))
    h = to_igraph(G)
    first = pagerank(h)
    assert all(np.array_equal(first, pagerank(h)) for _ in range(3))
    prpack = np.asarray(h.graph.pagerank(directed=False, weights="weight"))
    assert np.abs(first - prpack).max() < 1e-10 and abs(first.sum() - 1) < 1e-12


def test_pagerank_matches_the_linear_solve_with_dangling_nodes():
    G = graph("ab", "bc", "ca", "cd")
    G.add_node("lone")
    want = power_pagerank(G)
    got = by_key(G, pagerank(to_igraph(G)))
    assert all(abs(got[k] - want[k]) < 1e-12 for k in G)
