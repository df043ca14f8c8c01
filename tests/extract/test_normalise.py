"""kg.extract.normalise: variant suffixes, and the keys variants share.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

import pytest

from kg.extract.normalise import strip_variant
from kg.identity import entity_key, singular_key


@pytest.mark.parametrize("a,b", [("LLaMA-2", "Llama 2"), ("LLaMA2", "llama-2"),
                                 ("Qwen-2.5", "Qwen2.5"), ("Mixture-of-Experts", "mixture of experts")])
def test_variants_share_a_key(a, b):
    assert entity_key(a) == entity_key(b)


def test_plural_and_size_fold():
    assert singular_key(entity_key("LLMs")) == entity_key("LLM")
    assert strip_variant("LLaMA-2-7B") == "LLaMA-2"
    assert strip_variant("Qwen2.5-7B-Instruct") == "Qwen2.5"
    assert strip_variant("ResNet-50") == "ResNet-50"


def test_variant_suffix_needs_a_separator():
    assert strip_variant("Adroit") == "Adroit" and strip_variant("Reddit") == "Reddit"
    assert strip_variant("gemma-7b-it") == "gemma" and strip_variant("Llama-2-7b-chat") == "Llama-2"
