"""The graph stage of a build: graphs, co-authorship report, plots, exports.

:func:`stage_outputs` yields ``(file name, content)`` pairs for
:mod:`kg.pipeline` to write atomically, content being ``str``, ``bytes`` or
an iterable of ``str`` chunks (streamed, so a million-edge GraphML is never
held as one string). It is lazy: each file is computed when asked for, and
the time spent goes into ``timings`` under ``coauthor_analysis``, ``nx_graphs``,
``report``, ``plots`` and ``exports``.

:func:`load_build` reads a build folder back (``corpus.jsonl`` and, if
present, ``extractions.jsonl``) for ``kg coauthors``.

Files: ``report.json``, ``report.md``, ``plots/*.png``, ``graph.graphml``
(the whole knowledge graph), ``coauthors.graphml`` and ``coauthors.gexf``
(with each author's measures and Leiden community, for Gephi),
``coauthors_vosviewer_map.txt`` and ``coauthors_vosviewer_network.txt``,
``authors.csv`` (every author's measures).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Iterable, Iterator, Union

from kg.errors import KgError
from kg.models import Build, Extraction, Mention

__all__ = ["stage_outputs", "load_build", "REPORT_FILES", "EXPORT_FILES"]

Content = Union[str, bytes, Iterable[str]]

REPORT_FILES = ("report.json", "report.md")
EXPORT_FILES = ("graph.graphml", "coauthors.graphml", "coauthors.gexf",
                "coauthors_vosviewer_map.txt", "coauthors_vosviewer_network.txt", "authors.csv")


class _Clock:
    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings if timings is not None else {}

    def add(self, key: str, t0: float) -> None:
        self.timings[key] = self.timings.get(key, 0.0) + time.perf_counter() - t0


def _timed(chunks: Iterable[str], clock: _Clock, key: str) -> Iterator[str]:
    it = iter(chunks)
    while True:
        t0 = time.perf_counter()
        try:
            chunk = next(it)
        except StopIteration:
            clock.add(key, t0)
            return
        clock.add(key, t0)
        yield chunk


def stage_outputs(build: Build, *, corpus_summary: dict | None = None, seed: int = 0,
                  timings: dict[str, float] | None = None, progress=None,
                  exports: bool = True, shared: dict | None = None
                  ) -> Iterator[tuple[str, Content]]:
    """Every file of the graph stage, lazily, as ``(relative name, content)``.

    ``corpus_summary`` (the build's counts) goes into ``report.json``;
    ``exports=False`` stops after the report and plots. ``shared``, if given,
    receives what later stages can reuse: ``analysis`` (the
    :class:`~kg.analysis.CoauthorAnalysis`) and ``knowledge_graph``.
    """
    from kg.analysis import analyse, extraction_summary
    from kg.export import gexf, graphml, vosviewer_map, vosviewer_network
    from kg.graph import knowledge_graph
    from kg.plots import PLOTS
    from kg.report import authors_csv, report_document, to_json, to_markdown

    clock = _Clock(timings)

    def stage(description: str):
        if progress is not None:
            return progress.stage(description)
        from contextlib import nullcontext

        return nullcontext()

    t0 = time.perf_counter()
    with stage("analysing the co-authorship network"):
        result = analyse(build, seed=seed)
    clock.add("coauthor_analysis", t0)
    if shared is not None:
        shared["analysis"] = result

    t0 = time.perf_counter()
    report = result.report
    doc = report_document(report, corpus=corpus_summary,
                          extraction=extraction_summary(build) if build.extractions else None)
    text_json, text_md = to_json(doc), to_markdown(doc)
    clock.add("report", t0)
    yield "report.json", text_json
    yield "report.md", text_md

    for name, fn in PLOTS.items():
        t0 = time.perf_counter()
        png = fn(report)
        clock.add("plots", t0)
        yield f"plots/{name}", png

    if not exports:
        return
    t0 = time.perf_counter()
    with stage("building the co-authorship graph"):
        G = result.graph
    clock.add("nx_graphs", t0)
    m = result.metrics
    community = result.leiden.membership
    cols = ("papers", "collaborators", "strength", "betweenness", "closeness", "eigenvector",
            "pagerank")
    node_attrs = {
        k: {**{c: m.columns[c][i] for c in cols if c != "papers"}, "community": community[k]}
        for i, k in enumerate(m.keys)
    }
    # GraphML/GEXF hold strings: an author's tracks are written joined by "; "
    yield "coauthors.graphml", _timed(graphml(G, node_attrs, graph_id="coauthors"), clock, "exports")
    yield "coauthors.gexf", _timed(gexf(G, node_attrs), clock, "exports")
    yield "coauthors_vosviewer_map.txt", _timed(vosviewer_map(G, community), clock, "exports")
    yield "coauthors_vosviewer_network.txt", _timed(vosviewer_network(G), clock, "exports")
    yield "authors.csv", _timed(authors_csv(m), clock, "exports")
    del node_attrs

    t0 = time.perf_counter()
    with stage("building the knowledge graph"):
        K = knowledge_graph(build)
    clock.add("nx_graphs", t0)
    if shared is not None:
        shared["knowledge_graph"] = K
    yield "graph.graphml", _timed(graphml(K, graph_id="kg"), clock, "exports")


def _mention(obj: dict) -> Mention:
    from kg.identity import normalise_text

    try:
        from kg.vocab import entity_key
    except ImportError:  # pragma: no cover - vocab ships with kg
        entity_key = normalise_text
    canonical = obj.get("canonical") or obj.get("text", "")
    return Mention(text=obj.get("text", canonical), canonical=canonical,
                   type=obj.get("type", "other"), start=int(obj.get("start", 0)),
                   end=int(obj.get("end", 0)), proposed=bool(obj.get("proposed")),
                   key=obj.get("key") or entity_key(canonical), family=obj.get("family"))


def load_build(folder: str | Path = "output", *, extractions: bool = True) -> Build:
    """Read a build folder back: ``corpus.jsonl`` (+ ``extractions.jsonl``).

    Raises
    ------
    KgError
        When the folder has no ``corpus.jsonl`` (not a build) or a line is
        not valid JSON (naming the file and line).
    """
    from kg.models import Corpus
    from kg.parse import paper_from_json

    root = Path(folder)
    path = root / "corpus.jsonl"
    if not path.is_file():
        raise KgError(f"{root}: no corpus.jsonl here; run 'kg build -o {root}' first "
                      "or name a build folder with --from")

    def records(p: Path) -> Iterator[dict]:
        with p.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                    if not isinstance(obj, dict):
                        raise ValueError("not a JSON object")
                    yield obj
                except ValueError as exc:
                    raise KgError(f"{p}:{n}: not a build record ({exc})") from None

    try:
        papers = tuple(paper_from_json(o) for o in records(path))
    except (KeyError, TypeError) as exc:
        raise KgError(f"{path}: not a build record (missing {exc})") from None
    exs: dict[str, Extraction] = {}
    ex_path = root / "extractions.jsonl"
    if extractions and ex_path.is_file():
        for o in records(ex_path):
            pid = str(o.get("id", ""))
            exs[pid] = Extraction(paper_id=pid, abstract=o.get("abstract", ""),
                                  mentions=tuple(_mention(m) for m in o.get("mentions", ())))
    corpus = Corpus(papers=papers, entries=len(papers), files=(str(path),))
    return Build(corpus=corpus, extractions=exs)


def tables(report: dict) -> list:
    """The co-authorship report as rich renderables (for ``kg coauthors``).

    Names are wrapped in :class:`rich.text.Text`, so brackets in a name are
    printed, never read as markup, and lose their control characters, so no
    escape sequence in a name reaches the terminal.
    """
    from rich.table import Table
    from rich.text import Text as _Text

    from kg.safetext import for_terminal

    def Text(s: str, **kw) -> _Text:  # names are data: no control sequence reaches the terminal
        return _Text(for_terminal(s), **kw)

    def num(x, digits: int = 4) -> str:
        if x is None:
            return "n/a"
        if isinstance(x, int):
            return f"{x:,}"
        return f"{x:.{digits}g}"

    prod, net, cav = report["productivity"], report["network"], report["caveats"]
    lc = net["largest_component"]
    out: list = []

    t = Table(title="Co-authorship network", show_header=True, header_style="bold")
    t.add_column("measure")
    t.add_column("value", justify="right")
    fit = prod.get("lotka")
    for label, value in (
        ("papers", num(prod["papers"])),
        ("authors (distinct names)", num(prod["authors"])),
        ("papers per author (mean)", num(prod["papers_per_author"]["mean"])),
        ("authors per paper (mean)", num(prod["authors_per_paper"]["mean"])),
        ("Lotka exponent", num(fit["beta"]) if fit else "n/a"),
        ("collaborators per author (mean)", num(net["collaborators_per_author"]["mean"])),
        ("co-author pairs", num(net["edges"])),
        ("components", num(net["components"]["count"])),
        ("largest component", f"{num(net['components']['largest'])} "
                              f"({(net['components']['largest_share'] or 0):.1%})"),
        ("density", num(net["density"])),
        ("transitivity", num(net["transitivity"])),
        ("mean local clustering", num(net["mean_clustering"])),
        ("degree assortativity", num(net["degree_assortativity"])),
        ("mean distance (largest component)", num(lc["mean_distance"])),
        ("diameter (largest component)", num(lc["diameter"]) + ("" if lc["exact"] else " (≥)")),
        ("cut author lists (等)", f"{num(cav['truncated_papers'])} of {num(cav['papers'])}"),
    ):
        t.add_row(label, value)
    out.append(t)
    out.append(Text("distances: " + lc["method"], style="dim"))
    for note in cav["notes"]:
        out.append(Text("note: " + note, style="dim"))

    tops = report["centrality"]["top"]
    for metric in ("papers", "collaborators", "betweenness", "pagerank"):
        rows = tops.get(metric, [])[:10]
        if not rows:
            continue
        t = Table(title=f"Top authors by {metric}", header_style="bold")
        t.add_column("#", justify="right")
        t.add_column("author")
        extra = [c for c in ("papers", "collaborators") if c != metric]
        for col in (metric, *extra, "community"):
            t.add_column(col, justify="right")
        for i, r in enumerate(rows, 1):
            t.add_row(str(i), Text(r["name"]), num(r[metric]), *(num(r[c]) for c in extra),
                      num(r["community"]))
        out.append(t)

    com = report["communities"]
    t = Table(title="Largest communities (Leiden)", header_style="bold")
    for col in ("id", "authors", "papers", "leading authors", "tracks"):
        t.add_column(col)
    for c in com["leiden"].get("top", [])[:10]:
        t.add_row(str(c["id"]), num(c["size"]), num(c["papers"]),
                  Text(", ".join(n for n, _ in c["authors"][:3])),
                  Text(", ".join(f"{n} ({k})" for n, k in c["tracks"][:2]) or "-"))
    out.append(t)
    out.append(Text(
        f"leiden: {com['leiden']['count']} communities, modularity {num(com['leiden']['modularity'])}; "
        f"louvain: {com['louvain']['count']}, modularity {num(com['louvain']['modularity'])}",
        style="dim"))

    t = Table(title="Strongest collaborations", header_style="bold")
    for col in ("#", "pair", "joint papers", "strength"):
        t.add_column(col)
    for i, p in enumerate(report["strongest_pairs"]["by_weight"][:10], 1):
        t.add_row(str(i), Text(f"{p['a']} – {p['b']}"), num(p["papers"]), num(p["weight"]))
    out.append(t)
    return out
