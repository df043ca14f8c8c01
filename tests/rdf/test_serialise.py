"""kg.rdf.serialise (and the N-Triples beside it): deterministic, sorted serialisations."""
from __future__ import annotations

import dataclasses
import random

from kg.models import Build
from kg.rdf import to_jsonld, to_ntriples, to_turtle
from tests import rdf_fixture


def test_serialisation_is_deterministic_and_sorted():
    b = rdf_fixture.make()
    nt1 = to_ntriples(b, entities=rdf_fixture.entities())
    nt2 = to_ntriples(rdf_fixture.make(), entities=rdf_fixture.entities())
    assert nt1 == nt2
    assert to_turtle(nt1) == to_turtle(nt2)
    assert to_jsonld(nt1) == to_jsonld(nt2)
    # the input order of papers does not matter
    papers = list(b.corpus.papers)
    random.Random(4).shuffle(papers)
    shuffled = Build(dataclasses.replace(b.corpus, papers=tuple(papers)), b.extractions)
    assert to_ntriples(shuffled, entities=rdf_fixture.entities()) == nt1
    subjects = [line.split(" ", 1)[0][1:-1] for line in nt1.decode().splitlines()]
    body = [s for s in subjects if not s.endswith("/dataset")]
    assert body == sorted(body)
    assert subjects[-1].endswith("/dataset")  # the description with the count comes last
    ttl = to_turtle(nt1).decode()
    assert ttl.startswith("@prefix rdf: ") and "\n@prefix kgo: " in ttl
    assert "dateTime" not in ttl and "xsd:date" not in ttl  # no timestamps
