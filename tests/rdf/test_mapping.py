"""kg.rdf: the mapping of a Build to RDF, its serialisations and determinism."""
from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, VOID, XSD

from kg.models import Build, Corpus, Extraction, Mention, Paper
from kg.rdf import to_graph, to_jsonld, to_ntriples, to_turtle
from kg.rdf.vocab import KGO, OA, SCHEMA, Minter
from tests import rdf_fixture

M = Minter()


@pytest.fixture(scope="module")
def fixture_graph() -> rdflib.Graph:
    return to_graph(rdf_fixture.make(), entities=rdf_fixture.entities(),
                    concepts=rdf_fixture.concept_vocab())


@pytest.fixture(scope="module")
def sample_graph(sample_corpus) -> rdflib.Graph:
    return to_graph(Build(sample_corpus))  # no extractions yet: must still work


def test_sample_without_extractions(sample_corpus, sample_graph):
    papers = set(sample_graph.subjects(RDF.type, SCHEMA.ScholarlyArticle))
    assert len(papers) == len(sample_corpus.papers) == 39
    for p in sample_corpus.papers:
        s = URIRef(M.paper(p.id))
        # the clean abstract falls back to the abstract as written
        assert sample_graph.value(s, SCHEMA.abstract) == Literal(p.abstract)
        assert sample_graph.value(s, KGO.rawAbstract) == Literal(p.abstract)
        assert sample_graph.value(s, KGO.authorListTruncated).toPython() is p.authors_truncated
        assert str(sample_graph.value(s, RDFS.label))
    assert not set(sample_graph.subjects(RDF.type, OA.Annotation))


def test_authorships_are_ordered_and_one_based(sample_corpus, sample_graph):
    for p in sample_corpus.papers:
        s = URIRef(M.paper(p.id))
        rows = sorted((sample_graph.value(a, KGO.position).toPython(),
                       str(sample_graph.value(a, KGO.nameAsWritten)),
                       sample_graph.value(a, KGO.author))
                      for a in sample_graph.objects(s, KGO.authorship))
        assert [r[0] for r in rows] == list(range(1, len(p.authors) + 1))
        assert [r[1] for r in rows] == list(p.authors)
        assert {r[2] for r in rows} == set(sample_graph.objects(s, SCHEMA.author))
        assert all(sample_graph.value(a, KGO.position).datatype == XSD.integer
                   for a in sample_graph.objects(s, KGO.authorship))
        # the precomputed facts the query library reads: names shown, first authorship
        assert sample_graph.value(s, KGO.authorsShown) == Literal(len(p.authors))
        first = sample_graph.value(s, KGO.firstAuthorship)
        assert first in set(sample_graph.objects(s, KGO.authorship))
        assert sample_graph.value(first, KGO.position).toPython() == 1
        assert str(sample_graph.value(first, KGO.nameAsWritten)) == p.authors[0]


def test_a_paper_without_authors_has_no_first_authorship():
    p = Paper(id="cd" * 8, authors=(), abstract="Nobody wrote this.")
    g = to_graph(Build(Corpus(papers=(p,))))
    s = URIRef(M.paper(p.id))
    assert g.value(s, KGO.authorsShown) == Literal(0)
    assert g.value(s, KGO.firstAuthorship) is None


def test_tracks_are_skos_with_broader(sample_graph):
    sub = URIRef(M.track("Deep Learning", "Large Language Models"))
    area = URIRef(M.track("Deep Learning"))
    assert (sub, RDF.type, SKOS.Concept) in sample_graph
    assert (sub, RDF.type, KGO.Track) in sample_graph
    assert sample_graph.value(sub, SKOS.broader) == area
    assert sample_graph.value(sub, SKOS.prefLabel) == Literal("Large Language Models")
    assert sample_graph.value(sub, SKOS.notation) == Literal("Deep Learning · Large Language Models")
    assert sample_graph.value(area, SKOS.topConceptOf) == sample_graph.value(sub, SKOS.inScheme)
    assert sample_graph.value(area, SKOS.broader) is None


