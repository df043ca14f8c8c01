"""The extraction pipeline end to end, ``kg extract``, and its quality on the
hand-annotated development sets."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.extract import PIPES, extract_corpus, extract_texts, make_nlp

ABSTRACT = (
    "Large Language Models (LLMs) are costly. We propose ToMoE, a method that turns "
    "dense LLMs into Mixture-of-Experts (MoE) models. ToMoE beats pruning on Phi-2, "
    "LLaMA-2, Llama 2 7B, llama-2 and Qwen-2.5 on MMLU.")


def test_pipeline_is_blank_english_with_kg_components():
    nlp = make_nlp()
    assert nlp.lang == "en" and nlp.pipe_names == list(PIPES)


def test_mentions_canonical_types_and_offsets():
    ex = extract_texts([ABSTRACT])[0]
    for m in ex.mentions:
        assert ex.abstract[m.start:m.end] == m.text
    by_text = {m.text: m for m in ex.mentions}
    # variants meet in one canonical name
    assert {by_text[t].canonical for t in ("LLaMA-2", "Llama 2 7B", "llama-2")} == {"LLaMA-2"}
    assert by_text["LLaMA-2"].family == "LLaMA" and by_text["LLaMA-2"].type == "model"
    # plural folds; acronym and long form are one thing: the concept the LLM entry is
    assert by_text["LLMs"].key == by_text["Large Language Models"].key == "large-language-model"
    assert by_text["LLMs"].layer == "concept" and by_text["LLMs"].type == "model_class"
    assert by_text["Mixture-of-Experts"].canonical == by_text["MoE"].canonical
    assert by_text["MMLU"].type == "dataset"
    # what the paper proposes, everywhere it is named
    assert [m.proposed for m in ex.mentions if m.text == "ToMoE"] == [True, True]
    assert not by_text["LLaMA-2"].proposed
    assert {(a.long, a.short) for a in ex.aliases} == {("Large Language Models", "LLMs"),
                                                      ("Mixture-of-Experts", "MoE")}


def test_workers_give_the_same_result(sample_corpus):
    one = list(extract_corpus(sample_corpus, workers=1))
    two = list(extract_corpus(sample_corpus, workers=2, chunk_size=8))
    assert one == two and len(one) == 39


def test_cli_extract(capsys, sample_corpus):
    from kg.parse.sample import sample_files

    assert main(["extract", "-q", *map(str, sample_files())]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 39 and [r["id"] for r in rows] == [p.id for p in sample_corpus.papers]
    assert set(rows[0]) == {"id", "abstract", "mentions", "aliases"}
    from kg.extract.concept_vocab import CONCEPT_TYPES

    types = {"entity": {"model", "method", "dataset", "task", "metric", "other"},
             "concept": set(CONCEPT_TYPES), "keyword": {"keyword"}}
    for r in rows:
        for m in r["mentions"]:
            assert set(m) == {"text", "canonical", "type", "start", "end", "proposed", "key",
                              "family", "layer"} | ({"broader"} if m["layer"] == "concept" else set())
            assert r["abstract"][m["start"]:m["end"]] == m["text"] and m["type"] in types[m["layer"]]
        assert [(m["start"], m["end"]) for m in r["mentions"]] == sorted(
            (m["start"], m["end"]) for m in r["mentions"])
    assert {m["key"] for r in rows for m in r["mentions"] if m["layer"] == "concept"} >= {
        "large-language-model", "reinforcement-learning", "quantization"}
    assert any(m["layer"] == "keyword" for r in rows for m in r["mentions"])
    first = rows[0]
    assert any(m["text"] == "ToMoE" and m["proposed"] for m in first["mentions"])
    assert "\\revise" not in first["abstract"]


def test_cli_extract_error(capsys, tmp_path):
    assert main(["extract", str(tmp_path / "none.txt")]) == 1
    assert capsys.readouterr().err == f"kg: error: {tmp_path / 'none.txt'}: no such file\n"


# --------------------------------------------------------------- quality

DEVSETS = Path(__file__).resolve().parents[1] / "data" / "devset"
TARGETS = {"mention_P": 0.90, "mention_R": 0.85, "proposed_R": 0.85, "acronym_R": 0.90}


@pytest.fixture(scope="module")
def scores():
    from tests.devset_eval import ALL_SETS, evaluate, load

    assert all(path.exists() for path in ALL_SETS)
    return evaluate([r for path in ALL_SETS for r in load(path)])


def _figures(s):
    return {"mention_P": s["mentions"].precision, "mention_R": s["mentions"].recall,
            "proposed_R": s["proposed"].recall, "acronym_R": s["acronyms"].recall}


def test_devsets_are_big_enough():
    from tests.devset_eval import load

    assert len(load(DEVSETS / "devset.jsonl")) + len(load(DEVSETS / "devset2.jsonl")) >= 60


@pytest.mark.parametrize("split", ["dev", "test", "dev2"])
def test_quality_on_tuning_sets(scores, split):
    got = _figures(scores[split])
    assert all(got[k] >= v for k, v in TARGETS.items()), got


# dev3, dev4 and blind to blind6 were each scored blind once and are tuning
# data now; several are still under TARGETS for proposed names. blind7 and
# blind8 are held out: nobody has looked at their errors (blind7, first score:
# P .930, R .860, proposed .746, acronyms .963; after this round of rules: .930,
# .860, .762, .975. blind8, scored once: .921, .863, .831, .894).
# These floors, a little under the figures measured, catch a regression.
FLOORS = {"dev3": {"mention_P": 0.93, "mention_R": 0.89, "proposed_R": 0.88, "acronym_R": 0.88},
          "dev4": {"mention_P": 0.95, "mention_R": 0.90, "proposed_R": 0.84, "acronym_R": 0.96},
          "blind": {"mention_P": 0.94, "mention_R": 0.93, "proposed_R": 0.86, "acronym_R": 0.95},
          "blind2": {"mention_P": 0.94, "mention_R": 0.88, "proposed_R": 0.89, "acronym_R": 0.93},
          "blind3": {"mention_P": 0.90, "mention_R": 0.84, "proposed_R": 0.74, "acronym_R": 0.94},
          "blind4": {"mention_P": 0.92, "mention_R": 0.88, "proposed_R": 0.90, "acronym_R": 0.94},
          "blind5": {"mention_P": 0.85, "mention_R": 0.77, "proposed_R": 0.72, "acronym_R": 0.91},
          "blind6": {"mention_P": 0.92, "mention_R": 0.88, "proposed_R": 0.78, "acronym_R": 0.95},
          # held out: guarded at their latest scores; nobody has looked at their errors
          "blind7": {"mention_P": 0.92, "mention_R": 0.85, "proposed_R": 0.75, "acronym_R": 0.97},
          "blind8": {"mention_P": 0.91, "mention_R": 0.85, "proposed_R": 0.82, "acronym_R": 0.89}}


@pytest.mark.parametrize("split", sorted(FLOORS))
def test_quality_floor_on_later_sets(scores, split):
    got = _figures(scores[split])
    assert all(got[k] >= v for k, v in FLOORS[split].items()), got


def test_title_names_yardstick():
    from tests.devset_eval import title_names

    truth = [
        {"index": 1, "title": "ToMoE: Pruning LLMs", "abstract": "We propose ToMoE, a method."},
        {"index": 2, "title": "Position: Less is More", "abstract": "We propose Position, a method."},
        {"index": 3, "title": "Flux: Fast Flows", "abstract": "Flux is used here."},
        {"index": 4, "title": "Zeta: A Benchmark", "abstract": "We release a benchmark."},
        {"index": 5, "title": "Held: Out", "abstract": "We propose Held, a method."},
    ]
    misses: list = []
    assert title_names(truth, {"icml-5"}, misses) == (2, 1)
    assert misses == [(3, "Flux")]


# The concept sets of CVPR 2023 and ICML 2023 (tests/data/devset/README.md):
# the first six are tuning data now (the _held halves were scored once at first
# sight, then their errors were read for issue 19's second round of rules; the
# _held2 pair's were read on 2026-12-03 for devset_eval.py --coverage).
# Floors a little under the figures. Since issue 29's keyword mentions (the learned
# filter: concept recall up 0.11-0.19 on each set) the precision floors are lower:
# these sets were annotated before rule 1 of CONCEPTS_RULES.md (single-word topics are
# concepts), so part of what the filter accepts is listed in no gold here.
CONCEPT_FLOORS = {
    "cvpr23_dev": {"named": 0.90, "concepts": 0.56, "precision": 0.92, "proposed": 0.74,
                   "acronyms": 0.84},
    "icml23_dev": {"named": 0.80, "concepts": 0.52, "precision": 0.89, "proposed": 0.81,
                   "acronyms": 0.95},
    "cvpr23_held": {"named": 0.87, "concepts": 0.43, "precision": 0.90, "proposed": 0.75,
                    "acronyms": 0.91},
    "icml23_held": {"named": 0.81, "concepts": 0.43, "precision": 0.92, "proposed": 0.93,
                    "acronyms": 0.95},
    "cvpr23_held2": {"named": 0.76, "concepts": 0.56, "precision": 0.84, "proposed": 0.66,
                     "acronyms": 0.82},
    "icml23_held2": {"named": 0.73, "concepts": 0.52, "precision": 0.90, "proposed": 0.67,
                     "acronyms": 0.90},
    # held out (nobody has read their errors; a failure here says only which figure fell)
    "cvpr23_held3": {"named": 0.82, "concepts": 0.60, "precision": 0.81, "proposed": 0.80,
                     "acronyms": 0.91},
    "icml23_held3": {"named": 0.66, "concepts": 0.57, "precision": 0.78, "proposed": 0.62,
                     "acronyms": 0.97},
}


@pytest.mark.parametrize("name", sorted(CONCEPT_FLOORS))
def test_quality_floor_on_concept_sets(name):
    from tests.devset_eval import CONCEPT_SETS, evaluate_concepts, load

    got = evaluate_concepts(load(CONCEPT_SETS / f"{name}.jsonl"))
    figures = {k: (s.precision if k == "precision" else s.recall) for k, s in got.items()}
    assert all(figures[k] >= v for k, v in CONCEPT_FLOORS[name].items()), figures
