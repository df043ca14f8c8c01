"""End-to-end benchmark: ``kg build`` with 1 and with N workers side by side, in one
run: time per stage, wall and CPU time, peak memory, and the RDF stage against
the store's bulk-loader floor; results go to bench/RESULTS.md.

    .venv/bin/python bench/e2e_bench.py                          # ICML 2024 (2,610 papers)
    .venv/bin/python bench/e2e_bench.py --synthetic 20000        # bench/synth.py's listing
    .venv/bin/python bench/e2e_bench.py --workers 2 --rounds 2   # 1, 2, 1, 2 workers

Each build is a whole ``kg build`` process (``python -m kg.cli build -q``,
start-up included), timed from outside; its stage times come from a small
wrapper that runs the same ``build()`` and prints them, then counts the store's
triples (that count's time, 0.3 s on ICML 2024, is taken off the wall time). The builds of one
round run one after another (1 worker, then N), so they see the same load;
more rounds interleave them. With ``--pin`` the 1-worker build is pinned to one
core (the store's loader threads then share it too). The load average is
printed with every figure: other work on the machine slows the wall clock.

The loader floor is ``bench/loader_floor.py``'s measurement (pyoxigraph's bulk
loader on as many trivial triples as the build's graph has), run in the same
run; the RDF stage's rate is the graph's triples over its mapping, load,
compaction and validation (graph.ttl apart, as ``bench/rdf_bench.py`` counts).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ICML = HERE.parents[1] / "shared" / "corpora" / "icml_2024_all.txt"
RESULTS = HERE / "RESULTS.md"
RDF_STEPS = ("rdf.rdf", "rdf.store", "rdf.compact", "rdf.validate")

#: run inside the timed process: the build as ``kg build`` runs it, its stage times on stdout
CHILD = """
import json, sys
from pathlib import Path
from kg.cli import main
import kg.build.pipeline as p
seen = {}
real = p._build_into
def spy(*a, **k):
    r = real(*a, **k)
    seen.update(r.timings)
    return r
p._build_into = spy
rc = main(["build", "-q", "-o", sys.argv[1], "--workers", sys.argv[2], *sys.argv[3:]])
import time
import pyoxigraph as ox
t0 = time.perf_counter()
triples = len(ox.Store.read_only(str(Path(sys.argv[1]) / "store"))) if rc == 0 else 0
counting = time.perf_counter() - t0     # the bench's own work: not the build's time
print(json.dumps({"rc": rc, "timings": seen, "triples": triples, "counting": counting}))
"""


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


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_build(listing: Path, workers: int, out: Path, pin: bool) -> dict:
    """One ``kg build`` process: wall, CPU and peak memory from outside, stages from inside."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    pre = (lambda: os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:1])) \
        if pin and workers == 1 else None
    load_before = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(out), str(workers), str(listing)],
                            env=env, cwd=ROOT, stdout=subprocess.PIPE, preexec_fn=pre)
    assert proc.stdout is not None
    text = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"the build with {workers} worker(s) failed ({proc.returncode})")
    data = json.loads(text.decode().strip().splitlines()[-1])
    wall -= data["counting"]    # counting the store's triples afterwards is not the build
    # ru_maxrss of a waited child: the largest process of its tree (kilobytes)
    return {"workers": workers, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024, "load": (load_before, os.getloadavg()[0]),
            "timings": data["timings"], "triples": data["triples"]}


def loader_floor(triples: int, work: Path) -> float:
    """Triples per second of pyoxigraph's bulk loader on ``triples`` trivial triples."""
    sys.path.insert(0, str(HERE))
    from loader_floor import floor

    wall, _cpu, count = floor(triples, work)
    return count / wall


