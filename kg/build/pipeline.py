"""``build()``: compose the stages and write the output folder.

Each stage is a library call that writes its files into the staging folder
(atomically, :mod:`kg.util.fsio`) and returns a frozen result: parse
(:class:`ParseStageResult`), extract (:class:`ExtractStageResult`), RDF
(:class:`kg.rdf.stage.RdfStageResult`), graphs and report
(:class:`kg.build.graph_stage.CoauthorStageResult`), views
(:class:`ViewsStageResult`). This module orders them, computes the build's
counts once (:func:`build_summary`) and publishes the folder
(:mod:`kg.build.folder`, which also names every file).

With more than one core (:class:`kg.util.parallel.Parallelism`) the graph stage and
the views run in a forked process (:class:`kg.util.child.Child`) beside extraction and the RDF stage, the co-authorship
analysis starting right after parsing (:func:`kg.build.graph_stage.write_network_files`);
the files are the same as with one worker.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kg import outputs
from kg.build import folder as buildfolder
from kg.errors import NoPapersError
from kg.models import Build, Corpus, Extraction, Links, ParseWarning
from kg.parse.sample import sample_files
from kg.report.data import BuildSummary
from kg.util import fsio, memory, termination
from kg.util.parallel import SERIAL, Overlap, Parallelism
from kg.util.progress import QUIET, Progress

if TYPE_CHECKING:  # pragma: no cover
    from kg.build.graph_stage import CoauthorStageResult, NetworkFiles
    from kg.parse.people import PeopleRules
    from kg.viz.network import ViewNetwork

__all__ = ["BuildResult", "ParseStageResult", "ExtractStageResult", "GraphsStageResult",
           "ViewsStageResult", "build",
           "build_summary"]

#: what a parallel build's graph stage gets from this process: the extractions, their
#: concept links, the parse warnings, the build's counts and whether it came late
Handover = tuple[dict[str, Extraction], Links | None, tuple[ParseWarning, ...], BuildSummary,
                 bool]


@dataclass(frozen=True)
class BuildResult:
    corpus: Corpus
    out_dir: Path
    files: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)
    #: the paper count of the build this one replaced (None: there was none)
    replaced_papers: int | None = None

    @property
    def shrank(self) -> bool:
        """Whether this build has fewer than half the papers of the one it replaced."""
        return self.replaced_papers is not None and 2 * len(self.corpus.papers) < self.replaced_papers


@dataclass(frozen=True)
class ParseStageResult:
    """The parsed corpus and ``corpus.jsonl``."""

    corpus: Corpus
    files: tuple[str, ...]
    timings: Mapping[str, float]


@dataclass(frozen=True)
class ExtractStageResult:
    """The corpus with its extractions and ``extractions.jsonl``."""

    build: Build
    files: tuple[str, ...]
    timings: Mapping[str, float]


@dataclass(frozen=True)
class ViewsStageResult:
    """The interactive views and ``index.html``."""

    files: tuple[str, ...]
    timings: Mapping[str, float]


def build_summary(corpus: Corpus, extractions: Mapping[str, Extraction] | None = None
                  ) -> BuildSummary:
    """``summary.json``: the listing files, the track labels and the build's counts
    (:func:`kg.analysis.counts.build_counts`, the one home of every count)."""
    from kg.analysis.counts import build_counts

    return BuildSummary(
        files=tuple(corpus.files),
        counts=build_counts(Build(corpus=corpus, extractions=dict(extractions or {}))),
        track_labels=tuple(sorted(t.label for t in corpus.tracks)),
    )


def build(
    files: Sequence[str | Path] | None,
    out_dir: str | Path = "output",
    *,
    input_format: str | None = None,
    max_bytes: int | None = None,
    base: str | None = None,
    rdf_formats: Sequence[str] = (),
    parallelism: Parallelism = SERIAL,
    progress: Progress = QUIET,
    people: str | Path | None = None,
) -> BuildResult:
    """Read listings (default: the bundled sample) and write every output.

    ``people`` names a people file (:mod:`kg.parse.people`): its merges and
    exclusions are applied to the author lists right after parsing. ``parallelism``
    (default: one core, one stage after another) says how many cores extraction uses
    and whether the stages run side by side (:func:`_build_into`).

    The output folder must be missing, empty or a kg build
    (:func:`kg.build.folder.check_target`); anything in it that kg did not
    write is left alone. Everything is written into a staging folder inside
    ``out_dir`` and moved into place only when the whole build has
    succeeded, so a failed or killed build leaves the previous output as it
    was.
    """
    if base is not None:
        from kg.rdf.vocab import check_base

        check_base(base)  # a bad --base fails before any work
    from kg.rdf.stage import check_options

    check_options(rdf_formats)  # so does an unknown RDF format
    rules = None
    if people is not None:
        from kg.parse.people import read_people

        rules = read_people(people)  # so does a bad people file
    final = buildfolder.check_target(out_dir)
    paths = [Path(f) for f in files] if files else sample_files()
    with buildfolder.locked(final):
        buildfolder.recover(final)
        replaced = buildfolder.previous_papers(final)
        out = buildfolder.new_staging(final)
        try:
            result = _build_into(out, paths, input_format=input_format, max_bytes=max_bytes,
                                 base=base, rdf_formats=rdf_formats, parallelism=parallelism,
                                 progress=progress, people=rules)
            buildfolder.seal(out)
            termination.check()     # a SIGTERM a finaliser swallowed still ends the build here
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)   # the previous output stays as it was
            raise
        with _signals_deferred():
            buildfolder.publish(out, final)
    return BuildResult(corpus=result.corpus, out_dir=final, files=result.files,
                       timings=result.timings, replaced_papers=replaced)


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM while outputs move into place (a few renames)."""
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _parse_stage(out: Path, paths: list[Path], *, input_format: str | None,
                 max_bytes: int | None, progress: Progress,
                 people: PeopleRules | None = None) -> ParseStageResult:
    """Read the listings (and apply the people file); write ``corpus.jsonl``.

    A corpus without papers is an error."""
    from kg.parse import paper_to_json, read_corpus

    t0 = time.perf_counter()
    with progress.stage("parsing listings"):
        corpus = read_corpus(paths, format=input_format, max_bytes=max_bytes)
        if people is not None:
            from kg.parse.people import apply_people

            corpus = apply_people(corpus, people)
    timings = {"parse": time.perf_counter() - t0}
    if not corpus.papers:
        first = f"; first warning: {corpus.warnings[0]}" if corpus.warnings else ""
        raise NoPapersError(f"no readable paper in {', '.join(map(str, paths))} "
                            f"({corpus.entries} entries{first}); the output folder is left "
                            "as it was")
    with fsio.atomic_open(out / outputs.CORPUS) as fh:
        for paper in corpus.papers:
            fh.write(json.dumps(paper_to_json(paper), ensure_ascii=False) + "\n")
    return ParseStageResult(corpus, (outputs.CORPUS,), timings)


