"""kg.extract.ruler: what the known names match: spellings, starts, stops, case.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

import pytest

from kg.extract.gazetteer import load
from kg.extract.tokenizer import blank


def test_split_simple_agrees_with_the_tokenizer_on_every_gazetteer_spelling():
    from kg.extract.ruler import _variants
    from kg.extract.tokenizer import split_simple

    tok = blank().tokenizer
    specials = frozenset(tok.rules)
    g = load()
    names = {n for f in g.index.values() for n in (f.entity.canonical, *f.entity.aliases)}
    spellings = {v for n in names for v in _variants(n) | _variants(n.lower())}
    checked = 0
    for v in sorted(spellings):
        fast = split_simple(v, specials)
        if fast is not None:
            assert fast == [t.text for t in tok(v)], v
            checked += 1
    assert checked > 20_000


# ------------------------------------------------ ruler: starts, stops, case


@pytest.mark.parametrize("text, expected", [
    ("We evaluate DeiT-Tiny and BERT-Base.", [("DeiT-Tiny", "DeiT"), ("BERT-Base", "BERT")]),
    ("It helps meta learning. To learn faster we use Adam.", [("Adam", "Adam")]),
    ("We test on the Long-Range Arena benchmark.", [("Long-Range Arena", "Long Range Arena")]),
])
def test_ruler_variant_suffixes_full_stops_and_mixed_separators(text, expected):
    from kg.extract import extract_texts

    got = [(m.text, m.canonical) for m in extract_texts([text])[0].mentions
           if m.layer == "entity"]
    assert got == expected


def test_a_proposal_differing_in_case_from_a_case_sensitive_entry_is_not_known():
    from kg.extract import _nlp

    known = _nlp(None).get_pipe("kg_proposals").known
    assert known("MAESTRO") and not known("Maestro")
    assert known("Adam") and known("LLaMA-2")
