"""kg.store.embedded: the embedded pyoxigraph store."""
from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib

from kg.errors import QueryError, StoreError
from kg.models import Build
from kg.rdf import to_ntriples
from kg.store import EmbeddedStore, StoreBuilder
from tests import rdf_fixture

NT = rdf_fixture.ntriples()
NAME = "PREFIX schema: <https://schema.org/> "


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("s") / "store"
    EmbeddedStore.create(path, NT).close()
    return path


def test_create_then_open_read_only(store_dir):
    with EmbeddedStore(store_dir) as st:
        assert st.read_only
        assert st.count() == len(NT.splitlines())
        res = st.query(NAME + "SELECT ?n WHERE { ?p a schema:Person ; schema:name ?n } ORDER BY ?n")
        assert res.kind == "select" and res.variables == ("n",)
        assert [v for (v,) in res.values()] == ["Ada Lovelace", "Alan Turing", "Edsger Dijkstra",
                                                 "Grace Hopper"]
        with pytest.raises(QueryError):
            st.query("INSERT DATA { <urn:a> <urn:b> <urn:c> }")
        assert st.count() == len(NT.splitlines())


def test_two_readers_share_a_store(store_dir):
    a, b = EmbeddedStore(store_dir), EmbeddedStore(store_dir)
    assert a.count() == b.count() > 0
    a.close(), b.close()


def test_bindings_are_rdf_terms(store_dir):
    with EmbeddedStore(store_dir) as st:
        q = NAME + "SELECT ?n ?p WHERE { ?p schema:name ?n }"
        assert len(st.query(q, {"n": "Ada Lovelace"})) == 1
        assert len(st.query(q, {"n": ox.Literal("Ada Lovelace")})) == 1
        assert len(st.query(q, {"n": rdflib.Literal("Ada Lovelace")})) == 1
        person = "https://w3id.org/paper-kg/resource/person/ada_lovelace"
        assert st.query(q, {"p": rdflib.URIRef(person)}).values() == [("Ada Lovelace", person)]
        # a string is never an IRI
        assert len(st.query(q, {"p": person})) == 0
        # a variable the query uses without projecting it is bound all the same
        unprojected = NAME + "SELECT ?p WHERE { ?p schema:name ?n }"
        assert st.query(unprojected, {"n": "Ada Lovelace"}).values() == [(person,)]
        assert st.query(unprojected, {"n": "Ada Lovelace", "p": ox.NamedNode(person)}).values() \
            == [(person,)]
        # ... but a name that is no variable of the query is refused
        with pytest.raises(QueryError, match="not used by the query: [?]name does not occur"):
            st.query(unprojected + ' # ?name', {"name": "Ada Lovelace"})


def test_ask_construct_and_errors(store_dir):
    with EmbeddedStore(store_dir) as st:
        assert st.query("ASK { ?s ?p ?o }").boolean is True
        g = st.query(NAME + "CONSTRUCT { ?p schema:name ?n } WHERE { ?p schema:name ?n }")
        assert g.kind == "graph" and len(g) >= 4
        with pytest.raises(QueryError) as exc:
            st.query("SELECT ?x WHERE { ?x ")
        assert str(exc.value).startswith("SPARQL syntax error") and "\n" not in str(exc.value)


def test_create_replaces_an_old_store_atomically(tmp_path):
    path = tmp_path / "store"
    EmbeddedStore.create(path, b"<urn:a> <urn:b> <urn:c> .\n").close()
    with EmbeddedStore.create(path, NT, optimize=True) as st:
        assert st.count() == len(NT.splitlines())
    assert [p.name for p in tmp_path.iterdir()] == ["store"]  # no temporary folders left
    with pytest.raises(StoreError):
        EmbeddedStore.create(tmp_path / "bad", b"<urn:a> <urn:b> .\n")
    assert not (tmp_path / "bad").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["store"]


def test_builder_leaves_the_old_store_unless_committed(tmp_path):
    path = tmp_path / "store"
    EmbeddedStore.create(path, b"<urn:a> <urn:b> <urn:c> .\n").close()
    with StoreBuilder(path) as builder:  # e.g. a build whose graph fails validation
        builder.store.load_ntriples(NT)
        assert builder.store.count() == len(NT.splitlines())
    assert [p.name for p in tmp_path.iterdir()] == ["store"]
    with EmbeddedStore(path) as st:
        assert st.count() == 1
    with StoreBuilder(path) as builder:
        builder.store.load_ntriples(NT, lenient=True)
        builder.store.optimize()
        new = builder.commit()
    with new:
        assert new.count() == len(NT.splitlines())
    assert [p.name for p in tmp_path.iterdir()] == ["store"]


def test_lenient_load_is_the_same_graph_for_kg_text(sample_corpus):
    # kg.rdf mints every IRI and escapes every literal: loading its text
    # without the parser's IRI checks gives the same graph
    nt = to_ntriples(Build(sample_corpus))
    strict, lenient = EmbeddedStore.memory(), EmbeddedStore.memory()
    strict.load_ntriples(nt)
    lenient.load_ntriples(nt, lenient=True)
    assert strict.dump_ntriples() == lenient.dump_ntriples()
