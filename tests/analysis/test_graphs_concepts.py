"""Concept mentions in the NetworkX graph and the views: concept nodes, nothing broken."""
from __future__ import annotations

from kg.analysis.graphs import knowledge_graph
from kg.viz import entities_view, entity_view, kg_view, track_view
from kg.viz.lookup import BuildIndex
from tests import rdf_fixture


def test_concept_nodes_in_the_knowledge_graph():
    K = knowledge_graph(rdf_fixture.make_concepts())
    concepts = {v: d for v, d in K.nodes(data=True) if d["kind"] == "concept"}
    assert concepts["concept:post-training-quantization"]["type"] == "method"
    assert concepts["concept:large-language-model"]["label"] == "large language model"
    # P1 names post-training quantization twice: one edge with its count
    edges = K.get_edge_data("paper:" + rdf_fixture.P1, "concept:post-training-quantization")
    assert [d["count"] for d in edges.values()] == [2]
    assert not any(v.startswith("entity:") and "-" in v for v in K)  # no concept as an entity


def test_views_draw_concepts_and_keep_entities_apart():
    b = rdf_fixture.make_concepts()
    ix = BuildIndex(b)
    assert "quantization" not in ix.entity_info and "llama2" in ix.entity_info
    net = kg_view(b)
    groups = {n["group"] for n in net.nodes}
    assert "concept" in groups
    ptq = next(n for n in net.nodes if n["name"] == "post-training quantization")
    assert ptq["group"] == "concept" and "mentioned in 2 papers" in ptq["title"]
    assert track_view(b, "Theory").nodes
    assert {n["group"] for n in entity_view(b, "LLaMA-2").nodes} <= {
        "paper", "model", "method", "dataset", "task", "metric", "other"}
    assert all(n["group"] != "concept" for n in entities_view(b).nodes)
