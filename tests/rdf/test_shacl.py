"""SHACL: the shapes shipped with kg, the in-store validator and pySHACL agree."""
from __future__ import annotations

import pytest

from kg.errors import ValidationError
from kg.models import Build
from kg.rdf import ntriples_to_rdflib, to_ntriples
from kg.rdf.shacl import (
    check,
    compile_shapes,
    load_shapes,
    shapes_path,
    validate_store,
)
from kg.rdf.shacl_pyshacl import validate_pyshacl
from kg.store import EmbeddedStore
from tests import rdf_fixture

R = "https://w3id.org/paper-kg/resource/"
P1 = f"<{R}paper/{rdf_fixture.P1}>"
P3 = f"<{R}paper/{rdf_fixture.P3}>"


def _key(report):
    return {(v.focus, v.path, v.component) for v in report.violations}


@pytest.fixture(scope="module")
def fixture_nt() -> bytes:
    return rdf_fixture.ntriples()


def test_shapes_cover_every_class():
    text = shapes_path().read_text(encoding="utf-8")
    for cls in ("schema:ScholarlyArticle", "kgo:Authorship", "schema:Person", "kgo:Track",
                "kgo:Model", "kgo:Method", "kgo:Dataset", "oa:Annotation", "oa:SpecificResource",
                "oa:TextPositionSelector", "oa:TextQuoteSelector", "prov:Derivation",
                "void:Dataset", "kgo:Acronym", "skos:ConceptScheme", "prov:Activity"):
        assert f"sh:targetClass {cls}" in text or f", {cls}" in text, cls
    assert len(compile_shapes()) > 100


def test_sample_graph_conforms_with_both_engines(sample_corpus):
    nt = to_ntriples(Build(sample_corpus))
    fast = validate_store(EmbeddedStore.memory(nt))
    ref = validate_pyshacl(ntriples_to_rdflib(nt))
    assert fast.conforms and ref.conforms, (fast.summary(), ref.summary())


def test_fixture_graph_conforms_with_both_engines(fixture_nt):
    assert validate_store(EmbeddedStore.memory(fixture_nt)).conforms
    assert validate_pyshacl(ntriples_to_rdflib(fixture_nt)).conforms


BREAKAGES = {
    "no abstract": f"DELETE WHERE {{ {P1} <https://schema.org/abstract> ?a }}",
    "two labels": f'INSERT DATA {{ {P1} <http://www.w3.org/2000/01/rdf-schema#label> "again" }}',
    "position 0": (f"DELETE {{ ?a <https://w3id.org/paper-kg/ontology#position> 1 }} "
                   f"INSERT {{ ?a <https://w3id.org/paper-kg/ontology#position> 0 }} "
                   f"WHERE {{ {P3} <https://w3id.org/paper-kg/ontology#authorship> ?a . "
                   f"?a <https://w3id.org/paper-kg/ontology#position> 1 }}"),
    "author is a string": f'INSERT DATA {{ {P1} <https://schema.org/author> "Ada" }}',
    "truncated not boolean": (f"DELETE WHERE {{ {P3} <https://w3id.org/paper-kg/ontology#"
                              f"authorListTruncated> ?t }} ; INSERT DATA {{ {P3} "
                              f"<https://w3id.org/paper-kg/ontology#authorListTruncated> \"yes\" }}"),
    "end before start": ("DELETE { ?s <http://www.w3.org/ns/oa#end> ?e } INSERT { ?s "
                         "<http://www.w3.org/ns/oa#end> 0 } WHERE { ?s <http://www.w3.org/ns/oa#end> ?e "
                         "FILTER (?e = 16) }"),
    "mention of a non-concept": (f"INSERT DATA {{ {P1} <https://schema.org/mentions> "
                                 f"<{R}person/ada_lovelace> }}"),
    "shared authorship": (f"INSERT DATA {{ {P3} <https://w3id.org/paper-kg/ontology#authorship> "
                          f"<{R}paper/{rdf_fixture.P1}/author/1> }}"),
    "first authorship is a person": (f"INSERT DATA {{ {P1} <https://w3id.org/paper-kg/ontology#"
                                     f"firstAuthorship> <{R}person/ada_lovelace> }}"),
    "three selectors": (f"INSERT DATA {{ <{R}paper/{rdf_fixture.P1}/mention/1#target> "
                        f"<http://www.w3.org/ns/oa#hasSelector> <{R}paper/{rdf_fixture.P1}/mention/2#quote> }}"),
    "authors shown not a number": (f"DELETE WHERE {{ {P3} <https://w3id.org/paper-kg/ontology#"
                                   f"authorsShown> ?n }} ; INSERT DATA {{ {P3} "
                                   f"<https://w3id.org/paper-kg/ontology#authorsShown> \"2\" }}"),
    "entity without type concept": (f"DELETE DATA {{ <{R}entity/glue> "
                                    f"<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
                                    f"<http://www.w3.org/2004/02/skos/core#Concept> }}"),
}


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_broken_graphs_fail_the_same_way_in_both_engines(fixture_nt, name):
    store = EmbeddedStore.memory(fixture_nt)
    store.oxigraph.update(BREAKAGES[name])
    fast = validate_store(store)
    ref = validate_pyshacl(ntriples_to_rdflib(store.dump_ntriples()))
    assert not fast.conforms and not ref.conforms
    assert _key(fast) == _key(ref)
    with pytest.raises(ValidationError) as exc:
        check(fast)
    assert "\n" not in str(exc.value) and "violat" in str(exc.value)


BROKEN_SHAPE = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix schema: <https://schema.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<urn:x:TitleShape> a sh:NodeShape ;
    sh:targetClass schema:ScholarlyArticle ;
    sh:property [ sh:path schema:name ; sh:minCount 1 ; sh:datatype xsd:string ] .
"""


def test_unsupported_shacl_is_refused():
    shapes = load_shapes(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:x:S> a sh:NodeShape ; sh:targetClass <urn:x:C> ; sh:closed true .\n")
    with pytest.raises(ValidationError):
        compile_shapes(shapes)
