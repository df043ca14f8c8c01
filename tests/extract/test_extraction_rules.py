"""The extraction rules end to end: what extract_texts finds in a sentence (generalisation
rules, proposal cues, known names), moved from the tests of the extraction pipeline's parts."""
from __future__ import annotations

import pytest

from kg.extract.acronyms import find_acronyms
from kg.extract.gazetteer import load
from kg.extract.proposals import find_proposals
from kg.identity import entity_key

# ------------------------------------------------- generalisation rules (issue 3)

def _mentions(text, layer="entity"):
    """The mentions of ``text`` in one layer (a gazetteer entry that is a concept,
    such as Gaussian Process, is in the concept layer)."""
    from kg.extract import extract_texts

    return [(m.text, m.type, m.proposed) for m in extract_texts([text])[0].mentions
            if m.layer == layer]


def _texts(text, scored=("model", "method", "dataset")):
    return [t for t, typ, _ in _mentions(text) if typ in scored]


def _proposed(text):
    return [t for t, _, p in _mentions(text) if p]


def test_multiword_ambiguous_names_match_with_lower_case_words():
    # an entry is "ambiguous" for its short alias; its long name still needs only a capital
    # (both are concepts too: their mentions are the concepts', one node each)
    text = "We sample with Langevin dynamics and Gaussian processes."
    assert [t for t, _, _ in _mentions(text, "concept")] == [
        "Langevin dynamics", "Gaussian processes"]
    assert _texts("We use optimal transport. Optimal transport is costly.") == []
    assert _texts("It solves a linear program.") == ["linear program"]   # deliberate lower case


def test_case_variant_alias_is_an_exact_form():
    assert _texts("We fine-tune Bert and GPT2 models.") == ["Bert", "GPT2"]


def test_defined_acronyms_of_tasks_and_others_are_no_mentions():
    text = ("Due to the cost of Image Quality Assessment (IQA) datasets, secure multi-party "
            "computation (MPC) is used. Inspired by positive-unlabeled (PU) learning and "
            "Wasserstein gradient flow (WGF), we study differentially private (DP) training.")
    assert _texts(text) == ["positive-unlabeled", "PU", "Wasserstein gradient flow", "WGF"]


def test_a_gazetteer_acronym_with_another_long_form_is_not_that_entry():
    # MPC is Model Predictive Control in the gazetteer; SDR is a metric there
    ms = _mentions("A theory for sufficient dimension reduction (SDR) in models, unlike "
                   "multi-party computation (MPC). SDR and MPC are fast.")
    assert [typ for t, typ, _ in ms if t == "SDR"] == ["method", "method"]
    assert not any(t == "MPC" for t, *_ in ms)


def test_the_abstracts_own_acronym_beats_the_gazetteer_in_later_uses():
    ms = _mentions("We propose Dynamic Memory Compression (DMC), a method. DMC is fast.")
    assert [typ for t, typ, _ in ms if t == "DMC"] == ["method", "method"]


def test_generic_head_is_dropped_unless_it_is_part_of_the_name():
    assert _texts("We use the Bradley-Terry model and the Segment Anything Model.") == [
        "Bradley-Terry", "Segment Anything Model"]


def test_coined_names_without_a_cue_noun_are_typed():
    text = ("Ditto is 3x faster than MPCFormer (ICLR 2023). FlowSite extends this model. "
            "Code: github.com/MAGICS-LAB/UHop. Under W4A16 and FP16 it runs.")
    found = _texts(text)
    assert "MPCFormer" in found and "FlowSite" in found
    assert not {"MAGICS-LAB", "W4A16", "FP16"} & set(found)


def test_a_capitalised_name_before_dataset_is_a_dataset():
    ms = _mentions("Experiments on the Sepsis dataset and the Waymo dataset, but not on "
                   "NLP datasets or our Synthetic dataset.")
    assert [(t, typ) for t, typ, _ in ms] == [("Sepsis", "dataset"), ("Waymo", "dataset")]


