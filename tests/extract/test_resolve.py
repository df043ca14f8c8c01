"""kg.extract.resolve: the type a long form's head gives.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("long,typ", [
    ("Wasserstein gradient flow", "method"), ("quantization-conditioned backdoors", "method"),
    ("Differentiable Causal Discovery", "method"), ("Composite Parts Integration", "method"),
    ("Reasoning via Planning", "method"), ("DP image captioner", "model"),
    ("Image Quality Assessment", "task"), ("radiotherapy planning", "task"),
    ("Partial Differential Equations", "task"), ("neural ordinary differential equations", "model"),
    ("feature importance disparity", "metric"), ("dissolved oxygen", None),
])
def test_head_type_of_long_forms(long, typ):
    from kg.extract.resolve import head_type

    assert head_type(long) == typ


def _proposed(text: str) -> list[tuple[str, str]]:
    from kg.extract import extract_texts

    ex = extract_texts([text])[0]
    return sorted({(m.text, m.canonical) for m in ex.mentions if m.proposed})


@pytest.mark.parametrize("text, want", [
    # (a) a known name inside the paper's coined one: AutoLoRa, not LoRA
    ("Robust Fine-Tuning (RFT) is a low-cost strategy. We propose a low-rank (LoRa) branch "
     "that disentangles RFT. Further, we propose AutoLoRa, a parameter-free framework.",
     [("AutoLoRa", "AutoLoRa")]),
    # ... but a coined name that starts with the known one extends the paper's own
    ("We introduce MOMENT, a family of models. We release MOMENT-1, the first of them.",
     [("MOMENT", "MOMENT"), ("MOMENT-1", "MOMENT-1")]),
    # (a) a coined pair one word away from a known long form is the paper's own
    ("We propose Algorithm Distillation (AD), a method for distilling RL algorithms. AD works.",
     [("AD", "AD"), ("Algorithm Distillation", "AD")]),
    ("We then propose Mixture-of-Denoisers (MoD), a pre-training objective.",
     [("Mixture-of-Denoisers", "MoD"), ("MoD", "MoD")]),
    # (d) a generic class of models is no paper's proposal
    ("We propose a NN that learns to sort.", []),
    ("We propose a GNN for molecules.", []),
    # a field or abbreviation may be a paper's own acronym
    ("We propose a Predictive Dynamic Fusion (PDF) framework for multimodal learning.",
     [("PDF", "PDF"), ("Predictive Dynamic Fusion", "Predictive Dynamic Fusion")]),
])
def test_proposals_that_are_no_known_name(text, want):
    assert _proposed(text) == want

