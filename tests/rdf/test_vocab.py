"""kg.rdf.vocab: strict namespaces and the one place IRIs are minted."""
from __future__ import annotations

import pyoxigraph
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import KgError
from kg.identity import entity_key
from kg.rdf.vocab import DEFAULT_BASE, KGO, OA, PREFIXES, SCHEMA, Minter, segment


def test_namespaces_are_strict():
    assert str(KGO.authorship) == "https://w3id.org/paper-kg/ontology#authorship"
    assert str(SCHEMA.ScholarlyArticle) == "https://schema.org/ScholarlyArticle"
    assert str(OA.TextPositionSelector) == "http://www.w3.org/ns/oa#TextPositionSelector"
    for ns, bad in ((KGO, "authorhsip"), (SCHEMA, "ScholarlyArticel"), (OA, "hasBodyy")):
        with pytest.raises(AttributeError):
            getattr(ns, bad)


def test_prefixes_are_the_design_ones():
    assert PREFIXES["schema"] == "https://schema.org/"
    assert PREFIXES["oa"] == "http://www.w3.org/ns/oa#"
    assert PREFIXES["kgo"] == "https://w3id.org/paper-kg/ontology#"
    assert {"dcterms", "skos", "prov", "void", "rdfs", "xsd"} <= set(PREFIXES)


def test_minter_default_base():
    m = Minter()
    assert m.base == DEFAULT_BASE == "https://w3id.org/paper-kg/resource/"
    assert m.paper("00aa") == DEFAULT_BASE + "paper/00aa"
    assert m.authorship("00aa", 3) == DEFAULT_BASE + "paper/00aa/author/3"
    assert m.annotation("00aa", 2) == DEFAULT_BASE + "paper/00aa/mention/2"
    assert m.target(m.annotation("00aa", 2)).endswith("/mention/2#target")
    assert m.person("Ada  LOVELACE") == m.person("ada lovelace") == DEFAULT_BASE + "person/ada_lovelace"
    assert m.track("Deep Learning") == DEFAULT_BASE + "track/deep_learning"
    assert m.track("Deep Learning", "Robustness") == DEFAULT_BASE + "track/deep_learning/robustness"
    assert m.entity_named("LLaMA-2") == m.entity_named("Llama 2") == m.entity(entity_key("LLaMA2"))
    assert m.source("/home/x/listings/a b.txt") == DEFAULT_BASE + "source/a_b.txt"
    assert m.dataset() == DEFAULT_BASE + "dataset"


def test_custom_base_and_bad_bases():
    m = Minter("http://example.org/kg/")
    assert m.paper("x") == "http://example.org/kg/paper/x"
    assert Minter("").base == DEFAULT_BASE  # empty means the default
    # a '#' base would mint '...#paper/x/mention/1#target': two fragments, no IRI
    for bad in ("http://example.org/kg", "not an iri/", "relative/", "http://exa mple.org/",
                "http://example.org/kg#", "http://example.org/a#b/", "http://x/a<b>/",
                "http://x/%zz/"):
        with pytest.raises(KgError):
            Minter(bad)


def test_segment_is_injective_on_tricky_keys():
    keys = ["a b", "a_b", "a/b", "a%b", "a>b", "a\"b", "zoë", "", "-", "_", "%5F"]
    segs = [segment(k) for k in keys]
    assert len(set(segs)) == len(segs)
    assert segment("a b") == "a_b" and segment("a_b") == "a%5Fb"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30))
def test_minted_iris_are_valid_and_distinct(a, b):
    m = Minter()
    for iri in (m.person(a), m.track(a, b or None), m.entity(a), m.acronym(a, b), m.source(a)):
        pyoxigraph.NamedNode(iri)  # raises on an invalid IRI
    if segment(a) == segment(b):
        assert a == b
