"""Extraction throughput on the ICML 2024 corpus, side by side with a bare
``spacy.blank("en")`` tokenizer pass over the same clean texts, in one run.

    .venv/bin/python bench/extract_bench.py [--corpus FILE] [--repeat 3]
    .venv/bin/python bench/extract_bench.py --against OLD_TREE [--rounds 5]

Prints abstracts/s of: cleaning; kg's full extraction (clean + spaCy pipeline,
one process); the bare blank-English tokenizer over the clean texts; and the
ratio. Goals (issue 3): >= 500 abstracts/s, and >= 30 % of the bare tokenizer.

With ``--against``, kg's extraction of this tree and of ``OLD_TREE`` (a git
worktree of the code before a change) is timed side by side: one process
each per round, both pinned to the same core, the two alternating round by
round; prints each side's best and median abstracts/s and new / old (issue
19: the new code within 5 % of the old).
Also the concept component's own cost (``kg_concepts``: matching and merging,
issue 17) in microseconds per abstract; ``--vocab DIR`` runs with the concept
files of DIR instead of kg's (a bigger vocabulary costs more).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
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


def _kg_rate(corpus_path: Path, repeat: int) -> float:
    """Child mode: kg's extraction of the corpus, best abstracts/s (CPU time)."""
    from kg.extract import _nlp, extract_corpus
    from kg.parse import read_corpus

    corpus = read_corpus([corpus_path])
    _nlp(None)
    return len(corpus.papers) / best_of(lambda: extract_corpus(corpus), repeat)


def side_by_side(old: Path, corpus: Path, rounds: int, repeat: int) -> None:
    """Time this tree's extraction and ``old``'s, alternating, one core."""
    new = Path(__file__).resolve().parents[1]
    cpu = sorted(os.sched_getaffinity(0))[0]
    rates: dict[str, list[float]] = {"old": [], "new": []}
    for i in range(rounds):
        order = (("old", old), ("new", new)) if i % 2 == 0 else (("new", new), ("old", old))
        for side, tree in order:
            env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
            out = subprocess.run(
                ["taskset", "-c", str(cpu), sys.executable, str(Path(__file__).resolve()),
                 "--child", "--corpus", str(corpus), "--repeat", str(repeat)],
                env=env, cwd=tree, check=True, capture_output=True, text=True).stdout
            rates[side].append(float(out.split()[-1]))
    print(f"corpus: {corpus.name}, {rounds} rounds x best of {repeat}, one core (cpu {cpu}), "
          "CPU time")
    for side, tree in (("old", old), ("new", new)):
        r = rates[side]
        print(f"{side} ({tree}): best {max(r):7,.0f}  median {statistics.median(r):7,.0f} "
              f"abstracts/s   rounds: {' '.join(f'{x:,.0f}' for x in r)}")
    best = max(rates["new"]) / max(rates["old"])
    med = statistics.median(rates["new"]) / statistics.median(rates["old"])
    print(f"new / old: best {best:6.1%}  median {med:6.1%}   (goal >= 95 %, new >= 500/s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", type=Path, help="source tree of the code before, side by side")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of --against")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--vocab", metavar="DIR", help="concept files to use instead of kg's")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if args.child:
        print(f"{_kg_rate(args.corpus, args.repeat):.3f}")
        return
    if args.against:
        side_by_side(args.against.resolve(), args.corpus.resolve(), args.rounds, args.repeat)
        return

    import spacy

    from kg.extract import _nlp, extract_corpus
    from kg.extract.cleanup import clean
    from kg.parse import read_corpus

    corpus = read_corpus([args.corpus])
    raws = [p.abstract for p in corpus.papers]
    n = len(raws)
    texts = [clean(r) for r in raws]
    nlp = _nlp(None)  # load the pipeline and gazetteer outside the timing
    if args.vocab:   # (the cached pipeline is the one extract_corpus runs)
        nlp.replace_pipe("kg_concepts", "kg_concepts", config={"directory": args.vocab})

    t_clean = best_of(lambda: [clean(r) for r in raws], args.repeat)
    bare = spacy.blank("en")
    # kg and the bare pass alternate, round by round, so that a change in the
    # machine's load during the run touches both sides alike
    rounds = []
    for _ in range(args.repeat):
        rounds.append((best_of(lambda: extract_corpus(corpus), 1),
                       best_of(lambda: list(bare.pipe(texts, batch_size=64)), 1)))
    t_kg = min(k for k, _ in rounds)
    t_bare = min(b for _, b in rounds)
    ratios = sorted(b / k for k, b in rounds)
    median_ratio = ratios[len(ratios) // 2]
    print(f"corpus: {args.corpus.name}, {n} abstracts, one process, CPU time (best of {args.repeat})")
    print(f"clean text only        : {n / t_clean:8,.0f} abstracts/s")
    print(f"kg extract (clean+nlp) : {n / t_kg:8,.0f} abstracts/s   (goal >= 500)")
    print(f"bare spacy.blank('en') : {n / t_bare:8,.0f} abstracts/s")
    print(f"kg / bare              : {t_bare / t_kg:8.1%}         (goal >= 30 %; best against best)")
    print(f"kg / bare, per round   : {median_ratio:8.1%}         (median of {len(rounds)} rounds)")
    t_concepts = concept_cost(nlp, texts, args.repeat)
    if t_concepts is not None:
        print(f"kg_concepts alone      : {t_concepts / n * 1e6:8,.0f} µs/abstract "
              f"({t_concepts / t_kg:.1%} of kg extract)")


def concept_cost(nlp, texts: list[str], repeat: int) -> float | None:
    """Best CPU time of the ``kg_concepts`` component alone over ``texts``, on
    docs the components before it have already run over (None without it)."""
    if "kg_concepts" not in nlp.pipe_names:
        return None
    component = nlp.get_pipe("kg_concepts")
    with nlp.select_pipes(disable=["kg_concepts"]):
        docs = list(nlp.pipe(texts, batch_size=256))
    before = [doc.user_data.get("kg_mentions") for doc in docs]

    def run() -> None:
        for doc, mentions in zip(docs, before, strict=True):
            doc.user_data["kg_mentions"] = mentions
        list(component.pipe(docs))

    return best_of(run, repeat)


if __name__ == "__main__":
    main()
