"""The floor under the RDF stage: pyoxigraph's bulk loader on the simplest triples.

Writes ``--triples`` N-Triples of three short IRIs each (``<s> <p> <o>``, ten
per subject, every object distinct), bulk-loads them into a new on-disk
store exactly as :meth:`kg.store.EmbeddedStore.load_ntriples` does (a file
path, ``lenient=True``) and prints wall time, CPU time of the process (all
its threads), cores kept busy, triples per second and CPU microseconds per
triple. Then it does the same for in-memory parsing alone, for scale.

kg's own triples cost the loader the same per triple (long literals and
long IRIs do not change it), so this is the most the RDF stage can reach on
this machine before kg maps, compacts or validates anything.

Usage::

    python bench/loader_floor.py                  # 13,816,066 triples (kg's graph of 100,000 papers)
    python bench/loader_floor.py --triples 2000000

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def write_triples(path: Path, n: int) -> None:
    with open(path, "w", encoding="ascii") as fh:
        step = 100_000
        for start in range(0, n, step):
            fh.write("".join(f"<http://k/s{i // 10}> <http://k/p{i % 10}> <http://k/o{i}> .\n"
                             for i in range(start, min(n, start + step))))


def floor(n: int, work: Path) -> tuple[float, float, int]:
    """Bulk-load ``n`` trivial triples into a new on-disk store in ``work``:
    (wall seconds, CPU seconds of this process, triples in the store)."""
    import pyoxigraph as ox

    nt = work / "floor.nt"
    write_triples(nt, n)
    store = ox.Store(str(work / "floor-store"))
    t0, c0 = time.perf_counter(), cpu_seconds()
    store.bulk_load(path=str(nt), format=ox.RdfFormat.N_TRIPLES, lenient=True)
    store.flush()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    count = len(store)
    del store
    nt.unlink()
    shutil.rmtree(work / "floor-store", ignore_errors=True)
    return wall, cpu, count


def main(argv: list[str] | None = None) -> int:
    import pyoxigraph as ox

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triples", type=int, default=13_816_066)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="kg-loader-floor-"))
    try:
        nt = work / "t.nt"
        write_triples(nt, args.triples)
        print(f"pyoxigraph {ox.__version__}, {os.cpu_count()} cores, "
              f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

        t0, c0 = time.perf_counter(), cpu_seconds()
        n = sum(1 for _ in ox.parse(path=str(nt), format=ox.RdfFormat.N_TRIPLES, lenient=True))
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        print(f"parse only (into Python objects): {n:,} triples in {wall:.1f} s "
              f"({n / wall:,.0f}/s)")
        nt.unlink()

        wall, cpu, count = floor(args.triples, work)
        print(f"bulk load into an on-disk store: {count:,} triples in {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU ({cpu / wall:.2f} cores busy): {count / wall:,.0f} triples/s, "
              f"{cpu / count * 1e6:.2f} CPU us per triple")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