@pytest.mark.parametrize("text", [
    "Many efforts transfer these to video, which are termed Video-LLMs. They are coarse.",
    "Its main line of work is based on the so-called Mapper graph, which is combinatorial.",
    "In contemporary radiotherapy planning (RTP), a key module leaf sequencing is manual.",
    "We introduce AST-T5, a novel pretraining paradigm that leverages the Abstract Syntax Tree (AST).",
    "We propose an easy-to-implement two-stage PU learning method for it.",
    "We then turn our attention to unsupervised environment design (UED) methods, which assume it.",
])
def test_proposal_cues_that_name_no_contribution(text):
    known = load()
    names = [p.name for p in find_proposals(text, find_acronyms(text),
                                            lambda n: known.lookup(entity_key(n)) is not None)]
    assert not {"Video-LLMs", "Mapper", "radiotherapy planning", "RTP", "Abstract Syntax Tree",
                "AST", "unsupervised environment design", "UED"} & set(names)
    assert "PU learning" not in _proposed(text)


def test_parts_of_the_proposed_system_defined_in_its_sentence_are_proposed():
    text = ("In this paper, we introduce SemiRES, a semi-supervised framework. Within SemiRES, we "
            "offer two matching strategies: IoU-based Optimal Matching (IOM) and Composite Parts "
            "Integration (CPI). It also uses a Cumulative Density Function (CDF).")
    props = _proposed(text)
    assert {"IoU-based Optimal Matching", "IOM", "Composite Parts Integration", "CPI"} <= set(props)
    assert "CDF" not in props


@pytest.mark.parametrize("text,names", [
    ("In this paper, we explore a problem setting called Open-world Prompt Tuning (OPT), which "
     "is new.", ["Open-world Prompt Tuning", "OPT"]),
    ("We introduce the Factored-Reward Bandits (FRBs), a novel setting able to capture it.",
     ["Factored-Reward Bandits", "FRBs"]),
    ("We observe a phenomenon we call gradient echoing, which holds.", ["gradient echoing"]),
])
def test_a_named_setting_is_proposed_but_no_mention(text, names):
    ms = _mentions(text)
    assert [t for t, _, p in ms if p] == names
    assert all(typ == "other" for t, typ, _ in ms if t in names)


@pytest.mark.parametrize("text, proposed", [
    ("Additionally, we introduce an Interactive Convolution Block and leverage it.",
     {"Interactive Convolution Block"}),
    ("We propose an agent equipped with a novel Dreaming Strategy. It plans.", {"Dreaming Strategy"}),
    ("We identify an interesting phenomenon called semantic consistency, which helps.",
     {"semantic consistency"}),
    # names built on the paper's own name are its own too; a known model is not
    ("We propose CodeAct, a unified action space. CodeActAgent, finetuned from Llama2, "
     "uses it.", {"CodeAct", "CodeActAgent"}),
    # a Title phrase cut short by the word limit is no name
    ("We propose a novel Disentangled Continual Graph Neural Architecture Search with "
     "Invariant Modularization (GASIM) method.", None),
])
def test_more_proposal_cues(text, proposed):
    from kg.extract import extract_texts

    got = {m.text for m in extract_texts([text])[0].mentions if m.proposed}
    if proposed is None:
        assert not any(n.endswith("Invariant") for n in got), got
    else:
        assert got == proposed


def test_pipe_separated_names_are_split():
    from kg.extract import extract_texts

    got = [m.text for m in extract_texts(["the ResNet18|MobileNetV2|DeiT-Tiny backbone"])[0].mentions]
    assert got == ["ResNet18", "MobileNetV2", "DeiT-Tiny"]


@pytest.mark.parametrize("text, proposed", [
    ("We introduce the predictive CVaR policy gradient, a novel approach that works.",
     {"predictive CVaR policy gradient"}),
    ("We propose a novel method, severity encoding, to estimate the degradation.", {"severity encoding"}),
    ("We propose a new update rule, which we denote Q-score matching. It works.", {"Q-score matching"}),
    ("We present Φ_Flow, a Python toolkit for physics.", {"Φ_Flow"}),
    ("Unlike others, the resulting Particle Denoising Diffusion Sampler (PDDS) is consistent.",
     {"Particle Denoising Diffusion Sampler", "PDDS"}),
    ("In this paper, we present the first collective certificate, which certifies nodes.", set()),
])
def test_proposal_cues_from_blind3(text, proposed):
    from kg.extract import extract_texts

    assert {m.text for m in extract_texts([text])[0].mentions if m.proposed} == proposed


