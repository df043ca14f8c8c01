"""The graph stage of a build: graphs, co-authorship report, plots, exports.

:func:`write_coauthors` writes the stage's files into the (staging) output
folder and returns a :class:`CoauthorStageResult`: the files, the time spent
(``coauthor_analysis``, ``report``, ``plots``, ``nx_graphs``, ``exports``)
and what later stages reuse (the analysis, the knowledge graph, the typed
report). :func:`stage_outputs` yields the same files lazily as ``(file
name, content)`` pairs, content being ``str``, ``bytes`` or an iterable of
``str`` chunks (streamed, so a million-edge GraphML is never held as one
string). The stage comes in two halves: :func:`write_network_files` needs
the author lists alone (the analysis, plots and co-author exports; a
parallel build runs it while the abstracts are extracted) and
:func:`write_coauthors` finishes it with the extractions (the report, the
knowledge graph), or does both.

Files (names from :mod:`kg.outputs`): ``report.json``, ``report.md``,
``plots/*.png``, ``report.html`` (the report with its plots, for a browser), ``graph.graphml`` (the whole knowledge graph),
``coauthors.graphml`` and ``coauthors.gexf`` (with each author's measures
and Leiden community, for Gephi), ``coauthors_vosviewer_map.txt`` and
``coauthors_vosviewer_network.txt``, ``authors.csv`` (every author's
measures). :func:`tables` renders the report for ``kg coauthors``;
:func:`track_build` narrows a build to one track's papers (``--track``).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg import outputs
from kg.analysis.counts import BuildCounts
from kg.analysis.records import CoauthorReport
from kg.errors import KgError
from kg.models import Build, Corpus
from kg.report.data import ExtractionSummary, Report
from kg.util import fsio
from kg.util.progress import Progress

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    from rich.console import RenderableType

    from kg.analysis import CoauthorAnalysis, NetworkAnalysis

__all__ = ["CoauthorStageResult", "NetworkFiles", "write_coauthors", "write_network_files",
           "stage_outputs", "tables", "track_build"]

Content = str | bytes | Iterable[str]


@dataclass(frozen=True, eq=False)
class CoauthorStageResult:
    """What the graph stage wrote and what later stages reuse.

    ``knowledge_graph`` is ``None`` when the exports were not asked for.
    """

    analysis: CoauthorAnalysis
    report: Report
    knowledge_graph: nx.MultiDiGraph | None
    files: tuple[str, ...]
    timings: Mapping[str, float] = field(default_factory=dict)


@dataclass(eq=False)
class _Products:
    """What the lazy outputs leave behind as they go (private to this module)."""

    timings: dict[str, float]
    analysis: CoauthorAnalysis | None = None
    report: Report | None = None
    knowledge_graph: Any = None

    def add(self, key: str, t0: float) -> None:
        self.timings[key] = self.timings.get(key, 0.0) + time.perf_counter() - t0


def _timed(chunks: Iterable[str], products: _Products, key: str) -> Iterator[str]:
    """``chunks``, the time spent making each added to ``key``."""
    it = iter(chunks)
    while True:
        t0 = time.perf_counter()
        try:
            chunk = next(it)
        except StopIteration:
            products.add(key, t0)
            return
        products.add(key, t0)
        yield chunk


def _outputs(build: Build, products: _Products, *, counts: BuildCounts | None,
             seed: int, progress: Progress | None, exports: bool
             ) -> Iterator[tuple[str, Content]]:
    """Every file of the stage, lazily; what it makes along the way goes into ``products``."""
    from kg.analysis import analyse_network

    t0 = time.perf_counter()
    with _stage(progress, "analysing the co-authorship network"):
        net = analyse_network(build.corpus, seed=seed)
    products.add("coauthor_analysis", t0)
    yield from _network_outputs(net, build.corpus, products, progress=progress, exports=exports)
    yield from _build_outputs(net, build, products, counts=counts, progress=progress,
                              exports=exports)


def _stage(progress: Progress | None, description: str) -> AbstractContextManager[None]:
    return progress.stage(description) if progress is not None else nullcontext()


def _network_outputs(net: NetworkAnalysis, corpus: Corpus, products: _Products, *,
                     progress: Progress | None, exports: bool) -> Iterator[tuple[str, Content]]:
    """The files that need the author lists alone: the plots and the co-author exports."""
    from kg.report.document import authors_csv
    from kg.report.exports import gexf, graphml, vosviewer_map, vosviewer_network
    from kg.report.plots import PLOTS

    report = net.provisional_report()   # the plots draw no community's details
    for name, fn in PLOTS.items():
        t0 = time.perf_counter()
        png = fn(report)
        products.add("plots", t0)
        yield f"{outputs.PLOTS_DIR}/{name}", png
    if not exports:
        return
    t0 = time.perf_counter()
    with _stage(progress, "building the co-authorship graph"):
        G = net.graph
    products.add("nx_graphs", t0)
    m = net.metrics
    community = net.leiden.membership
    cols = ("papers", "collaborators", "strength", "betweenness", "closeness", "eigenvector",
            "pagerank")
    node_attrs = {
        k: {**{c: m.columns[c][i] for c in cols if c != "papers"}, "community": community[k]}
        for i, k in enumerate(m.keys)
    }
    yield (outputs.COAUTHORS_GRAPHML,
           _timed(graphml(G, node_attrs, graph_id="coauthors"), products, "exports"))
    yield outputs.COAUTHORS_GEXF, _timed(gexf(G, node_attrs), products, "exports")
    yield outputs.VOSVIEWER_MAP, _timed(vosviewer_map(G, community), products, "exports")
    yield outputs.VOSVIEWER_NETWORK, _timed(vosviewer_network(G), products, "exports")
    yield (outputs.AUTHORS_CSV,
           _timed(authors_csv(m, _author_tracks(corpus), community), products, "exports"))


def _build_outputs(net: NetworkAnalysis, build: Build, products: _Products, *,
                   counts: BuildCounts | None, progress: Progress | None,
                   exports: bool) -> Iterator[tuple[str, Content]]:
    """The files that need the extractions too: the report and the knowledge graph."""
    from kg.analysis import content_tables, extraction_summary, with_extractions
    from kg.analysis.graphs import knowledge_graph
    from kg.report.document import papers_csv, report_document, to_json, to_markdown
    from kg.report.exports import graphml
    from kg.report.html import markdown_html
    from kg.report.plots import PLOTS

    t0 = time.perf_counter()
    result = with_extractions(net, build)
    products.add("coauthor_analysis", t0)
    products.analysis = result

    t0 = time.perf_counter()
    extraction = (ExtractionSummary.from_json(extraction_summary(build))
                  if build.extractions else None)
    doc = report_document(result.report, counts=counts, extraction=extraction,
                          content=content_tables(build))
    products.report = doc
    text_json, text_md = to_json(doc), to_markdown(doc)
    yield outputs.REPORT_JSON, text_json
    yield outputs.REPORT_MD, text_md
    page = markdown_html(text_md, PLOTS)
    products.add("report", t0)
    yield outputs.REPORT_HTML, page

    if not exports:
        return
    t0 = time.perf_counter()
    with _stage(progress, "building the knowledge graph"):
        K = knowledge_graph(build)
    products.add("nx_graphs", t0)
    products.knowledge_graph = K
    yield outputs.GRAPH_GRAPHML, _timed(graphml(K, graph_id="kg"), products, "exports")
    yield outputs.PAPERS_CSV, _timed(papers_csv(build), products, "exports")


def _author_tracks(corpus: Corpus) -> dict[str, set[str]]:
    """Each person key's tracks (labels of the tracks of their papers)."""
    from kg.analysis.graphs import paper_author_keys

    out: dict[str, set[str]] = {}
    for p in corpus.papers:
        if p.track is not None:
            for k in paper_author_keys(p):
                out.setdefault(k, set()).add(p.track.label)
    return out


