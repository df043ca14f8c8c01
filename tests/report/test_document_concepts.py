"""The report's concepts: top concepts overall and per track, beside the top entities."""
from __future__ import annotations

import json

import pytest

from kg import queries
from kg.analysis import analyse, content_tables, extraction_summary
from kg.report.data import ContentTables, Report
from kg.report.document import report_document, to_json, to_markdown
from kg.report.html import markdown_html
from kg.store import EmbeddedStore
from tests import rdf_fixture


@pytest.fixture(scope="module")
def build():
    return rdf_fixture.make_concepts()


@pytest.fixture(scope="module")
def content(build):
    return content_tables(build, concepts=rdf_fixture.concept_vocab())


def test_top_concepts_are_those_of_the_graph(content):
    # the report counts what the graph's top-concepts query counts
    store = EmbeddedStore.memory(rdf_fixture.concept_ntriples())
    rows = queries.run(store, "top-concepts").values()
    assert [list(r[2:]) for r in rows] == [[n, t, str(k)] for n, t, k in content["top_concepts"]]
    assert content["top_concepts"][:2] == [["large language model", "model_class", 2],
                                           ["post-training quantization", "method", 2]]
    by_track = {t["track"]: dict(t["concepts"]) for t in content["concepts_by_track"]}
    assert by_track["Theory"] == {"computer vision": 1, "image classification": 1}
    # P4 has no track: its three concepts are in no track's list
    assert not any("policy gradient" in c for c in by_track.values())


def test_concepts_are_not_entities_in_the_report(build, content):
    entities = {n for top in content["entities_by_type"].values() for n, _ in top}
    assert "quantization" not in entities and "LLM" not in entities  # LLM is the concept
    assert "QuantX" in entities
    summary = extraction_summary(build)
    assert "quantization" not in {n for n, *_ in summary["top_entities"]}


def test_report_md_html_and_json_show_them(build, content):
    doc = report_document(analyse(build).report, content=content)
    md = to_markdown(doc)
    top = md.index("### Top entities by type")
    assert top < md.index("### Top concepts\n") < md.index("### Top concepts per track")
    assert "| large language model | model class | 2 |" in md
    assert "| Theory | computer vision (1), image classification (1) |" in md
    html = markdown_html(md)
    assert "<h3>Top concepts</h3>" in html and "post-training quantization" in html
    back = Report.from_json(json.loads(to_json(doc)))
    assert back.content == doc.content and back.content.top_concepts[0][0] == \
        "large language model"
    # a report.json written before concepts reads back, without them
    old = {k: v for k, v in doc.content.to_json().items()
           if k not in ("top_concepts", "concepts_by_track")}
    assert ContentTables.from_json(old).top_concepts is None
    assert "### Top concepts" not in to_markdown(report_document(analyse(build).report,
                                                                 content=old))
