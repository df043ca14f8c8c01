"""Benchmark of the RDF stage, validation and the query library (issue 4).

On a synthetic corpus (``bench/synth.py``, shapes drawn from ICML 2024) it
measures, side by side in one run:

1. the RDF stage exactly as ``kg build`` runs it (:func:`kg.rdf.stage.write_rdf`):
   mapping the build to N-Triples, bulk-loading them into the embedded
   pyoxigraph store, compacting it, SHACL validation inside the store, in
   triples per second; writing ``graph.ttl`` is timed apart and reported
   with and without;
2. validation: its share of the stage, and pySHACL on a smaller graph
   (``--shacl-papers``) for comparison;
3. every library query's median time on the embedded (on-disk) store;
4. the same queries on rdflib's default in-memory store holding the same
   graph (``--rdflib-papers``, default: the same corpus), each in a forked
   process stopped after ``--rdflib-timeout`` seconds or when it needs more
   than 6 GiB more memory (shown as ``>``, and counted as long as it ran,
   so the suite ratio is then a lower bound); rdflib's
   load time and memory. The rdflib phase runs in a child process capped at
   ``--rdflib-memory`` GiB: if the graph does not fit, the run says so and
   tries half the papers, down to 5,000;
5. peak memory (maximum resident set size) of the bench and of its largest
   child process.

Usage::

    python bench/rdf_bench.py                      # 100,000 papers, rdflib on the same
    python bench/rdf_bench.py --papers 20000 --repeat 3
    python bench/rdf_bench.py --rdflib-papers 10000

It prints figures (and ``--markdown bench/RESULTS.md`` writes them as a section
there); it asserts nothing.
"""
from __future__ import annotations

import argparse
import gc
import os
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
from kg.models import Build  # noqa: E402
from kg.rdf import ntriples_to_rdflib  # noqa: E402
from kg.rdf.shacl import compile_shapes, validate_store  # noqa: E402
from kg.rdf.shacl_pyshacl import validate_pyshacl  # noqa: E402
from kg.rdf.stage import write_rdf  # noqa: E402
from kg.store import EmbeddedStore, QueryResult  # noqa: E402


def make_build(n: int, seed: int):
    try:
        from synth import make_build as mk
    except ImportError:  # pragma: no cover
        from bench.synth import make_build as mk
    return mk(n, seed)


