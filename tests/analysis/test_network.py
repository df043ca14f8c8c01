"""Whole-network statistics against values worked out by hand.

Three small graphs, each built from two-author papers (so every weight is 1):

- triangle plus pendant: a-b, b-c, c-a, c-d;
- two components: the triangle a-b-c and the edge d-e;
- a star: s joined to four leaves.
"""
from __future__ import annotations

import networkx as nx
import pytest

from kg.analysis._igraph import to_igraph
from kg.analysis.graphs import coauthor_graph
from kg.analysis.network import (
    bfs_sample,
    describe_counts,
    distance_stats,
    lotka,
    network_stats,
    productivity,
)
from kg.models import Corpus, Paper


def pairs(*edges: str) -> Corpus:
    return Corpus(tuple(Paper(str(i), tuple(e), f"x{i}") for i, e in enumerate(edges)))


TRIANGLE_PENDANT = pairs("ab", "bc", "ca", "cd")
TWO_COMPONENTS = pairs("ab", "bc", "ca", "de")
STAR = pairs("sa", "sb", "sc", "sd")


def stats(c: Corpus, **kw) -> dict:
    return network_stats(coauthor_graph(c), **kw)


def test_triangle_plus_pendant():
    s = stats(TRIANGLE_PENDANT)
    assert (s["nodes"], s["edges"], s["isolates"]) == (4, 4, 0)
    assert s["density"] == pytest.approx(8 / 12)
    assert s["collaborators_per_author"]["mean"] == 2
    assert s["collaborators_per_author"]["distribution"] == [[1, 1], [2, 2], [3, 1]]
    # 1 triangle; connected triples: 1 at a, 1 at b, 3 at c
    assert s["transitivity"] == pytest.approx(3 / 5)
    # local clustering a = b = 1, c = 1/3, d = 0
    assert s["mean_clustering"] == pytest.approx((1 + 1 + 1 / 3 + 0) / 4)
    # degree pairs at edge ends (both directions): r = -2.5 / 3.5
    assert s["degree_assortativity"] == pytest.approx(-5 / 7)
    assert s["components"] == {"count": 1, "sizes": [[4, 1]], "largest": 4,
                               "largest_share": 1.0, "largest_edges": 4}
    lc = s["largest_component"]
    # distances ab ac bc cd = 1, ad bd = 2: 8 / 6
    assert lc["mean_distance"] == pytest.approx(4 / 3)
    assert lc["diameter"] == 2 and lc["exact"] is True


def test_two_components():
    s = stats(TWO_COMPONENTS)
    assert s["components"]["count"] == 2
    assert s["components"]["sizes"] == [[2, 1], [3, 1]]
    assert s["components"]["largest"] == 3
    assert s["components"]["largest_share"] == pytest.approx(3 / 5)
    assert s["density"] == pytest.approx(8 / 20)
    assert s["transitivity"] == pytest.approx(1.0)  # 1 triangle, 3 triples
    assert s["mean_clustering"] == pytest.approx(3 / 5)
    assert s["degree_assortativity"] == pytest.approx(1.0)  # 2-2 and 1-1 edges only
    lc = s["largest_component"]
    assert (lc["nodes"], lc["mean_distance"], lc["diameter"]) == (3, 1.0, 1)


def test_star():
    s = stats(STAR)
    assert s["density"] == pytest.approx(0.4)
    assert s["transitivity"] == 0.0 and s["mean_clustering"] == 0.0
    assert s["degree_assortativity"] == pytest.approx(-1.0)
    assert s["collaborators_per_author"]["distribution"] == [[1, 4], [4, 1]]
    lc = s["largest_component"]
    # 4 pairs at distance 1 (centre-leaf), 6 at 2 (leaf-leaf)
    assert lc["mean_distance"] == pytest.approx(16 / 10)
    assert lc["diameter"] == 2


def test_assortativity_undefined_on_a_regular_graph():
    assert stats(pairs("ab", "bc", "ca"))["degree_assortativity"] is None


