"""Communities, strongest pairs, ego networks and the data caveats."""
from __future__ import annotations

import networkx as nx
import pytest

from kg.analysis.caveats import data_caveats, name_variants
from kg.analysis.communities import describe, leiden, louvain, modularity, paper_communities
from kg.analysis.graphs import coauthor_graph
from kg.identity import fold_name
from kg.models import Build, Corpus, Extraction, Mention, Paper, Track


def papers(*lists, **kw):
    return tuple(Paper(f"p{i}", tuple(a), f"abstract {i}", **kw) for i, a in enumerate(lists))


# two triangles joined by the edge c-d
BRIDGED = Corpus(papers("ab", "bc", "ca", "de", "ef", "fd", "cd"))


def test_modularity_by_hand():
    G = coauthor_graph(BRIDGED)
    # m = 7; each side: 3 internal edges, degree sum 7 -> 2 (3/7 - (7/14)^2)
    q = modularity(G, {"a": 0, "b": 0, "c": 0, "d": 1, "e": 1, "f": 1})
    assert q == pytest.approx(2 * (3 / 7 - 0.25))
    assert modularity(G, dict.fromkeys(G, 0)) == pytest.approx(0.0)
    assert q == pytest.approx(nx.community.modularity(G, [{"a", "b", "c"}, {"d", "e", "f"}]))


@pytest.mark.parametrize("method", [leiden, louvain])
def test_finds_the_two_triangles(method):
    G = coauthor_graph(BRIDGED)
    p = method(G, seed=0)
    assert p.sizes == (3, 3)
    assert p.modularity == pytest.approx(2 * (3 / 7 - 0.25))
    groups = sorted(sorted(c) for c in p.communities())
    assert groups == [["a", "b", "c"], ["d", "e", "f"]]
    assert p.membership["a"] == 0  # ties in size: the community of the first node is 0


def test_two_components_and_star():
    two = coauthor_graph(Corpus(papers("ab", "bc", "ca", "de")))
    p = leiden(two)
    assert p.sizes == (3, 2)
    # 2 communities: (3/4 - (6/8)^2) + (1/4 - (2/8)^2)
    assert p.modularity == pytest.approx(0.375)
    star = coauthor_graph(Corpus(papers("sa", "sb", "sc", "sd")))
    p = leiden(star)
    assert p.sizes == (5,) and p.modularity == pytest.approx(0.0)


def test_seeded_and_stable():
    G = nx.relabel_nodes(nx.karate_club_graph(), str)
    nx.set_edge_attributes(G, 1.0, "weight")
    for method in (leiden, louvain):
        a, b = method(G, seed=5), method(G, seed=5)
        assert a.membership == b.membership and a.modularity == b.modularity
        assert a.modularity > 0.35
        assert list(a.sizes) == sorted(a.sizes, reverse=True)


def test_no_edges():
    G = nx.Graph()
    G.add_nodes_from("xy")
    p = leiden(G)
    assert p.sizes == (1, 1) and p.modularity is None
    assert louvain(nx.Graph()).sizes == ()


def test_paper_communities_and_describe():
    t1, t2 = Track("Theory", "Game Theory"), Track("Optimization", "Convex")
    ps = (
        Paper("p0", ("A", "B"), "x0", track=t1), Paper("p1", ("B", "C"), "x1", track=t1),
        Paper("p2", ("C", "A"), "x2", track=t2), Paper("p3", ("D", "E"), "x3", track=t2),
        Paper("p4", ("E", "F"), "x4"), Paper("p5", ("F", "D"), "x5"),
        Paper("p6", ("C", "D"), "x6"),
    )
    ex = {p.id: Extraction(p.id, p.abstract, (Mention("BERT", "BERT", "model", 0, 2, key="bert"),))
          for p in ps[:3]}
    b = Build(Corpus(ps), ex)
    G = coauthor_graph(b.corpus)
    part = leiden(G)
    by_paper = paper_communities(b.corpus, part.membership)
    assert by_paper["p0"] == 0 and by_paper["p3"] == 1
    assert by_paper["p6"] == 0  # a 1-1 tie goes to the lower id
    d = describe(part, G, b)
    assert [c["size"] for c in d] == [3, 3]
    assert d[0]["papers"] == 4 and d[1]["papers"] == 3
    assert d[0]["tracks"] == [["Theory · Game Theory", 2], ["Optimization · Convex", 1]]
    assert d[0]["entities"] == [["BERT", 3]]
    assert d[1]["entities"] == [] and d[1]["tracks"] == [["Optimization · Convex", 1]]
    assert d[0]["internal_edges"] == 3
    assert d[0]["authors"][0] == ["C", 3]  # C wrote p1, p2, p6


