"""kg.analysis.graphs: the co-authorship graph and the whole knowledge graph."""
from __future__ import annotations

import pytest

from kg.analysis.graphs import (
    coauthor_graph,
    collaboration_weights,
    knowledge_graph,
    paper_author_keys,
)
from kg.models import Build, Corpus, Extraction, Mention, Paper, Track


def corpus(*author_lists, **kw) -> Corpus:
    return Corpus(tuple(Paper(f"p{i}", tuple(a), f"abstract {i}", **kw)
                        for i, a in enumerate(author_lists)))


def test_newman_weights_worked_example():
    # Newman (2001): a paper with n authors adds 1/(n-1) to each of its pairs.
    # P0 = {A, B, C}: 1/2 each; P1 = {A, B}: 1; P2 = {A, B, C, D}: 1/3 each.
    G = coauthor_graph(corpus(["A", "B", "C"], ["A", "B"], ["A", "B", "C", "D"]))
    assert G.edges["a", "b"]["papers"] == 3
    assert G.edges["a", "b"]["weight"] == pytest.approx(1 / 2 + 1 + 1 / 3)  # 11/6
    assert G.edges["a", "c"]["weight"] == pytest.approx(1 / 2 + 1 / 3)
    assert G.edges["b", "c"]["papers"] == 2
    for u, v in (("a", "d"), ("b", "d"), ("c", "d")):
        assert G.edges[u, v] == {"papers": 1, "weight": pytest.approx(1 / 3)}
    # an author's strength equals their number of papers with co-authors
    assert G.degree("a", weight="weight") == pytest.approx(3)
    assert G.degree("d", weight="weight") == pytest.approx(1)
    assert G.number_of_edges() == 6


def test_collaboration_weights_function_matches_graph():
    lists = [["a", "b", "c"], ["a", "b"], ["a", "b", "c", "d"], ["e"]]
    w = collaboration_weights(lists)
    assert w[("a", "b")] == (3, pytest.approx(11 / 6))
    assert ("e", "e") not in w and all("e" not in pair for pair in w)


def test_nodes_carry_name_papers_tracks():
    t1 = Track("Theory", "Game Theory", "Theory · Game Theory")
    t2 = Track("Deep Learning", None, "Deep Learning")
    c = Corpus((
        Paper("1", ("Zoë Li", "Bo"), "x", track=t1),
        Paper("2", ("zoë  li", "Cy"), "y", track=t2),
        Paper("3", ("Zoë Li",), "z", track=t2),
        Paper("4", ("Dee",), "w"),
    ))
    G = coauthor_graph(c)
    assert sorted(G) == ["bo", "cy", "dee", "zoë li"]
    z = G.nodes["zoë li"]
    assert z["papers"] == 3
    assert z["name"] == "Zoë Li"  # the spelling used most
    assert z["tracks"] == ("Deep Learning", "Theory · Game Theory")  # most frequent first
    assert G.nodes["dee"]["tracks"] == ()
    assert G.degree("dee") == 0  # a single-author paper: an isolated node
    assert G.edges["zoë li", "cy"]["papers"] == 1


def test_duplicate_and_blank_names_on_one_paper():
    p = Paper("1", ("Ann Lee", "ANN LEE", " ", "Bob"), "x")
    assert paper_author_keys(p) == ("ann lee", "bob")
    G = coauthor_graph(Corpus((p,)))
    # two distinct authors, so n = 2 and the pair weighs 1
    assert G.number_of_nodes() == 2
    assert G.edges["ann lee", "bob"]["weight"] == 1.0


def test_truncated_list_uses_shown_authors_only():
    G = coauthor_graph(corpus(["A", "B", "C"], authors_truncated=True))
    assert G.number_of_edges() == 3
    assert G.edges["a", "b"]["weight"] == pytest.approx(0.5)


def test_empty_corpus():
    G = coauthor_graph(Corpus(()))
    assert G.number_of_nodes() == 0 and G.number_of_edges() == 0


def test_graph_is_sorted_and_independent_of_paper_order():
    a = coauthor_graph(corpus(["C", "A"], ["B", "A"]))
    b = coauthor_graph(corpus(["B", "A"], ["A", "C"]))
    assert list(a.nodes) == list(b.nodes) == ["a", "b", "c"]
    assert list(a.edges(data=True)) == list(b.edges(data=True))


