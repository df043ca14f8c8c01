"""CPU and wall time of a parallel build's graph-stage process, stage by stage.

    python bench/graph_stage_bench.py [N] [--seed S] [--out DIR] [--profile FILE]

Builds the N-paper synthetic build of ``bench/synth.py`` (default 20,000; not
timed), then runs what the forked process of ``kg build --workers 2`` runs
(:func:`kg.build.pipeline._graphs_child`), with its garbage-collection settings:
the co-authorship analysis, plots and co-author exports, then the report,
the knowledge graph's GraphML and the four views. Prints each stage's wall
time (the build's own timings) and the CPU time of the three parts;
``--profile`` writes a cProfile of the views. Asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth  # noqa: E402

from kg.build import pipeline  # noqa: E402
from kg.build.graph_stage import write_coauthors, write_network_files  # noqa: E402
from kg.util.progress import QUIET  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="write the files here (default: a temporary folder)")
    ap.add_argument("--profile", type=Path, help="write a cProfile of the views here")
    args = ap.parse_args(argv)
    build = synth.make_build(args.n, seed=args.seed)
    counts = pipeline.build_summary(build.corpus, build.extractions)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        cpu: dict[str, list[float]] = {}

        def clock(name, fn):
            c0, w0 = time.process_time(), time.perf_counter()
            result = fn()
            cpu[name] = [round(time.process_time() - c0, 2), round(time.perf_counter() - w0, 2)]
            return result

        pipeline._long_lived()     # as the forked process does with what it is given
        net = clock("network_files", lambda: write_network_files(build.corpus, out,
                                                                 progress=QUIET))
        graphs = clock("write_coauthors", lambda: write_coauthors(
            build, out, counts=counts.counts, progress=QUIET, network=net))
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        views = clock("views", lambda: pipeline._views_stage(out, build, graphs,
                                                             progress=QUIET))
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
    timings = {**graphs.timings, **views.timings}
    print(json.dumps({
        "papers": args.n,
        "stage_wall_s": {k: round(v, 2) for k, v in timings.items()},
        "cpu_wall_s": cpu,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "load": round(os.getloadavg()[0], 2),
    }))


if __name__ == "__main__":
    main()
