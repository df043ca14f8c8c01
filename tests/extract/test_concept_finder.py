"""Concepts in text (kg.extract.concept_finder and the kg_concepts component)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kg.extract import extract_texts
from kg.extract.acronyms import AcronymPair
from kg.extract.concept_finder import (
    build_index,
    find,
    local_acronyms,
    parse_spelling,
    phrase_key,
    plural_keys,
    spelling,
)
from kg.extract.concept_vocab import build as build_vocab
from kg.extract.concept_vocab import load

FIXTURE = str(Path(__file__).resolve().parents[1] / "data" / "concepts_fixture")


def concepts_of(text: str) -> list[tuple[str, str]]:
    """(text, concept id) of every concept mention, in order, offsets checked."""
    ex = extract_texts([text], concepts=FIXTURE)[0]
    for m in ex.mentions:
        assert ex.abstract[m.start:m.end] == m.text
    return [(m.text, m.key) for m in ex.mentions if m.layer == "concept"]


def mentions_of(text: str):
    return extract_texts([text], concepts=FIXTURE)[0].mentions


# ------------------------------------------------------------ forms


@pytest.mark.parametrize("written", ["diffusion models", "Diffusion Models", "diffusion-model",
                                     "diffusion model", "Diffusion-Models", "DIFFUSION MODELS"])
def test_every_spelling_meets_one_concept(written):
    assert concepts_of(f"We train {written} on faces.") == [(written, "diffusion-model")]


def test_a_defined_acronym_is_the_concept_of_its_long_form():
    text = ("Test-time adaptation (TTA) adapts at test time. We study TTA and continual TTAs.")
    assert concepts_of(text) == [("Test-time adaptation", "test-time-adaptation"),
                                 ("TTA", "test-time-adaptation"), ("TTA", "test-time-adaptation"),
                                 ("continual TTAs", "test-time-adaptation")]   # narrowed
    text = "Denoising diffusion models (DMs) generate images; DMs are slow."
    assert concepts_of(text) == [("Denoising diffusion models", "diffusion-model"),
                                 ("DMs", "diffusion-model"), ("DMs", "diffusion-model")]


def test_an_acronym_the_abstract_spells_out_otherwise_is_not_the_concept():
    # DM is diffusion model's acronym, but this abstract's DM is domain mixing
    assert concepts_of("Domain mixing (DM) helps. With DM we gain.") == []
    # a long form that reads as the concept keeps it
    pairs = [AcronymPair("large-scale language models", "LLMs", 0, 27, 29, 33)]
    assert local_acronyms(pairs, build_index(load())) == {}


def test_british_and_us_spellings_meet():
    assert concepts_of("Domain generalisation and post-training quantisation.") == [
        ("Domain generalisation", "domain-generalization"),
        ("post-training quantisation", "post-training-quantization")]
    assert phrase_key("generative modelling") == phrase_key("Generative Modeling")


def test_spelling_rules_are_read_from_data():
    sp = parse_spelling(["# a comment", "colour color", "ending: isation ization",
                         "plural: y ies"])
    assert sp.word("colour") == "color" and sp.word("normalisation") == "normalization"
    assert sp.word("noise") == "noise"
    assert plural_keys("ontology", sp) == {"ontologys", "ontologies"}
    assert plural_keys("gaussianprocess", spelling()) >= {"gaussianprocesses"}


def test_plural_of_a_form_ending_in_s():
    # "processes", not "processs"; capitalised, the gazetteer's Gaussian Process stays
    assert concepts_of("We fit gaussian processes.") == [("gaussian processes", "gaussian-process")]
    assert [(m.text, m.layer) for m in mentions_of("We fit Gaussian Processes.")] == [
        ("Gaussian Processes", "entity")]


# ------------------------------------------------------------ which match


def test_longest_match_wins():
    assert concepts_of("Post-training quantization beats quantization-aware runs; "
                       "quantization helps.") == [
        ("Post-training quantization", "post-training-quantization"),
        ("quantization", "quantization"), ("quantization", "quantization")]


def test_a_longer_concept_wins_over_a_concept_an_entry_is():
    # "Reinforcement Learning" alone is the gazetteer's entry (the concept's entity)
    assert concepts_of("Safe Reinforcement Learning (SRL) extends Reinforcement Learning.") == [
        ("Safe Reinforcement Learning", "safe-reinforcement-learning"),
        ("SRL", "safe-reinforcement-learning"),
        ("Reinforcement Learning", "reinforcement-learning")]
    # no pair: the gazetteer's match inside the longer concept gives way
    assert concepts_of("We study safe Reinforcement Learning here.") == [
        ("safe Reinforcement Learning", "safe-reinforcement-learning")]


def test_one_word_forms_only_where_single_allows():
    # "transformer" is an English word (single false); "pruning" is a term of art
    assert concepts_of("Transformers with pruning.") == [("pruning", "pruning")]
    # the two-word concept is found however its head reads
    assert concepts_of("We study vision transformers.") == [("vision transformers",
                                                             "vision-transformer")]


def test_a_possessive_is_no_plural():
    assert concepts_of("The diffusion model's samples and Newton's method.") == [
        ("diffusion model", "diffusion-model")]


def test_no_concept_starts_inside_a_compound():
    assert concepts_of("We study vision-language models.") == []


def test_acronyms_are_case_sensitive_with_a_plural_s():
    assert concepts_of("LLMs and an LLM, with RL, GNNs and NLP.") == [
        ("LLMs", "large-language-model"), ("LLM", "large-language-model"),
        ("RL", "reinforcement-learning"), ("GNNs", "graph-neural-network"),
        ("NLP", "natural-language-processing")]
    assert concepts_of("llms, Llm, rl, gnns and nlp are words here.") == []


def test_class_acronyms_resolve_to_their_concepts():
    ms = mentions_of("Graph neural networks (GNNs) and large language models (LLMs) in "
                     "natural language processing (NLP).")
    assert [(m.text, m.key, m.type, m.layer) for m in ms] == [
        ("Graph neural networks", "graph-neural-network", "model_class", "concept"),
        ("GNNs", "graph-neural-network", "model_class", "concept"),
        ("large language models", "large-language-model", "model_class", "concept"),
        ("LLMs", "large-language-model", "model_class", "concept"),
        ("natural language processing", "natural-language-processing", "field", "concept"),
        ("NLP", "natural-language-processing", "field", "concept")]


# ------------------------------------------------------------ entities


def test_a_gazetteer_entry_that_is_a_concept_is_one_node():
    ms = mentions_of("Diffusion Models and Knowledge Distillation (KD) with Reinforcement "
                     "Learning; knowledge distillation again.")
    assert {m.layer for m in ms} == {"concept"}
    assert [m.key for m in ms] == ["diffusion-model", "knowledge-distillation",
                                   "knowledge-distillation", "reinforcement-learning",
                                   "knowledge-distillation"]
    assert ms[0].canonical == "diffusion model" and ms[0].type == "model_class"


def test_an_entity_whose_name_holds_a_concept_stays_the_entity():
    ms = mentions_of("Stable Diffusion and Latent Diffusion Models beat diffusion models.")
    assert [(m.text, m.layer) for m in ms] == [
        ("Stable Diffusion", "entity"), ("Latent Diffusion Models", "entity"),
        ("diffusion models", "concept")]
    assert ms[0].canonical == "Stable Diffusion" and ms[0].key == "stablediffusion"


def test_a_proposed_name_stays_the_entity():
    ms = mentions_of("We propose Diffusion Pruning, a method. Diffusion Pruning is fast.")
    assert all(m.layer == "entity" and m.proposed for m in ms if "Pruning" in m.text)


def test_offsets_are_exact_on_awkward_text():
    text = "Über  diffusion\u00a0models (DMs), “reinforcement-learning” — DMs."
    ex = extract_texts([text], concepts=FIXTURE)[0]
    assert [m.text for m in ex.mentions if m.layer == "concept"] == [
        "diffusion models", "DMs", "reinforcement-learning", "DMs"]
    for m in ex.mentions:
        assert ex.abstract[m.start:m.end] == m.text


def test_output_is_deterministic_and_in_text_order():
    text = ("We compress LLMs by post-training quantization and pruning, then run RL with "
            "diffusion models (DMs) and Stable Diffusion.")
    a = extract_texts([text], concepts=FIXTURE)[0]
    b = extract_texts([text, text], concepts=FIXTURE)[1]
    assert a.mentions == b.mentions
    assert [(m.start, m.end) for m in a.mentions] == sorted((m.start, m.end) for m in a.mentions)
    assert build_index(load(FIXTURE)).steps == build_index(load(FIXTURE)).steps


def test_shared_acronyms_and_forms_are_collisions():
    rows = [(Path("x.jsonl"), 1, {"id": "a-b", "label": "a b", "type": "method",
                                  "acronyms": ["AB"]}),
            (Path("x.jsonl"), 2, {"id": "c-d", "label": "c d", "type": "method",
                                  "forms": ["a-b"], "acronyms": ["AB"]})]
    idx = build_index(build_vocab(rows))
    assert "AB" not in idx.acronyms and len(idx.collisions) == 3
    assert idx.steps["ab"][0] == "a-b" and idx.steps["abs"] == ("a-b", False)
    words, offsets = ["AB", "and", "c", "d", "A", "-", "b"], [0, 3, 7, 9, 11, 12, 13]
    # no acronym, but the forms (any case): the label's key beats another's form
    assert [(m.concept, m.acronym, m.start) for m in find(words, offsets, idx)] == [
        ("a-b", False, 0), ("c-d", False, 7), ("a-b", False, 11)]


def test_a_long_abstract_of_names_and_concepts_is_linear():
    # thousands of entity mentions, proposed names and concept matches: merging
    # them must not compare every pair (it did: minutes at this size)
    import time

    from kg.extract import _head

    text = "We propose Diffusion Pruning. " + (
        "LLaMA-2 and diffusion models beat Diffusion Pruning on LLMs. " * 8000)
    t0 = time.process_time()
    ex = extract_texts([text], concepts=FIXTURE)[0]
    assert time.process_time() - t0 < 20
    # (past EXTRACT_CHARS an abstract is kept, not read: its head's mentions are found)
    read = _head(ex.abstract).count("diffusion models")   # (the last may be cut at the edge)
    assert 1500 < read < 8000 and ex.abstract == text.strip()
    assert read - 1 <= sum(m.key == "diffusion-model" for m in ex.mentions) <= read
    assert read - 1 <= sum(m.key == "large-language-model" for m in ex.mentions) <= read
    assert not any(m.layer == "concept" and "Pruning" in m.text for m in ex.mentions)


def test_a_bare_word_is_the_sense_the_abstract_spells_out():
    idx = build_index(load())

    def keys(text: str) -> list[str]:
        words = text.split()
        offsets = [sum(len(w) + 1 for w in words[:k]) for k in range(len(words))]
        return [m.concept for m in find(words, offsets, idx)]

    assert keys("we use vector quantization ; the quantization is") == [
        "vector-quantization", "vector-quantization"]
    assert keys("post-training quantization ; the quantization is") == [
        "post-training-quantization", "quantization"]
    assert keys("dataset distillation ; distillation") == ["dataset-distillation"] * 2
    assert keys("we apply quantization") == ["quantization"]


def test_a_concept_is_never_proposed():
    # issue 30: ALAM came out proposing "large language model"; a gazetteer entry
    # that is a concept becomes that concept, never a proposed one
    ex = extract_texts(["We introduce a novel Variational AutoEncoder for faces. "
                        "We propose graph neural networks for molecules."])[0]
    concepts = [m for m in ex.mentions if m.layer == "concept"]
    assert concepts and not any(m.proposed for m in concepts)
