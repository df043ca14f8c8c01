"""kg.analysis.pairs: the strongest co-author pairs and an author's ego network."""
from __future__ import annotations

import pytest

from kg.analysis.graphs import coauthor_graph
from kg.analysis.pairs import ego_network, ego_summary, find_author, strongest_pairs
from kg.errors import KgError
from kg.models import Corpus
from tests.analysis.test_communities import papers


def test_strongest_pairs():
    c = Corpus(papers("AB", "AB", "ABC", "CD", "DE"))
    G = coauthor_graph(c)
    by_w = strongest_pairs(G, 3)
    assert [(p["a"], p["b"], p["papers"]) for p in by_w] == [
        ("A", "B", 3), ("C", "D", 1), ("D", "E", 1)]
    assert by_w[0]["weight"] == pytest.approx(2.5)
    by_p = strongest_pairs(G, 2, by="papers")
    assert [(p["a"], p["b"]) for p in by_p] == [("A", "B"), ("C", "D")]
    assert strongest_pairs(G, 0) == []
    with pytest.raises(ValueError):
        strongest_pairs(G, by="names")


def test_ego_network():
    G = coauthor_graph(Corpus(papers("AB", "AB", "AC", "BC", "CD", "DE")))
    assert find_author(G, "a") == "a" and find_author(G, " A ") == "a"
    with pytest.raises(KgError, match="no author named"):
        find_author(G, "Zed")
    assert sorted(ego_network(G, "A")) == ["a", "b", "c"]
    assert sorted(ego_network(G, "A", radius=2)) == ["a", "b", "c", "d"]
    s = ego_summary(G, "A")
    assert (s["name"], s["papers"], s["degree"], s["ego_nodes"], s["ego_edges"]) == ("A", 3, 2, 3, 3)
    assert s["density"] == 1.0 and s["clustering"] == 1.0
    assert s["collaborators"] == [["B", 2, 2.0], ["C", 1, 1.0]]