@pytest.mark.parametrize("text, proposed", [
    ("To tackle this, we introduce a framework called component modeling for decomposing it.",
     {"component modeling"}),
    ("We present nearly optimal (with respect to a horizon T) learning algorithms.", set()),
    ("We introduce a novel Style Code Enhancer, alongside an innovative Geometric Regularization "
     "objective to keep consistency.", {"Style Code Enhancer", "Geometric Regularization"}),
    ("We call this probabilistic score the Visual Generative Pre-Training Score (VisualGPTScore).",
     {"Visual Generative Pre-Training Score", "VisualGPTScore"}),
])
def test_proposal_cues_from_blind4(text, proposed):
    from kg.extract import extract_texts

    assert {m.text for m in extract_texts([text])[0].mentions if m.proposed} == proposed


@pytest.mark.parametrize("text, proposed", [
    # the paper's code repository carries the name of what it makes
    ("OSSCAR can lead to lower perplexity. Our code is available at "
     "https://github.com/mazumder-lab/OSSCAR.", {"OSSCAR"}),
    ("Med-ST learns temporal semantics. Code: https://github.com/SVT-Yang/MedST.", {"Med-ST"}),
    # "to propose" after the paper's own subject
    ("We leverage these observations to propose Prompting for Robustness (PfR) which first uses "
     "foundation models.", {"Prompting for Robustness", "PfR"}),
    # an apposition after "the resulting <noun>" / "our proposed <nouns>"
    ("The resulting model, Tripod, achieves state-of-the-art results on four benchmarks.",
     {"Tripod"}),
    ("Our proposed baselines, FRBC and FRBT, achieve superior performance.", {"FRBC", "FRBT"}),
    # a coined acronym with a method's noun after it, in the paper's own voice
    ("In this paper, we demonstrate how to perform provably robust and conjugate Gaussian "
     "process (RCGP) regression at no cost.", {"robust and conjugate Gaussian process", "RCGP"}),
    # a part of the paper's system, its sentence opening with an adverbial phrase
    ("In this paper, we introduce the Med-ST framework for modeling. For spatial modeling, "
     "Med-ST employs the Mixture of View Expert (MoVE) architecture to integrate features.",
     {"Med-ST", "Mixture of View Expert", "MoVE"}),
    # a quoted name is a name even when it reads like "X-adjective"
    ('We apply a log-sigmoid to the rewards, a method we term "LSC-transformation" (defined '
     "below).", {"LSC-transformation"}),
])
def test_proposal_cues_from_blind5(text, proposed):
    from kg.extract import extract_texts

    assert {m.text for m in extract_texts([text])[0].mentions if m.proposed} == proposed


@pytest.mark.parametrize("text", [
    # a repository named like an ordinary word, or a name the paper only uses
    "We build on transformers: https://github.com/huggingface/transformers.",
    "We evaluate on ImageNet. Our code: https://github.com/someone/our-code.",
])
def test_repository_names_need_a_name_in_the_text(text):
    from kg.extract import extract_texts

    assert not [m.text for m in extract_texts([text])[0].mentions if m.proposed]


def test_an_all_capital_proposed_name_is_no_plural_of_a_known_one():
    from kg.extract import extract_texts

    # "RLS" is not the plural of RL, nor "DMS" of DM
    for text, name in [("We propose RLS, a new solver. RLS is fast.", "RLS"),
                       ("We propose DMS, a method for sampling.", "DMS")]:
        got = {(m.text, m.canonical, m.proposed) for m in extract_texts([text])[0].mentions}
        assert got == {(name, name, True)}
    # a plural written as such still folds: "LLMs" is LLM (the concept that entry is)
    [m] = extract_texts(["We study LLMs."])[0].mentions
    assert m.key == "large-language-model"


def test_a_field_or_phrase_is_never_proposed():
    from kg.extract import extract_texts

    text = ("We propose ZeroNet. With a series of improvements we propose, ZeroNet outperforms "
            "the current state-of-the-art (SoTA) by a wide margin.")
    assert {m.text for m in extract_texts([text])[0].mentions if m.proposed} == {"ZeroNet"}