def test_caveats():
    c = Corpus((
        Paper("1", tuple("ABCDEFGHIJ"), "x", authors_truncated=True),
        Paper("2", ("Michał Nowak", "Zoë Li"), "y", authors_truncated=True),
        Paper("3", ("Michal Nowak",), "z"),
        Paper("4", ("Zoe Li", "Jean-Luc Picard"), "w"),
        Paper("5", ("JeanLuc Picard",), "v"),
        Paper("6", (), "u"),
    ))
    d = data_caveats(c)
    assert d["papers"] == 6 and d["truncated_papers"] == 2
    assert d["truncated_share"] == pytest.approx(2 / 6)
    assert d["authors_shown_on_truncated_papers"] == 12
    assert d["missing_coauthor_links_at_least"] == 12
    assert d["hidden_authorships_at_least"] == 2
    assert (d["single_author_papers"], d["papers_without_authors"]) == (2, 1)
    assert d["papers_listing_a_name_twice"] == 0
    assert d["possible_name_variants"] == 3
    assert ["michal nowak", "michał nowak"] in d["name_variant_examples"]
    assert "homonyms merge" in d["identity"]
    assert any("2 of 6 papers" in n for n in d["notes"])


def test_name_folding():
    assert fold_name("søren ørsted") == fold_name("soren orsted")
    assert fold_name("o'brien") == "obrien"
    assert name_variants(["a b", "ab", "c"]) == [["a b", "ab"]]
    assert name_variants([]) == []


def test_a_name_listed_twice_on_one_paper_is_reported():
    c = Corpus((Paper("1", ("Kun Xu", "Kun Xu", "Bo"), "x", authors_truncated=True),))
    d = data_caveats(c)
    assert d["papers_listing_a_name_twice"] == 1
    assert d["authors_shown_on_truncated_papers"] == 3  # names as listed
    assert d["missing_coauthor_links_at_least"] == 2  # distinct people shown


def test_caveats_name_teams_over_the_limit_only_when_there_is_one():
    from kg.util.teams import MAX_LINKED_TEAM

    small = Corpus((Paper("1", ("A", "B"), "x"),))
    assert "large_teams" not in data_caveats(small)
    assert not any("more than" in n for n in data_caveats(small)["notes"])
    n = MAX_LINKED_TEAM + 50
    big = Corpus((Paper("1", ("A", "B"), "x"),
                  Paper("2", tuple(f"Given{i} Family{i}" for i in range(n)), "y")))
    d = data_caveats(big)
    assert d["large_teams"] == {"max_linked_team": MAX_LINKED_TEAM, "papers": 1,
                                "authorships": n, "largest": n,
                                "pairs_not_linked": n * (n - 1) // 2}
    note = [t for t in d["notes"] if f"more than {MAX_LINKED_TEAM} authors" in t]
    assert len(note) == 1 and f"{n * (n - 1) // 2:,} co-author pairs" in note[0]


def test_report_of_ordinary_papers_is_unchanged_by_a_huge_team():
    """Ordinary papers plus one huge team: the ordinary figures stay as they were."""
    from kg.analysis import analyse
    from kg.util.teams import MAX_LINKED_TEAM

    ordinary = [Paper(f"p{i}", (f"A{i}", f"A{i + 1}", f"B{i % 3}"), f"x{i}") for i in range(30)]
    huge = Paper("big", tuple(f"Given{i} Family{i}" for i in range(3 * MAX_LINKED_TEAM)), "y")
    alone = analyse(Corpus(tuple(ordinary))).report
    both = analyse(Corpus((*ordinary, huge))).report
    assert both["strongest_pairs"] == alone["strongest_pairs"]
    assert both["network"]["edges"] == alone["network"]["edges"]
    assert both["network"]["nodes"] == alone["network"]["nodes"] + 3 * MAX_LINKED_TEAM
    assert both["network"]["isolates"] == alone["network"]["isolates"] + 3 * MAX_LINKED_TEAM
    assert both["network"]["components"]["largest"] == alone["network"]["components"]["largest"]
    assert both["network"]["largest_component"] == alone["network"]["largest_component"]
    assert both["productivity"]["paper_person_links"] == alone["productivity"]["paper_person_links"] + 3 * MAX_LINKED_TEAM
    def top(r: dict, metric: str) -> list:
        return [(a["name"], a[metric]) for a in r["centrality"]["top"][metric]
                if not a["name"].startswith("Given")]

    for metric in ("collaborators", "strength"):
        assert top(both, metric) == top(alone, metric)[:len(top(both, metric))]
    assert both["caveats"]["large_teams"]["papers"] == 1
