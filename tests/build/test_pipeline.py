"""`kg build` as a whole: the output folder, interrupted builds, determinism."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.build.pipeline import build
from kg.errors import ParseError

ROOT = Path(__file__).resolve().parents[2]
# files that must be byte-identical across builds of the same inputs
# (the embedded store's database files are not: they are the engine's own)
DETERMINISTIC = ("corpus.jsonl", "extractions.jsonl", "summary.json", "report.json",
                 "report.md", "graph.graphml", "coauthors.graphml", "graph.ttl", "kg.html",
                 "concepts.html", "coauthors.html", "entities.html", "index.html",
                 "coauthors_vosviewer_map.txt", "concepts_vosviewer_map.txt",
                 "concepts_vosviewer_network.txt")


def _run_build(out: Path, *files: str, seed: str = "0", cwd: Path | None = None):
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "kg.cli", "build", "-q", "-o", str(out),
                             *files], env=env, cwd=cwd or ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_build_keeps_the_output_readme(tmp_path):
    out = tmp_path / "output"
    out.mkdir()
    (out / "README.md").write_text("mine\n")
    build(None, out)
    assert (out / "README.md").read_text() == "mine\n"
    assert (out / "graph.ttl").is_file()
    assert not list(out.glob(".kg-staging-*"))
    assert not list(tmp_path.glob(".output.*"))


def test_failed_build_leaves_previous_output(tmp_path):
    out = tmp_path / "output"
    build(None, out)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    with pytest.raises(ParseError, match="missing.txt"):
        build([tmp_path / "missing.txt"], out)
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert after == before
    assert not list(out.glob(".kg-staging-*"))


def test_killed_build_leaves_previous_output_usable(tmp_path, icml_txt):
    out = tmp_path / "output"
    build(None, out)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    before.pop(".kg-lock")         # empty once a build has released it
    proc = _run_build(out, str(icml_txt))
    time.sleep(4)          # parsing is done and extraction is under way
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    after.pop(".kg-lock")          # the pid of the killed build, which held the lock
    assert after == before
    from kg.build.read import load_build

    assert len(load_build(out).corpus.papers) == 39


def test_two_builds_are_byte_identical(tmp_path):
    a, b = tmp_path / "a" / "out", tmp_path / "b" / "elsewhere"
    (tmp_path / "b").mkdir(parents=True)
    pa = _run_build(a, seed="1")
    pb = _run_build(b, seed="12345", cwd=tmp_path / "b")
    assert pa.wait(timeout=600) == 0, pa.stderr.read()
    assert pb.wait(timeout=600) == 0, pb.stderr.read()
    compared = 0
    for name in DETERMINISTIC:
        if (a / name).exists() or (b / name).exists():
            assert (a / name).read_bytes() == (b / name).read_bytes(), name
            compared += 1
    assert compared >= 6


def test_junk_input_leaves_the_previous_build(tmp_path):
    out = tmp_path / "out"
    assert _run_build(out).wait(timeout=600) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    junk = tmp_path / "junk.txt"
    junk.write_text("hello world\nthis is not a listing\n")
    proc = _run_build(out, str(junk))
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 1
    assert err == f"kg: error: {junk}:1: no entry has an author line and an abstract of 6 " \
                  "words or more; nothing was read from it\n"
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


def test_a_build_that_shrinks_by_half_says_so(tmp_path):
    out = tmp_path / "out"
    assert _run_build(out).wait(timeout=600) == 0
    one = tmp_path / "one.txt"
    one.write_text("Ada Lovelace, Alan Turing\n\nWe propose FooNet, a convolutional network "
                   "for image classification on ImageNet.\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "kg.cli", "build", "-o", str(out), str(one)],
                       env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0
    assert f"kg: warning: {out}/ now holds 1 papers; the build it replaced had 39" in r.stderr
    r = subprocess.run([sys.executable, "-m", "kg.cli", "build", "-o", str(out), str(one)],
                       env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "replaced had" not in r.stderr
