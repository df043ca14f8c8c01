"""kg.build.graph_stage: the graph stage's tables and files."""
from __future__ import annotations

import io

from kg.analysis import analyse
from kg.analysis.counts import build_counts
from kg.build.graph_stage import tables
from kg.models import Build, Corpus, Paper
from tests.report.test_exports import small_build


def test_rich_tables_keep_names_as_text():
    from rich.console import Console

    report = analyse(small_build()).report
    console = Console(record=True, width=200, file=io.StringIO())
    for t in tables(report):
        console.print(t)
    text = console.export_text()
    assert "Cy [red]Dee[/red]" in text  # brackets printed, not read as markup
    assert "Co-authorship network" in text


def test_rich_tables_print_no_control_characters():
    from rich.console import Console

    corpus = Corpus((Paper("p0", ("Ann\x1b[31m Lee\x07", "Bo\x9b2J Wu"), "We use BERT."),
                     Paper("p1", ("Ann\x1b[31m Lee\x07", "Cy\x00 Dee"), "Again.")))
    report = analyse(Build(corpus, {})).report
    buf = io.StringIO()
    console = Console(file=buf, width=200, color_system=None, force_terminal=False)
    for t in tables(report):
        console.print(t)
    text = buf.getvalue()
    assert "Ann[31m Lee" in text and "Bo2J Wu" in text
    assert not any(c in text for c in "\x1b\x07\x9b\x00")


def test_write_coauthors_returns_what_it_wrote(tmp_path):
    from kg.build.graph_stage import write_coauthors
    from kg.build.read import read_report

    b = small_build()
    res = write_coauthors(b, tmp_path, counts=build_counts(b))
    assert set(res.files) == {p.relative_to(tmp_path).as_posix()
                              for p in tmp_path.rglob("*") if p.is_file()}
    assert list(res.timings) == ["coauthor_analysis", "report", "plots", "nx_graphs", "exports"]
    assert res.knowledge_graph is not None and res.analysis.report == res.report.coauthors
    assert read_report(tmp_path) == res.report
