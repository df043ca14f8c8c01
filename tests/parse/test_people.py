"""The people file: merge spellings of one person, exclude names; errors name FILE:LINE."""
from __future__ import annotations

import csv
import io
import json

import pytest

from kg.analysis import analyse
from kg.analysis.graphs import coauthor_graph
from kg.cli import main
from kg.errors import ParseError
from kg.identity import person_key
from kg.models import Corpus, Paper
from kg.parse.people import apply_people, parse_people, read_people


def corpus(*lists):
    return Corpus(tuple(Paper(f"p{i}", tuple(a), f"abstract {i}") for i, a in enumerate(lists)))


# one person written two ways: "Yang Liu" (2 papers) and "Y. Liu" (1 paper)
SPLIT = corpus(("Yang Liu", "Ann"), ("Yang Liu", "Bob"), ("Y. Liu", "Cid", "Ann"),
               ("Anonymous", "Dee"))


def test_parse_rules_comments_and_case():
    rules = parse_people("# my fixes\n\nMerge: Yang Liu = Y. Liu = LIU Yang\n"
                         "exclude:  Anonymous \n")
    assert rules.merges == {"yang liu": "Yang Liu", "y. liu": "Yang Liu", "liu yang": "Yang Liu"}
    assert rules.excludes == {"anonymous"}
    assert not parse_people("# nothing\n")


@pytest.mark.parametrize("text, line, message", [
    ("merge: A = B\nrename: A = C\n", 2, "expected 'merge: NAME = NAME'"),
    ("merge: A\n", 1, "needs two different names"),
    ("merge: A = a\n", 1, "needs two different names"),
    ("merge: A = \n", 1, "a name is empty"),
    ("exclude:\n", 1, "exclude: needs a name"),
    ("merge: A = B\nmerge: C = B\n", 2, "'B' is already merged into 'A' on line 1"),
    ("exclude: B\n\nmerge: A = B\n", 3, "'B' is excluded on line 1"),
    ("merge: A = B\nexclude: b\n", 2, "is merged on line 1"),
    ("just a name\n", 1, "expected"),
])
def test_bad_lines_are_one_line_errors_naming_file_and_line(text, line, message):
    with pytest.raises(ParseError) as e:
        parse_people(text, "people.txt")
    assert str(e.value).startswith(f"people.txt:{line}: ") and message in str(e.value)
    assert "\n" not in str(e.value)


def test_a_merge_may_extend_an_earlier_one_keeping_its_first_spelling():
    rules = parse_people("merge: Yang Liu = Y. Liu\nmerge: yang liu = Liu Yang\n")
    assert set(rules.merges.values()) == {"Yang Liu"}


def test_merging_two_spellings_sums_papers_and_unites_coauthors():
    before = analyse(SPLIT).metrics
    col = {k: i for i, k in enumerate(before.keys)}
    papers = before.columns["papers"]
    assert papers[col["yang liu"]] == 2 and papers[col["y. liu"]] == 1
    merged = apply_people(SPLIT, parse_people("merge: Yang Liu = Y. Liu"))
    after = analyse(merged).metrics
    i = {k: i for i, k in enumerate(after.keys)}
    assert "y. liu" not in i and after.columns["papers"][i["yang liu"]] == 3
    G, H = coauthor_graph(SPLIT), coauthor_graph(merged)
    assert set(H["yang liu"]) == set(G["yang liu"]) | set(G["y. liu"]) == {"ann", "bob", "cid"}
    # the link to Ann was written by both spellings: now one link of 2 joint papers
    assert H["yang liu"]["ann"]["papers"] == 2
    assert H.number_of_nodes() == G.number_of_nodes() - 1


def test_exclude_removes_the_name_and_keeps_the_paper():
    out = apply_people(SPLIT, parse_people("exclude: anonymous"))
    assert len(out.papers) == len(SPLIT.papers) and out.papers[3].authors == ("Dee",)
    assert "anonymous" not in coauthor_graph(out)


def test_a_merged_person_listed_twice_on_a_paper_counts_once_and_others_stay():
    c = corpus(("Y. Liu", "Ann", "Yang Liu", "Bo", "Bo"))
    out = apply_people(c, parse_people("merge: Yang Liu = Y. Liu"))
    assert out.papers[0].authors == ("Yang Liu", "Ann", "Bo", "Bo")
    assert apply_people(c, parse_people("")) is c


def test_read_people_errors(tmp_path):
    with pytest.raises(ParseError, match="people file not found"):
        read_people(tmp_path / "missing.txt")
    (tmp_path / "bad.txt").write_bytes(b"merge: A = \xff\xfe\n")
    with pytest.raises(ParseError, match="bad.txt: not UTF-8"):
        read_people(tmp_path / "bad.txt")


LISTING = [
    {"title": "One", "authors": ["Yang Liu", "Ann Lee"], "track": "Theory",
     "abstract": "We study the first problem in depth."},
    {"title": "Two", "authors": ["Y. Liu", "Bob Ray", "Anonymous"], "track": "Vision",
     "abstract": "We study the second problem at length."},
    {"title": "Three", "authors": ["Yang Liu", "Cid Moe"], "track": "Theory",
     "abstract": "We study the third problem with care."},
]


def test_kg_build_people_reaches_every_output(tmp_path, capsys):
    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in LISTING))
    people = tmp_path / "people.txt"
    people.write_text("merge: Yang Liu = Y. Liu\nexclude: Anonymous\n")
    out = tmp_path / "out"
    assert main(["build", "-q", str(src), "-o", str(out), "--people", str(people)]) == 0
    authors = [a for line in (out / "corpus.jsonl").read_text().splitlines()
               for a in json.loads(line)["authors"]]
    assert authors.count("Yang Liu") == 3 and "Y. Liu" not in authors and "Anonymous" not in authors
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO((out / "authors.csv").read_text()))}
    assert rows["yang liu"]["papers"] == "3" and rows["yang liu"]["collaborators"] == "3"
    assert rows["yang liu"]["tracks"] == "Theory; Vision" and "y. liu" not in rows
    report = json.loads((out / "report.json").read_text())
    assert report["coauthors"]["productivity"]["people"] == 4
    ttl = (out / "graph.ttl").read_text()
    assert "Y. Liu" not in ttl and "Anonymous" not in ttl and '"Yang Liu"' in ttl
    # kg coauthors reads the build; a people file there applies on top of it
    capsys.readouterr()
    more = tmp_path / "more.txt"
    more.write_text("merge: Ann Lee = Bob Ray\n")
    assert main(["coauthors", "--json", "--from", str(out), "--people", str(more)]) == 0
    assert json.loads(capsys.readouterr().out)["productivity"]["people"] == 3


def test_a_bad_people_file_stops_the_build_before_any_work(tmp_path, capsys):
    people = tmp_path / "people.txt"
    people.write_text("merge: A = B\nmerge A = C\n")
    out = tmp_path / "out"
    assert main(["build", "-q", "-o", str(out), "--people", str(people)]) == 1
    err = capsys.readouterr().err
    assert err == f"kg: error: {people}:2: expected 'merge: NAME = NAME' or 'exclude: NAME', " \
                  "got 'merge A = C'\n"
    assert not out.exists()
    assert person_key("Yang  LIU") == "yang liu"  # the matching the format promises
