"""``build()``: compose the stages and write the output folder.

The only module besides the CLI that touches the file system. Each stage is
a library call; this module orders them, reports progress and writes files
atomically (see :mod:`kg.fsio`).
"""
from __future__ import annotations

import json
import shutil
import signal
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from kg import buildfolder, fsio
from kg.errors import NoPapersError
from kg.models import Build, Corpus
from kg.progress import QUIET, Progress


@dataclass(frozen=True)
class BuildResult:
    corpus: Corpus
    out_dir: Path
    files: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)


def sample_files() -> list[Path]:
    """The bundled sample listings (the user's own seeds), in name order."""
    from importlib.resources import files

    root = files("kg") / "data" / "sample"
    return sorted((Path(str(p)) for p in root.iterdir() if p.name.endswith(".txt")),
                  key=lambda p: p.name)


def summary(corpus: Corpus, extractions: dict | None = None) -> dict:
    """Counts of a parsed corpus (and its extractions), as written to ``summary.json``."""
    out = {
        "files": list(corpus.files),
        "entries": corpus.entries,
        "papers": len(corpus.papers),
        "merged": corpus.merged,
        "skipped": corpus.skipped,
        "warnings": len(corpus.warnings),
        "authors": len(corpus.authors),
        "authorships": sum(len(p.authors) for p in corpus.papers),
        "truncated_author_lists": sum(p.authors_truncated for p in corpus.papers),
        "papers_with_track": sum(p.track is not None for p in corpus.papers),
        "tracks": sorted(t.label for t in corpus.tracks),
    }
    if extractions is not None:
        ments = [m for ex in extractions.values() for m in ex.mentions]
        by_type: dict[str, int] = {}
        for m in ments:
            by_type[m.type] = by_type.get(m.type, 0) + 1
        out["extraction"] = {
            "mentions": len(ments),
            "entities": len({m.key for m in ments}),
            "mentions_by_type": dict(sorted(by_type.items())),
            "papers_proposing": sum(1 for ex in extractions.values() if ex.proposed),
            "acronym_pairs": sum(len(ex.aliases) for ex in extractions.values()),
        }
    return out