def _extract_stage(out: Path, corpus: Corpus, *, parallelism: Parallelism,
                   progress: Progress) -> ExtractStageResult:
    """Find the entities of every abstract; write ``extractions.jsonl``.

    The corpus it returns carries the warnings of cleaning too (formulas kept
    as written)."""
    from kg.extract import extract_corpus, extraction_to_json, with_cleaning_warnings
    from kg.extract.links import resolve_links

    t0 = time.perf_counter()
    done = extract_corpus(corpus, parallelism, progress=progress)
    extractions = {ex.paper_id: ex for ex in done.extractions}
    # wall time of the stage, split between clean-up and spaCy by their CPU shares
    wall = time.perf_counter() - t0
    share = done.clean_share
    timings = {"clean": wall * share, "extract": wall * (1 - share)}
    with fsio.atomic_open(out / outputs.EXTRACTIONS) as fh:
        for paper in corpus.papers:
            fh.write(json.dumps(extraction_to_json(extractions[paper.id]),
                                ensure_ascii=False) + "\n")
    corpus = with_cleaning_warnings(corpus)
    # what the RDF mapping links (gazetteer entries, concept heads), resolved here once
    t1 = time.perf_counter()
    build_ = Build(corpus=corpus, extractions=extractions)
    build_ = replace(build_, links=resolve_links(build_))
    timings["links"] = time.perf_counter() - t1
    progress.done("extracting mentions", time.perf_counter() - t0)
    return ExtractStageResult(build_,
                              (outputs.EXTRACTIONS,), timings)


@dataclass(frozen=True)
class GraphsStageResult:
    """What the graph stage and the views wrote (a parallel build's child sends it back)."""

    files: tuple[str, ...]
    timings: Mapping[str, float]


def _graphs_stage(out: Path, build_: Build, counts: BuildSummary, *, progress: Progress,
                  network: NetworkFiles | None = None) -> GraphsStageResult:
    """The co-authorship analysis, report, plots and graph exports
    (:func:`kg.build.graph_stage.write_coauthors`), then the interactive views, which
    reuse its graphs and communities."""
    from kg.build.graph_stage import write_coauthors

    graphs = write_coauthors(build_, out, counts=counts.counts,
                             progress=progress, network=network)
    # the views need the analysis, not the knowledge graph written to graph.graphml:
    # free it (and hand its memory back) before their peak
    graphs = replace(graphs, knowledge_graph=None)
    memory.give_back()
    views = _views_stage(out, build_, graphs, progress=progress)
    return GraphsStageResult((*graphs.files, *views.files), {**graphs.timings, **views.timings})


