"""Clean text: each kind of artifact in abstracts as written."""
from __future__ import annotations

import re

import pytest

from kg.text import clean


@pytest.mark.parametrize("raw,expected", [
    (r"we introduce \textbf{Layerwise Learning Rate (LLR)}, a scheme",
     "we introduce Layerwise Learning Rate (LLR), a scheme"),
    (r"the \enquote{quoted} and \revise{the model weights} stay", "the quoted and the model weights stay"),
    (r"where $w^\star \in \mathcal{S}_{d-1}$, the sphere", "where w^⋆∈𝒮_d-1, the sphere"),
    (r"up to 7.30\% in accuracy", "up to 7.30% in accuracy"),
    (r"introduce ``Shortcut Text Gradient'' --- an effective",
     "introduce “Shortcut Text Gradient” — an effective"),
    (r"pages 3--5", "pages 3–5"),
    ("Learning *latent dynamics* is **central** and _key_ here",
     "Learning latent dynamics is central and key here"),
    ("we introduce **L**ow-rank **Q**uantization", "we introduce Low-rank Quantization"),
    ("R&amp;D &lt;tags&gt; and it&#39;s", "R&D <tags> and it's"),
    ("in the graph ML com- munity", "in the graph ML community"),
    ("the Multimodal Assis- tant works", "the Multimodal Assistant works"),
    ("pseudo- and gold-standard labels", "pseudo- and gold-standard labels"),
    ("LLM- based agents", "LLM-based agents"),
    ("over time.A major gain", "over time. A major gain"),
    ("shown (e.g.The case) on Qwen2.5 and v1.2", "shown (e.g.The case) on Qwen2.5 and v1.2"),
    ("code at https://github.com/gaosh/ToMoE.Next time", "code at https://github.com/gaosh/ToMoE.Next time"),
    ("5% of runs cost ~3 GPU-hours, 100% & more", "5% of runs cost ~3 GPU-hours, 100% & more"),
    ("  folded \t whitespace\n here ", "folded whitespace here"),
    ("for under $50 an attacker", "for under $50 an attacker"),
])
def test_clean(raw, expected):
    assert clean(raw) == expected


def test_clean_is_idempotent_on_plain_text():
    text = "We propose ToMoE, a method that transforms dense LLMs into MoE models."
    assert clean(text) == text == clean(clean(text))


_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{1,31});")


def test_icml_clean_abstracts_hold_no_markup(icml_corpus):
    cleaned = [clean(p.abstract) for p in icml_corpus.papers]
    # a "$" left is a currency sign: "$50" in an abstract with an odd number of "$"
    dollars = [c for c in cleaned if re.search(r"\$(?!\d)", c)]
    commands = [c for c in cleaned if re.search(r"\\[A-Za-z]+", c)]
    strong = [c for c in cleaned if "**" in c]
    entities = [c for c in cleaned if _ENTITY.search(c)]
    assert (len(dollars), len(commands), len(strong), len(entities)) == (0, 0, 0, 0)
    assert sum("$" in c for c in cleaned) <= 1
