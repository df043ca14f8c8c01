"""Can the RDF stage make its triples while the store loads them? Measured, three ways.

``kg build`` maps the graph to an N-Triples file (one core, Python), then
bulk-loads the file (pyoxigraph: a parser and sorting threads, about 1.8 of
the 2 cores here). This script builds ``bench/synth.py``'s graph of N papers
and, in one run, times:

1. **sequential**, as ``kg build`` does: mapping into a file, then
   the bulk load of that file;
2. **pipe**: the mapping writes into a FIFO on the main thread while
   the loader reads it on another (``bulk_load`` runs outside the GIL);
3. **halves**: the first half of the file loads on a thread while the
   mapping runs again, then the second half loads;

each ``--rounds`` times, in turn (this machine's speed drifts by 20 % within
minutes), and the loader floor (``bench/loader_floor.py``) for as many
triples; the file of the first mapping, unmeasured (it also loads the gazetteer
and the concepts), is what the sequential and halves ways load. Each
prints wall time, CPU time of the process (all its threads) and triples per
second; every store is checked to hold every triple.

Usage::

    python bench/rdf_overlap.py              # 100,000 papers
    python bench/rdf_overlap.py --papers 20000
    python bench/rdf_overlap.py --ways sequential,halves --rounds 3

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from loader_floor import cpu_seconds, floor  # noqa: E402  (bench/ is on the path now)


class _Tee:
    """A binary sink writing to two files."""

    def __init__(self, a, b) -> None:
        self.a, self.b = a, b

    def write(self, data: bytes) -> int:
        self.a.write(data)
        self.b.write(data)
        return len(data)


def _load(store, path: Path, errors: list) -> None:
    import pyoxigraph as ox

    try:
        store.bulk_load(path=str(path), format=ox.RdfFormat.N_TRIPLES, lenient=True)
    except BaseException as exc:  # noqa: BLE001 - reported by the caller
        errors.append(exc)


def _split(nt: Path, a: Path, b: Path) -> None:
    """The N-Triples file ``nt`` cut at the line nearest its middle."""
    with open(nt, "rb") as f:
        f.seek(nt.stat().st_size // 2)
        f.readline()
        half = f.tell()
        f.seek(0)
        with open(a, "wb") as out:   # in 16 MiB pieces: the file is 2.6 GB at 100,000 papers
            while (left := half - f.tell()) > 0:
                out.write(f.read(min(left, 1 << 24)))
        with open(b, "wb") as out:
            shutil.copyfileobj(f, out, 1 << 24)


def _sequential(build, work: Path, nt: Path, errors: list) -> tuple[object, str]:
    import pyoxigraph as ox

    from kg.rdf import write_ntriples

    store = ox.Store(str(work / "store-sequential"))
    t0 = time.perf_counter()
    with open(nt, "wb") as fh:
        write_ntriples(build, fh)
    mapped = time.perf_counter() - t0
    _load(store, nt, errors)
    return store, f"mapping {mapped:.1f} s, then load {time.perf_counter() - t0 - mapped:.1f} s"


def _pipe(build, work: Path, nt: Path, errors: list) -> tuple[object, str]:
    import pyoxigraph as ox

    from kg.rdf import write_ntriples

    fifo = work / "graph.fifo"
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    store = ox.Store(str(work / "store-pipe"))
    t0 = time.perf_counter()
    loader = threading.Thread(target=_load, args=(store, fifo, errors))
    loader.start()
    with open(work / "copy.nt", "wb") as f1, open(fifo, "wb") as f2:
        write_ntriples(build, _Tee(f1, f2))
    mapped = time.perf_counter() - t0
    loader.join()
    (work / "copy.nt").unlink()
    return store, f"mapping done at {mapped:.1f} s, load at {time.perf_counter() - t0:.1f} s"


def _halves(build, work: Path, nt: Path, errors: list) -> tuple[object, str]:
    import pyoxigraph as ox

    from kg.rdf import write_ntriples

    if not (work / "a.nt").exists():
        _split(nt, work / "a.nt", work / "b.nt")
    store = ox.Store(str(work / "store-halves"))
    t0 = time.perf_counter()
    loader = threading.Thread(target=_load, args=(store, work / "a.nt", errors))
    loader.start()
    with open(os.devnull, "wb") as fh:
        write_ntriples(build, fh)
    mapped = time.perf_counter() - t0
    loader.join()
    first = time.perf_counter() - t0
    _load(store, work / "b.nt", errors)
    return store, (f"mapping {mapped:.1f} s beside the first half's load ({first:.1f} s), "
                   f"then the second half {time.perf_counter() - t0 - first:.1f} s")


WAYS = {"sequential": _sequential, "pipe": _pipe, "halves": _halves}


def run(build, work: Path, ways: list[str], rounds: int
        ) -> tuple[int, list[tuple[str, float, float, int, str]]]:
    """The triples mapped, and for each round and way (in turn):
    (way, wall s, CPU s, triples in the store, detail)."""
    from kg.rdf import write_ntriples

    nt = work / "graph.nt"
    with open(nt, "wb") as fh:   # the file; and warm: the gazetteer and concepts load once
        triples = write_ntriples(build, fh)
    rows = []
    for _ in range(rounds):
        for way in ways:
            errors: list = []
            t0, c0 = time.perf_counter(), cpu_seconds()
            store, detail = WAYS[way](build, work, nt, errors)
            store.flush()
            wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
            if errors:
                raise errors[0]
            rows.append((way, wall, cpu, len(store), detail))
            del store
            shutil.rmtree(work / f"store-{way}", ignore_errors=True)
    return triples, rows


def main(argv: list[str] | None = None) -> int:
    from synth import make_build

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--ways", default=",".join(WAYS),
                    help=f"comma-separated, in the order run each round (default: {','.join(WAYS)})")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of all the ways, in turn")
    args = ap.parse_args(argv)
    ways = args.ways.split(",")
    if unknown := [w for w in ways if w not in WAYS]:
        ap.error(f"unknown way {unknown[0]!r} (choose from {', '.join(WAYS)})")
    work = Path(tempfile.mkdtemp(prefix="kg-rdf-overlap-"))
    try:
        t = time.perf_counter()
        build = make_build(args.papers)
        print(f"{args.papers:,} synthetic papers made in {time.perf_counter() - t:.1f} s; "
              f"{os.cpu_count()} cores, load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        triples, rows = run(build, work, ways, args.rounds)
        f_wall, f_cpu, _ = floor(triples, work)
        print("\n| way | wall s | CPU s | triples/s | share of the floor | store holds all | detail |")
        print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
        for name, wall, cpu, held, detail in rows:
            print(f"| {name} | {wall:.1f} | {cpu:.1f} | {triples / wall:,.0f} | "
                  f"{triples / wall / (triples / f_wall):.2f} | {held == triples} | {detail} |")
        print(f"| loader floor ({triples:,} trivial triples) | {f_wall:.1f} | {f_cpu:.1f} | "
              f"{triples / f_wall:,.0f} | 1.00 | | `bench/loader_floor.py` |")
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
