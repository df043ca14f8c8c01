"""Fixtures shared by the tests of kg/queries/: the sample's and the fixtures' stores."""
from __future__ import annotations

import pytest

from kg.models import Build
from kg.rdf import to_ntriples
from kg.store import EmbeddedStore
from tests import rdf_fixture


@pytest.fixture(scope="module")
def stores(sample_corpus, sample_build_dir):
    return {
        "built": EmbeddedStore(sample_build_dir / "store"),
        "sample": EmbeddedStore.memory(to_ntriples(Build(sample_corpus))),
        "fixture": EmbeddedStore.memory(rdf_fixture.ntriples()),
        "concepts": EmbeddedStore.memory(rdf_fixture.concept_ntriples()),
    }
