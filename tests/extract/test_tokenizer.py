"""kg.extract.tokenizer: names stay whole, compounds split, long runs cut with offsets kept.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

from kg.extract.tokenizer import blank


def test_tokenizer_keeps_names_whole():
    names = ["LLaMA-2", "Qwen-2.5", "BlockPerm-SJLT", "PPI++", "GPT-4o", "W4A16", "Meta-iLaD",
             "Qwen3-VL", "Di-BiLPS", "Pythia-410M"]
    doc = blank()(" and ".join(names) + ".")
    assert [t.text for t in doc if t.text not in ("and", ".")] == names


def test_tokenizer_splits_lowercase_compound():
    assert [t.text for t in blank()("LLM-powered agents")] == ["LLM", "-", "powered", "agents"]


def test_long_runs_are_cut_with_offsets_kept():
    from kg.extract import make_nlp

    tok = make_nlp().tokenizer
    text = "x " + "(" * 3000 + ")" * 3000 + " y  " + "B" * 500 + "\nz"
    doc = tok(text)
    assert doc.text == text
    assert all(text[t.idx: t.idx + len(t.text)] == t.text for t in doc)
    assert max(len(t.text) for t in doc) <= 64
    short = "We propose FooNet (FN) at https://github.com/x/foonet."
    assert [t.text for t in tok(short)] == [t.text for t in tok.tokenizer(short)]
