"""kg.rdf.load: a build's graph (or an RDF file) as an rdflib Graph; kg.load_graph."""
from __future__ import annotations

import pytest
import rdflib

from kg.errors import StoreError
from kg.models import Build
from kg.rdf.stage import write_rdf
from kg.store import load_graph


def test_load_graph_from_every_kind_of_path(tmp_path, sample_corpus):
    out = tmp_path / "build"
    write_rdf(Build(sample_corpus), out, rdf_formats=("nt", "jsonld"))
    expected = rdflib.Graph().parse(out / "graph.nt", format="nt")
    for path in (out, out / "graph.ttl", out / "graph.nt", out / "graph.jsonld", out / "store"):
        g = load_graph(path)
        assert isinstance(g, rdflib.Graph) and len(g) == len(expected)
        assert g.isomorphic(expected), path
        assert dict(g.namespaces())["kgo"] == rdflib.URIRef("https://w3id.org/paper-kg/ontology#")
    (out / "graph.ttl").unlink(), (out / "graph.nt").unlink()
    assert len(load_graph(out)) == len(expected)  # falls back to the store
    with pytest.raises(StoreError):
        load_graph(tmp_path / "nope")


def test_kg_exports_load_graph_lazily():
    import subprocess
    import sys

    code = ("import sys, kg; assert 'rdflib' not in sys.modules; "
            "from kg import load_graph; import kg.store; assert load_graph is kg.store.load_graph")
    subprocess.run([sys.executable, "-c", code], check=True)
