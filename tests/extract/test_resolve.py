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
