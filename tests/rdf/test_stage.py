"""kg.rdf.stage: a graph that violates the shapes fails the build."""
from __future__ import annotations

import pytest

from kg.errors import ValidationError
from kg.models import Build
from kg.rdf.shacl import load_shapes
from kg.rdf.stage import write_rdf
from tests.rdf.test_shacl import BROKEN_SHAPE


def test_a_shape_broken_on_purpose_fails_the_build(tmp_path, sample_corpus):
    # papers of the listings have no titles: a shape that demands one must fail the RDF stage
    shapes = load_shapes()
    shapes.parse(data=BROKEN_SHAPE, format="turtle")
    with pytest.raises(ValidationError) as exc:
        write_rdf(Build(sample_corpus), tmp_path / "out", shapes=shapes)
    msg = str(exc.value)
    assert "schema:name: MinCount" in msg and "at least 20 violation(s)" in msg and "\n" not in msg
    assert not (tmp_path / "out" / "graph.ttl").exists()
    # and the same stage with the shipped shapes succeeds
    res = write_rdf(Build(sample_corpus), tmp_path / "ok")
    assert res.report.conforms and (tmp_path / "ok" / "graph.ttl").is_file()