def build(
    files: Sequence[str | Path] | None,
    out_dir: str | Path = "output",
    *,
    input_format: str | None = None,
    max_bytes: int | None = None,
    base: str | None = None,
    rdf_formats: Sequence[str] = (),
    workers: int = 1,
    progress: Progress = QUIET,
) -> BuildResult:
    """Read listings (default: the bundled sample) and write every output.

    The output folder must be missing, empty or a kg build
    (:func:`kg.buildfolder.check_target`); anything in it that kg did not
    write is left alone. Everything is written into a staging folder inside
    ``out_dir`` and moved into place only when the whole build has
    succeeded, so a failed or killed build leaves the previous output as it
    was.
    """
    if base is not None:
        from kg.vocab import check_base

        check_base(base)  # a bad --base fails before any work
    final = buildfolder.check_target(out_dir)
    paths = [Path(f) for f in files] if files else sample_files()
    with buildfolder.locked(final):
        buildfolder.recover(final)
        out = buildfolder.new_staging(final)
        try:
            result = _build_into(out, paths, input_format=input_format, max_bytes=max_bytes,
                                 base=base, rdf_formats=rdf_formats, workers=workers,
                                 progress=progress)
            buildfolder.seal(out)
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)   # the previous output stays as it was
            raise
        with _signals_deferred():
            buildfolder.publish(out, final)
    return BuildResult(corpus=result.corpus, out_dir=final, files=result.files,
                       timings=result.timings)


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM while outputs move into place (a few renames)."""
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _build_into(
    out: Path,
    paths: list[Path],
    *,
    input_format: str | None,
    max_bytes: int | None,
    base: str | None,
    rdf_formats: Sequence[str],
    workers: int,
    progress: Progress,
) -> BuildResult:
    """Every stage, writing into the staging folder ``out``."""
    import time

    from kg.parse import paper_to_json, read_corpus

    timings: dict[str, float] = {}
    written: list[str] = []

    t0 = time.perf_counter()
    with progress.stage("parsing listings"):
        corpus = read_corpus(paths, format=input_format, max_bytes=max_bytes)
    timings["parse"] = time.perf_counter() - t0
    if not corpus.papers:
        first = f"; first warning: {corpus.warnings[0]}" if corpus.warnings else ""
        raise NoPapersError(f"no readable paper in {', '.join(map(str, paths))} "
                            f"({corpus.entries} entries{first}); the output folder is left "
                            "as it was")

    with fsio.atomic_open(out / "corpus.jsonl") as fh:
        for paper in corpus.papers:
            fh.write(json.dumps(paper_to_json(paper), ensure_ascii=False) + "\n")
    written.append("corpus.jsonl")

    t0 = time.perf_counter()
    from kg.extract import extract_corpus, extraction_to_json

    cpu: dict[str, float] = {}
    extractions = {ex.paper_id: ex for ex in extract_corpus(corpus, workers=workers,
                                                             progress=progress, stats=cpu)}
    # wall time of the stage, split between clean-up and spaCy by their CPU shares
    wall = time.perf_counter() - t0
    share = cpu.get("clean", 0.0) / max(cpu.get("clean", 0.0) + cpu.get("extract", 0.0), 1e-9)
    timings["clean"] = wall * share
    timings["extract"] = wall * (1 - share)
    with fsio.atomic_open(out / "extractions.jsonl") as fh:
        for paper in corpus.papers:
            fh.write(json.dumps(extraction_to_json(extractions[paper.id]),
                                ensure_ascii=False) + "\n")
    written.append("extractions.jsonl")
    build_ = Build(corpus=corpus, extractions=extractions)
    # --- RDF: graph.ttl (+ nt/jsonld), store/, SHACL validation (issue 4) ----
    from kg.extract.gazetteer import load as load_gazetteer
    from kg.rdf_stage import write_rdf

    rdf = write_rdf(build_, out, base=base, rdf_formats=rdf_formats,
                    entities=load_gazetteer().entities, progress=progress)
    timings.update({f"rdf.{k}": v for k, v in rdf.timings.items()})
    written.extend(rdf.files)

    # graphs, co-authorship analysis, report.json/md, plots/, exports (kg.coauthors)
    from kg.coauthors import stage_outputs

    shared: dict = {}
    for name, content in stage_outputs(build_, corpus_summary=summary(corpus),
                                       timings=timings, progress=progress, shared=shared):
        if isinstance(content, bytes):
            fsio.write_bytes(out / name, content)
        elif isinstance(content, str):
            fsio.write_text(out / name, content)
        else:
            with fsio.atomic_open(out / name) as fh:
                for chunk in content:
                    fh.write(chunk)
        written.append(name)

    fsio.write_text(out / "summary.json",
                    json.dumps(summary(corpus, extractions), ensure_ascii=False, indent=2) + "\n")
    written.append("summary.json")

    # --- interactive views and index.html (kg.viz, issue 6) ------------------
    from kg.viz import coauthors_view, entities_view, index_html, kg_view, to_html

    t0 = time.perf_counter()
    with progress.stage("drawing the interactive views"):
        analysis = shared["analysis"]
        views = (("kg.html", lambda: kg_view(build_, graph=shared["knowledge_graph"])),
                 ("coauthors.html", lambda: coauthors_view(build_, graph=analysis.graph,
                                                           partition=analysis.leiden)),
                 ("entities.html", lambda: entities_view(build_)))
        for name, make_view in views:
            fsio.write_text(out / name, to_html(make_view()))
            written.append(name)
        del shared, analysis
    present = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                     if p.is_file() and p.relative_to(out).parts[0] != "store"
                     and not p.name.startswith("."))
    if (out / "store").is_dir():
        present.append("store/")
    fsio.write_text(out / "index.html",
                    index_html(present, title="kg build", summary=summary(corpus, extractions)))
    written.append("index.html")
    timings["views"] = time.perf_counter() - t0
    # --- end of the views block ----------------------------------------------

    return BuildResult(corpus=corpus, out_dir=out, files=tuple(written), timings=timings)
