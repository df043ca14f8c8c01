"""The RDF stage of a build: graph files, the embedded store, SHACL validation.

Called by :func:`kg.build.pipeline.build` with the build's (staging) output
folder, as :func:`map_rdf` (step 1) then :func:`load_rdf` (the rest), so
that the build's extractions can leave the process in between;
:func:`write_rdf` does both. In order:

1. the graph as N-Triples (:mod:`kg.rdf`), streamed to a temporary file;
2. the N-Triples bulk-loaded into a new pyoxigraph store written beside
   ``store/`` (:class:`kg.store.StoreBuilder`);
3. the graph validated against the shapes, in the store (:mod:`kg.rdf.shacl`;
   the nodes of mentions and authorships by the mapping's own checks, made in
   step 1, :mod:`kg.rdf.checks`);
   a violation raises :class:`kg.errors.ValidationError`, the build fails
   and no new store is left; then the store compacted (the library's
   queries run faster on a compacted store; validation and compaction
   take the same time in either order: bench/RESULTS.md);
4. the store renamed into place, then ``graph.ttl`` always, ``graph.nt``
   and ``graph.jsonld`` on request.

With ``overlap`` (a parallel build) step 4's files are written on a thread
beside the bulk load or beside compaction (both outside the GIL).
Every file is written under a temporary name and renamed when complete.
Timings (seconds): ``rdf`` (mapping), ``store`` (bulk load), ``compact``,
``validate`` and ``serialise``.
(Making the triples while the store loads them, through a pipe, was
measured and gave nothing on two cores: the loader is the bottleneck.)
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kg.models import Build, Entity
from kg.outputs import RDF_FILES
from kg.util import fsio, memory
from kg.util.parallel import Overlap
from kg.util.progress import QUIET, Progress

if TYPE_CHECKING:  # pragma: no cover
    import rdflib

    from kg.extract.concept_vocab import ConceptVocab
    from kg.rdf.checks import CoveredChecks
    from kg.rdf.shacl import ValidationReport
    from kg.store.sparql import SparqlStore

__all__ = ["RDF_FORMATS", "MappedGraph", "RdfStageResult", "check_options", "load_rdf", "map_rdf",
           "write_rdf"]

#: ``--rdf-format`` value -> file written (``turtle`` is always written)
RDF_FORMATS = RDF_FILES


@dataclass(frozen=True)
class RdfStageResult:
    files: tuple[str, ...]
    triples: int
    timings: dict[str, float] = field(default_factory=dict)
    report: ValidationReport | None = None


@dataclass(frozen=True)
class MappedGraph:
    """The graph of a build as an N-Triples file in the output folder (:func:`map_rdf`),
    with the mapping's own checks: all :func:`load_rdf` needs, so the build itself
    can go once it is mapped."""

    nt: Path
    triples: int
    checked: CoveredChecks
    seconds: float


def write_rdf(build: Build, out: str | Path, *, base: str | None = None,
              rdf_formats: Sequence[str] = (), entities: Mapping[str, Entity] | None = None,
              shapes: rdflib.Graph | None = None, progress: Progress = QUIET,
              overlap: Overlap = Overlap.NONE,
              concepts: ConceptVocab | None = None,
              loaded: Callable[[], None] | None = None) -> RdfStageResult:
    """Write ``graph.ttl`` (+ ``rdf_formats``) and ``store/`` into ``out``; validate.

    Parameters
    ----------
    build : kg.models.Build
        The corpus and its extractions.
    out : str or Path
        The output folder (the pipeline's staging folder).
    base : str, optional
        Base IRI of minted resources.
    rdf_formats : sequence of str
        Extra serialisations: ``nt``, ``jsonld`` (``turtle`` is always written).
    entities : mapping of str to Entity, optional
        Known entities (the gazetteer) for families, kinds and aliases.
    shapes : rdflib.Graph, optional
        Shapes to validate against (default: those shipped with kg).
    overlap : kg.util.parallel.Overlap
        Write ``graph.ttl`` (and ``graph.jsonld``) on a thread, instead of after
        the store is done (``NONE``), from the start of the bulk load (``LOAD``) or of
        compaction (``COMPACT``, after validation); the files are the same. A
        parallel build does this: a small one from the load, a large one from
        compaction (the loader's threads keep the cores busy, and at 100,000
        papers the thread slowed the load).
    concepts : kg.extract.concept_vocab.ConceptVocab, optional
        The concept vocabulary (default: the one kg ships).
    loaded : callable, optional
        Called once the bulk load is done (a parallel build starts its other
        stages there: see :func:`kg.build.pipeline.build`).

    Raises
    ------
    kg.errors.ValidationError
        If the graph violates the shapes.
    """
    check_options(rdf_formats, overlap)
    mapped = map_rdf(build, out, base=base, entities=entities, concepts=concepts,
                     progress=progress)
    return load_rdf(mapped, out, rdf_formats=rdf_formats, shapes=shapes, progress=progress,
                    overlap=overlap, loaded=loaded)


def check_options(rdf_formats: Sequence[str], overlap: Overlap = Overlap.NONE) -> None:
    """Raise :class:`kg.errors.KgError` for an unknown RDF format (``ValueError`` for
    an ``overlap`` not decided: ``AUTO`` is the build's to resolve)."""
    from kg.errors import KgError

    if overlap not in (Overlap.NONE, Overlap.LOAD, Overlap.COMPACT):
        raise ValueError(f"overlap must be Overlap.NONE, LOAD or COMPACT, not {overlap!r}")
    unknown = [f for f in rdf_formats if f not in RDF_FORMATS]
    if unknown:
        raise KgError(f"unknown RDF format {unknown[0]!r} (choose from {', '.join(RDF_FORMATS)})")


def map_rdf(build: Build, out: str | Path, *, base: str | None = None,
            entities: Mapping[str, Entity] | None = None,
            concepts: ConceptVocab | None = None,
            progress: Progress = QUIET) -> MappedGraph:
    """Step 1 of :func:`write_rdf`: the graph of ``build`` as N-Triples in a temporary
    file in ``out``, and the checks of the nodes the mapping vouches for."""
    from kg.rdf import write_ntriples
    from kg.rdf.checks import covered_checks

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    nt_tmp = out / ".graph.nt.tmp"
    t0 = time.perf_counter()
    try:
        with progress.stage("writing the RDF graph"):
            with open(nt_tmp, "wb") as fh:
                triples = write_ntriples(build, fh, base, entities=entities, concepts=concepts)
            checked = covered_checks(build, base)
    except BaseException:
        nt_tmp.unlink(missing_ok=True)
        raise
    seconds = time.perf_counter() - t0
    memory.give_back()    # the mapping's tables, before the loader's peak
    return MappedGraph(nt_tmp, triples, checked, seconds)


def load_rdf(mapped: MappedGraph, out: str | Path, *, rdf_formats: Sequence[str] = (),
             shapes: rdflib.Graph | None = None, progress: Progress = QUIET,
             overlap: Overlap = Overlap.NONE,
             loaded: Callable[[], None] | None = None) -> RdfStageResult:
    """Steps 2 to 4 of :func:`write_rdf` (the parameters are its own) on a
    :func:`map_rdf` result, whose N-Triples file it removes or renames."""
    from kg.outputs import STORE_DIR
    from kg.rdf.shacl import check
    from kg.store.embedded import StoreBuilder

    out = Path(out)
    nt_tmp = mapped.nt
    timings = {"rdf": mapped.seconds}
    files: list[str] = []
    writer: _Serialiser | None = None
    try:
        check_options(rdf_formats, overlap)
        with StoreBuilder(out / STORE_DIR) as builder:
            store = builder.store
            if overlap is Overlap.LOAD:
                writer = _Serialiser(nt_tmp, out, rdf_formats, progress)
            t0 = time.perf_counter()
            with progress.stage("loading the SPARQL store"):
                # the text is kg.rdf's own (every IRI minted by kg.rdf.vocab, every
                # literal escaped), so the loader need not check the IRIs again
                store.load_ntriples(nt_tmp, lenient=True)
            timings["store"] = time.perf_counter() - t0
            if loaded is not None:
                loaded()

            t0 = time.perf_counter()
            with progress.stage("validating the graph (SHACL)"):
                report = _validate(mapped.checked, store, shapes)
            timings["validate"] = time.perf_counter() - t0
            check(report)
            memory.give_back()    # the queries' scratch, before the other stages' peak
            if overlap is Overlap.COMPACT:   # beside compaction and the caller's other work
                writer = _Serialiser(nt_tmp, out, rdf_formats, progress)

            t0 = time.perf_counter()
            with progress.stage("compacting the store"):
                store.optimize()
            timings["compact"] = time.perf_counter() - t0
            builder.commit().close()

        if writer is None:
            written, timings["serialise"] = _serialise(nt_tmp, out, rdf_formats, progress)
        else:
            written, timings["serialise"] = writer.result()
            writer = None
        files += written
        if "nt" in rdf_formats:
            os.replace(nt_tmp, out / RDF_FORMATS["nt"])
            files.append(RDF_FORMATS["nt"])
        files.append(f"{STORE_DIR}/")
    finally:
        if writer is not None:      # the build failed: let the thread end before its input goes
            writer.join()
        nt_tmp.unlink(missing_ok=True)
    return RdfStageResult(tuple(files), mapped.triples, timings, report)


def _validate(checked: CoveredChecks, store: SparqlStore,
              shapes: rdflib.Graph | None) -> ValidationReport:
    """The shapes checked in the store, but the mention and authorship nodes'
    constraints that the mapping's templates guarantee, whose data-dependent parts
    were checked on the build itself (:mod:`kg.rdf.checks`, :func:`map_rdf`): the
    same violations, half the work."""
    from kg.rdf.shacl import ValidationReport, validate_store

    report = validate_store(store, shapes, covered=checked.covered)
    if not checked.covered:
        return report
    found = tuple(sorted(set(report.violations) | set(checked.violations)))
    return ValidationReport(not found, found, report.checks, report.engine,
                  report.capped or checked.capped)


def _serialise(nt: Path, out: Path, rdf_formats: Sequence[str],
               progress: Progress) -> tuple[list[str], float]:
    """Write ``graph.ttl`` (and ``graph.jsonld``) from the N-Triples ``nt``: files, seconds."""
    from kg.rdf import to_jsonld, to_turtle

    t0 = time.perf_counter()
    files = []
    with progress.stage("writing graph.ttl"):
        with fsio.atomic_open(out / RDF_FORMATS["turtle"], "wb", encoding=None) as fh:
            to_turtle(nt, fh)
        files.append(RDF_FORMATS["turtle"])
        if "jsonld" in rdf_formats:
            with fsio.atomic_open(out / RDF_FORMATS["jsonld"], "wb", encoding=None) as fh:
                to_jsonld(nt, fh)
            files.append(RDF_FORMATS["jsonld"])
    return files, time.perf_counter() - t0


class _Serialiser:
    """:func:`_serialise` on a thread; :meth:`result` joins it and raises what it raised."""

    def __init__(self, nt: Path, out: Path, rdf_formats: Sequence[str], progress: Progress):
        import threading

        self._done: tuple[list[str], float] | None = None
        self._error: BaseException | None = None

        def run() -> None:
            try:
                self._done = _serialise(nt, out, rdf_formats, progress)
            except BaseException as exc:  # noqa: BLE001 - raised again by result()
                self._error = exc

        self._thread = threading.Thread(target=run, name="kg-serialise", daemon=True)
        self._thread.start()

    def join(self) -> None:
        self._thread.join()

    def result(self) -> tuple[list[str], float]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._done is not None
        return self._done
