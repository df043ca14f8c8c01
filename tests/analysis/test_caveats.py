"""The homonym caveat: names whose ego network looks like several people."""
from __future__ import annotations

from kg.analysis import analyse
from kg.analysis._igraph import from_data
from kg.analysis.caveats import HOMONYM_MAX_CLUSTERING, homonym_suspects
from kg.analysis.graphs import coauthor_data
from kg.models import Corpus, Paper


def corpus(*lists):
    return Corpus(tuple(Paper(f"p{i}", tuple(a), f"abstract {i}") for i, a in enumerate(lists)))


# "Wei Li" writes with three teams that never meet; "Ann" writes three papers
# with one team whose members also write with each other.
SYNTH = corpus(
    ("Wei Li", "A1", "A2", "A3"), ("Wei Li", "B1", "B2"), ("Wei Li", "C1", "C2", "C3"),
    ("Wei Li", "D1"),
    ("Ann", "T1", "T2"), ("Ann", "T2", "T3"), ("Ann", "T3", "T4"), ("T1", "T4"),
)


def test_the_name_with_separate_teams_is_flagged_with_its_evidence():
    d = homonym_suspects(from_data(coauthor_data(SYNTH)))
    assert [s["name"] for s in d["suspects"]] == ["Wei Li"]
    s = d["suspects"][0]
    # 9 co-authors; removing Wei Li leaves groups of 3, 3, 2 and a lone D1
    assert (s["papers"], s["collaborators"], s["groups"], s["group_sizes"]) == (4, 9, 3, [3, 3, 2, 1])
    # 3 + 3 + 1 links among 9 co-authors: 7 / 36
    assert s["clustering"] == round(7 / 36, 6) < HOMONYM_MAX_CLUSTERING
    assert s["largest_share"] == round(3 / 9, 6)
    assert d["flagged"] == 1 and d["examined"] == 15


def test_a_connected_team_is_not_flagged_and_two_groups_are_not_enough():
    d = homonym_suspects(from_data(coauthor_data(corpus(*(p.authors for p in SYNTH.papers[4:])))))
    assert d["suspects"] == [] and d["flagged"] == 0
    two = corpus(*(p.authors for p in SYNTH.papers[:2]))
    assert homonym_suspects(from_data(coauthor_data(two)))["suspects"] == []


def test_the_report_carries_the_caveat_and_a_note_naming_the_suspect():
    cav = analyse(SYNTH).report.caveats
    assert cav.homonyms is not None and cav.homonyms.suspects[0].name == "Wei Li"
    assert cav.homonyms.suspects[0].group_sizes == (3, 3, 2, 1)
    note = cav.notes[-1]
    assert "Wei Li (4 papers, 9 co-authors in 3 groups 3/3/2/1, clustering 0.19)" in note
    assert cav.to_json()["homonyms"]["rule"].startswith("of the 50 authors")


def test_on_the_sample_the_caveat_is_there_and_consistent(sample_corpus):
    cav = analyse(sample_corpus).report.caveats
    h = cav.homonyms
    assert h is not None and h.examined > 0 and len(h.suspects) == min(h.flagged, 5)
    for s in h.suspects:
        assert s.groups >= 3 and s.clustering < HOMONYM_MAX_CLUSTERING
        assert sum(s.group_sizes) == s.collaborators
