"""Parsing throughput: papers per second on the ICML 2024 listing, repeated.

    .venv/bin/python bench/parse_bench.py [--copies 8]

Concatenates COPIES copies of the corpus (each copy's abstracts made unique,
so nothing merges) into one temporary listing and times ``read_corpus``;
prints papers/s (best of 3, CPU time of this process, so a busy machine
disturbs it less). Goal: at least 20,000 papers/s.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from kg.parse import read_corpus

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "icml_2024_all.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=8)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    args = ap.parse_args()
    text = args.corpus.read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    parts = [blocks[0]]
    for k in range(args.copies):
        for b in blocks[1:]:
            # an abstract is the long block; tag it so copies stay distinct papers
            parts.append(b + f" [copy {k}]" if len(b) > 300 else b)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.txt"
        path.write_text("\n\n".join(parts), encoding="utf-8")
        size = path.stat().st_size
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            corpus = read_corpus([path])
            best = min(best, time.process_time() - t0)
    n = len(corpus.papers)
    print(f"file: {size / 1e6:.1f} MB, {corpus.entries} entries, {n} papers, "
          f"{corpus.skipped} skipped")
    print(f"parse: {best:.3f} s  ->  {n / best:,.0f} papers/s  (goal >= 20,000)")


if __name__ == "__main__":
    main()
