"""Where to try each cue pattern: a long pattern is matched only where its first
word is (a scan for one literal word is far cheaper than a scan for the whole
pattern), and a few names are found backwards from a cheap anchor (", a",
"outperforms", an enumeration mark).

The anchor words' offsets come from the tokens when there are
(:class:`Anchors`); without them the anchor word is found by regex.
"""
from __future__ import annotations

import re
from itertools import compress
from typing import Iterator

from kg.extract.proposals.patterns import (
    ADVERB_BEFORE,
    APPOSITION_AT,
    CALLED,
    CALLED_MORE,
    CUE,
    CUE_LOOSE,
    CUE_LOWER,
    CUE_PAREN,
    DASH_NAME,
    ENUM_AT,
    ENUM_MARK,
    ENUM_TITLE,
    LOWER_NAMED,
    METHOD_COMMA,
    NAME_FULL,
    NOVEL_PAREN,
    OUR,
    OUR_IS,
    OWN,
    OWN_APPOSITION,
    SUBJECT,
    VERBS,
    VERBS_ING,
    WINS_AT,
)

# the first words of the long patterns, as a regex (no tokens) and as words
SUBJECT_AT = re.compile(r"\b(?:[Ww]e|[Tt]his|[Oo]ur|[Bb]y)\b")
_CALLED_AT = re.compile(r"\b(?:called|dubbed|named|termed|coined|namely|abbreviated|which|we|"
                        r"denoted|referred)\b")
_OUR_AT = re.compile(r"\b(?:[Oo]ur|[Tt]he proposed)\b")
_NOVEL_AT = re.compile(r"\b(?:novel|new|our|proposed)\b")
_SUBJECT_WORDS = frozenset("We we This this Our our By by".split())
_CALLED_WORDS = frozenset("called dubbed named termed coined namely abbreviated which we denoted "
                          "referred".split())
_OUR_WORDS = frozenset("Our our The the".split())
_NOVEL_WORDS = frozenset("novel new our proposed".split())
_WINS_WORDS = frozenset("outperforms surpasses beats achieves".split())
_GATES = {_SUBJECT_WORDS: re.compile(rf"{SUBJECT}(?:{VERBS}|{VERBS_ING})"),
          _OUR_WORDS: re.compile(r"[Oo]ur\b|[Tt]he proposed\b"),
          _CALLED_WORDS: re.compile(r"(?:called|dubbed|named|termed|coined|namely|abbreviated|which we|"
                                    r"we (?:call|name|term|dub|denote)|denoted (?:as|by)|referred to as)\b")}
_ALL_ANCHOR_WORDS = (_SUBJECT_WORDS | _CALLED_WORDS | _OUR_WORDS | _NOVEL_WORDS | _WINS_WORDS
                     | {"resulting"})
_ANCHORS = {id(CUE): (SUBJECT_AT, _SUBJECT_WORDS), id(CUE_LOOSE): (SUBJECT_AT, _SUBJECT_WORDS),
            id(CUE_PAREN): (SUBJECT_AT, _SUBJECT_WORDS),
            id(LOWER_NAMED): (SUBJECT_AT, _SUBJECT_WORDS), id(CALLED): (_CALLED_AT, _CALLED_WORDS),
            id(OUR): (_OUR_AT, _OUR_WORDS), id(OWN): (_OUR_AT, _OUR_WORDS),
            id(OUR_IS): (_OUR_AT, _OUR_WORDS),
            id(NOVEL_PAREN): (_NOVEL_AT, _NOVEL_WORDS),
            id(CALLED_MORE): (_CALLED_AT, _CALLED_WORDS), id(DASH_NAME): (SUBJECT_AT, _SUBJECT_WORDS),
            id(CUE_LOWER): (SUBJECT_AT, _SUBJECT_WORDS),
            id(METHOD_COMMA): (SUBJECT_AT, _SUBJECT_WORDS)}


# every word one of CALLED, CALLED_MORE and LOWER_NAMED needs (lower-cased)
NAMING_HINTS = ("called", "dubbed", "named", "termed", "coined", "namely", "abbreviated",
                "denote", "referred", "we call", "we name", "we term", "we dub")
NAMING_TOKENS = frozenset(w for base in (
    "called dubbed named termed coined namely abbreviated denote denoted denotes referred "
    "call name term dub").split() for w in (base, base.capitalize()))
NAMING_PATTERNS = (CALLED, LOWER_NAMED)

# where an apposition of the paper's own name can start: "our proposed X, Name", "the resulting"
_OUR_NEXT = ("proposed ", "new ", "novel ", "final ")
_OWN_APPOSITION_HINTS = ("resulting ", "ur proposed ", "ur new ", "ur novel ", "ur final ")


