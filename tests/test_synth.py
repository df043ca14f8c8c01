"""bench/synth.py: the synthetic corpus shared by benchmarks and tests."""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def synth():
    spec = importlib.util.spec_from_file_location("synth", ROOT / "bench" / "synth.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def build(synth):
    return synth.make_build(3000, seed=5)


def test_deterministic(synth, build):
    assert synth.make_build(3000, seed=5) == build
    assert synth.make_build(300, seed=6).corpus.papers != synth.make_build(300, seed=7).corpus.papers


def test_shapes(build):
    from kg.analysis import network_stats
    from kg.analysis.graphs import coauthor_graph

    papers = build.corpus.papers
    assert len(papers) == 3000 == len({p.id for p in papers}) == len(build.extractions)
    cut = sum(p.authors_truncated for p in papers) / len(papers)
    assert 0.07 < cut < 0.13
    assert all(len(p.authors) == 10 for p in papers if p.authors_truncated)
    sizes = Counter(len(p.authors) for p in papers)
    assert set(sizes) <= set(range(1, 11)) and sizes.most_common(1)[0][0] in (3, 4, 5)
    per_author = Counter(a for p in papers for a in p.authors)
    counts = Counter(per_author.values())
    assert counts[1] > counts[2] > counts[3] > 0 and max(per_author.values()) >= 10  # heavy tail
    assert 8000 < len(per_author) < 14000  # ~ICML's 9,566 authors for 2,610 papers
    lengths = [len(p.abstract) for p in papers]
    assert 1000 < sum(lengths) / len(lengths) < 1500
    assert sum(p.track is None for p in papers) > 0
    net = network_stats(coauthor_graph(build.corpus))
    assert net["components"]["largest_share"] > 0.5  # a giant component
    assert net["transitivity"] > 0.2


def test_mentions(build):
    n = 0
    for p in build.corpus.papers:
        ex = build.extractions[p.id]
        assert ex.abstract == p.abstract
        for m in ex.mentions:
            assert p.abstract[m.start:m.end] == m.text
            assert m.key and m.type in ("model", "method", "dataset", "task", "metric")
        n += len(ex.mentions)
    assert 5 < n / len(build.corpus.papers) < 7
    freq = Counter(m.key for ex in build.extractions.values() for m in ex.mentions)
    top = freq.most_common()
    assert top[0][1] > 10 * top[len(top) // 2][1]  # Zipf-like


def test_listing_round_trips_through_the_parser(synth, tmp_path):
    from kg.parse import read_corpus

    b = synth.make_build(200, seed=2, file="synth.txt")
    path = tmp_path / "synth.txt"
    synth.write_listing(b, path)
    back = read_corpus([path])
    assert len(back.papers) == 200 and not back.warnings
    for mine, theirs in zip(b.corpus.papers, back.papers, strict=True):
        assert theirs.authors == mine.authors
        assert theirs.authors_truncated == mine.authors_truncated
        assert theirs.abstract == mine.abstract
        assert (theirs.track.label if theirs.track else None) == (
            mine.track.label if mine.track else None)
        assert theirs.sources[0].line == mine.sources[0].line


def test_cli_writes_a_listing(synth, tmp_path):
    out = tmp_path / "s.txt"
    assert synth.main(["50", "-o", str(out), "--seed", "1"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("论文检索\n\n") and text.count("\n\n") > 100
