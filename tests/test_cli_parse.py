"""`kg parse` and `kg build`: exit codes, output and one-line messages."""
from __future__ import annotations

import json

from kg.cli import main

ABS = "We study a problem at length, with care and many experiments on real data sets."


def test_parse_prints_one_unique_paper_a_line(capsys, sample_corpus):
    from kg.parse.sample import sample_files

    assert main(["parse", *map(str, sample_files())]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 39
    assert list(rows[0]) == ["id", "track", "area", "subarea", "authors", "authors_truncated",
                             "title", "abstract", "sources"]
    assert rows[0]["track"] == "Deep Learning · Large Language Models"
    assert rows[0]["sources"] == [{"file": "sample/000_bc5f1642c1ae3e85.txt", "line": 3}]
    assert err.strip().splitlines()[-1] == "kg: 40 entries read, 39 papers, 1 merged, 0 skipped"


def test_parse_missing_file_is_one_line_error(capsys, tmp_path):
    missing = tmp_path / "nope.txt"
    assert main(["parse", str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"kg: error: {missing}: no such file\n"


def test_parse_binary_file(capsys, write):
    p = write("x.bin", b"\x00\x01\x02" * 1000)
    assert main(["parse", str(p)]) == 1
    err = capsys.readouterr().err
    assert err == f"kg: error: {p}:1: binary file, not a listing (NUL bytes)\n"


def test_parse_warning_names_file_and_line(capsys, write):
    p = write("l.txt", "A One\n\n" + ABS + "\n\nTheory\n\nB Two, C Three\n")
    assert main(["parse", str(p)]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"kg: warning: {p}:5: ")
    assert lines[-1] == "kg: 1 entries read, 1 papers, 0 merged, 1 skipped"


def test_parse_quiet(capsys, write):
    p = write("l.txt", "A One\n\n" + ABS + "\n")
    assert main(["parse", "-q", str(p)]) == 0
    assert capsys.readouterr().err == ""


def test_parse_forced_format(capsys, write):
    p = write("x.data", "authors,abstract\nA One," + ABS + "\n")
    assert main(["parse", "--format", "csv", str(p)]) == 0
    assert json.loads(capsys.readouterr().out)["authors"] == ["A One"]


def test_usage_error_exit_2(capsys):
    try:
        main(["parse"])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert err.startswith("kg: error: the following arguments are required: FILE")


def test_max_bytes_refuses_big_input(capsys, write):
    p = write("l.txt", "A One\n\n" + ABS + "\n")
    assert main(["parse", "--max-bytes", "20", str(p)]) == 1
    assert capsys.readouterr().err == (
        f"kg: error: {p}: file is 87 bytes, over the limit of 20 bytes (--max-bytes)\n")


def test_build_sample_writes_output(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", "-q", "-o", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["entries"], summary["papers"], summary["merged"]) == (40, 39, 1)
    assert len((out / "corpus.jsonl").read_text().splitlines()) == 39


def test_dash_reads_standard_input(capsys, monkeypatch):
    import io

    listing = f"Deep Learning · Theory\n\nAda Lovelace, Alan Turing\n\n{ABS}\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(listing.encode("utf-8"))))
    assert main(["parse", "-"]) == 0
    out, err = capsys.readouterr()
    row = json.loads(out)
    assert row["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert row["sources"] == [{"file": "<stdin>", "line": 1}]


def test_headerless_tsv_is_refused_in_one_short_line(capsys, write):
    long_abstract = "We study things. " * 300
    p = write("x.tsv", f"A title\tAda Lovelace, Alan Turing\t{long_abstract}\n")
    assert main(["parse", str(p)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"kg: error: {p}:1: no header row with an abstract column (first row: "
                          "A title, Ada Lovelace, Alan Turing, We study things.")
    assert err.count("\n") == 1 and len(err) < 300
    assert "add a header row naming the columns (title, authors, abstract)" in err


def test_virtual_site_topic_splits_into_area_and_subarea(capsys, write):
    p = write("x.json", json.dumps([{"title": "t", "authors": ["Ada Lovelace"], "abstract": ABS,
                                     "topic": "Applications->Robotics"},
                                    {"title": "u", "authors": ["Alan Turing"],
                                     "abstract": ABS + " Again.", "topic": "Theory"}]))
    assert main(["parse", str(p)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["area"], r["subarea"]) for r in rows] == [("Applications", "Robotics"),
                                                         ("Theory", None)]


def test_help_speaks_to_users(capsys):
    import pytest

    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "Build a knowledge graph from research-paper listings" in out
    assert "kg build listing.txt -o out" in out
    assert "argument wiring" not in out and "``" not in out


def test_unreadable_formula_is_one_kg_warning_and_silent_under_q(capsys, write):
    p = write("f.txt", "Ada Lovelace\n\nWe bound $" + "\\frac{" * 17 + "$ in this paper, which "
              "is long enough to be an abstract.\n")
    assert main(["extract", str(p)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0] == (f"kg: warning: {p.name}:1: 1 LaTeX formula too long or too deeply "
                                   "nested to convert; kept as written")
    assert "pylatexenc" not in err and "WARNING" not in err
    assert main(["extract", "-q", str(p)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "\\\\frac{" in out          # the formula is kept, as written


def test_extract_gives_each_concept_mention_its_broader_concepts(capsys, write):
    p = write("rl.txt", "Ada Lovelace\n\nWe study offline reinforcement learning with large "
                        "language models on robotic control tasks.\n")
    assert main(["extract", str(p)]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    concepts = {m["canonical"]: m for m in row["mentions"] if m["layer"] == "concept"}
    offline = concepts["offline reinforcement learning"]
    assert offline["broader"][0] == {"key": "reinforcement-learning",
                                     "label": "reinforcement learning"}
    assert {"key": "machine-learning", "label": "machine learning"} in offline["broader"]
    assert all("broader" not in m for m in row["mentions"] if m["layer"] != "concept")


def test_junk_on_stdin_is_one_line_error(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        b"hello world\nthis is not a listing\n"), encoding="utf-8"))
    assert main(["parse", "-"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("kg: error: <stdin>:1: no entry has an author line and an abstract of 6 "
                   "words or more; nothing was read from it\n")


def test_workers_and_overlap_make_one_parallelism_with_one_default():
    from kg.cli import _parallelism, build_parser
    from kg.util.parallel import Overlap, Parallelism, cpu_count

    parse = build_parser().parse_args
    assert _parallelism(parse(["build"])) == Parallelism(cpu_count(), Overlap.AUTO)
    assert _parallelism(parse(["extract", "x.txt"])).cores == cpu_count()   # the same default
    assert _parallelism(parse(["build", "--workers", "2", "--overlap", "compact"])) == \
        Parallelism(2, Overlap.COMPACT)
    assert not _parallelism(parse(["build", "--workers", "2", "--overlap", "none"])).side_by_side
    assert _parallelism(parse(["build", "--workers", "1"])).overlap is Overlap.NONE
