"""The extraction pipeline's parts: tokenizer, normalisation, acronyms,
proposals, discovery, gazetteer integrity."""
from __future__ import annotations

import pytest

from kg.extract.acronyms import find_acronyms
from kg.extract.discover import name_shaped
from kg.extract.gazetteer import load, read_entries, gazetteer_dir, build
from kg.extract.normalise import entity_key, singular_key, strip_variant
from kg.extract.proposals import find_proposals
from kg.extract.tokenizer import blank


def test_tokenizer_keeps_names_whole():
    names = ["LLaMA-2", "Qwen-2.5", "BlockPerm-SJLT", "PPI++", "GPT-4o", "W4A16", "Meta-iLaD",
             "Qwen3-VL", "Di-BiLPS", "Pythia-410M"]
    doc = blank()(" and ".join(names) + ".")
    assert [t.text for t in doc if t.text not in ("and", ".")] == names


def test_tokenizer_splits_lowercase_compound():
    assert [t.text for t in blank()("LLM-powered agents")] == ["LLM", "-", "powered", "agents"]


@pytest.mark.parametrize("a,b", [("LLaMA-2", "Llama 2"), ("LLaMA2", "llama-2"),
                                 ("Qwen-2.5", "Qwen2.5"), ("Mixture-of-Experts", "mixture of experts")])
def test_variants_share_a_key(a, b):
    assert entity_key(a) == entity_key(b)


def test_plural_and_size_fold():
    assert singular_key(entity_key("LLMs")) == entity_key("LLM")
    assert strip_variant("LLaMA-2-7B") == "LLaMA-2"
    assert strip_variant("Qwen2.5-7B-Instruct") == "Qwen2.5"
    assert strip_variant("ResNet-50") == "ResNet-50"


@pytest.mark.parametrize("text,pairs", [
    ("Large Language Models (LLMs) are big.", [("Large Language Models", "LLMs")]),
    ("into Mixture-of-Experts(MoE) models", [("Mixture-of-Experts", "MoE")]),
    ("with Proximal Policy Optimization (PPO) training", [("Proximal Policy Optimization", "PPO")]),
    ("we propose SELB (Structural Enforcement via Logits Boosting), a fix",
     [("Structural Enforcement via Logits Boosting", "SELB")]),
    ("Heavy-Tailed Self-Regularization (HT-SR) theory",
     [("Heavy-Tailed Self-Regularization", "HT-SR")]),
    ("we call it \"program-of-layers (PoLar)\"", [("program-of-layers", "PoLar")]),
    ("This costs (see Table 1) a lot (about 5%).", []),
])
def test_acronyms(text, pairs):
    assert [(a.long, a.short) for a in find_acronyms(text)] == pairs


def test_acronym_offsets_point_into_the_text():
    text = "RL from verifiable reward (RLVR) helps."
    (a,) = find_acronyms(text)
    assert text[a.long_start:a.long_end] == a.long and text[a.short_start:a.short_end] == a.short


@pytest.mark.parametrize("text,names", [
    ("To mitigate this, we propose ToMoE, a method that prunes.", ["ToMoE"]),
    ("we introduce Layerwise Learning Rate (LLR), an adaptive scheme.",
     ["Layerwise Learning Rate", "LLR"]),
    ("We present MMBench-X, a new benchmark for VLMs.", ["MMBench-X"]),
    ("We propose the Shannon Scaling Law, a unified theoretical framework.", ["Shannon Scaling Law"]),
    ("a pipeline dubbed FlashSketch that runs fast.", ["FlashSketch"]),
    ("We verify our method (QontOT) on data.", ["QontOT"]),
    ("Experiments show that FedPDG outperforms prior work.", ["FedPDG"]),
    ("We evaluate GPT-4 on MMLU and find gaps.", []),
])
def test_proposals(text, names):
    known = load()
    assert [p.name for p in find_proposals(text, find_acronyms(text),
                                           lambda n: known.lookup(entity_key(n)) is not None)] == names


def test_proposal_types():
    [p] = find_proposals("We present MMBench-X, a new benchmark for VLMs.")
    assert p.type == "dataset"
    [p] = find_proposals("We propose ToMoE, a method that prunes.")
    assert p.type == "method"


@pytest.mark.parametrize("word,shaped", [
    ("ToMoE", True), ("Meta-iLaD", True), ("Qwen3-VL", True), ("W4A16", True), ("DiffusionDB", True),
    ("The", False), ("GPU", False), ("GitHub", False), ("3D", False), ("x-axis", False),
    ("H100", False), ("LLM-based", False),
])
def test_name_shape(word, shaped):
    assert name_shaped(word) is shaped


def test_gazetteer_is_broad_deliberate_and_consistent():
    rows = read_entries(sorted(gazetteer_dir().glob("*.jsonl")))
    g = build(rows)
    assert len(g) >= 1500
    assert g.collisions == []
    types = {e.type for e in g.entities.values()}
    assert {"model", "method", "dataset"} <= types
    by_type = {t: sum(e.type == t for e in g.entities.values()) for t in types}
    assert min(by_type["model"], by_type["method"], by_type["dataset"]) >= 400
    names = {e.canonical for e in g.entities.values()}
    for row in rows:
        assert row["source"].strip() and row.get("kind"), row["name"]
        if row.get("family"):
            assert row["family"] in names, f"{row['_where']}: family {row['family']!r} is no entry"
    assert g.entity("Llama 3").family == "LLaMA"
    assert g.entity("AdamW").family == "Adam"
    assert g.entity("CIFAR-100").family == "CIFAR"


def test_gazetteer_bad_line_is_an_error(tmp_path):
    from kg.errors import KgError

    (tmp_path / "x.jsonl").write_text('{"name": "X", "type": "gadget", "source": "s"}\n')
    with pytest.raises(KgError, match=r"x.jsonl:1: gazetteer type 'gadget'"):
        read_entries([tmp_path / "x.jsonl"])


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