def test_provenance_keeps_file_and_line(fixture_graph):
    p2 = URIRef(M.paper(rdf_fixture.P2))
    files = set(fixture_graph.objects(p2, PROV.wasDerivedFrom))
    assert files == {URIRef(M.source("a.txt")), URIRef(M.source("b.txt"))}
    lines = sorted((str(fixture_graph.value(d, PROV.entity)), fixture_graph.value(d, KGO.line).toPython())
                   for d in fixture_graph.objects(p2, PROV.qualifiedDerivation))
    assert lines == [(M.source("a.txt"), 9), (M.source("b.txt"), 3)]


def test_entities_aliases_and_families(fixture_graph):
    g = fixture_graph
    lora = URIRef(M.entity_named("LoRA"))
    assert (lora, RDF.type, KGO.Method) in g and (lora, RDF.type, SKOS.Concept) in g
    assert g.value(lora, SKOS.prefLabel) == Literal("LoRA")
    assert Literal("Low-Rank Adaptation") in set(g.objects(lora, SKOS.altLabel))
    assert Literal("lowrankadaptation") in set(g.objects(lora, SKOS.hiddenLabel))
    assert g.value(lora, KGO.kind) == Literal("parameter-efficient fine-tuning")
    llama3 = URIRef(M.entity_named("LLaMA-3"))
    assert Literal("Llama 3") in set(g.objects(llama3, SKOS.altLabel))
    llama = URIRef(M.entity_named("LLaMA"))
    assert g.value(llama3, KGO.family) == llama
    assert g.value(llama, SKOS.prefLabel) == Literal("LLaMA")  # a family root never mentioned
    sparse = URIRef(M.entity_named("SparseLoRA"))
    assert g.value(sparse, KGO.family) == lora
    acr = URIRef(M.acronym("LoRA", "Low-Rank Adaptation"))
    assert g.value(acr, KGO.denotes) == lora
    assert g.value(acr, KGO.definedIn) == URIRef(M.paper(rdf_fixture.P1))


def test_mentions_proposals_and_annotations(fixture_graph):
    g = fixture_graph
    b = rdf_fixture.make()
    for pid, ex in b.extractions.items():
        p = URIRef(M.paper(pid))
        assert g.value(p, SCHEMA.abstract) == Literal(ex.abstract)
        mentioned = {str(o) for o in g.objects(p, SCHEMA.mentions)}
        assert mentioned == {M.entity_named(m.canonical) for m in ex.mentions}
        proposed = {str(o) for o in g.objects(p, KGO.proposes)}
        assert proposed == {M.entity_named(c) for c in ex.proposed}
        found = []
        for target in g.subjects(OA.hasSource, p):
            ann = g.value(None, OA.hasTarget, target)
            assert (ann, RDF.type, OA.Annotation) in g
            sels = {g.value(s, RDF.type): s for s in g.objects(target, OA.hasSelector)}
            start = g.value(sels[OA.TextPositionSelector], OA.start).toPython()
            end = g.value(sels[OA.TextPositionSelector], OA.end).toPython()
            exact = str(g.value(sels[OA.TextQuoteSelector], OA.exact))
            assert ex.abstract[start:end] == exact
            found.append((start, end, str(g.value(ann, OA.hasBody))))
        assert sorted(found) == sorted((m.start, m.end, M.entity_named(m.canonical))
                                       for m in ex.mentions)


def test_void_counts_every_triple(fixture_graph):
    ds = next(fixture_graph.subjects(RDF.type, VOID.Dataset))
    assert fixture_graph.value(ds, VOID.triples).toPython() == len(fixture_graph)
    assert fixture_graph.value(ds, PROV.wasGeneratedBy) is not None
    assert set(fixture_graph.objects(ds, DCTERMS.source)) == {
        URIRef(M.source("a.txt")), URIRef(M.source("b.txt"))}


