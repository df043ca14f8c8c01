"""The query library on a built store, and against another version of it, side by side.

Times every library query (``queries/*.rq``) on an existing store (``kg build``'s
``output/store``, or any), with parameter values found in the graph itself
(those of ``bench/rdf_bench.py``, or ``--param NAME=VALUE`` to choose them), and,
with ``--against DIR``, the ``.rq`` files of the same names in DIR (e.g. a
``git worktree`` of an older commit's ``queries/``) on the same store, in turn,
saying whether their rows are identical. Each query runs once untimed first
(and its old version), so that neither is timed on a cold cache.

Usage::

    python bench/query_bench.py output/store
    python bench/query_bench.py /tmp/icml/store --against /tmp/old/queries --param kind=quantization

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]


def timed(store, query, params: dict[str, str], repeat: int) -> tuple[float, tuple]:
    """Median seconds over ``repeat`` runs, and the rows of the last."""
    from kg import queries

    times, rows = [], ()
    for _ in range(repeat):
        t0 = time.perf_counter()
        rows = queries.run(store, query, params).rows
        times.append(time.perf_counter() - t0)
    return statistics.median(times), rows


def main(argv: list[str] | None = None) -> int:
    from rdf_bench import pick_params

    from kg import queries
    from kg.store.embedded import EmbeddedStore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", help="a store folder (a build's store/)")
    ap.add_argument("--against", metavar="DIR", help="a folder of .rq files to compare with")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter value (default: picked from the graph)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per query (median)")
    args = ap.parse_args(argv)
    if not (Path(args.store) / "CURRENT").is_file():
        ap.error(f"{args.store}: not a store folder")
    store = EmbeddedStore(args.store)
    params = pick_params(store)
    params.update(p.split("=", 1) for p in args.param)
    print(f"{args.store}: {store.count():,} triples; {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; parameters {params}")
    header = "| query | s |" + (" s before | speed-up | rows identical |" if args.against else "")
    print(f"\n{header} rows |\n|{' --- |' * (header.count('|') - 1)} ---: |")
    for query in queries.library():
        pv = {p.name: params[p.name] for p in query.params if p.name in params}
        old_file = Path(args.against or ".") / f"{query.name}.rq"
        old = (dataclasses.replace(query, sparql=old_file.read_text(encoding="utf-8"))
               if args.against and old_file.is_file() else None)
        for q in (old, query):   # once each, untimed: the store's caches warm for both
            if q is not None:
                queries.run(store, q, pv)
        if old is not None:
            before, old_rows = timed(store, old, pv, args.repeat)
        sec, rows = timed(store, query, pv, args.repeat)
        cells = f"| {query.name} | {sec:.3f} |"
        if args.against:
            cells += (f" {before:.3f} | {before / sec:.1f}x | {old_rows == rows} |"
                      if old is not None else " | | |")
        print(f"{cells} {len(rows)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