def test_no_proposed_name_ends_in_a_function_word():
    from kg.extract import extract_texts

    text = ("We introduce a transformer with (multiple) discrete bottleneck(s), whose latent "
            "codes learn a compressed representation.")
    assert not [m.text for m in extract_texts([text])[0].mentions if m.proposed]


@pytest.mark.parametrize("text,proposed", [
    # a name in apposition to what the paper makes holds even where the gazetteer has one
    # like it (SGDM is also SGD with momentum)
    ("Conditioned on the observed graph, we propose a novel graph generative framework, SGDM, "
     "which is based on subgraph diffusion.", ["SGDM"]),
    ("We first introduce a novel video Multimodal Large Language Model (MLLM), MotionEpic, "
     "which achieves fine-grained grounding.", ["MotionEpic"]),
    # a naming word in the parentheses is no alias, and no name starts with an article
    ("We propose an AlphaZero-like tree-search learning framework for LLMs (termed TS-LLM), "
     "which", ["TS-LLM"]),
    ("We propose a simple yet effective input-level backdoor detection (dubbed IBD-PSC) to",
     ["IBD-PSC"]),
])
def test_proposal_cues_from_blind6_and_icml(text, proposed):
    from kg.extract import _nlp

    doc = _nlp(None)(text)
    assert [p.name for p in doc.user_data["kg_proposals"]] == proposed


def _entities(text: str) -> dict[str, tuple[str, str, str]]:
    from kg.extract import extract_texts

    return {m.text: (m.canonical, m.type, m.key) for m in extract_texts([text])[0].mentions}


def test_a_proposed_name_spelt_unlike_a_gazetteer_entry_is_its_own_entity():
    # the graph mints entity IRIs from keys: the paper's Maestro must not be the dataset's
    ours = _entities("We propose Maestro, a method for scheduling LLM agents. Maestro is fast.")
    theirs = _entities("We evaluate on the MAESTRO dataset of piano recordings.")
    assert ours["Maestro"][:2] == ("Maestro", "method")
    assert theirs["MAESTRO"][:2] == ("MAESTRO", "dataset")
    assert ours["Maestro"][2] != theirs["MAESTRO"][2]
    # a lower-case spelling of a known name says nothing about another thing
    sam = _entities("We propose sharpness-aware minimization, a new method.")
    known = _entities("We train with Sharpness-Aware Minimization.")
    assert sam["sharpness-aware minimization"][2] == known["Sharpness-Aware Minimization"][2]


def test_a_redefined_acronym_is_known_by_its_long_form_in_every_use():
    text = ("We study full-fine-tuning (FFT) of LLMs. FFT costs more than LoRA. "
            "The Fast Fourier Transform is another FFT.")
    got = _entities(text)
    assert got["full-fine-tuning"] == got["FFT"]
    assert got["FFT"][0] == "FFT" and got["FFT"][2] != _entities("We apply the FFT.")["FFT"][2]
    one = _entities("We propose debiased offline representation learning for fast online "
                    "adaptation (DORA). DORA beats the baselines.")
    assert len({one["DORA"], one["debiased offline representation learning for fast online "
                                  "adaptation"]}) == 1


@pytest.mark.parametrize("text,proposed", [
    ("Our solution, Layerwise Proximal Replay (LPR), balances learning from new and replay data.",
     ["Layerwise Proximal Replay", "LPR"]),
    ("Our framework, the Actor-Critic Framework with a Hierarchical Structure (ArCHer), combines "
     "two RL algorithms.", ["Actor-Critic Framework with a Hierarchical Structure", "ArCHer"]),
    ("We study path-based methods and propose a novel method KnowFormer. It uses attention.",
     ["KnowFormer"]),
    ("We introduce a framework called Patchscopes and show how it can be used.", ["Patchscopes"]),
    ("In this paper, we introduce EfficientZero V2, a general framework for RL.",
     ["EfficientZero V2"]),
    ("Based on this observation, we propose Flora, which achieves high-rank updates.", ["Flora"]),
    ("We introduce Genie, the first generative interactive environment.", ["Genie"]),
    ("Leveraging this dataset, we developed SleepFM, the first foundation model for sleep.",
     ["SleepFM"]),
    # names the gazetteer knows (from these very papers) hold after the thing they name
    ("We introduce an expansive benchmark suite SciBench for LLMs.", ["SciBench"]),
    ("We present an any-to-any MM-LLM system, NExT-GPT. It connects an LLM.", ["NExT-GPT"]),
])
def test_proposal_cues_from_icml_titles(text, proposed):
    from kg.extract import extract_texts

    ex = extract_texts([text])[0]
    assert list(dict.fromkeys(m.text for m in ex.mentions if m.proposed)) == proposed


