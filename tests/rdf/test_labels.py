"""kg.rdf.labels: a paper's readable label."""
from __future__ import annotations

from kg.models import Paper
from kg.rdf import paper_label
from tests import rdf_fixture


def test_labels():
    b = rdf_fixture.make()
    ex = b.extractions
    by_id = {p.id: p for p in b.corpus.papers}
    assert paper_label(by_id[rdf_fixture.P1], ex[rdf_fixture.P1]) == "SparseLoRA — Lovelace et al."
    assert paper_label(by_id[rdf_fixture.P4], ex[rdf_fixture.P4]) == "TinyNet — Lovelace"
    assert paper_label(by_id[rdf_fixture.P5], ex[rdf_fixture.P5]) == "Robust Training of Language Models"
    assert paper_label(by_id[rdf_fixture.P3], ex[rdf_fixture.P3]) == "Hopper et al. — A study of GPT-4 on ImageNet."
    long = Paper(id="x", authors=(), abstract="word " * 40)
    assert paper_label(long).endswith("…") and len(paper_label(long)) <= 61
