"""kg.extract.labels: a paper's one label, and which proposals are sure enough to name it."""
from __future__ import annotations

import pytest

from kg.extract.labels import cite_label, content_words, is_sure, paper_label, sure_name
from kg.models import Extraction, Mention, Paper
from tests import rdf_fixture


def _ex(*mentions: tuple[str, str] | tuple[str, str, str], abstract: str = "x") -> Extraction:
    out = []
    for m in mentions:
        text, canonical = m[0], m[1]
        layer = m[2] if len(m) > 2 else "entity"
        out.append(Mention(text, canonical, "method", 0, len(text), True, layer=layer))
    return Extraction("p", abstract, tuple(out))


def test_labels_of_the_fixture():
    b = rdf_fixture.make()
    ex = b.extractions
    by_id = {p.id: p for p in b.corpus.papers}
    assert paper_label(by_id[rdf_fixture.P1], ex[rdf_fixture.P1]) == "SparseLoRA — Lovelace et al."
    assert paper_label(by_id[rdf_fixture.P4], ex[rdf_fixture.P4]) == "TinyNet — Lovelace"
    assert paper_label(by_id[rdf_fixture.P5], ex[rdf_fixture.P5]) == "Robust Training of Language Models"
    # the list was cut by the site: "et al." though two names are shown
    assert paper_label(by_id[rdf_fixture.P3], ex[rdf_fixture.P3]) == "Hopper et al. — GPT-4 ImageNet"


def test_a_paper_with_nothing_is_named_by_its_id_and_a_long_abstract_by_five_words():
    assert paper_label(Paper(id="x", authors=(), abstract="")) == "x"
    assert paper_label(Paper(id="x", authors=(), abstract="word " * 40)) == "word word word word word"


@pytest.mark.parametrize("mentions, name", [
    ((("ToMoE", "ToMoE"),), "ToMoE"),
    # (a) a known name inside the paper's coined one: the coined one names it
    ((("LoRa", "LoRA"), ("AutoLoRa", "AutoLoRa")), "AutoLoRa"),
    # (a) a concept (ALAM read as "large language model") names no paper
    ((("ALAM", "large language model", "concept"),), None),
    # (a) a known name read from other words ("low-rank" as LoRA) names no paper
    ((("low-rank", "LoRA"),), None),
    # a known name the paper writes as itself may (GaLore is in the gazetteer)
    ((("GaLore", "GaLore"),), "GaLore"),
    # (b) a naming cue glued to the name
    ((("calledNeuroBack", "calledNeuroBack"),), None),
    # (c) hyphenated adjectives and a name's fragment
    ((("Graph-Neural-Network-based", "Graph-Neural-Network-based"),), None),
    ((("Semantic-Aware", "Semantic-Aware"),), None),
    ((("quasi-Monte", "quasi-Monte"),), None),
    ((("Fast-Sampling", "Fast-Sampling"),), None),
    # (d) generic and short acronyms, and fields
    ((("NN", "NN"),), None),
    ((("GNN", "GNN"),), None),
    ((("GR", "GR"),), None),
    ((("AI", "AI"),), None),
    # a field or abbreviation may be the paper's own acronym, after any coined name
    ((("PDF", "PDF"),), "PDF"),
    ((("PDF", "PDF"), ("SCOTCH", "SCOTCH")), "SCOTCH"),
    # phrases: lower-case ones say what the paper does, title-case ones may name it
    ((("and evaluate pipelines", "and evaluate pipelines"),), None),
    ((("Algorithm of Thoughts", "Algorithm of Thoughts"),), "Algorithm of Thoughts"),
    ((("t-PatchGNN", "t-PatchGNN"),), "t-PatchGNN"),
])
def test_sure_names(mentions, name):
    assert sure_name(_ex(*mentions)) == name


def test_only_proposed_entities_are_sure():
    assert not is_sure(Mention("ToMoE", "ToMoE", "method", 0, 5, False))
    assert not is_sure(Mention("ALAM", "ALAM", "method", 0, 4, True, layer="concept"))
    # a benchmark or metric the paper coins (typed "other" or "metric") names it too
    assert is_sure(Mention("TRACE", "TRACE", "other", 0, 5, True))
    assert is_sure(Mention("ToMoE", "ToMoE", "dataset", 0, 5, True))


def test_cite_label_and_content_words():
    assert cite_label(("Ann Lee", "Bob Xu"), truncated=True) == "Lee et al."
    assert content_words("This work presents the first study of robust training.") == \
        ["robust", "training"]