@pytest.mark.parametrize("text,proposed", [
    # a known name that modifies what the paper makes is not what it makes
    ("Based on these insights, we develop an RL algorithm called GOALIVE.", ["GOALIVE"]),
    ("We here propose a new GFlowNet training framework, with policy-dependent rewards.", []),
    # a known thing named with its acronym before a part's noun, whatever its case
    ("We focus on the direct preference optimization (DPO) algorithm in particular.", []),
    ("The self-attention module and feedforward network (FFN) module are its parts.", []),
    # ... but an acronym the abstract spells out with other words is the paper's part
    ("Our method compresses the cache with a Dynamic Memory Compression (DMC) module.",
     ["Dynamic Memory Compression", "DMC"]),
])
def test_known_names_that_modify_or_name_no_contribution(text, proposed):
    from kg.extract import extract_texts

    ex = extract_texts([text])[0]
    assert list(dict.fromkeys(m.text for m in ex.mentions if m.proposed)) == proposed


def test_a_known_name_called_so_outside_the_papers_voice_is_not_proposed():
    from kg.extract import extract_texts

    text = ("Deep models often use a class of networks called Implicit Neural Representations "
            "(INRs). We propose OpINR, a method.")
    ex = extract_texts([text])[0]
    assert list(dict.fromkeys(m.text for m in ex.mentions if m.proposed)) == ["OpINR"]


@pytest.mark.parametrize("text, names", [
    ("Results under TGIF->MSRVTT and TGIF->MSVD settings.", ["MSRVTT", "MSVD"]),
    ("Transfer MNIST→SVHN works.", ["MNIST", "SVHN"]),
])
def test_names_either_side_of_an_arrow_are_two_names(text, names):
    from kg.extract import extract_texts

    ex = extract_texts([text], ["p"])[0]
    assert [m.text for m in ex.mentions] == names


@pytest.mark.parametrize("text, proposed", [
    ("We propose a new algorithm using reparameterization and convexification of implicit "
     "gradients (RCIG). RCIG establishes a new state of the art.",
     {"reparameterization and convexification of implicit gradients", "RCIG"}),
    # a concept of the vocabulary is nobody's coinage, whoever defines it
    ("We propose a study of post-training quantization (PTQ). PTQ is cheap.", set()),
    # the short form never comes back as the paper's own: a definition only
    ("We propose a bound using the smoothed gradient norm (SGN) of the loss.", set()),
])
def test_a_coined_pair_used_as_the_papers_own_is_proposed(text, proposed):
    from kg.extract import extract_texts

    ex = extract_texts([text], ["p"])[0]
    assert {m.text for m in ex.mentions if m.proposed} == proposed


def test_a_measure_at_a_cut_off_is_a_metric():
    from kg.extract import extract_texts

    ex = extract_texts(["Gains of 2% on R@1 and mAP@0.5; mail x@y.com."], ["p"])[0]
    assert [(m.text, m.type) for m in ex.mentions] == [("R@1", "metric"), ("mAP@0.5", "metric")]


def test_a_title_phrase_after_a_cue_is_one_name_even_when_it_starts_with_a_hyphened_word():
    from kg.extract import extract_texts

    ex = extract_texts(["To fix it, we introduce Value-Aware Mutual Information Maximization "
                        "to enhance the representation."], ["p"])[0]
    assert [(m.text, m.proposed) for m in ex.mentions] == [
        ("Value-Aware Mutual Information Maximization", True)]