def _write(path: Path, content: Content) -> None:
    """Write one output atomically: text, bytes or streamed text chunks."""
    if isinstance(content, bytes):
        fsio.write_bytes(path, content)
    elif isinstance(content, str):
        fsio.write_text(path, content)
    else:
        with fsio.atomic_open(path) as fh:
            for chunk in content:
                fh.write(chunk)


@dataclass(frozen=True)
class NetworkFiles:
    """What :func:`write_network_files` wrote (the first half of the stage)."""

    network: NetworkAnalysis
    files: tuple[str, ...]
    timings: Mapping[str, float]


def write_network_files(corpus: Corpus, out: str | Path, *, seed: int = 0,
                        progress: Progress | None = None, exports: bool = True) -> NetworkFiles:
    """The analysis of the author lists and the files it alone makes (plots, co-author
    exports): what a parallel build does while the abstracts are being extracted.
    :func:`write_coauthors` finishes the stage."""
    from kg.analysis import analyse_network

    products = _Products(timings={})
    t0 = time.perf_counter()
    with _stage(progress, "analysing the co-authorship network"):
        net = analyse_network(corpus, seed=seed)
    products.add("coauthor_analysis", t0)
    files = []
    for name, content in _network_outputs(net, corpus, products, progress=progress,
                                          exports=exports):
        _write(Path(out) / name, content)
        files.append(name)
    return NetworkFiles(net, tuple(files), dict(products.timings))


