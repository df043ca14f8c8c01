"""Time and peak memory of the full co-authorship report on a synthetic corpus.

    python bench/coauthor_bench.py [N] [--seed S] [--exports] [--out DIR]

Builds the N-paper synthetic corpus of ``bench/synth.py`` (default 100,000;
not timed), then times the stages of :func:`kg.build.graph_stage.write_coauthors`:
the co-authorship graph, the analysis (sampled betweenness, closeness and
distances in components over the exact limit), report.json/md and the four
plots; with ``--exports`` also GraphML, GEXF, VOSviewer and CSV of the
co-author graph and the whole knowledge graph's GraphML. Peak memory is the
process's maximum resident set size (it includes the synthetic corpus); CPU
time is printed beside wall time because a shared machine stretches the latter.
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth  # noqa: E402

from kg.build.graph_stage import write_coauthors  # noqa: E402
from kg.outputs import REPORT_FILES  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--exports", action="store_true", help="also write every export")
    ap.add_argument("--out", default=None, help="folder to write into (default: a temp dir)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    build = synth.make_build(args.n, args.seed)
    print(f"synthetic corpus: {args.n:,} papers in {time.perf_counter() - t0:.1f} s "
          f"(not counted), peak {peak_mb():,.0f} MB so far")

    out = Path(args.out or tempfile.mkdtemp(prefix="kg-bench-"))
    t0, c0 = time.perf_counter(), time.process_time()
    result = write_coauthors(build, out, exports=args.exports)
    timings = result.timings
    sizes = {name: (out / name).stat().st_size for name in result.files}
    cpu = time.process_time() - c0
    t_report = sum(timings.get(k, 0.0) for k in ("coauthor_analysis", "report", "plots"))
    total = time.perf_counter() - t0

    import json

    rep = json.loads((out / REPORT_FILES[0]).read_text(encoding="utf-8"))["coauthors"]
    net = rep["network"]
    print(f"graph: {net['nodes']:,} people, {net['edges']:,} coauthor pairs, "
          f"largest component {net['components']['largest']:,} "
          f"({net['components']['largest_share']:.1%})")
    print(f"approximation: {rep['network']['largest_component']['method']}")
    print(f"  betweenness: {rep['centrality']['method']['betweenness']}")
    print(f"  closeness: {rep['centrality']['method']['closeness']}")
    for k in ("coauthor_analysis", "report", "plots", "nx_graphs", "exports"):
        if k in timings:
            print(f"  {k:<17} {timings[k]:7.1f} s")
    print(f"full report (co-author graph + analysis + report.json/md/html + plots): "
          f"{t_report:.1f} s wall; the whole stage {cpu:.1f} s CPU (on a busy shared "
          "machine wall > CPU)")
    if args.exports:
        print(f"with every export: {total:.1f} s "
              f"({sum(sizes.values()) / 1e6:,.0f} MB written to {out})")
    print(f"peak memory (max RSS of the process): {peak_mb():,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
