"""Concepts in the RDF graph: classes, hierarchy, labels, links from entities, annotations.

On the concept fixture (tests/rdf_fixture.py: ``make_concepts``, read with the
fixture's copy of the seed vocabulary).
"""
from __future__ import annotations

import pytest
import rdflib
from rdflib import Literal, URIRef

from kg.extract.concept_vocab import load
from kg.models import Build, Corpus, Extraction, Mention, Paper
from kg.rdf import ntriples_to_rdflib, to_ntriples
from kg.rdf.vocab import CONCEPT_CLASSES, DCTERMS, KGO, OA, RDF, SCHEMA, SKOS, Minter
from tests import rdf_fixture

M = Minter()


def C(cid: str, entity: str | None = None) -> URIRef:
    return URIRef(M.concept(cid, entity))


@pytest.fixture(scope="module")
def g() -> rdflib.Graph:
    return ntriples_to_rdflib(rdf_fixture.concept_ntriples())


def _concepts(g):
    return set(g.subjects(RDF.type, KGO.Concept))


def test_concepts_are_typed_skos_concepts_in_their_scheme(g):
    scheme = URIRef(M.scheme("concepts"))
    vocab = rdf_fixture.concept_vocab()
    for c in _concepts(g):
        cid = str(g.value(c, DCTERMS.identifier))
        concept = vocab.concepts[cid]
        assert (c, RDF.type, SKOS.Concept) in g
        assert (c, RDF.type, CONCEPT_CLASSES[concept.type]) in g
        assert set(g.objects(c, SKOS.inScheme)) == {scheme}
        assert g.value(c, SKOS.prefLabel) == Literal(concept.label)
        assert g.value(c, DCTERMS.source) == Literal(concept.source)
        assert {str(b) for b in g.objects(c, SKOS.broader)} == {
            str(C(b, vocab.concepts[b].entity)) for b in concept.broader}
        assert ((c, SKOS.topConceptOf, scheme) in g) == (not concept.broader)
    assert (scheme, RDF.type, SKOS.ConceptScheme) in g


def test_the_mentioned_concepts_and_their_ancestors_only(g):
    ids = {str(g.value(c, DCTERMS.identifier)) for c in _concepts(g)}
    # mentioned: 11 of the 12; parameter-efficient fine-tuning through LoRA; generative
    # model only as an ancestor (of language model, diffusion model)
    assert ids == set(rdf_fixture.concept_vocab().concepts)
    gen = C("generative-model")
    assert g.value(gen, KGO.paperCount).toPython() == 0
    # a build that mentions one concept gets it and its ancestors, not the vocabulary
    p = Paper("ab" * 8, ("A",), "We use post-training quantization.")
    m = Mention("post-training quantization", "post-training quantization", "method", 7, 33,
                key="post-training-quantization", layer="concept")
    small = ntriples_to_rdflib(to_ntriples(Build(Corpus((p,)), {p.id: Extraction(
        p.id, p.abstract, (m,))}), concepts=rdf_fixture.concept_vocab()))
    assert set(small.subjects(RDF.type, KGO.Concept)) == {
        C("post-training-quantization"), C("quantization")}


def test_a_concept_that_is_a_gazetteer_entry_keeps_the_entity_iri(g):
    dm = C("diffusion-model", "Diffusion Model")
    assert dm == URIRef(M.entity_named("Diffusion Model"))
    assert (dm, RDF.type, KGO.ModelClass) in g and (dm, RDF.type, KGO.Model) not in g
    # the entry's name differs from the label only in case: no label of its own
    assert g.value(dm, SKOS.prefLabel) == Literal("diffusion model")
    assert Literal("Diffusion Model") not in set(g.objects(dm, SKOS.altLabel))
    # the entity mention "LLMs" is the concept large language model: one node, one count
    llm = URIRef(M.entity("llm"))
    assert g.value(llm, DCTERMS.identifier) == Literal("large-language-model")
    assert g.value(llm, KGO.paperCount).toPython() == 2  # P1 (concept), P5 (entity LLM)
    assert len(set(g.objects(llm, SKOS.prefLabel))) == 1
    assert (URIRef(M.paper(rdf_fixture.P5)), SCHEMA.mentions, llm) in g


def test_entities_fall_under_concepts(g):
    def under(name):
        return set(g.objects(URIRef(M.entity_named(name)), KGO.instanceOf))

    llm, peft = URIRef(M.entity("llm")), C("parameter-efficient-fine-tuning")
    assert under("LLaMA") == {llm}  # its own link
    assert under("LLaMA-2") == under("LLaMA-3") == {llm}  # through the family root
    assert under("LoRA") == under("SparseLoRA") == {peft}
    assert under("QuantX") == {C("quantization")}  # by its kind
    assert under("GLUE") == set()


