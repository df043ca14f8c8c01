"""Extraction throughput on the ICML 2024 corpus, side by side with a bare
``spacy.blank("en")`` tokenizer pass over the same clean texts, in one run.

    .venv/bin/python bench/extract_bench.py [--corpus FILE] [--repeat 3]

Prints abstracts/s of: cleaning; kg's full extraction (clean + spaCy pipeline,
one process); the bare blank-English tokenizer over the clean texts; and the
ratio. Goals (issue 3): >= 500 abstracts/s, and >= 30 % of the bare tokenizer.
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "icml_2024_all.txt"


def best_of(fn, repeat: int) -> float:
    """Best CPU time of this process over ``repeat`` runs (process time, so
    other work on the machine disturbs the figure less than wall time)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    import spacy

    from kg.extract import _nlp, extract_corpus
    from kg.parse import read_corpus
    from kg.text import clean

    corpus = read_corpus([args.corpus])
    raws = [p.abstract for p in corpus.papers]
    n = len(raws)
    texts = [clean(r) for r in raws]
    _nlp(None)  # load the pipeline and gazetteer outside the timing

    t_clean = best_of(lambda: [clean(r) for r in raws], args.repeat)
    t_kg = best_of(lambda: list(extract_corpus(corpus, workers=1)), args.repeat)
    bare = spacy.blank("en")
    t_bare = best_of(lambda: list(bare.pipe(texts, batch_size=64)), args.repeat)

    print(f"corpus: {args.corpus.name}, {n} abstracts, one process, CPU time (best of {args.repeat})")
    print(f"clean text only        : {n / t_clean:8,.0f} abstracts/s")
    print(f"kg extract (clean+nlp) : {n / t_kg:8,.0f} abstracts/s   (goal >= 500)")
    print(f"bare spacy.blank('en') : {n / t_bare:8,.0f} abstracts/s")
    print(f"kg / bare              : {t_bare / t_kg:8.1%}         (goal >= 30 %)")


if __name__ == "__main__":
    main()