def test_untrusted_text_stays_text():
    evil = 'a "quoted" \\ back\nslash > } ; DROP ALL ; # \x00\x7f \u2028 end'
    p = Paper(id="00000000000000ff", authors=(evil, "B <b>"), abstract=evil, title=evil)
    ex = Extraction(p.id, evil, (Mention('"quoted"', 'X"> <y', "model", 2, 10),))
    g = to_graph(Build(Corpus(papers=(p,)), {p.id: ex}))
    s = URIRef(M.paper(p.id))
    assert g.value(s, SCHEMA.abstract) == Literal(evil)
    assert g.value(s, SCHEMA.name) == Literal(evil)
    assert Literal('X"> <y') in set(g.objects(None, SKOS.prefLabel))
    # and every serialisation parses back to the same graph
    nt = to_ntriples(Build(Corpus(papers=(p,)), {p.id: ex}))
    for data, fmt in ((nt, "nt"), (to_turtle(nt), "turtle"), (to_jsonld(nt), "json-ld")):
        assert rdflib.Graph().parse(data=data, format=fmt).isomorphic(g)


def test_base_is_settable(sample_corpus):
    nt = to_ntriples(Build(sample_corpus), "http://example.org/kg/").decode()
    assert "<http://example.org/kg/paper/" in nt
    assert "w3id.org/paper-kg/resource" not in nt


def test_statistics_match_the_corpus(fixture_graph):
    g = fixture_graph
    ada = URIRef(M.person("Ada Lovelace"))
    assert g.value(ada, KGO.paperCount).toPython() == 3  # P1, P4, P5
    assert g.value(ada, KGO.trackCount).toPython() == 2  # LLM, Robustness (P4 has none)
    assert g.value(ada, KGO.nameKey) == Literal("ada lovelace")
    dl = URIRef(M.track("Deep Learning"))
    assert (g.value(dl, KGO.paperCount).toPython(), g.value(dl, KGO.authorCount).toPython()) == (3, 3)
    llm = URIRef(M.track("Deep Learning", "Large Language Models"))
    assert g.value(llm, KGO.paperCount).toPython() == 2
    sgd = URIRef(M.entity_named("SGD"))
    assert (g.value(sgd, KGO.paperCount).toPython(), g.value(sgd, KGO.mentionCount).toPython()) == (1, 3)
    # repeated collaborations only: Ada+Alan (P1, P5) and Alan+Grace (P1, P2)
    collabs = {frozenset(str(m) for m in g.objects(c, KGO.member)): g.value(c, KGO.jointPapers).toPython()
               for c in g.subjects(RDF.type, KGO.Collaboration)}
    assert collabs == {
        frozenset({M.person("Ada Lovelace"), M.person("Alan Turing")}): 2,
        frozenset({M.person("Alan Turing"), M.person("Grace Hopper")}): 2,
    }
    assert M.collaboration("Alan Turing", "Ada Lovelace") == M.collaboration("ada lovelace", "Alan Turing")


def test_teams_over_the_limit_keep_their_authors_but_make_no_collaborations():
    from kg.util.teams import MAX_LINKED_TEAM

    team = tuple(f"Given{i} Family{i}" for i in range(MAX_LINKED_TEAM + 1))
    small = ("Ada Lovelace", "Alan Turing")
    papers = (Paper("00000000000000a1", team, "We measure one thing."),
              Paper("00000000000000a2", team, "We measure another thing."),
              Paper("00000000000000a3", small, "We compute."),
              Paper("00000000000000a4", small, "We compute again."))
    triples = list(ox.parse(to_ntriples(Build(Corpus(papers))), ox.RdfFormat.N_TRIPLES))
    author = ox.NamedNode(str(SCHEMA.author))
    joint = ox.NamedNode(str(KGO.jointPapers))
    count = ox.NamedNode(str(KGO.paperCount))
    assert sum(t.predicate == author for t in triples) == 2 * len(team) + 4
    # the two huge papers repeat 20,100 pairs: none becomes a collaboration;
    # the small team's repeated pair does
    assert [t.object.value for t in triples if t.predicate == joint] == ["2"]
    g0 = ox.NamedNode(M.person("Given0 Family0"))
    assert [t.object.value for t in triples if t.subject == g0 and t.predicate == count] == ["2"]
