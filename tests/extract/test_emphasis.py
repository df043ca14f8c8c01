"""Names the author sets apart in emphasis or quotes after a naming cue."""
from __future__ import annotations

import pytest

from kg.extract import extract_texts
from kg.extract.emphasis import coined, emphasised, quoted


def test_markdown_and_latex_emphasis_are_read_from_the_text_as_written():
    raw = (r"We propose **Lo**w-**R**ank \textbf{LoRS} and *max-reward RL*, with "
           r"$\mathbf{x}$ and \emph{Dr. Strategy}.")
    assert emphasised(raw) == ("LoRS", "max-reward RL", "Dr. Strategy")


def test_no_markup_no_phrases():
    assert emphasised("We propose LoRS for fine-tuning.") == ()


def test_a_quote_closed_by_an_opening_quote_is_read():
    assert quoted("our method “robust mean teacher“ (RMT) and “xy” here") == (
        "robust mean teacher", "xy")


def test_quotes_are_read_from_the_clean_text():
    text = "We call this the “weights component” and the `triple changes estimator' here."
    assert quoted(text) == ("weights component", "triple changes estimator")


@pytest.mark.parametrize("text,phrase", [
    ("We introduce max-reward RL, where an agent optimizes the maximum.", "max-reward RL"),
    ("We propose a novel procedure which we call the optimal Schrödinger bridge matching. It",
     "optimal Schrödinger bridge matching"),
    ("In particular, we introduce the notion of a universal critic, which differs.",
     "universal critic"),
    ("We extend these encodings and introduce unified encodings, that extend predictors.",
     "unified encodings"),
    ("We consider the notion of criterion collapse, in which one metric implies another.",
     "criterion collapse"),
    ("The main ingredients are metrics, which lead to the name hierarchical IPM.",
     "hierarchical IPM"),
    ("We propose a method called Deep LoRA for fine-tuning.", "Deep LoRA"),
    # after "our proposed method", in quotes whose closing one is an opening one (CVPR 2023)
    ("We show the effectiveness of our proposed method “robust mean teacher“ (RMT) on them.",
     "robust mean teacher"),
    # one lower-case word of three parts (ICML 2023)
    ("Building on this, we propose text-to-concept, where features are aligned.",
     "text-to-concept"),
])
def test_a_phrase_set_apart_after_a_naming_cue_is_coined(text, phrase):
    assert [name for name, _, _ in coined(text, (phrase,))] == [phrase]


@pytest.mark.parametrize("text,phrase", [
    # no cue, or not the paper's own voice
    ("Transformers perform poorly on long-range tasks.", "long-range tasks"),
    ("It is called the grokking effect.", "grokking effect"),
    ("Our measure counts so-called linear regions of the network.", "linear regions"),
    # a modifier of the name that follows, not the name
    ("We propose embarrassingly parallel GFlowNet (EP-GFlowNet).", "embarrassingly parallel"),
    # a description, not a name
    ("In addition, we introduce a PDE-informed denoising algorithm.",
     "PDE-informed denoising algorithm"),
    ("Can we develop a single algorithm for all games?", "a single algorithm"),
    ("This paper presents a counter-argument to this belief.", "counter-argument"),
    ("We propose self-supervised, a word of two parts.", "self-supervised"),
    # a name built around an acronym
    ("We introduce the Lowest Common Ancestor (LCA)-on-the-Line framework.",
     "Lowest Common Ancestor (LCA)-on-the-Line"),
])
def test_phrases_that_are_not_coined(text, phrase):
    assert coined(text, (phrase,)) == []


def test_offsets_point_into_the_text():
    text = "Prior work uses the transfer function. We introduce the transfer function, here."
    [(name, start, end)] = coined(text, ("transfer function",))
    assert text[start:end] == name and start > 40


def _proposed(raw: str) -> list[tuple[str, str]]:
    ex = extract_texts([raw])[0]
    return [(m.text, m.type) for m in ex.mentions if m.proposed]


def test_the_pipeline_proposes_an_emphasised_lower_case_name():
    raw = ("We introduce *max-reward RL*, where an agent optimizes the maximum rather than "
           "the cumulative reward.")
    [(name, typ)] = _proposed(raw)
    assert name == "max-reward RL" and typ in ("model", "method")
    assert _proposed(raw.replace("*", "")) == []


def test_a_coined_notion_is_proposed_but_no_model_method_or_dataset():
    raw = ("We call this the “weights component”, and the remainder is identified as the "
           "“context component”.")
    assert _proposed(raw) == [("weights component", "other"), ("context component", "other")]


def test_a_coined_name_with_its_acronym_gives_both():
    raw = "In this paper, we introduce **Layerwise Learning Rate (LLR)** for fine-tuning."
    assert [name for name, _ in _proposed(raw)] == ["Layerwise Learning Rate", "LLR"]


def test_a_new_naming_word_reaches_emphasis_and_acronyms_from_the_lexicon(monkeypatch):
    """The naming participles are the lexicon's (kg/data/proposals/lexicon.toml), not
    copies: one line there reaches the coined-phrase cue and the acronym patterns."""
    from kg.extract import acronyms, emphasis
    from kg.extract.proposals import lexicon

    text = "We study a method, christened “sparse mixing”, and a model, christened SME, here."
    flush = (emphasis._cues.cache_clear, acronyms._leads.cache_clear)
    for f in flush:
        f()
    assert coined(text, ["sparse mixing"]) == []
    more = lexicon.with_words(lexicon.load_lexicon(), "naming.participles", "christened")
    monkeypatch.setattr(lexicon, "load_lexicon", lambda path=None: more)
    for f in flush:
        f()
    try:
        assert [p for p, _, _ in coined(text, ["sparse mixing"])] == ["sparse mixing"]
        pairs = acronyms._named_pairs("We propose Sparse Mixing Experts, christened SME, here.")
        assert [(p.long, p.short) for p in pairs] == [("Sparse Mixing Experts", "SME")]
    finally:
        monkeypatch.undo()
        for f in flush:
            f()
