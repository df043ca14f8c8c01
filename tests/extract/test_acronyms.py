"""kg.extract.acronyms: acronym definitions (Schwartz-Hearst and beyond) and their offsets.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

import pytest

from kg.extract.acronyms import find_acronyms


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


@pytest.mark.parametrize("text,pairs", [
    # a lower-case short form with a hyphen (ICML 2023)
    ("We study geodesically convex (g-convex) problems.", [("geodesically convex", "g-convex")]),
    # a one-word long form of three hyphen parts after its acronym (ICML 2023)
    ("Lifelong-MoE, an extensible MoE (Mixture-of-Experts) architecture",
     [("Mixture-of-Experts", "MoE")]),
    ("the ViT (ViT-B) model and a method (e.g. here) of the art (sota)", []),
])
def test_more_acronym_shapes(text, pairs):
    assert [(a.long, a.short) for a in find_acronyms(text)] == pairs


@pytest.mark.parametrize("text,pairs", [
    # a naming word after the long form's comma (CVPR 2023)
    ("we propose an Unsupervised Symmetric Shape-Preserving Autoencoding Network, termed USSPA, "
     "to predict", [("Unsupervised Symmetric Shape-Preserving Autoencoding Network", "USSPA")]),
    ("we present an inventive discriminator-cooperated distillation, abbreviated as DCD, towards",
     [("discriminator-cooperated distillation", "DCD")]),
    # a lower-case thing named is no part of the long form
    ("a Candidate Pseudolabel Learning method, termed CPL, is", [("Candidate Pseudolabel Learning",
                                                                 "CPL")]),
    # "(namely long form, LF)"
    ("as the reconstruction loss (namely projected character loss, PCL). Compared",
     [("projected character loss", "PCL")]),
    # "we propose the VoP: Long Form" (a colon after the acronym, right after a cue)
    ("In this work, we propose the VoP: Text-Video Co-operative Prompt Tuning for efficient "
     "tuning on the task.", [("Text-Video Co-operative Prompt Tuning", "VoP")]),
    ("We present ODISE: Open-vocabulary DIffusion-based panoptic SEgmentation, which unifies.",
     [("Open-vocabulary DIffusion-based panoptic SEgmentation", "ODISE")]),
    ("We present results: Table 1 shows the gains.", []),
    # letters from inside words, or no initials at all: no pair without parentheses
    ("a blob-grounded text-to-image diffusion model, termed BlobGEN, which", []),
    ("an offline-to-online IL method, named OLLIE, for", []),
    ("We compare A, B, or C, called ABC here.", []),
])
def test_acronyms_defined_without_parentheses(text, pairs):
    found = find_acronyms(text)
    assert [(a.long, a.short) for a in found] == pairs
    assert all(text[a.long_start:a.long_end] == a.long and text[a.short_start:a.short_end] == a.short
               for a in found)


def test_acronym_offsets_point_into_the_text():
    text = "RL from verifiable reward (RLVR) helps."
    (a,) = find_acronyms(text)
    assert text[a.long_start:a.long_end] == a.long and text[a.short_start:a.short_end] == a.short


def test_a_list_in_parentheses_defines_no_acronym():
    assert find_acronyms("three domains (Adroit, MetaWorld, DMC), and more") == []


def test_long_form_drops_a_closing_quote():
    [p] = find_acronyms('The resulting "Stochastic Resonance Transformer" (SRT) retains it.')
    assert (p.long, p.short) == ("Stochastic Resonance Transformer", "SRT")


@pytest.mark.parametrize("text,pair", [
    ("as Major-Minor Mean Field Control (M3FC). We", ("Major-Minor Mean Field Control", "M3FC")),
    ("We propose the multi-marginal matching gap (M3G), a loss",
     ("multi-marginal matching gap", "M3G")),
    ("the Advantage Actor-Critic (A2C) baseline", ("Advantage Actor-Critic", "A2C")),
    ("a new construction, Transformer in Transformer (in short, TINT), that",
     ("Transformer in Transformer", "TINT")),
    ("Observable Propagation (in short: ObProp) finds", ("Observable Propagation", "ObProp")),
    # a 2 between letters reads "to"; a leading 2 reads "two" and is left alone
    ("the Learning to optimize (L2O) paradigm", ("Learning to optimize", "L2O")),
    ("the learning to defer (L2D) framework", ("learning to defer", "L2D")),
])
def test_acronyms_with_a_letter_count_or_an_alias_lead(text, pair):
    [a] = find_acronyms(text)
    assert (a.long, a.short) == pair
    assert text[a.long_start:a.long_end] == a.long and text[a.short_start:a.short_end] == a.short


def test_a_leading_digit_is_no_to():
    assert find_acronyms("two-component Mixed Linear Regression (2MLR) is hard") == []


def test_a_long_form_never_holds_a_naming_word():
    text = "a message-passing function called Multiset to Multiset GNN (M2M-GNN) for graphs"
    assert [a.long for a in find_acronyms(text)] == []


def test_a_long_form_in_mismatched_quotes_loses_them():
    pairs = find_acronyms("our proposed method “robust mean teacher“ (RMT) on the benchmarks")
    assert [(p.long, p.short) for p in pairs] == [("robust mean teacher", "RMT")]
