"""The RDF stage of a build: graph files, the embedded store, SHACL validation.

Called by :func:`kg.pipeline.build` with the build's (staging) output
folder. In order:

1. the graph as N-Triples, streamed to a temporary file (:mod:`kg.rdf`);
2. ``store/``: the N-Triples bulk-loaded into a pyoxigraph store, written
   beside and renamed into place (:class:`kg.store.EmbeddedStore`), then
   compacted so queries read fewer files;
3. validation of the store against the shapes (:mod:`kg.validate`); a
   violation raises :class:`kg.errors.ValidationError` and the build fails;
4. ``graph.ttl`` always, ``graph.nt`` and ``graph.jsonld`` on request.

Every file is written under a temporary name and renamed when complete.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from kg import fsio
from kg.models import Build, Entity
from kg.progress import QUIET, Progress

if TYPE_CHECKING:  # pragma: no cover
    import rdflib

    from kg.validate import Report

__all__ = ["RDF_FORMATS", "RdfStageResult", "write_rdf"]

#: ``--rdf-format`` value -> file written (``turtle`` is always written)
RDF_FORMATS = {"turtle": "graph.ttl", "nt": "graph.nt", "jsonld": "graph.jsonld"}


@dataclass(frozen=True)
class RdfStageResult:
    files: tuple[str, ...]
    triples: int
    timings: dict[str, float] = field(default_factory=dict)
    report: "Report | None" = None


def write_rdf(build: Build, out: str | Path, *, base: str | None = None,
              rdf_formats: Sequence[str] = (), entities: Mapping[str, Entity] | None = None,
              shapes: "rdflib.Graph | None" = None, progress: Progress = QUIET) -> RdfStageResult:
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

    Raises
    ------
    kg.errors.ValidationError
        If the graph violates the shapes.
    """
    from kg.errors import KgError
    from kg.rdf import to_jsonld, to_turtle, write_ntriples
    from kg.store import STORE_DIR, EmbeddedStore
    from kg.validate import check, validate_store

    unknown = [f for f in rdf_formats if f not in RDF_FORMATS]
    if unknown:
        raise KgError(f"unknown RDF format {unknown[0]!r} (choose from {', '.join(RDF_FORMATS)})")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    files: list[str] = []
    nt_tmp = out / ".graph.nt.tmp"
    try:
        t0 = time.perf_counter()
        with progress.stage("writing the RDF graph"):
            with open(nt_tmp, "wb") as fh:
                triples = write_ntriples(build, fh, base, entities=entities)
        timings["rdf"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        with progress.stage("loading the SPARQL store"):
            store = EmbeddedStore.create(out / STORE_DIR, nt_tmp, optimize=True)
        timings["store"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        with progress.stage("validating the graph (SHACL)"):
            try:
                report = check(validate_store(store, shapes))
            finally:
                store.close()
        timings["validate"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        with progress.stage("writing graph.ttl"):
            with fsio.atomic_open(out / RDF_FORMATS["turtle"], "wb", encoding=None) as fh:
                to_turtle(nt_tmp, fh)
            files.append(RDF_FORMATS["turtle"])
            if "jsonld" in rdf_formats:
                with fsio.atomic_open(out / RDF_FORMATS["jsonld"], "wb", encoding=None) as fh:
                    to_jsonld(nt_tmp, fh)
                files.append(RDF_FORMATS["jsonld"])
            if "nt" in rdf_formats:
                os.replace(nt_tmp, out / RDF_FORMATS["nt"])
                files.append(RDF_FORMATS["nt"])
        timings["serialise"] = time.perf_counter() - t0
        files.append(f"{STORE_DIR}/")
    finally:
        nt_tmp.unlink(missing_ok=True)
    return RdfStageResult(tuple(files), triples, timings, report)
