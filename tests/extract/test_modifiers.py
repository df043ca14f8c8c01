"""kg.extract.modifiers: the words before a concept that narrow it join its mention."""
from __future__ import annotations

import pytest

from kg.extract import extract_texts
from tests.extract.test_concept_finder import FIXTURE, concepts_of

# ------------------------------------------------------------ modifiers that narrow a concept


def test_narrowing_modifiers_join_the_mention_of_the_concept_they_narrow():
    got = extract_texts(["We study few-shot image classification and Privacy-preserving "
                         "post-training quantization."], concepts=FIXTURE)[0].mentions
    assert [(m.text, m.key, m.canonical) for m in got if m.layer == "concept"] == [
        ("few-shot image classification", "image-classification", "image classification"),
        ("Privacy-preserving post-training quantization", "post-training-quantization",
         "post-training quantization")]


@pytest.mark.parametrize("before", ["a novel", "an efficient", "the state-of-the-art", "our new",
                                    "existing", "3 effective"])
def test_vague_words_never_join_a_mention(before):
    assert concepts_of(f"We use {before} image classification.") == [
        ("image classification", "image-classification")]


def test_a_concept_an_acronym_is_defined_for_keeps_the_authors_span():
    assert concepts_of("We study unsupervised knowledge distillation (KD) and KD.")[0] == (
        "knowledge distillation", "knowledge-distillation")


def test_a_concept_that_is_a_gazetteer_entry_is_narrowed_too():
    assert concepts_of("We use teacher-free knowledge distillation.") == [
        ("teacher-free knowledge distillation", "knowledge-distillation")]



def test_a_word_attested_before_a_vocabulary_head_narrows_only_next_to_the_concept():
    from kg.extract.concept_finder import ConceptMatch
    from kg.extract.modifiers import extend, load, with_vocabulary

    mods = with_vocabulary(load(), ["channel attention", "using gradients", "image restoration"])
    assert "channel" in mods.attested and "using" not in mods.attested

    def span(text: str) -> str:
        words = text.split()
        offsets = [sum(len(w) + 1 for w in words[:k]) for k in range(len(words))]
        m = ConceptMatch(offsets[-1], len(text), "pruning", len(words) - 1, len(words))
        got = extend(words, offsets, [m], mods)[0]
        return text[got.start:got.end]

    assert span("we study channel pruning") == "channel pruning"
    assert span("we study unsupervised channel pruning") == "unsupervised channel pruning"
    assert span("we study channel image pruning") == "image pruning"      # one attested word
    assert span("we study using pruning") == "pruning"
    assert span("we study channel Pruning") == "Pruning"      # a name written capitalised
    assert span("we study image-channel pruning") == "image-channel pruning"


def _extended(text: str, first: int, last: int, mods, defined=()) -> str:
    """The span :func:`kg.extract.modifiers.extend` gives a match on words
    ``first:last`` of a text split on spaces."""
    from kg.extract.concept_finder import ConceptMatch
    from kg.extract.modifiers import extend

    words = text.split()
    offsets = [sum(len(w) + 1 for w in words[:k]) for k in range(len(words))]
    m = ConceptMatch(offsets[first], offsets[last - 1] + len(words[last - 1]), "x", first, last)
    got = extend(words, offsets, [m], mods, (), [(offsets[a], offsets[b - 1] + len(words[b - 1]))
                                                  for a, b in defined])[0]
    return text[got.start:got.end]


def test_a_defined_long_form_that_starts_before_the_match_is_the_mention():
    from kg.extract.modifiers import load

    text = "we study panoramic depth completion ( PDC ) here"
    assert _extended(text, 3, 5, load(), [(2, 5)]) == "panoramic depth completion"
    assert _extended(text, 3, 5, load()) == "depth completion"     # no pair: no extension


def test_a_match_that_is_itself_a_modifier_takes_no_modifiers():
    from kg.extract.modifiers import load

    assert _extended("a zero-shot self-supervised model", 2, 3, load()) == "self-supervised"
    assert _extended("a zero-shot semantic segmentation", 2, 4, load()) == \
        "zero-shot semantic segmentation"


def test_modifiers_are_met_with_or_without_hyphens_and_opening_a_sentence():
    from kg.extract.modifiers import load, with_vocabulary

    mods = load()
    assert mods.narrows("auto-regressive") and mods.narrows("autoregressive")
    assert not mods.narrows("state-of-the-art") and not mods.narrows("stateoftheart")
    attested = with_vocabulary(mods, ["medical image segmentation"])
    assert _extended(". Medical image captioning is", 2, 4, attested) == "Medical image captioning"
    assert _extended("we Medical image captioning", 2, 4, attested) == "image captioning"