def test_empty_and_edgeless_graphs():
    s = network_stats(nx.Graph())
    assert s["nodes"] == 0 and s["density"] is None and s["components"]["count"] == 0
    assert s["largest_component"]["mean_distance"] is None
    G = nx.Graph()
    G.add_nodes_from("xyz")
    s = network_stats(G)
    assert s["isolates"] == 3 and s["density"] == 0.0 and s["transitivity"] == 0.0
    assert s["components"]["sizes"] == [[1, 3]]
    assert s["largest_component"]["diameter"] == 0


def test_agrees_with_networkx_on_a_random_graph():
    G = nx.gnm_random_graph(300, 900, seed=7)
    s = network_stats(G)
    assert s["transitivity"] == pytest.approx(nx.transitivity(G))
    assert s["mean_clustering"] == pytest.approx(nx.average_clustering(G))
    assert s["degree_assortativity"] == pytest.approx(nx.degree_assortativity_coefficient(G))
    assert s["density"] == pytest.approx(nx.density(G))
    big = G.subgraph(max(nx.connected_components(G), key=len))
    assert s["largest_component"]["mean_distance"] == pytest.approx(
        nx.average_shortest_path_length(big))
    assert s["largest_component"]["diameter"] == nx.diameter(big)


def test_sampled_distances_say_so_and_are_close():
    G = nx.connected_watts_strogatz_graph(1500, 6, 0.1, seed=3)
    exact = network_stats(G)["largest_component"]
    est = network_stats(G, exact_limit=1000, samples=150, seed=1)["largest_component"]
    assert exact["exact"] is True and est["exact"] is False
    assert "150 sources" in est["method"] and "seed 1" in est["method"]
    assert est["sources"] == 150
    assert est["mean_distance"] == pytest.approx(exact["mean_distance"], rel=0.03)
    assert est["diameter"] <= exact["diameter"]  # a lower bound
    assert est["diameter"] >= exact["diameter"] - 2
    again = network_stats(G, exact_limit=1000, samples=150, seed=1)["largest_component"]
    assert again == est  # a fixed seed gives the same estimate


def test_sampling_every_source_is_exact():
    G = nx.gnm_random_graph(60, 150, seed=2)
    h = to_igraph(G)
    comp = sorted(max(nx.connected_components(G), key=len))
    exact = distance_stats(h, comp)
    full = distance_stats(h, comp, exact_limit=1, samples=len(comp))
    assert full["mean_distance"] == pytest.approx(exact["mean_distance"])
    assert full["diameter"] == exact["diameter"]
    s = bfs_sample(h, comp, len(comp), seed=0)
    lengths = dict(nx.all_pairs_shortest_path_length(G))
    for v in comp[:10]:
        assert s.dist_sum[v] == pytest.approx(sum(lengths[v].values()))


def test_productivity_by_hand():
    c = Corpus((
        Paper("1", ("A", "B", "C"), "x"),
        Paper("2", ("A", "B"), "y"),
        Paper("3", ("A",), "z"),
        Paper("4", (), "w"),
    ))
    p = productivity(c)
    assert (p["papers"], p["people"], p["paper_person_links"]) == (4, 3, 6)
    assert (p["single_author_papers"], p["papers_without_authors"]) == (1, 1)
    assert p["authors_per_paper"]["distribution"] == [[0, 1], [1, 1], [2, 1], [3, 1]]
    assert p["authors_per_paper"]["mean"] == 1.5
    assert p["papers_per_author"]["distribution"] == [[1, 1], [2, 1], [3, 1]]
    assert p["papers_per_author"]["mean"] == 2.0 and p["papers_per_author"]["max"] == 3


def test_lotka_exact_power_law():
    fit = lotka([1] * 64 + [2] * 16 + [4] * 4)  # shares 64/84, 16/84, 4/84: beta = 2
    assert fit["beta"] == pytest.approx(2.0)
    assert fit["C"] == pytest.approx(64 / 84)
    assert fit["r2"] == pytest.approx(1.0)
    assert lotka([]) is None and lotka([3, 3]) is None


def test_describe_counts():
    d = describe_counts([1, 1, 2, 6])
    assert d == {"mean": 2.5, "median": 1.5, "min": 1, "max": 6,
                 "distribution": [[1, 2], [2, 1], [6, 1]]}