def write_coauthors(build: Build, out: str | Path, *, counts: BuildCounts | None = None,
                    seed: int = 0, progress: Progress | None = None,
                    exports: bool = True, network: NetworkFiles | None = None
                    ) -> CoauthorStageResult:
    """Write the graph stage's files into ``out``.

    Parameters
    ----------
    build : kg.models.Build
        The corpus and its extractions.
    out : str or Path
        The output folder (the pipeline's staging folder).
    counts : BuildCounts, optional
        The build's counts (:func:`kg.analysis.counts.build_counts`), for ``report.json``.
    seed : int
        Seed of every random choice of the analysis.
    progress : Progress, optional
        Where the stage reports what it does.
    exports : bool
        ``False`` stops after the report and plots (no graph files, no
        knowledge graph).
    network : NetworkFiles, optional
        What :func:`write_network_files` did already for ``build``'s corpus
        (with the same ``seed`` and ``exports``): it is not done again.
    """
    out = Path(out)
    if network is None:
        network = write_network_files(build.corpus, out, seed=seed, progress=progress,
                                      exports=exports)
    products = _Products(timings=dict(network.timings))
    files = list(network.files)
    for name, content in _build_outputs(network.network, build, products, counts=counts,
                                        progress=progress, exports=exports):
        _write(out / name, content)
        files.append(name)
    assert products.analysis is not None and products.report is not None
    order = ("coauthor_analysis", "report", "plots", "nx_graphs", "exports")
    timings = {k: products.timings[k] for k in sorted(products.timings, key=order.index)}
    return CoauthorStageResult(analysis=products.analysis, report=products.report,
                               knowledge_graph=products.knowledge_graph, files=tuple(files),
                               timings=timings)


def stage_outputs(build: Build, *, counts: BuildCounts | None = None,
                  seed: int = 0, progress: Progress | None = None, exports: bool = True
                  ) -> Iterator[tuple[str, Content]]:
    """Every file of the graph stage, lazily, as ``(relative name, content)``.

    ``counts`` (the build's, :func:`kg.analysis.counts.build_counts`) go into ``report.json``;
    ``exports=False`` stops after the report and plots.
    :func:`write_coauthors` writes the same files and returns what the stage made.
    """
    yield from _outputs(build, _Products(timings={}), counts=counts, seed=seed,
                        progress=progress, exports=exports)


def track_build(build: Build, track: str) -> Build:
    """``build`` narrowed to the papers of ``track``: those whose track label, area or
    subarea is ``track`` (case and spacing do not count).

    Raises
    ------
    KgError
        When no paper has such a track (naming a few that exist), or when it is a
        subarea several areas share (as the named queries' ``track`` says).

    Examples
    --------
    >>> from kg.models import Paper, Track
    >>> b = Build(Corpus((Paper("1", ("A",), "x", track=Track("Theory", "Learning")),
    ...                   Paper("2", ("B",), "y", track=Track("Applications")))))
    >>> [p.id for p in track_build(b, "learning").corpus.papers]
    ['1']
    """
    from kg.errors import QueryError
    from kg.queries.values import AmbiguousTrack, find_track
    from kg.queries.values import Track as Named

    listed = {p.track for p in build.corpus.papers if p.track is not None}
    try:  # the queries' own matching: an ambiguous subarea is an error there and here
        label = find_track(track, [Named(t.label, t.subarea or t.area, t.area if t.subarea else "")
                                   for t in listed])
    except AmbiguousTrack:
        raise
    except QueryError:
        known = sorted({t.label for t in listed})
        some = "; ".join(known[:5]) + (f"; … ({len(known) - 5} more)" if len(known) > 5 else "")
        raise KgError(f"no paper in track {track!r}; known tracks: {some or 'none'}") from None
    return papers_build(build, {p.id for p in build.corpus.papers if p.track is not None
                                and label in (p.track.label, p.track.area)})


def papers_build(build: Build, ids: Iterable[str]) -> Build:
    """``build`` narrowed to the papers whose ids are ``ids`` (in corpus order)."""
    keep = set(ids)
    papers = tuple(p for p in build.corpus.papers if p.id in keep)
    corpus = Corpus(papers=papers, entries=len(papers), files=build.corpus.files)
    return Build(corpus=corpus, extractions={k: v for k, v in build.extractions.items()
                                             if k in keep})


