"""``kg build --workers 2`` (:class:`kg.util.parallel.Parallelism`): stages side by side, the same bytes as one after another,
and an error in a stage's process is today's one line with the previous output kept."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from kg.build import pipeline
from kg.errors import KgError
from kg.outputs import LOCK, STORE_DIR
from kg.util.child import Child
from kg.util.parallel import Overlap, Parallelism


def _digests(folder: Path) -> dict[str, str]:
    """SHA-256 of every output but the store's database files and kg's lock."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).parts[0] not in (STORE_DIR, LOCK)}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != LOCK}


def test_two_workers_write_the_same_bytes_as_one(tmp_path, sample_build_dir):
    result = pipeline.build(None, tmp_path / "two", parallelism=Parallelism.of(2))
    two, one = _digests(tmp_path / "two"), _digests(sample_build_dir)
    assert len(one) > 15 and two == one
    assert (tmp_path / "two" / STORE_DIR).is_dir()
    # every stage reported its time, the graph stage's from its own process too
    for stage in ("parse", "extract", "rdf.store", "coauthor_analysis", "exports", "views"):
        assert result.timings[stage] >= 0


def _fail_in_child(*args, **kwargs):
    raise KgError("views.html: cannot draw this")


def _die_in_child(*args, **kwargs):
    os._exit(3)


@pytest.mark.parametrize("patch, message", [
    (_fail_in_child, "kg: error: views.html: cannot draw this"),
    (_die_in_child, "kg: error: a build stage's process ended without a result "
                    "(exit status 3)"),
])
def test_error_in_a_stage_process_is_one_line_and_keeps_the_previous_output(
        tmp_path, monkeypatch, capsys, patch, message):
    from kg.cli import main

    out = tmp_path / "out"
    assert main(["build", "-q", "-o", str(out), "--workers", "2"]) == 0
    before = _snapshot(out)
    monkeypatch.setattr(pipeline, "_views_stage", patch)   # the child is forked: it sees this
    capsys.readouterr()
    assert main(["build", "-q", "-o", str(out), "--workers", "2"]) == 1
    assert capsys.readouterr().err == message + "\n"
    assert _snapshot(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".kg-staging")]


def test_error_in_the_parent_stops_the_stage_process(tmp_path, monkeypatch, capsys):
    from kg.cli import main
    from kg.rdf import stage as rdf_stage

    out = tmp_path / "out"

    def fail(*args, **kwargs):
        raise KgError("graph.ttl: shapes violated")

    monkeypatch.setattr(rdf_stage, "load_rdf", fail)
    assert main(["build", "-q", "-o", str(out), "--workers", "2"]) == 1
    assert capsys.readouterr().err == "kg: error: graph.ttl: shapes violated\n"
    assert not out.exists() or not [p for p in out.iterdir() if p.name != LOCK]


def test_rdf_files_written_on_a_thread_are_the_same_and_a_violation_still_fails(
        tmp_path, sample_corpus):
    from kg.errors import ValidationError
    from kg.models import Build
    from kg.rdf.shacl import load_shapes
    from kg.rdf.stage import write_rdf

    formats = ("nt", "jsonld")
    after = write_rdf(Build(sample_corpus), tmp_path / "after", rdf_formats=formats)
    for overlap in (Overlap.LOAD, Overlap.COMPACT):
        during = write_rdf(Build(sample_corpus), tmp_path / overlap.value, rdf_formats=formats,
                           overlap=overlap)
        assert during.files == after.files and during.triples == after.triples > 100
        for name in ("graph.ttl", "graph.nt", "graph.jsonld"):
            assert ((tmp_path / overlap.value / name).read_bytes()
                    == (tmp_path / "after" / name).read_bytes()), (overlap, name)
    with pytest.raises(ValueError, match="overlap must be"):
        write_rdf(Build(sample_corpus), tmp_path / "auto", overlap=Overlap.AUTO)
    shapes = load_shapes()
    shapes.parse(data="""
        @prefix sh: <http://www.w3.org/ns/shacl#> .
        @prefix schema: <https://schema.org/> .
        <urn:x:S> a sh:NodeShape ; sh:targetClass schema:ScholarlyArticle ;
            sh:property [ sh:path schema:name ; sh:minCount 1 ] .""", format="turtle")
    with pytest.raises(ValidationError):
        write_rdf(Build(sample_corpus), tmp_path / "bad", shapes=shapes, overlap=Overlap.LOAD)
    assert not [p for p in (tmp_path / "bad").iterdir() if p.name.startswith(".graph.nt")]


def test_the_other_stages_start_once_the_store_is_loaded_and_yield_to_the_rdf_stage(
        tmp_path, sample_corpus):
    """A large parallel build hands the graph stage its input when the bulk load is
    done (``loaded``), before graph.ttl is written; that stage's process then runs
    niced. A small one hands it over at once."""
    from kg.models import Build
    from kg.rdf.stage import write_rdf

    seen = []

    def loaded() -> None:
        seen.append(sorted(p.name for p in (tmp_path / "out").iterdir()))

    result = write_rdf(Build(sample_corpus), tmp_path / "out", overlap=Overlap.COMPACT,
                       loaded=loaded)
    assert len(seen) == 1 and "graph.ttl" not in seen[0]
    assert "graph.ttl" in result.files and (tmp_path / "out" / "graph.ttl").stat().st_size > 0

    def niceness(receive=None) -> int:
        pipeline._yield_to_rdf()
        return os.nice(0)

    assert Child(niceness).result() == min(os.nice(0) + pipeline.CHILD_NICE, 19)
    small, large = pipeline.LATE_HANDOVER_PAPERS - 1, pipeline.LATE_HANDOVER_PAPERS
    assert not pipeline.handover_after_load(small) and pipeline.handover_after_load(large)


@pytest.mark.parametrize("workers", [1, 2])
def test_each_stage_leaves_one_line_with_its_time(tmp_path, capfd, workers):
    import re

    from kg.util.progress import Progress

    pipeline.build(None, tmp_path / "out", parallelism=Parallelism.of(workers),
                   progress=Progress(enabled=True, spinner=workers == 1))
    lines = [ln for ln in capfd.readouterr().err.splitlines() if ln.startswith("kg: ")]
    stages = [re.fullmatch(r"kg: (.+): \d+\.\d s", ln) for ln in lines]
    assert all(stages), lines
    names = [m.group(1) for m in stages if m]
    for stage in ("parsing listings", "extracting mentions", "writing the RDF graph",
                  "loading the SPARQL store", "validating the graph (SHACL)", "writing graph.ttl",
                  "analysing the co-authorship network", "drawing the interactive views"):
        assert names.count(stage) == 1, (stage, names)
