"""The query library on a built store, and against another version of it, side by side.

Times every library query (``queries/*.rq``) on an existing store (``kg build``'s
``output/store``, or any), with parameter values found in the graph itself
(those of ``bench/rdf_bench.py``, or ``--param NAME=VALUE`` to choose them), and,
with ``--against DIR``, the ``.rq`` files of the same names in DIR (e.g. a
``git worktree`` of an older commit's ``queries/``) on the same store, in turn,
saying whether their rows are identical in the columns both have. The old
version runs as the old library ran it (its own parameters, no check of the
values against the graph), the new one with the checks, in turn, best of
``--repeat``. Each query runs once untimed first (and its old version), so that
neither is timed on a cold cache.

Usage::

    python bench/query_bench.py output/store
    python bench/query_bench.py /tmp/icml/store --against /tmp/old/queries --param kind=quantization
    python bench/query_bench.py /tmp/venues/store --param track=CVPR --param concept=diffusion

The queries run unscoped unless ``--param`` gives a track or concept (the picked
values are for the queries that ask about one: papers-about, concept-tree).

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]


def timed(run, repeat: int) -> tuple[float, tuple]:
    """Best seconds over ``repeat`` calls of ``run()``, and the result of the last."""
    times, res = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = run()
        times.append(time.perf_counter() - t0)
    return min(times), res


def shared(old, new) -> bool:
    """Whether two results have the same rows in the columns both have (a column the
    new query added, or a parameter it now shows, aside)."""
    cols = [c for c in old.variables if c in new.variables and c not in ("track", "concept")]
    pick = [(old.variables.index(c), new.variables.index(c)) for c in cols]
    return ([tuple(r[i] for i, _ in pick) for r in old.rows]
            == [tuple(r[j] for _, j in pick) for r in new.rows])


def main(argv: list[str] | None = None) -> int:
    from rdf_bench import pick_params

    from kg import queries
    from kg.queries.scope import scope_params
    from kg.store.embedded import EmbeddedStore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", help="a store folder (a build's store/)")
    ap.add_argument("--against", metavar="DIR", help="a folder of .rq files to compare with")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter value (default: picked from the graph)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per query (the best counts)")
    args = ap.parse_args(argv)
    if not (Path(args.store) / "CURRENT").is_file():
        ap.error(f"{args.store}: not a store folder")
    store = EmbeddedStore(args.store)
    params = pick_params(store)
    params.update(p.split("=", 1) for p in args.param)
    print(f"{args.store}: {store.count():,} triples; {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; parameters {params}")
    header = "| query | ms |" + (" ms before | speed-up | rows identical |" if args.against
                                 else "")
    print(f"\n{header} rows |\n|{' --- |' * (header.count('|') - 1)} ---: |")
    given = {p.split("=", 1)[0] for p in args.param}
    valued = {p.split("=", 1)[0] for p in args.param if p.split("=", 1)[1:] != [""]}
    for query in queries.library():
        # a scope (track, concept) only when --param gives one: the picked ones are for
        # the queries whose own question they are (papers-about's concept)
        scope = set(scope_params(query.sparql)) - given
        pv = {p.name: params[p.name] for p in query.params
              if p.name in params and p.name not in scope}
        if "#scope!" in query.sparql and not set(scope_params(query.sparql)) & valued:
            print(f"| {query.name} | (needs a scope: --param) |", flush=True)
            continue
        old_file = Path(args.against or ".") / f"{query.name}.rq"
        old = None
        if args.against and old_file.is_file():
            # the old query as the old library ran it: its own parameters, no value check
            oq = queries.parse_header(old_file.read_text(encoding="utf-8"), query.name,
                                      strict=False)
            opv = {k: v for k, v in pv.items() if oq.param(k)}

            def old(oq=oq, opv=opv):  # prepared, then run: what the old run() did
                ob = queries.prepare(oq, opv)
                return store.query(ob.sparql, dict(ob.bindings))
        new = lambda query=query, pv=pv: queries.run(store, query, pv)  # noqa: E731
        for run in (old, new):   # once each, untimed: the store's caches warm for both
            if run is not None:
                run()
        best_old, best_new = float("inf"), float("inf")
        for _ in range(args.repeat):   # in turn, so that both see the same machine
            if old is not None:
                t, old_res = timed(old, 1)
                best_old = min(best_old, t)
            t, res = timed(new, 1)
            best_new = min(best_new, t)
        cells = f"| {query.name} | {1000 * best_new:.2f} |"
        if args.against:
            cells += (f" {1000 * best_old:.2f} | {best_old / best_new:.2f}x | "
                      f"{shared(old_res, res)} |" if old is not None else " | | |")
        print(f"{cells} {len(res)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
