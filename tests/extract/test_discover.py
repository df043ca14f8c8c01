"""kg.extract.discover: unknown names by their shape.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

import pytest

from kg.extract.discover import name_shaped


@pytest.mark.parametrize("word,shaped", [
    ("ToMoE", True), ("Meta-iLaD", True), ("Qwen3-VL", True), ("W4A16", True), ("DiffusionDB", True),
    ("The", False), ("GPU", False), ("GitHub", False), ("3D", False), ("x-axis", False),
    ("H100", False), ("LLM-based", False),
])
def test_name_shape(word, shaped):
    assert name_shaped(word) is shaped


@pytest.mark.parametrize("word", ["PPAD-Hard", "NP-complete", "L_2", "logK", "TPUv4", "A6000", "SoTA"])
def test_shapes_that_are_not_names(word):
    from kg.extract.discover import name_shaped

    assert not name_shaped(word)


def test_alnum_shape_is_linear_and_unchanged():
    import re
    import time

    from kg.extract.discover import _ALNUM

    old = re.compile(r"^[A-Za-z]+[\w\-]*\d[\w\-]*$|^[A-Za-z][\w\-]*[A-Z][\w\-]*$")
    for w in ["W4A16", "Qwen3-VL", "abc", "aB", "a-1", "1ab", "A", "x-y", "ab_c9", "Ab-", "a"]:
        assert bool(_ALNUM.match(w)) == bool(old.match(w)), w
    t0 = time.process_time()
    _ALNUM.match("A" * 200000 + "-")
    assert time.process_time() - t0 < 1.0
