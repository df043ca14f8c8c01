"""End-to-end benchmark: ``kg build`` on a real or synthetic corpus, time per
stage, papers/s and peak memory; results go to bench/RESULTS.md.

    .venv/bin/python bench/e2e_bench.py                      # ICML 2024 (2,610 papers)
    .venv/bin/python bench/e2e_bench.py --synthetic 100000 --workers 2

Goals (issue 7): ICML 2024 under 20 s on one core; 100,000 papers under 10
minutes with --workers 2 and under 4 GB peak memory. With --workers 1 the
process (and any thread a library starts) is pinned to one core, so "one
core" holds literally; CPU seconds and the load average are printed beside
the wall time, since other work on the machine slows the wall clock. The synthetic listing is
written by bench/synth.py in a separate process first, so its memory is not
counted. Stage times are wall seconds from the build's own clock; "clean" and
"extract" split the extraction stage by their CPU shares.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ICML = HERE.parents[1] / "shared" / "corpora" / "icml_2024_all.txt"
RESULTS = HERE / "RESULTS.md"


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, {platform.system()} "
            f"{platform.machine()}, Python {platform.python_version()}")


def peak_rss_mib() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def run(listing: Path, workers: int, label: str) -> dict:
    from kg.pipeline import build
    from kg.progress import Progress

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as d:
        t0, c0 = time.perf_counter(), cpu()
        result = build([listing], Path(d) / "out", workers=workers,
                       progress=Progress(quiet=True))
        total, cpu_s = time.perf_counter() - t0, cpu() - c0
    n = len(result.corpus.papers)
    return {"label": label, "papers": n, "workers": workers, "total": total, "cpu": cpu_s,
            "papers_per_s": n / total, "peak_mib": peak_rss_mib(),
            "cores": sorted(os.sched_getaffinity(0)),
            "load": (load_before, os.getloadavg()[0]),
            "timings": dict(result.timings)}


def markdown(r: dict) -> str:
    lines = [f"## {r['label']}", "",
             f"{date.today().isoformat()} on {machine()}", "",
             f"- papers: {r['papers']:,}; workers: {r['workers']}",
             f"- total: {r['total']:.1f} s wall ({r['papers_per_s']:,.0f} papers/s), "
             f"{r['cpu']:.1f} s CPU, pinned to {len(r['cores'])} core(s) {r['cores']}",
             f"- load average (1 min) before and after: {r['load'][0]:.2f}, {r['load'][1]:.2f}",
             f"- peak memory: {r['peak_mib']:,.0f} MiB (largest process)", "",
             "| stage | seconds |", "| --- | ---: |"]
    lines += [f"| {k} | {v:.2f} |" for k, v in r["timings"].items()]
    return "\n".join(lines) + "\n"


def update_results(section: str, label: str) -> None:
    head = "# End-to-end benchmark results\n\nWritten by `bench/e2e_bench.py`; one section per run.\n\n"
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else head
    parts = text.split("\n## ")
    kept = [parts[0].rstrip("\n") + "\n"] + ["## " + p.rstrip("\n") + "\n" for p in parts[1:]
                                           if not p.startswith(label + "\n")]
    RESULTS.write_text("\n".join(kept + [section]), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ICML)
    ap.add_argument("--synthetic", type=int, default=0, help="build N synthetic papers instead")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--no-write", action="store_true", help="print only, leave RESULTS.md")
    ap.add_argument("--cores", type=int, default=0,
                    help="CPU cores to run on (default: one with --workers 1, else all)")
    args = ap.parse_args()
    cores = args.cores or (1 if args.workers == 1 else os.cpu_count() or 1)
    os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:cores])
    with tempfile.TemporaryDirectory() as d:
        if args.synthetic:
            listing = Path(d) / "synthetic.txt"
            subprocess.run([sys.executable, str(HERE / "synth.py"), str(args.synthetic), "-o",
                            str(listing)], check=True)
            label = f"synthetic {args.synthetic:,} papers, {args.workers} worker(s)"
        else:
            listing = args.corpus
            label = f"{args.corpus.name}, {args.workers} worker(s)"
        r = run(listing, args.workers, label)
    section = markdown(r)
    print(section)
    if not args.no_write:
        update_results(section, label)
        print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