def peak_mb(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


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
    concept = one(pre + "SELECT ?n WHERE { ?c a kgo:Concept ; skos:prefLabel ?n ; "
                  "kgo:paperCount ?k } ORDER BY DESC(?k) ?n LIMIT 1", "x")
    return {"author": author, "paper": paper, "entity": entity, "family": family, "kind": kind,
            "track": track, "concept": concept}


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


def _forked(fn, timeout: float, extra_memory: int = 0,
            memory_cap: int | None = None) -> tuple[object, float, str]:
    """Run ``fn()`` in a forked child (sharing the loaded graph copy-on-write),
    capped in time and memory (``extra_memory`` bytes beyond what the parent
    maps, or ``memory_cap`` bytes in all).

    Returns ``(result, seconds, why)``: ``result`` is ``None`` when the child
    was stopped at ``timeout`` (``why`` is ``"time"``) or failed, e.g. out of
    its ``extra_memory`` bytes (``why`` names the error; ``seconds`` is how
    long it ran).
    """
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
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        gc.disable()  # a collection would touch (and so copy) every shared page
        try:
            if memory_cap is not None:
                resource.setrlimit(resource.RLIMIT_AS, (memory_cap, memory_cap))
            elif vms:
                hard = resource.getrlimit(resource.RLIMIT_AS)[1]
                cap = vms + extra_memory
                cap = cap if hard == resource.RLIM_INFINITY else min(cap, hard)
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
            out = {"ok": fn()}
        except BaseException as exc:  # noqa: BLE001 - out of memory, anything: say what
            out = {"error": type(exc).__name__}
        try:
            os.write(w, json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    why = ""
    while True:
        left = timeout - (time.perf_counter() - t0)
        ready, _, _ = select.select([r], [], [], max(left, 0))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            why = "time"
            break
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    elapsed = time.perf_counter() - t0
    os.close(r)
    os.waitpid(pid, 0)
    got = json.loads(data) if data else {"error": why or "died"}
    if "ok" in got:
        return got["ok"], elapsed, ""
    return None, elapsed, got.get("error") or why


def time_queries(store, params: dict[str, str], repeat: int, label: str,
                 budget: float = float("inf"), fork_timeout: float | None = None,
                 extra_memory: int = 6 << 30) -> dict[str, tuple[float, int]]:
    """Median seconds and row count of every library query on ``store``.

    With ``fork_timeout`` each query runs in a forked child that is stopped
    after that many seconds or when it needs more than ``extra_memory``
    bytes; such a query counts as taking as long as it ran (the timeout, or
    until it ran out of memory: a lower bound either way), has -1 rows and
    shows as ``>``.
    """
    out: dict[str, tuple[float, int]] = {}
    for q in queries.library():
        pv = {p.name: params[p.name] for p in q.params if p.name in params}
        why = ""
        if fork_timeout is None:
            out[q.name] = _time_one(store, q, pv, repeat, budget)
        else:
            got, ran, why = _forked(lambda q=q, pv=pv: _time_one(store, q, pv, repeat, budget),
                                    fork_timeout, extra_memory)
            out[q.name] = tuple(got) if got else (fork_timeout if why == "time" else ran, -1)
        sec, rows = out[q.name]
        shown = (f"{rows:7d} rows" if rows >= 0 else
                 "stopped at the time cap" if why == "time" else f"failed ({why}) after {sec:.0f} s")
        print(f"  {label:9s} {q.name:26s}{'>' if rows < 0 else ' '}{sec:9.3f} s  {shown}",
              flush=True)
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


def rdf_stage(build: Build, work: Path):
    """The RDF stage as ``kg build`` runs it; returns the store, triples and timings."""
    res = write_rdf(build, work, rdf_formats=("nt",))
    return EmbeddedStore(work / "store"), res.triples, res.timings


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "?"


def write_section(path: Path, section: str) -> None:
    """Put ``section`` into the Markdown file ``path``, replacing an earlier RDF bench section.

    The other sections (``bench/e2e_bench.py`` writes its own) are kept.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    parts = text.split("\n## ")
    kept = [parts[0].rstrip("\n") + "\n"] + ["## " + p.rstrip("\n") + "\n" for p in parts[1:]
                                           if not p.startswith("RDF bench")]
    path.write_text("\n".join(kept + [section]), encoding="utf-8")


def rdflib_phase(work: Path, papers: int, seed: int, repeat: int, rdflib_repeat: int,
                 timeout: float, memory_gib: float, out: dict) -> dict | None:
    """Build ``papers`` papers, time the queries on the embedded store and on rdflib.

    Runs in a forked child capped at ``memory_gib`` (so that running out of
    memory is a MemoryError, not the kernel killing the bench); returns
    what it measured, or a dict with ``error`` if it ran out of memory or time.
    """
    def phase() -> dict:
        result: dict = {"papers": papers}
        try:
            if papers == out["papers"]:
                nt, p_r, n_r, emb = out["nt"], out["params"], out["triples"], out["embedded"]
            else:
                b = make_build(papers, seed)
                st, n_r, _ = rdf_stage(b, work / f"rdflib-{papers}")
                p_r = pick_params(st)
                print(f"\n[4a] embedded store on the rdflib corpus: {papers:,} papers, "
                      f"{n_r:,} triples", flush=True)
                emb = time_queries(st, p_r, repeat, "embedded")
                st.close()
                del b
                nt = str(work / f"rdflib-{papers}" / "graph.nt")
            result.update(triples=n_r, embedded=emb)
            gc.collect()
            rss0 = rss_mb()
            t0 = time.perf_counter()
            g = ntriples_to_rdflib(Path(nt))
            tl = time.perf_counter() - t0
            gc.collect()
            gc.freeze()  # forked queries must not copy the graph by collecting it
            result.update(load_s=tl, load_mb=rss_mb() - rss0, rdflib_triples=len(g))
            print(f"\n[4] rdflib in-memory store: {len(g):,} triples loaded in {tl:.1f} s "
                  f"({len(g) / tl:,.0f} triples/s), +{rss_mb() - rss0:,.0f} MB resident; "
                  f"median of {rdflib_repeat}, each query stopped after {timeout:.0f} s",
                  flush=True)
            result["rdflib"] = time_queries(RdflibStore(g), p_r, rdflib_repeat, "rdflib",
                                            budget=10.0, fork_timeout=timeout)
            result["peak_mb"] = peak_mb()
            result["children_peak_mb"] = peak_mb(resource.RUSAGE_CHILDREN)
        except MemoryError:
            result["error"] = f"out of memory (cap {memory_gib:g} GiB)"
        return result

    got, _, why = _forked(phase, 6 * 3600, memory_cap=int(memory_gib * 2**30))
    return got if got is not None else {"papers": papers, "error": f"the child stopped: {why}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--rdflib-papers", type=int, default=0,
                    help="papers for the rdflib comparison (0: the same corpus)")
    ap.add_argument("--rdflib-memory", type=float, default=20.0,
                    help="GiB the rdflib phase may use (address space)")
    ap.add_argument("--shacl-papers", type=int, default=2_000,
                    help="papers for the pySHACL comparison")
    ap.add_argument("--repeat", type=int, default=5, help="runs per query on the embedded store")
    ap.add_argument("--rdflib-repeat", type=int, default=3, help="runs per query on rdflib")
    ap.add_argument("--rdflib-timeout", type=float, default=120.0,
                    help="seconds before an rdflib query is stopped (counted as that long)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", default=None, help="keep the work folder here")
    ap.add_argument("--markdown", default=None,
                    help="write the figures as a section of this Markdown file (bench/RESULTS.md), "
                         "replacing the RDF bench section of an earlier run")
    args = ap.parse_args(argv)
    rdflib_papers = args.rdflib_papers or args.papers

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="kg-rdf-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.strftime("%Y-%m-%d %H:%M")
    loads = [load_average()]
    print(f"kg RDF bench: {args.papers:,} papers (seed {args.seed}), work folder {work}; "
          f"{os.cpu_count()} cores, load average {loads[0]}")
    md: list[str] = []
    try:
        t0 = time.perf_counter()
        build = make_build(args.papers, args.seed)
        n_ment = sum(len(e.mentions) for e in build.extractions.values())
        print(f"synthetic corpus: {time.perf_counter() - t0:.1f} s, "
              f"{len(build.corpus.papers):,} papers, {len(build.corpus.authors):,} authors, "
              f"{n_ment:,} mentions; peak {peak_mb():,.0f} MB")

        # 1. the RDF stage
        store, n, t = rdf_stage(build, work / "full")
        stage = t["rdf"] + t["store"] + t["validate"] + t["compact"]
        loads.append(load_average())
        print(f"\n[1] RDF stage (kg.rdf.stage.write_rdf): {n:,} triples "
              f"({n / len(build.corpus.papers):.0f} per paper); load average {loads[-1]}")
        print(f"    mapping to N-Triples               {t['rdf']:7.1f} s  "
              f"{n / t['rdf']:>10,.0f} triples/s")
        print(f"    bulk load into the store           {t['store']:7.1f} s  "
              f"{n / t['store']:>10,.0f} triples/s")
        print(f"    compaction of the store            {t['compact']:7.1f} s")
        print(f"    SHACL validation in the store      {t['validate']:7.1f} s")
        print(f"    = the stage: mapping + load + validation + compaction "
              f"{stage:7.1f} s  {n / stage:>10,.0f} triples/s   (goal >= 200,000)")
        print(f"    graph.ttl (not in the stage)       {t['serialise']:7.1f} s  "
              f"(with it: {n / (stage + t['serialise']):,.0f} triples/s)")
        print(f"    peak memory {peak_mb():,.0f} MB")
        md += [f"- triples: {n:,} ({n / len(build.corpus.papers):.0f} per paper)",
               f"- **RDF stage** (mapping + bulk load + SHACL validation + compaction, as "
               f"`kg build` runs it; writing graph.ttl not counted): **{stage:.1f} s, "
               f"{n / stage:,.0f} triples/s** (goal 200,000)",
               f"  - mapping {t['rdf']:.1f} s ({n / t['rdf']:,.0f}/s); bulk load "
               f"{t['store']:.1f} s ({n / t['store']:,.0f}/s); validation {t['validate']:.1f} s "
               f"({t['validate'] / stage * 100:.0f}% of the stage); compaction "
               f"{t['compact']:.1f} s",
               f"  - graph.ttl: {t['serialise']:.1f} s more "
               f"({n / (stage + t['serialise']):,.0f} triples/s with it)"]

        # 2. validation
        checks = compile_shapes()
        print(f"\n[2] SHACL in the store: {len(checks)} constraints, {t['validate']:.1f} s "
              f"({t['validate'] / stage * 100:.0f}% of the stage)")
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
              f"both conform: {rep_s.conforms and rep_p.conforms}")
        md.append(f"- SHACL validation: {len(checks)} constraints; on {args.shacl_papers:,} papers "
                  f"in the store {ts_sparql:.2f} s vs pySHACL {ts_py:.1f} s")
        st_small.close()
        del g_small, st_small, small
        gc.collect()

        # 3. queries on the embedded store
        params = pick_params(store)
        print(f"\n[3] queries on the embedded store ({n:,} triples), median of {args.repeat}; "
              f"params {params}")
        emb = time_queries(store, params, args.repeat, "embedded")
        loads.append(load_average())
        over = [k for k, (s_, _) in emb.items() if s_ >= 1.0]
        print(f"    suite total {sum(s_ for s_, _ in emb.values()):.2f} s; slowest "
              f"{max(emb.items(), key=lambda kv: kv[1][0])[0]} "
              f"{max(s_ for s_, _ in emb.values()):.2f} s; over 1 s: {', '.join(over) or 'none'}"
              f"; load average {loads[-1]}")
        print(f"    peak memory {peak_mb():,.0f} MB")
        store.close()
        del build
        gc.collect()

        # 4. rdflib: the same graph (or the largest that fits), in a child process
        shared = {"papers": args.papers, "nt": str(work / "full" / "graph.nt"),
                  "params": params, "triples": n, "embedded": emb}
        tried = []
        size = rdflib_papers
        while True:
            got = rdflib_phase(work, size, args.seed, args.repeat, args.rdflib_repeat,
                               args.rdflib_timeout, args.rdflib_memory, shared)
            if "error" not in got:
                break
            tried.append(f"{size:,} papers: {got['error']}")
            print(f"    rdflib on {size:,} papers failed: {got['error']}", flush=True)
            if size <= 5_000:
                break
            size //= 2
        loads.append(load_average())
        if "error" not in got:
            emb_same, rl = got["embedded"], got["rdflib"]
            rl = {k: tuple(v) for k, v in rl.items()}
            emb_same = {k: tuple(v) for k, v in emb_same.items()}
            print(f"\n    {'query':26s} {'embedded':>10s} {'rdflib':>10s} {'speed-up':>9s}  rows   "
                  f"({size:,} papers)")
            rows = []
            for name in rl:
                (e, er), (r, rr) = emb_same[name], rl[name]
                capped = rr < 0
                same = "same" if er == rr else ("?" if capped else f"{er} vs {rr}")
                shown = f">{r:.0f}" if capped else f"{r:.3f}"
                ratio = f"{'>' if capped else ''}{r / max(e, 1e-6):.0f}x"
                print(f"    {name:26s} {e:10.3f} {shown:>10s} {ratio:>9s}  {same}")
                cells = [f"{emb[name][0]:.3f}"] + ([] if size == args.papers else [f"{e:.3f}"])
                rows.append(f"| {name} | {' | '.join(cells)} | {shown} | {ratio} | {same} |")
            se, sr = sum(v[0] for v in emb_same.values()), sum(v[0] for v in rl.values())
            stopped = sum(1 for v in rl.values() if v[1] < 0)
            bound = "at least " if stopped else ""
            print(f"    {'suite':26s} {se:10.3f} {sr:10.3f} {bound}{sr / se:.0f}x   (goal >= 10x)"
                  + (f"; {stopped} rdflib queries stopped (at the {args.rdflib_timeout:.0f} s cap, or "
                     f"out of memory) and counted as long as they ran, so the rdflib figure is a "
                     f"lower bound" if stopped else ""))
            print(f"    rdflib: load {got['load_s']:.1f} s for {got['rdflib_triples']:,} triples, "
                  f"+{got['load_mb']:,.0f} MB resident; peak of its process "
                  f"{got['peak_mb']:,.0f} MB")
        over = [k for k, (s_, _) in emb.items() if s_ >= 1.0]
        peak_self, peak_child = peak_mb(), peak_mb(resource.RUSAGE_CHILDREN)
        print(f"\npeak memory (max RSS): bench process {peak_self:,.0f} MB, largest child "
              f"(the rdflib phase) {peak_child:,.0f} MB; load average {' / '.join(loads)}")

        md.append(f"- embedded store, median of {args.repeat} at {args.papers:,} papers: suite "
                  f"{sum(s_ for s_, _ in emb.values()):.2f} s, slowest "
                  f"{max(s_ for s_, _ in emb.values()):.3f} s; over 1 s: {', '.join(over) or 'none'}")
        if tried:
            md.append(f"- rdflib could not hold: {'; '.join(tried)}")
        if "error" not in got:
            md.append(f"- rdflib's in-memory store at {size:,} papers ({got['rdflib_triples']:,} "
                      f"triples): load {got['load_s']:.0f} s "
                      f"({got['rdflib_triples'] / got['load_s']:,.0f} triples/s), "
                      f"+{got['load_mb']:,.0f} MB resident, its process peaked at "
                      f"{got['peak_mb']:,.0f} MB; each query median of {args.rdflib_repeat} "
                      f"(one run when over 10 s), stopped after {args.rdflib_timeout:.0f} s")
            md.append(f"- suite: embedded {se:.2f} s vs rdflib {bound}{sr:.0f} s: the embedded "
                      f"store is {bound}**{sr / se:.0f}x** faster (goal 10x)"
                      + (f"; {stopped} rdflib queries were stopped (time cap or out of memory) and "
                         f"counted as long as they ran, so this is a lower bound" if stopped else ""))
            same_size = size == args.papers
            md += ["", f"| query | embedded s ({args.papers:,}) | "
                   + ("" if same_size else f"embedded s ({size:,}) | ")
                   + f"rdflib s ({size:,}) | speed-up | rows |",
                   "| --- | ---: | " + ("" if same_size else "---: | ") + "---: | ---: | --- |"]
            md += rows
        md.insert(0, f"- peak memory (max RSS): bench {peak_self:,.0f} MB; rdflib child "
                     f"{peak_child:,.0f} MB")
        if args.markdown:
            import platform

            cpu = platform.processor() or platform.machine()
            head = [f"## RDF bench: synthetic {args.papers:,} papers (`bench/rdf_bench.py`)", "",
                    f"{started} on {cpu}, {os.cpu_count()} cores, "
                    f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB "
                    f"RAM, Python {platform.python_version()}; load average (1/5/15 min) at start, "
                    f"after the stage, after the queries, at the end: {' / '.join(loads)} "
                    f"(the 2 cores were shared with other benchmarks)", ""]
            write_section(Path(args.markdown), "\n".join(head + md) + "\n")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
