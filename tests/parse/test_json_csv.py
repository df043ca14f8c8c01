"""JSON, JSON Lines, CSV/TSV and BibTeX inputs, and format sniffing."""
from __future__ import annotations

import json

import pytest

from kg.errors import ParseError
from kg.parse import read_corpus, sniff

ABS = "We study a problem at length, with care and many experiments on real data sets."
ABS2 = "A second abstract that is long enough to be an abstract, with results that hold."


def test_json_array_with_list_authors_and_track(write):
    recs = [{"title": "T1", "authors": ["A One", "B Two"], "track": "Theory · Game Theory",
             "abstract": ABS},
            {"title": "T2", "authors": "C Three; D Four", "primary_area": "Deep Learning",
             "abstract": ABS2}]
    c = read_corpus([write("x.json", json.dumps(recs, indent=2))])
    a, b = c.papers
    assert a.title == "T1" and a.authors == ("A One", "B Two")
    assert (a.track.area, a.track.subarea) == ("Theory", "Game Theory")
    assert b.authors == ("C Three", "D Four") and b.track.area == "Deep Learning"
    assert [p.sources[0].line for p in c.papers] == [2, 11]


def test_json_object_with_papers_key_and_author_objects(write):
    doc = {"papers": [{"authors": [{"name": "A One"}, {"given": "B", "family": "Two"}],
                       "summary": ABS, "topic": "Applications"}]}
    c = read_corpus([write("x.json", json.dumps(doc))])
    assert c.papers[0].authors == ("A One", "B Two")
    assert c.papers[0].track.area == "Applications"


def test_json_wrong_types_are_warnings_not_crashes(write):
    recs = [{"authors": 5, "abstract": ABS}, {"authors": ["A"], "abstract": ["x"]},
            "just a string", {"authors": ["A One"], "abstract": ABS2}]
    c = read_corpus([write("x.json", json.dumps(recs))])
    assert len(c.papers) == 1 and c.skipped == 3
    assert all("record skipped" in w.message for w in c.warnings)


def test_invalid_json_is_a_parse_error_with_line(write):
    with pytest.raises(ParseError, match=r"x\.json:3: invalid JSON"):
        read_corpus([write("x.json", '[\n{"abstract": "a"},\n{"abstract": }\n]')])


def test_jsonl_with_a_bad_line(write):
    text = (json.dumps({"authors": "A One, B Two", "abstract": ABS}) + "\n{oops\n"
            + json.dumps({"authors": ["C"], "abstract": ABS2, "authors_truncated": True}) + "\n")
    c = read_corpus([write("x.jsonl", text)])
    assert [p.authors for p in c.papers] == [("A One", "B Two"), ("C",)]
    assert c.papers[1].authors_truncated
    assert c.skipped == 1 and c.warnings[0].line == 2


def test_csv_with_newlines_and_quotes_in_abstract(write):
    text = ('title,authors,track,abstract\n'
            '"T1","A One; B Two","Theory","Line one,\nline ""two"" ' + ABS + '"\n'
            '"T2","C Three","","' + ABS2 + '"\n')
    c = read_corpus([write("x.csv", text)])
    a, b = c.papers
    assert a.abstract.startswith('Line one, line "two"')
    assert a.authors == ("A One", "B Two") and a.track.area == "Theory"
    assert b.track is None and b.sources[0].line == 4


def test_tsv(write):
    text = "authors\tabstract\nA One, B Two\t" + ABS + "\n"
    c = read_corpus([write("x.tsv", text)])
    assert c.papers[0].authors == ("A One", "B Two")


def test_csv_without_abstract_column(write):
    with pytest.raises(ParseError, match=r"x\.csv:1: no header row with an abstract column \(first row: title, authors\)"):
        read_corpus([write("x.csv", "title,authors\nT,A\n")], format="csv")


@pytest.mark.parametrize("name,text,fmt", [
    ("a.txt", "[{}]", "json"),
    ("a.dat", '{"a": 1}\n{"a": 2}\n', "jsonl"),
    ("a.txt", "@article{x,}", "bibtex"),
    ("a.txt", "title,abstract\nT,A\n", "csv"),
    ("a.txt", "title\tabstract\nT\tA\n", "tsv"),
    ("a.csv", "论文检索\n\nDeep Learning\n", "csv"),
    ("a.md", "论文检索\n\nDeep Learning\n", "listing"),
])
def test_sniff(name, text, fmt):
    assert sniff(name, text) == fmt


def test_format_can_be_forced(write):
    p = write("x.data", "authors,abstract\nA One," + ABS + "\n")
    assert read_corpus([p], format="csv").papers[0].authors == ("A One",)


def test_json_escaped_control_characters_are_removed_with_a_warning(write):
    recs = [{"title": "T\u001b[31m", "authors": ["A\u0000 One", "B Two\u0007"],
             "track": "Theory\u009b", "abstract": ABS + "\u001b[0m"}]
    c = read_corpus([write("x.jsonl", json.dumps(recs[0]) + "\n")])
    p = c.papers[0]
    assert p.title == "T[31m" and p.authors == ("A One", "B Two")
    assert p.track.area == "Theory" and p.abstract == ABS + "[0m"
    assert [str(w).split(": ", 1)[1] for w in c.warnings] == ["5 control character(s) removed"]


def test_cut_markers_and_dot_tracks_in_exports(write):
    recs = [{"authors": "A One; 等; B Two", "track": "·", "abstract": ABS},
            {"authors": ["C Three", "D Four", "et al."], "track": "· Sub", "abstract": ABS2}]
    c = read_corpus([write("x.json", json.dumps(recs, indent=2))])
    a, b = c.papers
    assert a.authors == ("A One", "B Two") and a.authors_truncated and a.track is None
    assert b.authors == ("C Three", "D Four") and b.authors_truncated and b.track is None
    msgs = [(w.line, w.message) for w in c.warnings]
    assert (2, "'等' inside the author list is not a name: dropped, and the list counted "
               "as cut") in msgs
    assert sum("has no area" in m for _, m in msgs) == 2 and len(msgs) == 3
