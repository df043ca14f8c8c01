"""Benchmark of the RDF stage, validation and the query library (issue 4).

On a synthetic corpus (``bench/synth.py``, shapes drawn from ICML 2024) it
measures, side by side in one run:

1. the RDF stage: Build -> N-Triples -> bulk load into the embedded
   pyoxigraph store (triples per second), plus Turtle serialisation;
2. validation: the SHACL shapes checked with SPARQL inside the store, and
   pySHACL on a smaller graph (``--shacl-papers``) for comparison;
3. every library query's median time on the embedded (on-disk) store;
4. the same queries on rdflib's default in-memory store, on a corpus of
   ``--rdflib-papers`` papers (rdflib needs ~0.9 KB per triple and runs
   SPARQL in pure Python, so 100,000 papers may not fit or finish), with
   the embedded store timed on that same corpus for a like-for-like ratio;
5. peak memory (the process's maximum resident set size) after each phase.

Usage::

    python bench/rdf_bench.py            # 100,000 papers; rdflib on 10,000
    python bench/rdf_bench.py --papers 20000 --rdflib-papers 5000 --repeat 3
    python bench/rdf_bench.py --rdflib-papers 0    # rdflib on all 100,000 (~11 GB)

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import gc
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `kg` and `synth` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from kg import queries  # noqa: E402
from kg.rdf import ntriples_to_rdflib, to_turtle, write_ntriples  # noqa: E402
from kg.store import EmbeddedStore, QueryResult  # noqa: E402
from kg.validate import compile_shapes, validate_pyshacl, validate_store  # noqa: E402


def make_build(n: int, seed: int):
    try:
        from synth import make_build as mk
    except ImportError:  # pragma: no cover
        from bench.synth import make_build as mk
    return mk(n, seed)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    try:
        import psutil

        return psutil.Process().memory_info().rss / 2**20
    except ImportError:  # pragma: no cover
        return float("nan")


def pick_params(store) -> dict[str, str]:
    """Realistic parameter values found in the graph itself."""
    def one(sparql: str, default: str) -> str:
        rows = store.query(sparql).rows
        return rows[0][0].value if rows and rows[0][0] is not None else default

    pre = ("PREFIX schema: <https://schema.org/> PREFIX skos: <http://www.w3.org/2004/02/skos/core#> "
           "PREFIX kgo: <https://w3id.org/paper-kg/ontology#> "
           "PREFIX dcterms: <http://purl.org/dc/terms/> ")
    author = one(pre + "SELECT ?n WHERE { ?a schema:name ?n ; a schema:Person } LIMIT 1", "x")
    paper = one(pre + "SELECT ?i WHERE { ?p dcterms:identifier ?i ; schema:mentions ?e } LIMIT 1",
                "x")
    entity = one(pre + "SELECT ?n WHERE { ?p dcterms:identifier ?i ; schema:mentions ?e . "
                 "?e skos:prefLabel ?n ; a kgo:Model } LIMIT 1", "x")
    family = one(pre + "SELECT ?n WHERE { ?m kgo:family ?f . ?f skos:prefLabel ?n } LIMIT 1", entity)
    kind = one(pre + "SELECT ?n WHERE { ?p kgo:proposes ?m . ?m a kgo:Method ; skos:prefLabel ?n } "
               "LIMIT 1", "x")
    track = one(pre + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?l WHERE { "
                "?t a kgo:Track ; rdfs:label ?l ; kgo:paperCount ?n ; skos:broader ?a } "
                "ORDER BY DESC(?n) LIMIT 1", "x")
    return {"author": author, "paper": paper, "entity": entity, "family": family, "kind": kind,
            "track": track}


def _time_one(store, q, pv, repeat: int, budget: float) -> tuple[float, int]:
    times = []
    rows = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = queries.run(store, q, pv)
        times.append(time.perf_counter() - t0)
        rows = len(res)
        if times[-1] > budget:  # a slow engine: one run is enough for a median of one
            break
    return statistics.median(times), rows


def _forked(fn, timeout: float, extra_memory: int):
    """Run ``fn()`` in a forked child (sharing the loaded graph copy-on-write),
    capped in time and memory; ``None`` when it ran out of either."""
    import json
    import os
    import select
    import signal

    try:
        import psutil

        vms = psutil.Process().memory_info().vms
    except ImportError:  # pragma: no cover
        vms = 0
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        try:
            if vms:
                resource.setrlimit(resource.RLIMIT_AS, (vms + extra_memory, vms + extra_memory))
            os.write(w, json.dumps(fn()).encode())
        except BaseException:  # noqa: BLE001 - out of memory, anything: report nothing
            pass
        finally:
            os._exit(0)
    os.close(w)
    ready, _, _ = select.select([r], [], [], timeout)
    data = b""
    if ready:
        while chunk := os.read(r, 65536):
            data += chunk
    else:
        os.kill(pid, signal.SIGKILL)
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data) if data else None


def time_queries(store, params: dict[str, str], repeat: int, label: str,
                 budget: float = float("inf"), fork_timeout: float | None = None,
                 extra_memory: int = 4 << 30) -> dict[str, tuple[float, int]]:
    """Median seconds and row count of every library query on ``store``.

    With ``fork_timeout`` each query runs in a forked child that is stopped
    after that many seconds or ``extra_memory`` bytes; such a query counts
    as taking the whole timeout (a lower bound) and shows as ``>``.
    """
    out: dict[str, tuple[float, int]] = {}
    for q in queries.library():
        pv = {p.name: params[p.name] for p in q.params if p.name in params}
        if fork_timeout is None:
            out[q.name] = _time_one(store, q, pv, repeat, budget)
            mark = " "
        else:
            got = _forked(lambda: _time_one(store, q, pv, repeat, budget), fork_timeout,
                          extra_memory)
            out[q.name] = tuple(got) if got else (fork_timeout, -1)
            mark = " " if got else ">"
        sec, rows = out[q.name]
        shown = f"{rows:7d} rows" if rows >= 0 else "stopped (time or memory cap)"
        print(f"  {label:9s} {q.name:26s}{mark}{sec:9.3f} s  {shown}", flush=True)
    return out


class RdflibStore:
    """rdflib's default in-memory store behind the SparqlStore API (initBindings)."""

    def __init__(self, graph) -> None:
        self.graph = graph

    def query(self, sparql: str, bindings=None) -> QueryResult:
        import pyoxigraph as ox
        from rdflib import Literal, URIRef

        init = {}
        for k, v in (bindings or {}).items():
            if isinstance(v, ox.NamedNode):
                init[k] = URIRef(v.value)
            elif isinstance(v, ox.Literal):
                dt = v.datatype.value
                init[k] = (Literal(v.value) if dt.endswith("#string")
                           else Literal(v.value, datatype=URIRef(dt)))
        res = self.graph.query(sparql, initBindings=init)
        if res.type == "ASK":
            return QueryResult("ask", boolean=bool(res.askAnswer))
        if res.type == "SELECT":
            names = tuple(str(v) for v in res.vars)
            return QueryResult("select", names, tuple(tuple(r) for r in res))
        return QueryResult("graph", triples=tuple(res))

    def count(self) -> int:
        return len(self.graph)

    def close(self) -> None:
        pass


