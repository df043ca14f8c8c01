"""kg coauthors --track, and the tracks and community columns of authors.csv."""
from __future__ import annotations

import csv
import io
import json

import pytest

from kg.analysis import analyse
from kg.build.graph_stage import _author_tracks, track_build
from kg.cli import main
from kg.errors import KgError
from kg.models import Build, Corpus, Paper, Track
from kg.report.document import authors_csv

TH, VI = Track("Theory", "Learning"), Track("Applications", "Vision")
BUILD = Build(Corpus((
    Paper("1", ("Ann", "Bob"), "a", track=TH),
    Paper("2", ("Ann", "Cid"), "b", track=TH),
    Paper("3", ("Ann", "Dee", "Eve"), "c", track=VI),
    Paper("4", ("Fay",), "d"),
)))


@pytest.mark.parametrize("name", ["Theory · Learning", "theory", "LEARNING", " theory  · learning "])
def test_track_matches_label_area_or_subarea_in_any_case(name):
    assert [p.id for p in track_build(BUILD, name).corpus.papers] == ["1", "2"]


def test_track_statistics_are_those_of_the_track_papers():
    r = analyse(track_build(BUILD, "vision")).report
    assert (r.productivity.papers, r.productivity.people, r.network.edges) == (1, 3, 3)
    r = analyse(track_build(BUILD, "theory")).report
    assert (r.productivity.papers, r.productivity.people, r.network.edges) == (2, 3, 2)
    assert r.centrality.top["collaborators"][0].name == "Ann"


def test_unknown_track_is_one_line_naming_known_ones():
    with pytest.raises(KgError) as e:
        track_build(BUILD, "Robotics")
    assert str(e.value) == ("no paper in track 'Robotics'; known tracks: "
                            "Applications · Vision; Theory · Learning")
    with pytest.raises(KgError):
        track_build(BUILD, "  ")


def test_authors_csv_ends_with_tracks_and_community():
    res = analyse(BUILD)
    rows = list(csv.DictReader(io.StringIO("".join(
        authors_csv(res.metrics, _author_tracks(BUILD.corpus), res.leiden.membership)))))
    header = list(rows[0])
    assert header[:2] == ["key", "name"] and header[-2:] == ["tracks", "community"]
    by = {r["key"]: r for r in rows}
    assert by["ann"]["tracks"] == "Applications · Vision; Theory · Learning"
    assert by["bob"]["tracks"] == "Theory · Learning" and by["fay"]["tracks"] == ""
    assert by["ann"]["community"] == str(res.leiden.membership["ann"])
    assert {r["community"] for r in rows} == {str(c) for c in res.leiden.membership.values()}
    # without the extra data the columns are there, empty
    plain = list(csv.DictReader(io.StringIO("".join(authors_csv(res.metrics)))))
    assert plain[0]["tracks"] == "" and plain[0]["community"] == ""


@pytest.fixture(scope="module")
def sample_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("sample") / "out"
    assert main(["build", "-q", "-o", str(out)]) == 0
    return out


def test_sample_coauthors_track_and_authors_csv(sample_build, capsys):
    capsys.readouterr()
    assert main(["coauthors", "--json", "--from", str(sample_build)]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(["coauthors", "--json", "--from", str(sample_build), "--track",
                 "large language models"]) == 0
    captured = capsys.readouterr()
    track = json.loads(captured.out)
    assert "kg: track 'large language models': " in captured.err
    assert 0 < track["productivity"]["papers"] < whole["productivity"]["papers"]
    assert main(["coauthors", "--from", str(sample_build), "--track", "Robotics Nowhere"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kg: error: no paper in track 'Robotics Nowhere'; known tracks: ")
    assert err.count("\n") == 1
    rows = list(csv.DictReader(io.StringIO((sample_build / "authors.csv").read_text())))
    assert list(rows[0])[-2:] == ["tracks", "community"]
    assert all(r["community"].isdigit() for r in rows)
    assert sum(bool(r["tracks"]) for r in rows) > len(rows) / 2
    assert any("Large Language Models" in r["tracks"] for r in rows)


def test_sample_coauthors_about_a_concept(sample_build, capsys):
    # kg coauthors --concept: the co-authorship of the papers about it (those
    # papers-in-scope finds), with --track in that track only
    assert main(["coauthors", "--json", "--from", str(sample_build), "--concept", "RL"]) == 0
    captured = capsys.readouterr()
    about = json.loads(captured.out)
    assert captured.err == "kg: about 'RL': 9 papers\n"
    assert about["productivity"]["papers"] == 9
    assert main(["coauthors", "--json", "--from", str(sample_build), "--concept",
                 "reinforcement learning", "--track", "deep learning"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "kg: about 'reinforcement learning' in track 'deep learning': 4 papers\n"
    assert json.loads(captured.out)["productivity"]["papers"] == 4
    assert main(["coauthors", "--from", str(sample_build), "--concept", "reinforcment learning"]) == 1
    assert capsys.readouterr().err == ("kg: error: no concept named 'reinforcment learning'; "
                                       "did you mean: reinforcement learning?\n")
    assert main(["coauthors", "--from", str(sample_build), "--concept", "quantization",
                 "--track", "Theory"]) == 1
    assert capsys.readouterr().err == "kg: error: no paper about 'quantization' in track 'Theory'\n"


def test_a_subarea_two_areas_share_is_ambiguous_as_in_the_queries():
    b = Build(Corpus((Paper("1", ("A",), "x", track=Track("Theory", "Robustness")),
                      Paper("2", ("B",), "y", track=Track("Social Aspects", "Robustness")))))
    with pytest.raises(KgError, match="ambiguous: it is a subarea of Social Aspects · Robustness; "
                                      "Theory · Robustness"):
        track_build(b, "robustness")
    assert [p.id for p in track_build(b, "theory · robustness").corpus.papers] == ["1"]