@pytest.mark.parametrize("text, proposed", [
    ("We propose the Blindspot unlearning method which uses a new optimizer.", {"Blindspot"}),
    ("We propose the Langevin sampling algorithm for it.", set()),   # opens Langevin Dynamics
    ("We propose a Verilog generation framework, BetterV, which tunes LLMs.", {"BetterV"}),
])
def test_one_capitalised_word_before_the_thing_made_names_it(text, proposed):
    from kg.extract import extract_texts

    ex = extract_texts([text], ["p"])[0]
    assert {m.text for m in ex.mentions if m.proposed} == proposed


def test_a_user_name_in_a_code_url_is_no_entity():
    from kg.extract import extract_texts

    ex = extract_texts(["We estimate layouts. Code: https://github.com/KangchengLiu/FAC_Foreground."],
                       ["p"])[0]
    assert "KangchengLiu" not in {m.text for m in ex.mentions}


@pytest.mark.parametrize("text,name,typ", [
    # a multi-word Title Case name in a list beside known names (ICML 2023)
    ("It lets us leverage several methods, like Random Fourier Features, the Fast Gauss "
     "Transform, and Locality Sensitive Hashing.", "Fast Gauss Transform", "method"),
    ("It does not use ad-hoc mechanisms such as Error Feedback, Gradient Tracking, or a "
     "Proximal operator.", "Gradient Tracking", "method"),
])
def test_title_case_names_in_a_list_of_known_names(text, name, typ):
    from kg.extract import extract_texts

    got = {m.text: m.type for m in extract_texts([text])[0].mentions}
    assert got.get(name) == typ, got


def test_a_title_case_list_without_known_names_names_nothing():
    from kg.extract import extract_texts

    text = "We test it in regions such as North America, South East Asia, and Western Europe."
    assert extract_texts([text])[0].mentions == ()


def test_a_year_after_an_apostrophe_is_an_edition_of_a_known_name_or_a_venue():
    from kg.extract import extract_texts

    ex = extract_texts(["It sets the state of the art on WMT'14 and IWSLT'14, unlike the "
                        "NeurIPS'20 challenge winners."])[0]
    assert [(m.text, m.canonical, m.type) for m in ex.mentions] == [
        ("WMT'14", "WMT", "dataset"), ("IWSLT'14", "IWSLT", "dataset")]


def test_two_names_joined_by_and_before_a_plural_noun():
    from kg.extract import extract_texts

    ex = extract_texts(["Finally, this paper introduces Image-Report Contrastive and Image-Report "
                        "Matching losses. Experiments on the Oxford Radar RobotCar and NCLT "
                        "datasets and on the Spaces and Real data show gains."])[0]
    got = {(m.text, m.type, m.proposed) for m in ex.mentions}
    assert {("Image-Report Contrastive", "method", True), ("Image-Report Matching", "method", True),
            ("NCLT", "dataset", False)} <= got
    assert not any(m.text in ("Image-Report", "Spaces", "Real") for m in ex.mentions)


def test_acronyms_listed_right_after_a_plural_cue_noun_are_names():
    from kg.extract import extract_texts

    ex = extract_texts(["We study four existing methods, including two neural symbolic methods "
                        "NSCL and NSVQA, and two others."])[0]
    assert {(m.text, m.type) for m in ex.mentions} >= {("NSCL", "method"), ("NSVQA", "method")}


def test_a_typographic_apostrophe_matches_the_gazetteer_s_straight_one():
    from kg.extract import extract_texts

    ex = extract_texts(["This paper adopts the Newton’s method, unlike the Earth Mover’s "
                        "Distance."])[0]
    assert [(m.text, m.canonical) for m in ex.mentions] == [
        ("Newton’s method", "Newton's Method"), ("Earth Mover’s Distance", "Earth Mover's Distance")]


def test_which_we_refer_to_as_proposes_the_name_and_its_long_form():
    from kg.extract import extract_texts

    ex = extract_texts(["We impose constraints with tractable models, which we refer to as GeLaTo "
                        "(Generating Language with Tractable Constraints). GeLaTo works."])[0]
    assert {m.text for m in ex.mentions if m.proposed} == {
        "GeLaTo", "Generating Language with Tractable Constraints"}