def test_knowledge_graph_kinds_and_relations():
    t = Track("Theory", "Game Theory", "Theory · Game Theory")
    p1 = Paper("p1", ("Ann", "Bob"), "We propose FooNet and use BERT and BERT.", track=t)
    p2 = Paper("p2", ("Ann",), "Another abstract.", track=Track("Theory", None, "Theory"),
               authors_truncated=True)
    ms = (Mention("FooNet", "FooNet", "model", 11, 17, proposed=True, key="foonet"),
          Mention("BERT", "BERT", "model", 26, 30, key="bert"),
          Mention("BERT", "BERT", "model", 35, 39, key="bert"))
    K = knowledge_graph(Build(Corpus((p1, p2)), {"p1": Extraction("p1", p1.abstract, ms)}))
    kinds = {n: d["kind"] for n, d in K.nodes(data=True)}
    assert kinds == {
        "paper:p1": "paper", "paper:p2": "paper", "person:ann": "person", "person:bob": "person",
        "track:Theory": "track", "track:Theory · Game Theory": "track",
        "entity:foonet": "entity", "entity:bert": "entity",
    }
    assert all("label" in d for _, d in K.nodes(data=True))
    assert K.nodes["person:ann"]["label"] == "Ann"
    assert K.nodes["paper:p2"]["truncated"] is True
    rel = sorted((u, v, d["relation"]) for u, v, d in K.edges(data=True))
    assert ("paper:p1", "track:Theory · Game Theory", "subject") in rel
    assert ("track:Theory · Game Theory", "track:Theory", "broader") in rel
    assert ("paper:p2", "track:Theory", "subject") in rel
    assert ("paper:p1", "entity:foonet", "proposes") in rel
    # one mentions edge per entity, counting its mentions
    bert = [d for u, v, d in K.edges(data=True) if v == "entity:bert"]
    assert bert == [{"relation": "mentions", "count": 2}]
    pos = {v: d["position"] for u, v, d in K.edges("paper:p1", data=True) if d["relation"] == "author"}
    assert pos == {"person:ann": 1, "person:bob": 2}
    # the broader link is added once however many papers use the subarea
    assert sum(1 for *_, d in K.edges(data=True) if d["relation"] == "broader") == 1


def _ordinary_and_huge(team: int):
    """Twenty ordinary papers, plus one of ``team`` authors sharing one author ("A0")."""
    ordinary = [[f"A{i}", f"A{i + 1}", f"B{i % 3}"] for i in range(20)]
    huge = ["A0"] + [f"Given{i} Family{i}" for i in range(team - 1)]
    return ordinary, huge


def test_a_team_over_the_limit_adds_people_but_no_pairs():
    from kg.util.teams import MAX_LINKED_TEAM

    ordinary, huge = _ordinary_and_huge(MAX_LINKED_TEAM + 1)
    alone = coauthor_graph(corpus(*ordinary))
    both = coauthor_graph(corpus(*ordinary, huge))
    # every author of the huge paper is a node, with the paper counted
    assert set(both) == set(alone) | {k.casefold() for k in huge}
    assert all(both.nodes[k.casefold()]["papers"] == 1 for k in huge[1:])
    assert both.nodes["a0"]["papers"] == alone.nodes["a0"]["papers"] + 1
    # the ordinary papers' pairs, papers and weights are exactly as without it
    assert sorted(both.edges(data=True)) == sorted(alone.edges(data=True))
    assert collaboration_weights([*ordinary, huge]) == collaboration_weights(ordinary)


def test_a_team_at_the_limit_still_links_every_pair():
    from kg.util.teams import MAX_LINKED_TEAM

    ordinary, huge = _ordinary_and_huge(MAX_LINKED_TEAM)
    G = coauthor_graph(corpus(*ordinary, huge))
    alone = coauthor_graph(corpus(*ordinary))
    n = MAX_LINKED_TEAM
    assert G.number_of_edges() == alone.number_of_edges() + n * (n - 1) // 2
    assert G.edges["given0 family0", "given1 family1"] == {"papers": 1, "weight": pytest.approx(1 / (n - 1))}
