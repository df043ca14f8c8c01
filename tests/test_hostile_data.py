"""Text that is data (issue 16, part 5): hostile text in the inputs, end to end.

Each case runs the real ``kg`` in a child process (``kg build`` through the
timing harness of :mod:`hostile` where the build itself is the point) and
checks what a user sees: the files written, the terminal output, and the
warnings, which name the file and line at fault.
"""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile import ROOT, assert_within_budget, build_case, listing

A1 = ("We propose FooNet, a model for images that is robust to noise and beats "
      "strong baselines on three benchmarks.")
A2 = ("We study BarNet, a method for graphs that scales to millions of nodes and "
      "keeps accuracy on standard tasks.")
# raw control bytes that must never reach a file or a terminal (ESC, NUL, BEL, DEL, CSI)
BAD = [b"\x1b", b"\x00", b"\x07", b"\x7f", "\u009b".encode("utf-8")]
ICML = Path("/work/shared/corpora/icml_2024_all.txt")


def kg(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``kg ARGS`` in a child process: exit status, stdout and stderr as bytes."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=120)


def no_controls(data: bytes, where: str) -> None:
    for b in BAD:
        assert b not in data, f"{where}: raw {b!r} in {data[:300]!r}"


# --------------------------------------------------------------- control characters

HOSTILE_JSON = json.dumps([
    {"title": "Red \u001b[31mtitle\u001b[0m", "authors": ["Ada\u0000 Lovelace",
                                                          "Alan \u001b]0;pwn\u0007Turing"],
     "track": "Deep\u0007 Learning", "abstract": A1 + " \u001b[2J\u009b6n\u007f"},
    {"title": "Plain", "authors": ["Alan \u001b]0;pwn\u0007Turing", "Grace\u0007 Hopper"],
     "abstract": A2},
], indent=1)


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("json")
    run = build_case("JSON with \\u001b \\u0000 \\u0007", HOSTILE_JSON, tmp, name="papers.json")
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    return tmp


def test_json_control_escapes_reach_no_output_file(hostile_build):
    out = hostile_build / "out"
    checked = 0
    for p in sorted(out.rglob("*")):
        if p.is_file() and "store" not in p.relative_to(out).parts and p.suffix != ".png":
            no_controls(p.read_bytes(), str(p.relative_to(out)))
            checked += 1
    assert checked >= 15
    corpus = [json.loads(x) for x in (out / "corpus.jsonl").read_text().splitlines()]
    assert corpus[0]["authors"] == ["Ada Lovelace", "Alan ]0;pwnTuring"]
    assert corpus[0]["title"] == "Red [31mtitle[0m" and corpus[0]["area"] == "Deep Learning"
    assert "Ada Lovelace" in (out / "authors.csv").read_text()


def test_json_control_escapes_reach_no_terminal(hostile_build):
    out = str(hostile_build / "out")
    runs = [kg("parse", "papers.json", cwd=hostile_build),
            kg("coauthors", "--from", out, cwd=hostile_build),
            kg("coauthors", "--json", "--from", out, cwd=hostile_build)]
    sparql = "SELECT ?s ?o WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }"
    for fmt in ("table", "csv", "tsv", "json"):
        runs.append(kg("query", sparql, "--format", fmt, "--from", out, cwd=hostile_build))
    for r in runs:
        assert r.returncode == 0, r.stderr
        no_controls(r.stdout + r.stderr, " ".join(map(str, r.args[3:5])))
    assert b"Ada Lovelace" in runs[1].stdout and b"Ada Lovelace" in runs[3].stdout
    # the repair is reported where it happened
    assert b"papers.json:2: 9 control character(s) removed" in runs[0].stderr
    assert b"papers.json:11: 3 control character(s) removed" in runs[0].stderr


# --------------------------------------------------------------- formula guard

FORMULA_JSON = json.dumps([{"authors": ["=HYPERLINK(\"http://evil\")", "@SUM(A1)"],
                            "abstract": A1}])


def test_query_csv_guards_formulas_like_authors_csv(tmp_path):
    (tmp_path / "f.json").write_text(FORMULA_JSON)
    r = kg("build", "-q", "-o", "out", "f.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    q = ("SELECT ?name WHERE { ?p a <https://schema.org/Person> ; "
         "<https://schema.org/name> ?name } ORDER BY ?name")
    guarded = kg("query", q, "--format", "csv", "--from", "out", cwd=tmp_path)
    raw = kg("query", q, "--format", "csv", "--no-formula-guard", "--from", "out", cwd=tmp_path)
    cells = [row[0] for row in csv.reader(io.StringIO(guarded.stdout.decode()))][1:]
    assert cells == ["'=HYPERLINK(\"http://evil\")", "'@SUM(A1)"]
    cells = [row[0] for row in csv.reader(io.StringIO(raw.stdout.decode()))][1:]
    assert cells == ["=HYPERLINK(\"http://evil\")", "@SUM(A1)"]
    # the same guard, from the same function, in authors.csv
    authors = (tmp_path / "out" / "authors.csv").read_text()
    assert "'=HYPERLINK" in authors and "'@SUM(A1)" in authors
    # numbers are never guarded: a COUNT stays a number
    n = kg("query", "SELECT (-1 * COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "--format", "csv",
           "--from", "out", cwd=tmp_path)
    assert n.stdout.decode().splitlines()[1].startswith("-")


# --------------------------------------------------------------- listings: kept or warned


@pytest.mark.parametrize("track", ["·", "· Robustness"])
def test_dot_only_track_is_no_track_with_a_warning(tmp_path, track):
    run = build_case(f"track line {track!r}", listing(A1, track=track), tmp_path)
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    paper = json.loads((tmp_path / "out" / "corpus.jsonl").read_text())
    assert paper["track"] is None and paper["authors"] == ["Ada Lovelace", "Alan Turing"]
    r = kg("parse", "hostile.txt", cwd=tmp_path)
    assert f"hostile.txt:3: track line {track!r} has no area".encode() in r.stderr


def test_same_abstract_other_authors_keeps_everyone_and_names_both_places(tmp_path):
    text = listing(A1) + "\nTheory\n\nGrace Hopper, Alan Turing\n\n" + A1 + "\n"
    run = build_case("same abstract, other authors", text, tmp_path)
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    papers = [json.loads(x) for x in (tmp_path / "out" / "corpus.jsonl").read_text().splitlines()]
    assert len(papers) == 1
    assert papers[0]["authors"] == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    assert [s["line"] for s in papers[0]["sources"]] == [3, 9]
    r = kg("parse", "hostile.txt", cwd=tmp_path)
    assert (b"hostile.txt:9: same abstract as hostile.txt:3 but other authors; "
            b"kept as one paper with the authors of both (1 added: Grace Hopper)") in r.stderr


def test_same_abstract_shorter_author_list_merges_silently(tmp_path):
    text = listing(A1, authors="Ada Lovelace 等") + "\nTheory\n\nAda Lovelace, Alan Turing\n\n" + A1
    (tmp_path / "l.txt").write_text(text + "\n")
    r = kg("parse", "l.txt", cwd=tmp_path)
    paper = json.loads(r.stdout)
    assert paper["authors"] == ["Ada Lovelace", "Alan Turing"] and not paper["authors_truncated"]
    assert b"warning" not in r.stderr


def test_one_word_abstract_is_kept_and_the_warning_cites_its_line(tmp_path):
    text = listing("Transformers") + "\nTheory\n\nGrace Hopper\n\n" + A2 + "\n"
    run = build_case("one-word abstract", text, tmp_path)
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    papers = [json.loads(x) for x in (tmp_path / "out" / "corpus.jsonl").read_text().splitlines()]
    assert [p["abstract"] for p in papers] == ["Transformers", A2]
    assert papers[0]["authors"] == ["Ada Lovelace", "Alan Turing"]
    r = kg("parse", "hostile.txt", cwd=tmp_path)
    assert b"hostile.txt:7: abstract of only 1 word(s): 'Transformers'; kept" in r.stderr
    assert b"0 skipped" in r.stderr


@pytest.mark.parametrize("authors, line", [("Ada Lovelace, 等, Alan Turing", 5),
                                           ("Ada Lovelace, et al., Alan Turing", 5)])
def test_cut_marker_inside_author_list_is_no_name_and_warned(tmp_path, authors, line):
    run = build_case(f"{authors!r}", listing(A1, authors=authors), tmp_path)
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    paper = json.loads((tmp_path / "out" / "corpus.jsonl").read_text())
    assert paper["authors"] == ["Ada Lovelace", "Alan Turing"] and paper["authors_truncated"]
    r = kg("parse", "hostile.txt", cwd=tmp_path)
    assert f"hostile.txt:{line}: ".encode() in r.stderr
    assert b"inside the author list is not a name" in r.stderr


def test_cut_marker_inside_json_author_list_is_warned(tmp_path):
    (tmp_path / "p.jsonl").write_text(
        json.dumps({"authors": ["Ada", "等", "Alan"], "abstract": A1}) + "\n"
        + json.dumps({"authors": ["Grace", "等"], "abstract": A2}) + "\n")
    r = kg("parse", "p.jsonl", cwd=tmp_path)
    papers = [json.loads(x) for x in r.stdout.decode().splitlines()]
    assert [p["authors"] for p in papers] == [["Ada", "Alan"], ["Grace"]]
    assert r.stderr.count(b"not a name") == 1 and b"p.jsonl:1: '\xe7\xad\x89'" in r.stderr


# --------------------------------------------------------------- --base


@pytest.mark.parametrize("base", ["http://x/a#", "http://x/a#b/", "http://x/a b/"])
def test_bad_base_is_refused_in_one_line_before_any_work(tmp_path, base):
    # the input does not even exist: the base is checked first
    r = kg("build", "--base", base, "-o", "out", "missing.txt", cwd=tmp_path)
    assert r.returncode == 1
    err = r.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("kg: error: base IRI") and base in err
    assert not (tmp_path / "out").exists()


def test_good_base_builds(tmp_path):
    run = build_case("--base http://x/kg/", listing(A1), tmp_path, "--base", "http://x/kg/")
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    assert "<http://x/kg/paper/" in (tmp_path / "out" / "graph.ttl").read_text() or \
        "@prefix" in (tmp_path / "out" / "graph.ttl").read_text()


# --------------------------------------------------------------- deterministic PageRank


def _icml_slice(n_entries: int) -> str:
    """The title line and first ``n_entries`` entries (author line, abstract) of ICML 2024."""
    blocks = ICML.read_text(encoding="utf-8").split("\n\n")
    return "\n\n".join(blocks[: 1 + 2 * n_entries]) + "\n"


@pytest.mark.skipif(not ICML.is_file(), reason="needs /work/shared/corpora/icml_2024_all.txt")
def test_coauthor_exports_are_byte_identical_across_builds(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS",
                                                             "OPENBLAS_NUM_THREADS")}
    src = tmp_path / "icml.txt"
    src.write_text(_icml_slice(SLICE))
    outs = []
    for i in (1, 2):
        r = subprocess.run([sys.executable, "-m", "kg.cli", "build", "-q", "-o", f"out{i}",
                            str(src)], cwd=tmp_path, capture_output=True, timeout=300,
                           env=dict(env, PYTHONPATH=str(ROOT)))
        assert r.returncode == 0, r.stderr[-2000:]
        outs.append(tmp_path / f"out{i}")
    for name in ("coauthors.graphml", "coauthors.gexf", "graph.graphml", "authors.csv",
                 "papers.csv", "report.json"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name


SLICE = 1300  # entries, 5,108 authors: igraph's PRPACK sums in threads from about 4,000 nodes up
# (on main, 20 of 20 repeated PageRanks differed at 1,300 entries, 0 of 20 at 900)