def rdf_stage(build, work: Path) -> tuple[EmbeddedStore, int, dict[str, float]]:
    """What ``kg build`` does (kg.rdf_stage), step by step with a clock on each."""
    t = {}
    work.mkdir(parents=True, exist_ok=True)
    nt = work / "graph.nt"
    t0 = time.perf_counter()
    with open(nt, "wb") as fh:
        n = write_ntriples(build, fh)
    t["generate"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    store = EmbeddedStore(work / "store", read_only=False)
    store.load_ntriples(nt)
    t["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    store.optimize()
    store.close()
    t["optimize"] = time.perf_counter() - t0
    store = EmbeddedStore(work / "store")
    t0 = time.perf_counter()
    to_turtle(nt, work / "graph.ttl")
    t["turtle"] = time.perf_counter() - t0
    return store, n, t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--rdflib-papers", type=int, default=10_000,
                    help="papers for the rdflib comparison (0: same as --papers; rdflib holds "
                         "~0.9 KB per triple, so 100,000 papers need ~11 GB)")
    ap.add_argument("--shacl-papers", type=int, default=2_000,
                    help="papers for the pySHACL comparison")
    ap.add_argument("--repeat", type=int, default=5, help="runs per query on the embedded store")
    ap.add_argument("--rdflib-repeat", type=int, default=3, help="runs per query on rdflib")
    ap.add_argument("--rdflib-timeout", type=float, default=120.0,
                    help="seconds before an rdflib query is stopped (counted as that long)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", default=None, help="keep the work folder here")
    args = ap.parse_args(argv)
    rdflib_papers = args.rdflib_papers or args.papers

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="kg-rdf-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"kg RDF bench: {args.papers:,} papers (seed {args.seed}), work folder {work}")
    try:
        t0 = time.perf_counter()
        build = make_build(args.papers, args.seed)
        n_ment = sum(len(e.mentions) for e in build.extractions.values())
        print(f"synthetic corpus: {time.perf_counter() - t0:.1f} s, "
              f"{len(build.corpus.papers):,} papers, {len(build.corpus.authors):,} authors, "
              f"{n_ment:,} mentions; peak {peak_mb():,.0f} MB")

        # 1. the RDF stage
        store, n, t = rdf_stage(build, work / "full")
        stage = t["generate"] + t["load"]
        print(f"\n[1] RDF stage: {n:,} triples ({n / len(build.corpus.papers):.0f} per paper)")
        print(f"    generate N-Triples {t['generate']:7.1f} s  {n / t['generate']:>12,.0f} triples/s")
        print(f"    bulk load store    {t['load']:7.1f} s  {n / t['load']:>12,.0f} triples/s")
        print(f"    into the store     {stage:7.1f} s  {n / stage:>12,.0f} triples/s   (goal >= 200,000)")
        print(f"    compact the store  {t['optimize']:7.1f} s  (with it: "
              f"{n / (stage + t['optimize']):,.0f} triples/s)")
        print(f"    Turtle (graph.ttl) {t['turtle']:7.1f} s")
        print(f"    peak memory {peak_mb():,.0f} MB")

        # 2. validation
        checks = compile_shapes()
        t0 = time.perf_counter()
        rep = validate_store(store)
        tv = time.perf_counter() - t0
        full = stage + t["optimize"] + t["turtle"] + tv
        print(f"\n[2] SHACL in the store: {len(checks)} constraints, {tv:.1f} s, "
              f"conforms={rep.conforms} ({tv / full * 100:.0f}% of the whole RDF stage)")
        small = make_build(args.shacl_papers, args.seed)
        st_small, n_small, _ = rdf_stage(small, work / "shacl")
        t0 = time.perf_counter()
        rep_s = validate_store(st_small)
        ts_sparql = time.perf_counter() - t0
        g_small = ntriples_to_rdflib(work / "shacl" / "graph.nt")
        t0 = time.perf_counter()
        rep_p = validate_pyshacl(g_small)
        ts_py = time.perf_counter() - t0
        print(f"    on {args.shacl_papers:,} papers ({n_small:,} triples): SPARQL {ts_sparql:.2f} s, "
              f"pySHACL {ts_py:.1f} s ({ts_py / max(ts_sparql, 1e-9):.0f}x), "
              f"both conform: {rep_s.conforms and rep_p.conforms}; pySHACL per triple "
              f"{ts_py / n_small * 1e6:.0f} us -> {ts_py / n_small * n / 60:.0f} min at full size")
        del g_small, st_small
        gc.collect()

        # 3. queries on the embedded store
        params = pick_params(store)
        print(f"\n[3] queries on the embedded store ({n:,} triples), median of {args.repeat}; "
              f"params {params}")
        emb = time_queries(store, params, args.repeat, "embedded")
        over = [k for k, (s, _) in emb.items() if s >= 1.0]
        print(f"    suite total {sum(s for s, _ in emb.values()):.2f} s; slowest "
              f"{max(emb.items(), key=lambda kv: kv[1][0])[0]} "
              f"{max(s for s, _ in emb.values()):.2f} s; over 1 s: {', '.join(over) or 'none'}")
        print(f"    peak memory {peak_mb():,.0f} MB")
        store.close()
        del build
        gc.collect()

        # 4. rdflib, on the same corpus or a smaller one
        if rdflib_papers == args.papers:
            nt_path, emb_same, n_r = work / "full" / "graph.nt", emb, n
            p_r = params
        else:
            rb = make_build(rdflib_papers, args.seed)
            st_r, n_r, _ = rdf_stage(rb, work / "rdflib")
            nt_path = work / "rdflib" / "graph.nt"
            p_r = pick_params(st_r)
            print(f"\n[4a] embedded store on the rdflib corpus: {rdflib_papers:,} papers, "
                  f"{n_r:,} triples")
            emb_same = time_queries(st_r, p_r, args.repeat, "embedded")
            st_r.close()
            del rb
        rss0 = rss_mb()
        t0 = time.perf_counter()
        g = ntriples_to_rdflib(nt_path)
        tl = time.perf_counter() - t0
        print(f"\n[4] rdflib in-memory store: {len(g):,} triples loaded in {tl:.1f} s "
              f"({len(g) / tl:,.0f} triples/s), +{rss_mb() - rss0:,.0f} MB; "
              f"median of {args.rdflib_repeat}")
        rl = time_queries(RdflibStore(g), p_r, args.rdflib_repeat, "rdflib", budget=10.0,
                          fork_timeout=args.rdflib_timeout)
        print(f"    peak memory {peak_mb():,.0f} MB")

        print(f"\n    {'query':26s} {'embedded':>10s} {'rdflib':>10s} {'speed-up':>9s}  rows   "
              f"({rdflib_papers:,} papers)")
        for name in rl:
            (e, er), (r, rr) = emb_same[name], rl[name]
            same = "same" if er == rr else ("?" if rr < 0 else f"{er} vs {rr}")
            print(f"    {name:26s} {e:10.3f} {r:10.3f} {r / max(e, 1e-6):8.0f}x  {same}")
        se, sr = sum(v[0] for v in emb_same.values()), sum(v[0] for v in rl.values())
        stopped = sum(1 for v in rl.values() if v[1] < 0)
        print(f"    {'suite':26s} {se:10.3f} {sr:10.3f} {sr / se:8.0f}x   (goal >= 10x)"
              + (f"; {stopped} rdflib queries stopped at {args.rdflib_timeout:.0f} s, "
                 f"so the rdflib figure is a lower bound" if stopped else ""))
        fastest = min(rl[k][0] / max(emb_same[k][0], 1e-6) for k in rl)
        print(f"    smallest per-query speed-up {fastest:.1f}x")
        print(f"\npeak memory (max RSS) {peak_mb():,.0f} MB")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