def test_concept_mentions_are_annotations(g):
    ex = rdf_fixture.make_concepts().extractions[rdf_fixture.P1]
    paper = URIRef(M.paper(rdf_fixture.P1))
    ptq = C("post-training-quantization")
    assert (paper, SCHEMA.mentions, ptq) in g
    anns = [a for a in g.subjects(OA.hasBody, ptq)
            if (g.value(a, OA.hasTarget), OA.hasSource, paper) in g]
    assert len(anns) == 2  # "post-training quantization" and "PTQ"
    quotes = set()
    for a in anns:
        t = g.value(a, OA.hasTarget)
        for sel in g.objects(t, OA.hasSelector):
            if g.value(sel, OA.exact) is not None:
                quotes.add(str(g.value(sel, OA.exact)))
    assert quotes == {"post-training quantization", "PTQ"}
    assert len([m for m in ex.mentions if m.key == "post-training-quantization"]) == 2
    assert g.value(ptq, KGO.mentionCount).toPython() == 3  # twice in P1, once in P5


def test_concept_labels_are_searchable(g):
    ptq = C("post-training-quantization")
    hidden = {str(x) for x in g.objects(ptq, SKOS.hiddenLabel)}
    assert {"posttrainingquantization", "ptq"} <= hidden
    assert Literal("PTQ") in set(g.objects(ptq, SKOS.altLabel))


def test_the_output_is_deterministic():
    a = rdf_fixture.concept_ntriples()
    load.cache_clear()
    assert rdf_fixture.concept_ntriples() == a


def test_an_entity_falls_under_its_family_before_its_kind_and_else_what_its_name_says():
    from kg.identity import entity_key
    from kg.models import Entity
    from kg.rdf.aggregate import Aggregate

    text = "We propose Proxy Contrastive Learning (PCL), run ViT-B/16 and BrandNewNet. PCL is."
    names = {"Proxy Contrastive Learning": "method", "ViT-B/16": "model", "BrandNewNet": "model"}
    mentions = tuple(Mention(n, n, t, text.index(n), text.index(n) + len(n), key=entity_key(n),
                             proposed=n.startswith("Proxy")) for n, t in names.items())
    # the acronym, written more often, is the entity's canonical name: its long form still says
    pcl = entity_key("Proxy Contrastive Learning")
    mentions += tuple(Mention("PCL", "PCL", "method", at, at + 3, key=pcl, proposed=True)
                      for at in (text.index("PCL"), text.rindex("PCL")))
    paper = Paper(id="ab" * 8, authors=("Ada Lovelace",), abstract=text)
    build = Build(corpus=Corpus(papers=(paper,), entries=1),
                  extractions={paper.id: Extraction(paper.id, text, mentions, ())})
    known = {entity_key("ViT-B/16"): Entity("ViT-B/16", "model", entity_key("ViT-B/16"),
                                            family="ViT", kind="vision model"),
             entity_key("ViT"): Entity("ViT", "model", entity_key("ViT"), kind="vision model")}
    from kg.extract.links import with_links

    agg = Aggregate(with_links(build, known, load()), Minter(), known, load())
    assert agg.entity_concepts[entity_key("ViT-B/16")] == ("vision-transformer",)
    assert agg.entity_concepts[entity_key("Proxy Contrastive Learning")] == (
        "contrastive-learning",)
    assert entity_key("BrandNewNet") not in agg.entity_concepts


def test_a_text_that_names_another_concept_is_no_label_of_this_one():
    from kg.rdf.aggregate import Aggregate

    text = "We use vector quantization; the quantization is coarse."
    at = text.index("the quantization") + 4
    mentions = (Mention("vector quantization", "vector quantization", "method", 7, 26,
                        key="vector-quantization", layer="concept"),
                Mention("quantization", "vector quantization", "method", at, at + 12,
                        key="vector-quantization", layer="concept"))
    paper = Paper(id="cd" * 8, authors=("Ada Lovelace",), abstract=text)
    build = Build(corpus=Corpus(papers=(paper,), entries=1),
                  extractions={paper.id: Extraction(paper.id, text, mentions, ())})
    from kg.extract.links import with_links

    agg = Aggregate(with_links(build, {}, load()), Minter(), {}, load())
    assert agg.concepts["vector-quantization"].variants == {"vector quantization"}
    # (extraction resolved that the text names another concept: without its links the
    # mapping takes every text as a label)
    agg = Aggregate(build, Minter(), {}, load())
    assert agg.concepts["vector-quantization"].variants == {"vector quantization", "quantization"}