class At:
    """A match-like (name span, start) found from an anchor."""

    def __init__(self, s: int, e: int, start: int) -> None:
        self._span = (s, e)
        self._start = start

    def span(self, _group: str) -> tuple[int, int]:
        return self._span

    def start(self) -> int:
        return self._start


class Anchors:
    """Where the anchor words of the cue patterns are in one text, from its
    tokens: word -> offsets, and, filled as the passes ask, the sorted offsets
    of a set of anchor words and those of them where the cue goes on."""

    __slots__ = ("words", "sets", "gated")

    def __init__(self, words: list[str], offsets: list[int]) -> None:
        self.words: dict[str, list[int]] = {}
        self.sets: dict[frozenset[str], list[int]] = {}
        self.gated: dict[frozenset[str], list[int]] = {}
        anchors = _ALL_ANCHOR_WORDS
        for i in compress(range(len(words)), map(anchors.__contains__, words)):
            self.words.setdefault(words[i], []).append(offsets[i])


def _starts(anchor: re.Pattern[str], words: frozenset[str], text: str,
            at: Anchors | None) -> list[int]:
    """Where the anchor ``words`` are in ``text`` (``at``: their offsets, from the
    tokens; without it they are found by the regex ``anchor``), and, for a set with
    a gate, only where the cue goes on ("we propose", "the proposed", "which we call")."""
    if at is None:
        found = [a.start() for a in anchor.finditer(text)]
    else:
        cached = at.sets.get(words)   # the offsets of one anchor set, sorted once per text
        if cached is None:
            cached = at.sets[words] = sorted(o for w in words for o in at.words.get(w, ()))
        found = cached
    gate = _GATES.get(words)
    if gate is not None:
        gated = at.gated.get(words) if at is not None else None
        if gated is None:
            gated = [o for o in found if gate.match(text, o)]
            if at is not None:
                at.gated[words] = gated
        return gated
    return found


def anchored(rx: re.Pattern[str], text: str, at: Anchors | None = None) -> Iterator[re.Match[str]]:
    """Matches of ``rx``, tried only where its first word is (see :func:`_starts`)."""
    entry = _ANCHORS.get(id(rx))
    if entry is None:
        yield from rx.finditer(text)
        return
    anchor, words = entry
    for a_start in _starts(anchor, words, text, at):
        m = rx.match(text, a_start)
        if m:
            yield m


def backward(rx: re.Pattern[str], text: str, at: Anchors | None = None) -> Iterator[At]:
    """The names found backwards from a cheap anchor ``rx`` (:data:`APPOSITION_AT`,
    :data:`WINS_AT`, :data:`ENUM_AT`): the name before ", a", before "outperforms",
    the Title phrase after an enumeration mark "(i)"."""
    if rx is APPOSITION_AT or rx is WINS_AT:
        # ", a ..." is found by a scan of the text (cheaper than a look at every comma token)
        anchors = ([a.start() for a in rx.finditer(text)] if rx is APPOSITION_AT
                   else _starts(rx, _WINS_WORDS, text, at))
        for a_start in anchors:
            end = a_start
            if rx is WINS_AT:
                if not rx.match(text, a_start):
                    continue
                adv = ADVERB_BEFORE.search(text, max(0, end - 30), end)
                if not adv:
                    continue
                end = adv.start()
            begin = max(text.rfind(" ", 0, end), text.rfind("(", 0, end),
                        text.rfind("“", 0, end), text.rfind('"', 0, end)) + 1
            if begin < end and NAME_FULL.fullmatch(text, begin, end):
                yield At(begin, end, begin)
    elif rx is ENUM_AT:
        for a_start in [a.start() for a in rx.finditer(text)]:  # ")" may not be a token
            a = rx.match(text, a_start)
            if not a or not ENUM_MARK.search(text, max(0, a_start - 4), a_start):
                continue
            m = ENUM_TITLE.match(text, a.end())
            if m:
                yield At(m.start("name"), m.end("name"), a_start)


def own_appositions(text: str, at: Anchors | None) -> Iterator[re.Match[str]]:
    """Matches of :data:`OWN_APPOSITION`, tried only where "the resulting" or
    "our proposed/new/novel/final" starts (the token anchors, when there are)."""
    if at is None:
        if any(w in text for w in _OWN_APPOSITION_HINTS):
            yield from OWN_APPOSITION.finditer(text)
        return
    starts = [o for w in ("our", "Our") for o in at.words.get(w, ())
              if text.startswith(_OUR_NEXT, o + 4)]
    starts += [o - 4 for o in at.words.get("resulting", ())
               if o >= 4 and text[o - 4: o] in ("the ", "The ")]
    for o in sorted(starts):
        m = OWN_APPOSITION.match(text, o)
        if m:
            yield m
