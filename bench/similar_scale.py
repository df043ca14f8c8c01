"""How the similar-papers ranking scales: seconds and memory against the number of papers.

Usage: python bench/similar_scale.py [--sizes 2610 5000 10307] [--repeat 3]
                                     [--synthetic] [--against TREE]

``--synthetic``: the papers of bench/synth.py (abstracts written from a few
hundred words, things its entity mentions) instead of the real abstracts, so
sizes past 10,307 (#32 builds 1M of these). ``--against TREE``: time another
kg tree's ranking (e.g. main's: /work/main) at the same sizes, side by side.

The papers are real abstracts (the five listings of /work/shared/corpora,
10,307 in all, in a fixed order; a synthetic corpus, bench/synth.py, writes
its abstracts from a few hundred words, so every paper would share most of
them and the product would be far denser than in real text). No extraction
is run: each paper's things are the names and acronyms of its abstract
(words with two capitals, or a capital and a digit: ImageNet, GPT-4), about as
many as extraction finds, so both halves of the score are there. For each size it prints the best of
``--repeat`` runs of :func:`kg.analysis.similar.similar_papers`, each size
in a process of its own, and that process's peak resident memory (the
abstracts' text included) and the exponent
of the time between the two largest sizes, and extrapolates to 100,000 papers
with it.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv:  # the kg tree to time (--against), before this one
    sys.path.insert(0, sys.argv[sys.argv.index("--tree") + 1])
sys.path.insert(1 if "--tree" in sys.argv else 0, str(ROOT))

from kg.analysis.similar import Document, documents, similar_papers  # noqa: E402

CORPORA = Path("/work/shared/corpora")
STEMS = ("icml_2024_all", "icml_2023_all", "cvpr_2023_all", "neurips_2020_all", "iclr_2023_all")


#: a name or acronym: a word with two capitals or a capital and a digit (ImageNet, GPT-4)
_NAME = re.compile(r"\b(?=[\w-]*[A-Z][\w-]*[A-Z0-9])[A-Za-z][\w-]+\b")


def _documents() -> list[Document]:
    docs = []
    for stem in STEMS:
        with open(CORPORA / f"{stem}.truth.jsonl", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                text = rec["abstract"]
                names = dict.fromkeys(w.lower() for w in _NAME.findall(text))
                docs.append(Document(f"{stem}-{rec['index']:05d}", text,
                                     tuple(f"e:{n}" for n in names)))
    return docs


def _synthetic(n: int) -> list[Document]:
    sys.path.insert(0, str(ROOT / "bench"))
    from synth import make_build

    return documents(make_build(n, seed=0))


def _one(n: int, repeat: int, synthetic: bool) -> None:
    """Time one size (in this process) and print ``seconds peak_MiB``."""
    part = _synthetic(n) if synthetic else _documents()[:n]
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        similar_papers(part)
        best = min(best, time.perf_counter() - t0)
    print(best, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2610, 5000, 10307])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--against", type=Path, help="another kg tree, timed side by side")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--tree", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        _one(args.one, args.repeat, args.synthetic)
        return 0
    kind = "synthetic (bench/synth.py)" if args.synthetic else \
        f"real ({len(_documents())} available)"
    print(f"papers: {kind}; machine shared (2 cores, others working)")
    trees = [("this", None)] + ([("against", str(args.against))] if args.against else [])
    print(f"{'papers':>8} " + " ".join(f"{name + ' s':>10} {name + ' MiB':>12}"
                                        for name, _ in trees), flush=True)
    figures: dict[str, list[tuple[int, float, float]]] = {name: [] for name, _ in trees}
    for n in args.sizes:
        cells = []
        for name, tree in trees:
            cmd = [sys.executable, __file__, "--one", str(n), "--repeat", str(args.repeat)]
            cmd += ["--synthetic"] if args.synthetic else []
            cmd += ["--tree", tree] if tree else []
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            best, peak = (float(x) for x in done.stdout.split())
            figures[name].append((n, best, peak))
            cells.append(f"{best:>10.2f} {peak:>12.0f}")
        print(f"{n:>8} " + " ".join(cells), flush=True)
    for name, fig in figures.items():
        if len(fig) >= 2:
            (n1, t1, _), (n2, t2, _) = fig[-2], fig[-1]
            k = math.log(t2 / t1) / math.log(n2 / n1)
            print(f"{name}: time ~ papers^{k:.2f} between {n1} and {n2}: at 100,000 papers "
                  f"about {t2 * (100_000 / n2) ** k:.0f} s, at 1,000,000 about "
                  f"{t2 * (1_000_000 / n2) ** k:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
