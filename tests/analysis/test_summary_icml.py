"""On ICML 2024, the report's counts agree with an independent count from the truth file."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import networkx as nx
import pytest

from kg.analysis import analyse
from kg.identity import person_key


@pytest.fixture(scope="module")
def icml_report(icml_corpus):
    return analyse(icml_corpus).report


@pytest.fixture(scope="module")
def truth_counts(icml_truth):
    """Everything counted straight from truth.jsonl's authors_shown, without kg.analysis.graphs."""
    per_paper = []
    for row in icml_truth:
        keys = list(dict.fromkeys(k for k in map(person_key, row["authors_shown"]) if k))
        per_paper.append(keys)
    G = nx.Graph()
    for keys in per_paper:
        G.add_nodes_from(keys)
        G.add_edges_from(combinations(keys, 2))
    papers_of = Counter(k for keys in per_paper for k in keys)
    comps = sorted((len(c) for c in nx.connected_components(G)), reverse=True)
    cut = [row for row in icml_truth if row["authors_truncated"]]
    return {
        "papers": len(icml_truth),
        "authors": len(papers_of),
        "authorships": sum(len(k) for k in per_paper),
        "single": sum(1 for k in per_paper if len(k) == 1),
        "edges": G.number_of_edges(),
        "isolates": nx.number_of_isolates(G),
        "components": len(comps),
        "largest": comps[0],
        "degree_dist": sorted(Counter(d for _, d in G.degree()).items()),
        "ppa_dist": sorted(Counter(papers_of.values()).items()),
        "app_dist": sorted(Counter(len(k) for k in per_paper).items()),
        "truncated": len(cut),
        "shown_on_truncated": sum(len(r["authors_shown"]) for r in cut),
        "distinct_on_truncated": sum(len({person_key(a) for a in r["authors_shown"]}) for r in cut),
        "repeated": sum(1 for k, row in zip(per_paper, icml_truth, strict=True)
                        if len(k) < len(row["authors_shown"])),
        "transitivity": nx.transitivity(G),
    }


def test_counts_agree_with_truth(icml_report, truth_counts):
    r, t = icml_report, truth_counts
    prod, net = r["productivity"], r["network"]
    assert prod["papers"] == t["papers"] == 2610
    assert prod["people"] == t["authors"]
    assert prod["paper_person_links"] == t["authorships"]
    assert prod["single_author_papers"] == t["single"]
    assert [tuple(x) for x in prod["papers_per_author"]["distribution"]] == t["ppa_dist"]
    assert [tuple(x) for x in prod["authors_per_paper"]["distribution"]] == t["app_dist"]
    assert net["nodes"] == t["authors"] and net["edges"] == t["edges"]
    assert net["isolates"] == t["isolates"]
    assert [tuple(x) for x in net["collaborators_per_author"]["distribution"]] == t["degree_dist"]
    assert net["components"]["count"] == t["components"]
    assert net["components"]["largest"] == t["largest"]
    assert net["transitivity"] == pytest.approx(t["transitivity"], rel=1e-5)


def test_truncation_agrees_with_truth(icml_report, truth_counts):
    cav = icml_report["caveats"]
    assert cav["truncated_papers"] == truth_counts["truncated"] == 100
    assert cav["authors_shown_on_truncated_papers"] == truth_counts["shown_on_truncated"]
    # one cut list names "Kun Xu" twice: 1,000 names shown, 999 distinct people
    assert cav["missing_coauthor_links_at_least"] == truth_counts["distinct_on_truncated"] == 999
    assert cav["papers_listing_a_name_twice"] == truth_counts["repeated"] == 1


def test_icml_report_is_exact_at_this_size(icml_report):
    # 9.5k authors: every measure exact, and the report says so
    assert icml_report["network"]["largest_component"]["exact"] is True
    assert icml_report["centrality"]["method"]["exact"] is True
    leiden = icml_report["communities"]["leiden"]
    assert leiden["modularity"] > 0.9  # many small, separate groups
    assert leiden["count"] >= icml_report["network"]["components"]["count"]
    assert len(icml_report["centrality"]["top"]["betweenness"]) == 20


def test_the_homonym_caveat_names_yang_liu(icml_report):
    h = icml_report.caveats.homonyms
    names = [s.name for s in h.suspects]
    assert len(names) == 5 and "Yang Liu" in names
    yl = h.suspects[names.index("Yang Liu")]
    assert yl.groups >= 3 and yl.clustering < 0.2 and yl.collaborators >= 30
    assert any("Yang Liu (" in n for n in icml_report.caveats.notes)
