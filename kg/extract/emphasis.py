"""Phrases the author set apart, and which of them the paper coins.

Authors mark a name they coin: ``We introduce *max-reward RL*``, ``which we
call the **optimal Schrödinger bridge matching**``, ``We call this the
“weights component”``. The name is often lower case, so no rule for the shape
of a name finds it; the emphasis and the naming cue before it do.

Markdown (``*x*``, ``**x**``, ``_x_``) and LaTeX (``\\textbf{x}``,
``\\emph{x}``, ...) emphasis is gone from the clean text, so those phrases are
read from the abstract as written (:func:`emphasised`) and looked up again in
the clean text; quotes stay in the clean text and are read there
(:func:`quoted`). :func:`coined` keeps the phrases set apart right after a
naming cue in the paper's own voice.

Examples
--------
>>> raw = "We introduce *max-reward RL*, where an agent optimizes the maximum."
>>> emphasised(raw)
('max-reward RL',)
>>> coined("We introduce max-reward RL, where an agent optimizes the maximum.",
...        emphasised(raw))
[('max-reward RL', 13, 26)]
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

# Each kind of markup is found by a pattern that starts with its literal mark (a
# scan for one character is fast; lookbehinds in front would make every position a
# try), and the phrase must stand as whole words: "**Di**sentangled" marks an
# acronym's letters, not a phrase.
_STARS = re.compile(r"\*{1,3}(?=[^\s*])([^*]+?)(?<=[^\s*])\*{1,3}")
_UNDERSCORES = re.compile(r"_(?=[^\s_])([^_${}]+?)(?<=[^\s_])_")
_LATEX = re.compile(r"\\(?:textbf|textit|emph|texttt|textsc|mathtt|mathbf|mathsf|underline)"
                    r"\{([^{}]+)\}")
_MARKUPS = (("*", _STARS), ("_", _UNDERSCORES), ("\\", _LATEX))
_NEEDS_CLEANING = ("\\", "$", "&", "{", "`", "'", "- ")
_QUOTES = (("“", re.compile(r"“([^”“]{2,80})”")),
           # (an opening quote written for the closing one: "“robust mean teacher“")
           ("“", re.compile(r"“([^”“]{2,80})“(?!\w)")), ("‘", re.compile(r"‘([^’]{2,80})’")),
           ('"', re.compile(r'"([^"]{2,80})"')), ("`", re.compile(r"`([^'`]{2,80})'(?!\w)")),
           (" '", re.compile(r"(?<= )'([^'`]{2,80})'(?!\w)")))
_TWO_LETTERS = re.compile(r"[A-Za-z]{2}")
_MAX_WORDS = 6
# the cue right before a coined phrase (matched on the sentence's last characters
# before it): in the paper's own voice, or a naming word in a sentence that has it
_FILLER = r"(?:\s*,)?\s+(?:(?:the|a|an|our|new|novel|first|simple)\s+)*$"
# words one of the own-voice cues needs ("his " for This/this, "ur " for Our/our)
_OWN_HINTS = ("we ", "We ", "his ", "ur ", "the name")


@lru_cache(maxsize=1)
def _cues() -> tuple[re.Pattern[str], re.Pattern[str], tuple[str, ...]]:
    """The own-voice cue, the naming cue and the words the naming cue needs, their verbs
    and naming words read from the proposal lexicon (``kg/data/proposals/lexicon.toml``:
    a new naming or cue word is one line there)."""
    from kg.extract.proposals.lexicon import alt, load_lexicon

    lex = load_lexicon()
    own = alt((*lex["cue.verbs_base"], *lex["naming.verbs"], *lex["naming.verbs_not_cue"],
               *lex["naming.coin"], *lex["emphasis.own_verbs_more"]))
    naming = (*lex["naming.participles"], *lex["emphasis.naming_more"])
    own_cue = re.compile(
        r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article)|[Oo]ur (?:paper|work))\s+"
        rf"(?:[a-z]+\s+){{0,5}}?(?:{own}|consider the (?:notion|concept) of)s?\b"
        r"(?:\s+(?:this|these|it|them|such (?:an? )?[\w\-]+|our [\w\-]+(?: [\w\-]+){0,2}))?"
        r"(?:\s+as)?(?:\s+the (?:notion|concept|idea|problem) of)?"
        rf"|\bwhich we (?:{alt(lex['naming.verbs'])}|{alt(lex['naming.verbs_not_cue'])}|refer to as)"
        r"|\bthe name"
        # "our proposed method “robust mean teacher“"
        r"|\b[Oo]ur (?:proposed|new|novel) (?:method|approach|model|framework|algorithm|loss|"
        r"module))" + _FILLER)
    naming_cue = re.compile(rf"(?<!so-)(?<!so )\b(?:{alt(naming)})" + _FILLER)
    return own_cue, naming_cue, naming
_FIRST_PERSON = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work|study|article))\b")
_CUE_REACH = 90   # characters before the phrase the cue may start in
# a lower-case phrase that ends in one of these is a description, not a name
_GENERIC_HEADS = frozenset([
    "method", "methods", "approach", "approaches", "framework", "frameworks", "model", "models",
    "algorithm", "algorithms", "technique", "techniques", "scheme", "schemes", "strategy",
    "strategies", "procedure", "pipeline", "system", "paradigm", "solution",
])
# what may follow a coined phrase: a stop, a function word or (after a name that is
# not all lower case) a generic head ("*embarrassingly parallel* GFlowNet": a modifier)
_AFTER = re.compile(r"[\"”’'“]?(?:\s*(?:[,.;:!?)(\u2013\u2014]|$)|\s+(?:and|or|that|which|where|to|"
                    r"for|in|as|is|are|was|with|from|by|of|on|via|can|since|because|under|into|"
                    r"while)\b)")
_HEAD_AFTER = re.compile(r"\s+(?:framework|method|approach|algorithm|model|module|mechanism|loss|"
                         r"architecture|benchmark|dataset|agent|attack|layer|network)\b")
_NOT_FIRST = frozenset([
    "a", "an", "the", "this", "that", "these", "our", "its", "their", "single", "new", "novel",
    "each", "any", "all", "some", "both", "more", "less",
])


def _whole_word(text: str, start: int, end: int) -> bool:
    return not (start and (text[start - 1].isalnum() or text[start - 1] in "*_\\")) and not (
        end < len(text) and (text[end].isalnum() or text[end] in "*_{"))


def _keep(phrase: str, out: dict[str, None]) -> None:
    phrase = phrase.strip(" .,;:")
    if _TWO_LETTERS.search(phrase) and len(phrase.split()) <= _MAX_WORDS:
        out[phrase] = None


def emphasised(raw: str) -> tuple[str, ...]:
    """Phrases in Markdown or LaTeX emphasis in an abstract as written, cleaned,
    in order, no repeats (single letters and formulas left out).

    >>> emphasised(r"We propose **Lo**w-rank \\textbf{LoRS}, the *fast* way; $\\mathbf{x}$")
    ('LoRS', 'fast')
    """
    found: list[tuple[int, str]] = []
    for mark, rx in _MARKUPS:
        if mark in raw:
            found.extend((m.start(), m.group(1)) for m in rx.finditer(raw)
                         if _whole_word(raw, m.start(), m.end()))
    if not found:
        return ()
    out: dict[str, None] = {}
    for _, phrase in sorted(found):
        if any(c in phrase for c in _NEEDS_CLEANING):
            from kg.extract.cleanup import clean

            phrase = clean(phrase)
        elif "  " in phrase or "\n" in phrase:
            phrase = " ".join(phrase.split())
        _keep(phrase, out)
    return tuple(out)


def quoted(text: str) -> tuple[str, ...]:
    """Phrases in quotes in a clean text, in order, no repeats.

    >>> quoted("We call this the “weights component”, and 'x' stays.")
    ('weights component',)
    """
    found: list[tuple[int, str]] = []
    for mark, rx in _QUOTES:
        if mark in text:
            found.extend((m.start(), m.group(1)) for m in rx.finditer(text))
    if not found:
        return ()
    out: dict[str, None] = {}
    for _, phrase in sorted(found):
        _keep(phrase, out)
    return tuple(out)


def _name_like(phrase: str) -> bool:
    """Could the phrase be a name? Not with a generic head ("PDE-informed
    denoising algorithm"); a lower-case one needs two words ("a single
    algorithm", "quantization" are not names) or a word of three parts
    ("text-to-concept", not "self-supervised")."""
    words = phrase.split()
    if "(" in phrase and not phrase.endswith(")"):
        return False   # "Lowest Common Ancestor (LCA)-on-the-Line": a name around an acronym
    if words[0].lower() in _NOT_FIRST or words[-1] in _GENERIC_HEADS:
        return False
    if phrase.lower() != phrase or any(c.isdigit() for c in phrase):
        return True
    # (one word of three hyphen parts reads as a phrase: "text-to-concept")
    return len(words) >= 2 or phrase.count("-") >= 2


def _cued(text: str, at: int) -> bool:
    """Does a naming cue end right before ``at``, in the paper's own voice?"""
    head = text[max(0, at - _CUE_REACH): at].rstrip("“‘\"'`")
    stop = head.rfind(". ")
    head = head[stop + 2:] if stop >= 0 else head
    # (the words first: a regex that must end at the phrase is tried at every position)
    own_cue, naming_cue, naming = _cues()
    if any(w in head for w in _OWN_HINTS) and own_cue.search(head):
        return True
    if not (any(w in head for w in naming) and naming_cue.search(head)):
        return False
    start = text.rfind(". ", 0, at)
    end = text.find(". ", at)
    return bool(_FIRST_PERSON.search(text, start + 1, end if end >= 0 else len(text)))


def coined(text: str, phrases: Iterable[str]) -> list[tuple[str, int, int]]:
    """The phrases a clean text sets right after a naming cue in its own voice,
    with offsets (the first such place of each).

    >>> text = "We call this the “weights component”. Others use the “context”."
    >>> coined(text, quoted(text))
    [('weights component', 18, 35)]
    >>> coined("We study a method called the grokking effect.", ("grokking effect",))
    [('grokking effect', 29, 44)]
    >>> coined("Prior work calls it the grokking effect.", ("grokking effect",))
    []
    >>> coined("It is called the grokking effect.", ("grokking effect",))
    []
    """
    out = []
    for phrase in phrases:
        if not _name_like(phrase):
            continue
        i = text.find(phrase)
        while i >= 0:
            end = i + len(phrase)
            followed = _AFTER.match(text, end) or (
                phrase.lower() != phrase and _HEAD_AFTER.match(text, end))
            if followed and _cued(text, i):
                out.append((phrase, i, end))
                break
            i = text.find(phrase, i + 1)
    return out
