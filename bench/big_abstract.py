"""One very large abstract through ``kg extract``: time and memory at three sizes.

    .venv/bin/python bench/big_abstract.py [--sizes 8 16 24] [--against OLD_TREE]

Writes a listing of one paper whose abstract is ``N`` MB of words drawn (seeded)
from ICML 2024's abstracts, LaTeX and links as they come, and runs ``kg extract``
on it as a whole process, once per size. Prints wall and CPU seconds, the peak
resident memory, and seconds and MB per MB of abstract, so the growth with size
reads at a glance (linear: the per-MB figures stay flat). Goal (issue 27): 24 MB
in under 10 s and 1 GB. ``--against`` runs an older tree's code (a git worktree)
on the same files beside it, with ``--against-sizes`` (default: the sizes given)
because the old code may take minutes.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "icml_2024_all.txt"
GOAL_SECONDS, GOAL_MB = 10.0, 1024


def make_listing(path: Path, megabytes: int, seed: int = 27) -> None:
    words = CORPUS.read_text(encoding="utf-8").split()
    rng = random.Random(seed)
    out, size = [], 0
    while size < megabytes * 1_000_000:
        w = rng.choice(words)
        out.append(w)
        size += len(w) + 1
    path.write_text("Ada Lovelace, Alan Turing\n\n" + " ".join(out) + "\n", encoding="utf-8")


def run(tree: Path, listing: Path) -> tuple[float, float, float]:
    """Wall s, CPU s and peak RSS (MB) of ``kg extract`` of ``listing`` with ``tree``'s code."""
    code = ("import resource, sys\nfrom kg.cli import main\nrc = main(sys.argv[1:])\n"
            "r = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print(r.ru_utime + r.ru_stime, r.ru_maxrss, file=sys.stderr)\nsys.exit(rc)\n")
    t0 = time.perf_counter()
    # (run from the listing's folder: ``-c`` puts the working folder first on the path)
    done = subprocess.run([sys.executable, "-c", code, "extract", "-q", str(listing)],
                          env=dict(os.environ, PYTHONPATH=str(tree)), cwd=listing.parent,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=True)
    wall = time.perf_counter() - t0
    cpu, peak_kib = done.stderr.strip().splitlines()[-1].split()
    return wall, float(cpu), int(peak_kib) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 24])
    ap.add_argument("--against", type=Path, default=None, help="an older tree (git worktree)")
    ap.add_argument("--against-sizes", type=int, nargs="+", default=None)
    args = ap.parse_args()
    trees = [("this tree", ROOT, sorted(args.sizes))]
    if args.against:
        trees.append((f"old {args.against}", args.against.resolve(),
                      sorted(args.against_sizes or args.sizes)))
    print(f"{'code':<28} {'MB':>4} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} "
          f"{'s/MB':>6} {'MB/MB':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, tree, sizes in trees:
            for mb in sizes:
                listing = Path(tmp) / f"big{mb}.txt"
                if not listing.exists():
                    make_listing(listing, mb)
                wall, cpu, peak = run(tree, listing)
                print(f"{name:<28} {mb:>4} {wall:>8.2f} {cpu:>8.2f} {peak:>8.0f} "
                      f"{wall / mb:>6.2f} {peak / mb:>6.1f}", flush=True)
    print(f"goal: {max(args.sizes)} MB under {GOAL_SECONDS:g} s and {GOAL_MB} MB")


if __name__ == "__main__":
    main()
