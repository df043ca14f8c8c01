"""kg.build.read: a build read back from its folder is the build that was written.

``kg viz --from``, ``kg coauthors`` and notebooks read ``output/`` with
:func:`kg.build.read.load_build`; ``graph.ttl`` is written from the build in
memory. They must agree: on every paper, mention, entity key and family.
"""
from __future__ import annotations

import pytest
import rdflib
from rdflib import URIRef

from kg.rdf.vocab import KGO, SCHEMA, Minter

M = Minter()


@pytest.fixture(scope="module")
def written(sample_build_dir, sample_corpus):
    """The sample built into a folder (as ``kg build``) and the same build in memory."""
    from kg.extract import extract_corpus
    from kg.models import Build

    out = sample_build_dir
    memory = Build(sample_corpus, {ex.paper_id: ex
                                   for ex in extract_corpus(sample_corpus).extractions})
    return out, memory


@pytest.fixture(scope="module")
def back(written):
    from kg.build.read import load_build

    return load_build(written[0])


@pytest.fixture(scope="module")
def graph_ttl(written) -> rdflib.Graph:
    return rdflib.Graph().parse(written[0] / "graph.ttl", format="turtle")


@pytest.fixture(scope="module")
def derived(back) -> rdflib.Graph:
    """The graph of the build read back, made as the build makes graph.ttl."""
    from kg.extract.links import with_links
    from kg.rdf import to_graph

    return to_graph(with_links(back))   # (the links are extraction's: resolved again)


def _families(g: rdflib.Graph) -> set[tuple[str, str]]:
    return {(str(s), str(o)) for s, o in g.subject_objects(KGO.family)}


def _entities(g: rdflib.Graph) -> set[str]:
    return {str(s) for s in g.subjects(rdflib.RDF.type, rdflib.SKOS.Concept)
            if str(s).startswith(M.entity(""))}


def test_papers_and_extractions_come_back_unchanged(written, back):
    _, memory = written
    assert back.corpus.papers == memory.corpus.papers
    assert back.extractions == memory.extractions


def test_the_papers_own_did_keeps_its_key(written, back):
    # "We call this framework deep incentive design (DID)": the paper's own DID,
    # not the gazetteer's Difference-in-Differences (whose alias DiD folds to "did")
    from kg.extract.gazetteer import load

    assert load().lookup("did").entity.canonical == "Difference-in-Differences"
    for build in (written[1], back):
        did = [m for ex in build.extractions.values() for m in ex.mentions
               if m.canonical == "DID"]
        assert {m.text for m in did} == {"DID", "deep incentive design"}
        assert {m.key for m in did} == {"deepincentivedesign"}


def test_the_28_family_links_survive(written, back):
    def links(build):
        return sorted((ex.paper_id, m.start, m.key, m.family)
                      for ex in build.extractions.values() for m in ex.mentions if m.family)

    assert len(links(written[1])) == 28
    assert links(back) == links(written[1])


def test_graph_ttl_and_the_build_read_back_agree_on_entities_and_families(graph_ttl, derived):
    assert _entities(derived) == _entities(graph_ttl)
    assert M.entity("deepincentivedesign") in _entities(graph_ttl)
    assert _families(derived) == _families(graph_ttl)
    assert len(_families(graph_ttl)) == 15   # entity -> family root, of the 28 mentions'
    # the whole graph, not only entities and families
    assert set(derived) == set(graph_ttl)   # no blank nodes: equal triples, equal graphs


def test_graph_ttl_is_byte_identical_from_the_build_read_back(written, back):
    from kg.extract.links import with_links
    from kg.rdf import to_ntriples, to_turtle

    ttl = to_turtle(to_ntriples(with_links(back)))
    assert ttl == (written[0] / "graph.ttl").read_bytes()


def test_kg_viz_from_output_sees_the_entities_of_graph_ttl(written, back, graph_ttl, tmp_path):
    from kg.cli import main
    from kg.viz import find_entity
    from kg.viz.lookup import BuildIndex

    # the entities the views draw are those the papers of graph.ttl mention; what
    # else the papers mention is concepts (kgo:Concept), which the views leave out
    viz = {M.entity(k) for k in BuildIndex(back).entity_info}
    mentioned = {str(o) for o in graph_ttl.objects(None, SCHEMA.mentions)}
    assert viz <= mentioned and len(viz) > 50
    assert all((URIRef(o), rdflib.RDF.type, KGO.Concept) in graph_ttl for o in mentioned - viz)
    # `kg viz entity DID --from output` is the paper's own DID, by either name
    assert find_entity(back, "DID") == find_entity(back, "deep incentive design") == \
        "deepincentivedesign"
    assert URIRef(M.entity("did")) not in set(graph_ttl.subjects())
    # and `kg viz --from output` draws the build's own entities page
    page = tmp_path / "entities.html"
    assert main(["viz", "entities", "--from", str(written[0]), "-o", str(page)]) == 0
    assert page.read_bytes() == (written[0] / "entities.html").read_bytes()


# ------------------------------------------------------------ summary.json


def test_summary_reads_back_and_a_first_version_still_gives_its_papers(sample_build_dir, tmp_path):
    import json

    from kg.build.folder import previous_papers
    from kg.build.read import read_paper_count, read_summary
    from kg.errors import KgError
    from kg.report.data import BuildSummary

    summary = read_summary(sample_build_dir)
    text = (sample_build_dir / "summary.json").read_text(encoding="utf-8")
    assert json.loads(text) == summary.to_json() and BuildSummary.from_json(json.loads(text)) == summary
    assert summary.papers == read_paper_count(sample_build_dir) == previous_papers(sample_build_dir)
    # summary.json as kg wrote it before its counts were renamed (no version, 'authors')
    (tmp_path / "summary.json").write_text(json.dumps(
        {"files": ["a.txt"], "entries": 5, "papers": 4, "merged": 1, "skipped": 0, "warnings": 0,
         "authors": 9, "authorships": 10, "truncated_author_lists": 0, "papers_with_track": 0,
         "tracks": [], "extraction": {"mentions": 3, "entities": 2}}), encoding="utf-8")
    assert read_paper_count(tmp_path) == 4
    with pytest.raises(KgError, match="not a kg summary .*version 1"):
        read_summary(tmp_path)