def scope_build(build: Build, folder: str | Path, concept: str, track: str | None = None
                ) -> Build:
    """``build`` narrowed to the papers about ``concept`` (and of ``track``), as the
    named query ``papers-in-scope`` finds them in the store of the build ``folder``.

    Raises
    ------
    KgError
        When the graph holds no such concept or track (with the closest names), or
        when no paper is about the concept in that track.
    """
    from kg import queries
    from kg.store.connect import open_store

    params = {"concept": concept} | ({"track": track} if track else {})
    store = open_store(None, None, folder)
    try:
        res = queries.run(store, "papers-in-scope", params)
    finally:
        store.close()
    ids = {t.value for t in res.column("paper")}
    if not ids:
        where = f" in track {track!r}" if track else ""
        raise KgError(f"no paper about {concept!r}{where}")
    return papers_build(build, ids)


def tables(report: CoauthorReport | Mapping[str, Any]) -> list[RenderableType]:
    """The co-authorship report as rich renderables (for ``kg coauthors``).

    Names are wrapped in :class:`rich.text.Text`, so brackets in a name are
    printed, never read as markup, and lose their control characters, so no
    escape sequence in a name reaches the terminal.
    """
    from rich.table import Table
    from rich.text import Text as _Text

    from kg.util.safetext import for_terminal

    # names are data: no control sequence reaches the terminal
    def Text(s: str, style: str = "") -> _Text:
        return _Text(for_terminal(s), style=style)

    def num(x: float | None, digits: int = 4) -> str:
        if x is None:
            return "n/a"
        if isinstance(x, int):
            return f"{x:,}"
        return f"{x:.{digits}g}"

    r = CoauthorReport.from_json(report)
    prod, net, cav = r.productivity, r.network, r.caveats
    lc = net.largest_component
    out: list[RenderableType] = []

    t = Table(title="Co-authorship network", show_header=True, header_style="bold")
    t.add_column("measure")
    t.add_column("value", justify="right")
    fit = prod.lotka
    for label, value in (
        ("papers", num(prod.papers)),
        ("people", num(prod.people)),
        ("papers per author (mean)", num(prod.papers_per_author.mean)),
        ("authors per paper (mean)", num(prod.authors_per_paper.mean)),
        ("Lotka exponent", num(fit.beta) if fit else "n/a"),
        ("collaborators per author (mean)", num(net.collaborators_per_author.mean)),
        ("coauthor pairs", num(net.edges)),
        ("components", num(net.components.count)),
        ("largest component", f"{num(net.components.largest)} "
                              f"({(net.components.largest_share or 0):.1%})"),
        ("density", num(net.density)),
        ("transitivity", num(net.transitivity)),
        ("mean local clustering", num(net.mean_clustering)),
        ("degree assortativity", num(net.degree_assortativity)),
        ("mean distance (largest component)", num(lc.mean_distance)),
        ("diameter (largest component)", num(lc.diameter) + ("" if lc.exact else " (≥)")),
        ("cut author lists (等)", f"{num(cav.truncated_papers)} of {num(cav.papers)}"),
    ):
        t.add_row(label, value)
    out.append(t)
    out.append(Text("distances: " + lc.method, style="dim"))
    for note in cav.notes:
        out.append(Text("note: " + note, style="dim"))

    for metric in ("papers", "collaborators", "betweenness", "pagerank"):
        rows = r.centrality.top.get(metric, ())[:10]
        if not rows:
            continue
        t = Table(title=f"Top authors by {metric}", header_style="bold")
        t.add_column("#", justify="right")
        t.add_column("author")
        extra = [c for c in ("papers", "collaborators") if c != metric]
        for col in (metric, *extra, "community"):
            t.add_column(col, justify="right")
        for i, row in enumerate(rows, 1):
            t.add_row(str(i), Text(row.name), num(getattr(row, metric)),
                      *(num(getattr(row, c)) for c in extra), num(row.community))
        out.append(t)

    com = r.communities
    t = Table(title="Largest communities (Leiden)", header_style="bold")
    for col in ("id", "authors", "papers", "leading authors", "tracks"):
        t.add_column(col)
    for c in (com.leiden.top or ())[:10]:
        t.add_row(str(c.id), num(c.size), num(c.papers),
                  Text(", ".join(n for n, _ in c.authors[:3])),
                  Text(", ".join(f"{n} ({k})" for n, k in c.tracks[:2]) or "-"))
    out.append(t)
    out.append(Text(
        f"leiden: {com.leiden.count} communities, modularity {num(com.leiden.modularity)}; "
        f"louvain: {com.louvain.count}, modularity {num(com.louvain.modularity)}",
        style="dim"))

    t = Table(title="Strongest collaborations", header_style="bold")
    for col in ("#", "pair", "joint papers", "strength"):
        t.add_column(col)
    for i, p in enumerate(r.strongest_pairs.by_weight[:10], 1):
        t.add_row(str(i), Text(f"{p.a} – {p.b}"), num(p.papers), num(p.weight))
    out.append(t)
    return out
