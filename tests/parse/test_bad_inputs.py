"""Hostile and broken input: kg keeps working, loses nothing it could read,
and reports every skip with its file and line."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import ParseError
from kg.parse import parse_text, read_corpus

BAD = Path(__file__).resolve().parents[1] / "data" / "bad"
ABS = "We study a problem at length, with care and many experiments on real data sets, and report."

# file -> (papers it must yield, at least this many skipped entries)
EXPECTED = {
    "only_tracks.txt": (0, 1),
    "only_authors.txt": (0, 1),
    "only_abstracts.txt": (2, 0),
    "truncated.txt": (1, 1),
    "mixed_line_ends.txt": (2, 0),
    "nul_bytes.txt": (2, 0),
    "invalid_utf8.txt": (2, 0),
    "wrong_types.json": (2, 4),
    "unbalanced.bib": (1, 1),
    "newlines_quotes.csv": (2, 0),
    "empty.txt": (0, 0),
    "title_only.txt": (0, 0),
    "xss.txt": (1, 0),
}


def _counts_add_up(c) -> None:
    assert c.entries == len(c.papers) + c.merged
    assert c.skipped == sum(1 for w in c.warnings if "skipped" in w.message)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file_is_read_as_far_as_it_can_be(name):
    papers, skipped = EXPECTED[name]
    c = read_corpus([BAD / name])
    assert len(c.papers) == papers
    assert c.skipped >= skipped
    _counts_add_up(c)
    for w in c.warnings:
        assert w.file.endswith(name) and w.line >= 1 and "\n" not in w.message


def test_random_bytes_is_one_parse_error():
    with pytest.raises(ParseError, match=r"random\.bin(:\d+)?: binary file"):
        read_corpus([BAD / "random.bin"])


def test_values_survive_as_text():
    (p,) = read_corpus([BAD / "xss.txt"]).papers
    assert p.authors[0] == "<img src=x onerror=alert(1)>"
    assert '" } ; DROP ALL ; #' in p.abstract
    c = read_corpus([BAD / "newlines_quotes.csv"])
    assert c.papers[1].title == "=cmd|' /C calc'!A0" and c.papers[1].authors == ("@Grace Hopper",)
    assert 'second line with "quotes", and = signs' in c.papers[0].abstract


def test_twenty_megabyte_line(tmp_path):
    p = tmp_path / "long.txt"
    sentence = "This sentence repeats to make one enormous abstract line, on and on. "
    p.write_text("Ada Lovelace\n\n" + sentence * (20_000_000 // len(sentence)) + "\n")
    c = read_corpus([p])
    assert len(c.papers) == 1 and len(c.papers[0].abstract) > 19_000_000
    assert c.papers[0].authors == ("Ada Lovelace",)


def test_ten_thousand_authors(tmp_path):
    names = [f"Author{chr(65 + i % 26)} Person{chr(97 + (i // 26) % 26)}{i}" for i in range(10_000)]
    p = tmp_path / "many.txt"
    p.write_text("Deep Learning\n\n" + ", ".join(names) + " 等\n\n" + ABS + "\n")
    (paper,) = read_corpus([p]).papers
    assert len(paper.authors) == 10_000 and paper.authors_truncated


def test_max_bytes_refuses_before_reading(tmp_path):
    from kg.errors import InputTooLarge

    p = tmp_path / "big.txt"
    p.write_bytes(b"x" * 2048)
    with pytest.raises(InputTooLarge):
        read_corpus([p], max_bytes=1024)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("fuzz") / "f.txt"
    p.write_bytes(data)
    try:
        c = read_corpus([p])
    except ParseError as exc:
        assert "\n" not in str(exc) and str(p) in str(exc)
        return
    _counts_add_up(c)


_piece = st.sampled_from([
    "论文检索", "Deep Learning · Large Language Models", "Theory", "Ada Lovelace, Alan Turing",
    "Grace Hopper 等", ABS, ABS.upper(), "", "  ", "\t", "·", "等", "(", "$\\mathcal{S}$",
    "<b>x</b>", "\ufeff", "\u2028", "a, b, c, d, e, f", "@article{x,", "{", "}",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_piece, max_size=30), st.sampled_from(["\n", "\r\n", "\r", "\n\n"]))
def test_random_listings_never_crash_or_lose_abstracts(pieces, sep):
    text = sep.join(pieces)
    try:
        c = parse_text(text)
    except ParseError as exc:  # refused as no listing: markup, or nothing abstract-like in it
        assert "\n" not in str(exc) and str(exc).startswith("<text>:")
        assert "Markdown or code" in str(exc) or (ABS not in pieces and ABS.upper() not in pieces)
        return
    _counts_add_up(c)
    # every abstract-looking line ends up in some paper
    kept = " ".join(p.abstract for p in c.papers)
    if ABS in pieces and ABS not in kept:
        assert ABS.upper() in kept or any(w for w in c.warnings)


@pytest.mark.parametrize("name", sorted(EXPECTED) + ["random.bin"])
def test_cli_never_shows_a_traceback(name, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    r = subprocess.run([sys.executable, "-m", "kg.cli", "parse", str(BAD / name)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode in (0, 1)
    assert "Traceback" not in r.stderr
    if r.returncode == 1:
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("kg: error: ")
    else:
        assert r.stderr.splitlines()[-1].startswith("kg: ")
