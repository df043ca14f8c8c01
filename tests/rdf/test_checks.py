"""The build's validation (the store, but the mention and authorship nodes by
kg.rdf.checks) finds what the store's full SHACL validation finds, violation for
violation."""
from __future__ import annotations

import dataclasses

import pytest

from kg.models import Build
from kg.rdf import ntriples_to_rdflib, to_ntriples
from kg.rdf.checks import COVERED, covered_checks, covered_for, covered_violations
from kg.rdf.shacl import (
    _FIELD,
    SAMPLE,
    load_shapes,
    property_shapes,
    shapes_path,
    validate_store,
)
from kg.rdf.shacl_pyshacl import validate_pyshacl
from kg.rdf.stage import _validate
from kg.store import EmbeddedStore
from tests import rdf_fixture


def _broken(change) -> Build:
    """The fixture build with ``change(n, mention)`` applied to every mention of every paper."""
    b = rdf_fixture.make()
    exs = {pid: dataclasses.replace(ex, mentions=tuple(change(n, m) for n, m in
                                                       enumerate(ex.mentions)))
           for pid, ex in b.extractions.items()}
    return Build(b.corpus, exs)


def _both(build: Build, shapes=None):
    nt = to_ntriples(build, entities=rdf_fixture.entities(), concepts=rdf_fixture.concept_vocab())
    store = EmbeddedStore.memory(nt)
    return validate_store(store, shapes), _validate(covered_checks(build), store, shapes), nt


def test_every_covered_constraint_is_one_of_the_shipped_shapes():
    keys = {ps.key(c) for ps in property_shapes() for c in _FIELD}
    assert keys >= COVERED
    assert len(COVERED) == 44


def test_a_good_build_conforms_both_ways_and_skips_the_covered_queries():
    full, build_report, _ = _both(rdf_fixture.make())
    assert full.conforms and build_report.conforms
    assert full.checks == build_report.checks


CHANGES = {
    "negative start": lambda n, m: dataclasses.replace(m, start=-1) if n == 0 else m,
    "start after end": lambda n, m: dataclasses.replace(m, start=m.end + 1) if n == 1 else m,
    "empty span": lambda n, m: dataclasses.replace(m, end=m.start) if n == 0 else m,
    "empty quote": lambda n, m: dataclasses.replace(m, text="") if n == 1 else m,
    # under SAMPLE violations a constraint, so both report all of them
    "all at once": lambda n, m: dataclasses.replace(m, start=-5, end=-7, text="") if n < 2 else m,
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_broken_mentions_give_the_same_violations(name):
    full, build_report, nt = _both(_broken(CHANGES[name]))
    assert not full.conforms and not build_report.conforms
    assert build_report.violations == full.violations
    assert build_report.capped == full.capped
    ref = validate_pyshacl(ntriples_to_rdflib(nt))
    assert {(v.focus, v.path, v.component) for v in ref.violations} == {
        (v.focus, v.path, v.component) for v in full.violations}


def _nameless(*positions: int) -> Build:
    """The fixture build with the authors at ``positions`` (from 1) of its first
    paper left without a name."""
    b = rdf_fixture.make()
    first = b.corpus.papers[0]
    assert len(first.authors) >= max(positions)
    authors = tuple("" if i in positions else a for i, a in enumerate(first.authors, start=1))
    papers = (dataclasses.replace(first, authors=authors),) + b.corpus.papers[1:]
    return Build(dataclasses.replace(b.corpus, papers=papers), b.extractions)


@pytest.mark.parametrize("positions", [(1,), (1, 2)])
def test_an_author_without_a_name_gives_the_same_violations(positions):
    full, build_report, nt = _both(_nameless(*positions))
    assert not full.conforms and not build_report.conforms
    assert build_report.violations == full.violations
    assert ("kgo:nameAsWritten", "MinLength") in {(v.path, v.component)
                                                   for v in build_report.violations}
    ref = validate_pyshacl(ntriples_to_rdflib(nt))
    assert {(v.focus, v.path, v.component) for v in ref.violations} == {
        (v.focus, v.path, v.component) for v in full.violations}


def test_more_than_a_sample_is_capped_like_the_store():
    b = rdf_fixture.make()
    many = tuple(dataclasses.replace(m, text="") for m in next(iter(b.extractions.values())).mentions)
    many = many * (SAMPLE // len(many) + 2)
    pid = next(iter(b.extractions))
    build = Build(b.corpus, {**b.extractions,
                             pid: dataclasses.replace(b.extractions[pid], mentions=many)})
    found, more = covered_violations(build)
    assert len(found) == SAMPLE and more
    full, build_report, _ = _both(build)
    assert full.capped and build_report.capped
    assert len(build_report.violations) == len(full.violations) == SAMPLE


def test_a_changed_shape_is_checked_in_the_store_again():
    # oa:exact at least 6 characters: no longer the covered constraint, so the store checks it
    text = shapes_path().read_text(encoding="utf-8")
    old = "sh:path oa:exact ; sh:minCount 1 ; sh:maxCount 1 ;\n                  sh:datatype xsd:string ; sh:minLength 1 ]"
    assert old in text
    shapes = load_shapes(text.replace(old, old.replace("sh:minLength 1", "sh:minLength 6")))
    assert {ps.min_length for ps in property_shapes(shapes) if ps.path == "oa:exact"} == {6}
    full, build_report, _ = _both(rdf_fixture.make(), shapes)
    assert not full.conforms and build_report.violations == full.violations
    assert {v.path for v in full.violations} == {"oa:exact"}


def test_papers_sharing_an_id_are_not_covered():
    b = rdf_fixture.make()
    twice = Build(dataclasses.replace(b.corpus, papers=b.corpus.papers + b.corpus.papers[:1]),
                  b.extractions)
    assert covered_for(twice) == frozenset() and covered_for(b) == COVERED