def markdown(label: str, runs: list[dict], floor_rate: float | None, pin: bool) -> str:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    cols = [f"{r['workers']} worker(s)" for r in runs]
    lines = [f"## {label}", "", f"{stamp} on {machine()}", "",
             "| | " + " | ".join(cols) + " |", "| --- |" + " ---: |" * len(runs)]

    def row(name: str, cells) -> None:
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    row("**total (whole process)**", (f"**{r['wall']:.2f} s**" for r in runs))
    row("CPU (all processes)", (f"{r['cpu']:.1f} s" for r in runs))
    row("peak memory (largest process)", (f"{r['peak_mib']:,.0f} MiB" for r in runs))
    row("load average before, after", (f"{r['load'][0]:.2f}, {r['load'][1]:.2f}" for r in runs))
    keys = list(dict.fromkeys(k for r in runs for k in r["timings"]))
    for k in keys:
        row(k, (f"{r['timings'].get(k, 0.0):.2f}" for r in runs))
    for r in runs:
        r["rdf_rate"] = r["triples"] / max(sum(r["timings"].get(k, 0.0) for k in RDF_STEPS),
                                          1e-9)
    row("RDF stage triples/s (graph.ttl apart)", (f"{r['rdf_rate']:,.0f}" for r in runs))
    if floor_rate:
        row("... of the loader floor", (f"{r['rdf_rate'] / floor_rate:.2f}" for r in runs))
    lines.append("")
    base = [r for r in runs if r["workers"] == 1]
    ratios = []
    for r in runs:
        if r["workers"] > 1 and base:
            one = min(base, key=lambda b: abs(runs.index(b) - runs.index(r)))
            ratios.append(one["wall"] / r["wall"])
            lines.append(f"- {r['workers']} workers: {ratios[-1]:.2f}x the speed "
                         f"of 1 worker in the same round")
    if len(ratios) > 1:     # one round's ratio moves by +-0.15 on a shared 2-core machine
        lines.append(f"- over the {len(ratios)} rounds: median {statistics.median(ratios):.2f}x, "
                     f"lowest {min(ratios):.2f}x")
    if floor_rate:
        lines.append(f"- loader floor in this run: {floor_rate:,.0f} triples/s "
                     f"({runs[0]['triples']:,} trivial triples, `bench/loader_floor.py`)")
    lines.append(f"- 1-worker builds {'pinned to one core' if pin else 'not pinned'}; "
                 "outputs byte-identical between the builds: see the line below")
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
    ap.add_argument("--workers", type=int, default=2, help="the build compared with 1 worker")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of (1 worker, N workers)")
    ap.add_argument("--pin", action="store_true", help="pin the 1-worker build to one core")
    ap.add_argument("--floor", action=argparse.BooleanOptionalAction, default=None,
                    help="measure the loader floor too (default: with --synthetic)")
    ap.add_argument("--no-write", action="store_true", help="print only, leave RESULTS.md")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from compare_builds import compare

    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        if args.synthetic:
            listing = work / "synthetic.txt"
            subprocess.run([sys.executable, str(HERE / "synth.py"), str(args.synthetic), "-o",
                            str(listing)], check=True)
            label = f"synthetic {args.synthetic:,} papers, 1 vs {args.workers} workers"
        else:
            listing = args.corpus
            label = f"{args.corpus.name}, 1 vs {args.workers} workers"
        print(f"load average at start: {load()}", file=sys.stderr)
        runs = []
        for i in range(args.rounds):
            for w in (1, args.workers):
                out = work / f"out-{w}-{i}"
                runs.append(run_build(listing, w, out, args.pin))
                print(f"  {w} worker(s): {runs[-1]['wall']:.2f} s (load {load()})",
                      file=sys.stderr)
        diff = [n for n, v in compare(work / "out-1-0", work / f"out-{args.workers}-0")
                if v != "same"]
        floor_rate = None
        if args.floor or (args.floor is None and args.synthetic):
            floor_rate = loader_floor(runs[0]["triples"], work)
    section = markdown(label, runs, floor_rate, args.pin)
    section += (f"- outputs: {'byte-identical' if not diff else 'DIFFER: ' + ', '.join(diff)} "
                f"(`bench/compare_builds.py`, store apart)\n")
    print(section)
    if not args.no_write:
        update_results(section, label)
        print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
