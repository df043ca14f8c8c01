"""kg.parse.records: entries merged into papers, keeping every source and the track."""
from __future__ import annotations

from kg.parse import read_corpus
from tests.parse.test_listing import ABS2, listing, read


def test_duplicate_merges_keeping_sources_and_track(write):
    c = read(write, listing("A One, B Two", ABS2, "Social Aspects · Alignment",
                            "A One, B Two", ABS2))
    (p,) = c.papers
    assert c.entries == 2 and c.merged == 1
    assert p.track.line == "Social Aspects · Alignment"
    assert [s.line for s in p.sources] == [3, 7]


def test_duplicates_across_files(write):
    f1 = write("a.txt", listing("A One", ABS2))
    f2 = write("b.txt", listing("Theory", "A One", "  " + ABS2.upper()))
    c = read_corpus([f1, f2])
    (p,) = c.papers
    assert [s.file for s in p.sources] == ["a.txt", "b.txt"]   # names, not the paths typed
    assert p.track.area == "Theory"