def _views_stage(out: Path, build_: Build, graphs: CoauthorStageResult,
                 *, progress: Progress) -> ViewsStageResult:
    """Write the interactive views (:mod:`kg.viz`), and the concept map's VOSviewer files."""
    from kg.report.exports import term_map_files
    from kg.viz import coauthors_view, concept_map, entities_view, kg_view, to_html
    from kg.viz.lookup import BuildIndex

    t0 = time.perf_counter()
    files = []
    with progress.stage("drawing the interactive views"):
        analysis = graphs.analysis
        ix = BuildIndex(build_)   # one set of look-ups, labels and tooltips for the four views
        views: dict[str, Callable[[], ViewNetwork]] = {"kg": lambda: kg_view(build_, full=False, index=ix),
                 "concepts": lambda: concept_map(build_, index=ix),
                 "coauthors": lambda: coauthors_view(build_, graph=analysis.graph,
                                                     partition=analysis.leiden, index=ix),
                 "entities": lambda: entities_view(build_, index=ix)}
        for view, make_view in views.items():
            name = outputs.VIEW_FILES[view]
            net = make_view()
            fsio.write_text(out / name, to_html(net))
            files.append(name)
            if view == "concepts":   # the same map for VOSviewer: its terms, clusters, layout
                for file, chunks in zip(outputs.TERM_MAP_FILES, term_map_files(net), strict=True):
                    with fsio.atomic_open(out / file) as fh:
                        fh.writelines(chunks)
                    files.append(file)
    return ViewsStageResult(tuple(files), {"views": time.perf_counter() - t0})


def _index_page(out: Path, counts: BuildSummary) -> str:
    """Write ``summary.json`` and ``index.html`` (linking every file written), last."""
    from kg.viz import index_html

    fsio.write_text(out / outputs.SUMMARY,
                    json.dumps(counts.to_json(), ensure_ascii=False, indent=2) + "\n")
    present = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                     if p.is_file() and p.relative_to(out).parts[0] != outputs.STORE_DIR
                     and not p.name.startswith("."))
    if (out / outputs.STORE_DIR).is_dir():
        present.append(f"{outputs.STORE_DIR}/")
    fsio.write_text(out / outputs.INDEX_HTML,
                    index_html(present, title="kg build", counts=counts.counts))
    return outputs.INDEX_HTML


#: The graph stage's process collects garbage this rarely (Python's default: 700, 10, 10).
CHILD_GC_THRESHOLDS = (100_000, 20, 10)
#: ... and runs at this niceness when it starts beside the RDF stage's end (see
#: :func:`_graphs_child`)
CHILD_NICE = 10
#: From this many papers on, the graph stage's process gets the extractions only once
#: the store's bulk load is done (see :func:`_build_into`); below it, right after
#: extraction.
LATE_HANDOVER_PAPERS = 50_000


def handover_after_load(papers: int) -> bool:
    """Whether a parallel build of ``papers`` papers hands the extractions to the graph
    stage's process after the store's bulk load rather than right after extraction.

    A large build waits: the loader's threads use every core and ran at half speed
    beside the graph stage, and the two processes' peaks then do not coincide (a
    lower peak of both). A small one does not: there the graph stage is the longer
    path, and waiting for the load made the 2-worker build slower (the figures of
    both: bench/RESULTS.md).

    Examples
    --------
    >>> handover_after_load(2_610), handover_after_load(100_000)
    (False, True)
    """
    return papers >= LATE_HANDOVER_PAPERS


def _overlap(parallelism: Parallelism, papers: int) -> Overlap:
    """When the RDF stage of a build of ``papers`` papers writes its files beside the
    store and hands the other stages their input (``AUTO`` decided by size).

    >>> _overlap(Parallelism(2), 2_610), _overlap(Parallelism(2), 100_000)
    (<Overlap.LOAD: 'load'>, <Overlap.COMPACT: 'compact'>)
    >>> _overlap(Parallelism(1), 100_000)
    <Overlap.NONE: 'none'>
    """
    if not parallelism.side_by_side:
        return Overlap.NONE
    if parallelism.overlap is Overlap.AUTO:
        return Overlap.COMPACT if handover_after_load(papers) else Overlap.LOAD
    return parallelism.overlap


def _long_lived() -> None:
    """Exempt every object alive now (the corpus, the extractions, the modules: they live
    as long as the process) from garbage collection, and collect less often: the graph
    stage makes millions of graph dicts and tuples, and each full collection scanned
    the whole build (a large share of its CPU time, a small one so: bench/RESULTS.md)."""
    import gc

    gc.freeze()
    gc.set_threshold(*CHILD_GC_THRESHOLDS)


def _yield_to_rdf() -> None:
    """Lower this process's priority (:data:`CHILD_NICE`): from here on the rest of
    the RDF stage (validation, compaction, graph.ttl) runs beside it and goes first;
    this process's work fills the time it leaves, and has the cores once it is done."""
    with suppress(OSError):  # not permitted here: run at the same priority
        os.nice(CHILD_NICE)


def _graphs_child(out: Path, corpus: Corpus, progress: Progress,
                  receive: Callable[[], Handover]) -> GraphsStageResult:
    """A parallel build's graph stage, in its own process: the author lists' analysis
    and files while the parent extracts, the rest once it has the extractions."""
    from kg.build.graph_stage import write_network_files

    _long_lived()
    network = write_network_files(corpus, out, progress=progress)
    memory.give_back()    # the analysis's scratch, while the parent's store loads
    extractions, links, warnings, counts, late = receive()
    _long_lived()
    if late:
        _yield_to_rdf()
    build_ = Build(corpus=replace(corpus, warnings=warnings), extractions=extractions,
                   links=links)
    return _graphs_stage(out, build_, counts, progress=progress, network=network)


def _build_into(
    out: Path,
    paths: list[Path],
    *,
    input_format: str | None,
    max_bytes: int | None,
    base: str | None,
    rdf_formats: Sequence[str],
    parallelism: Parallelism,
    progress: Progress,
    people: PeopleRules | None = None,
) -> BuildResult:
    """Every stage, writing into the staging folder ``out``.

    With stages side by side (``parallelism.side_by_side``), the co-authorship analysis starts in a process of its
    own as soon as the listings are parsed (it needs the authors only), the
    extraction runs on ``parallelism.cores`` processes meanwhile (the analysis takes a
    third of extraction's time: a core kept for it would idle), and then the RDF stage
    (here) and the rest of the graph stage with the views (in that process) run side
    by side. In a large build (:func:`handover_after_load`; ``parallelism.overlap``
    ``COMPACT`` says so for any build, ``LOAD`` for none) they do so from the end of
    the store's bulk load on: the loader's threads use every core, and with the graph
    stage beside them they ran at half speed, while that stage's own work does not
    mind waiting; its process then runs at a lower priority (:data:`CHILD_NICE`), so
    validation keeps its pace too.
    """
    from kg.rdf.stage import load_rdf, map_rdf
    from kg.util.child import Child

    parsed = _parse_stage(out, paths, input_format=input_format, max_bytes=max_bytes,
                          progress=progress, people=people)
    apart = parallelism.side_by_side
    side = progress.side_by_side() if apart else progress
    child = Child(_graphs_child, out, parsed.corpus, side, inbox=True) if apart else None
    try:
        # extraction runs on every core, beside the co-authorship analysis: that finishes
        # well before extraction does, and a core left to it would then stand idle
        # (lines only: a bar redrawn here would be written over by the other's lines)
        extracted = _extract_stage(out, parsed.corpus, parallelism=parallelism,
                                   progress=side)
        build_ = extracted.build
        corpus, extract_files, extract_timings = build_.corpus, extracted.files, extracted.timings
        del extracted
        counts = build_summary(corpus, build_.extractions)   # the one summary of the build
        # RDF: graph.ttl (+ nt/jsonld), store/, SHACL validation; the graph stage's
        # process gets the extractions now, or once the store is loaded (see the docstring)
        overlap = _overlap(parallelism, len(corpus.papers))
        late = overlap is Overlap.COMPACT
        # what the graph stage's process gets, held here only until it is sent
        outbox: list[Handover] = [] if child is None else [
            (build_.extractions, build_.links, corpus.warnings, counts, late)]
        if child is not None and not late:
            child.send(outbox.pop())
        mapped = map_rdf(build_, out, base=base, progress=side)
        if child is not None:
            # from here on this process needs the corpus alone: the extractions go
            # with the handover (less memory after the RDF stage: bench/RESULTS.md)
            del build_
        handover = (lambda: child.send(outbox.pop())) if child is not None and late else None
        rdf = load_rdf(mapped, out, rdf_formats=rdf_formats, progress=side,
                       overlap=overlap,
                       loaded=handover)
        memory.give_back()    # the loader's buffers, while the child draws the views
        # co-authorship analysis, report.json/md/html, plots/, graph exports; the views
        graphs = (child.result() if child is not None
                  else _graphs_stage(out, build_, counts, progress=progress))
    except BaseException:
        if child is not None:
            child.stop()
        raise
    index = _index_page(out, counts)

    files = (*parsed.files, *extract_files, *rdf.files, *graphs.files, outputs.SUMMARY,
             index)
    timings = {**parsed.timings, **extract_timings,
               **{f"rdf.{k}": v for k, v in rdf.timings.items()}, **graphs.timings}
    return BuildResult(corpus=corpus, out_dir=out, files=files, timings=timings)
