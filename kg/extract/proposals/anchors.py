"""Where to try each cue pattern: a long pattern is matched only where its first
word is (a scan for one literal word is far cheaper than a scan for the whole
pattern), and a few names are found backwards from a cheap anchor (", a",
"outperforms", an enumeration mark).

The anchor words come from the lexicon (:func:`build_anchor_sets`); their
offsets come from the tokens when there are (:class:`Anchors`); without them
the anchor word is found by regex.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import compress

from kg.extract.proposals.lexicon import Lexicon, alt, cased
from kg.extract.proposals.patterns import Patterns


@dataclass(frozen=True)
class AnchorSet:
    """The first words of a set of patterns: as a regex (no tokens) and as
    words, and the gate an anchor passes when the cue goes on from it."""

    regex: re.Pattern[str]
    words: frozenset[str]
    gate: re.Pattern[str] | None = None


@dataclass(frozen=True)
class AnchorSets:
    """Every anchor set and naming hint of one lexicon."""

    subject: AnchorSet     # "we propose", "this paper introduces", "by introducing"
    called: AnchorSet      # "called", "namely", "which we call"
    our: AnchorSet         # "our", "the proposed"
    novel: AnchorSet       # "novel", "new", "our", "proposed"
    wins: AnchorSet        # "outperforms"
    all_words: frozenset[str]
    naming_tokens: frozenset[str]   # a naming pattern needs one of these tokens
    naming_hints: tuple[str, ...]   # ... or, without tokens, one of these in the lower-cased text
    our_next: tuple[str, ...]       # "our proposed X, Name": the words after "our"
    resulting: tuple[str, ...]      # "the resulting model, Name"
    own_apposition_hints: tuple[str, ...]


def _words(*groups: tuple[str, ...]) -> frozenset[str]:
    return frozenset(x for g in groups for w in g for x in (w, w[0].upper() + w[1:]))


def build_anchor_sets(lex: Lexicon, p: Patterns) -> AnchorSets:
    """The anchor sets of the patterns ``p`` built from ``lex``."""
    w = lex.__getitem__
    subject = w("subject.we") + w("subject.this") + w("subject.our") + w("subject.by")
    phrases = w("naming.phrases") + tuple(x for x in w("naming.phrases_more")
                                          if x not in w("naming.phrases"))
    naming = w("naming.participles") + w("naming.namely")
    called_first = naming + tuple(dict.fromkeys(x.split()[0] for x in phrases))
    glue = set(w("naming.phrase_glue"))
    distinct = tuple(dict.fromkeys(t for x in phrases for t in x.split() if t not in glue))
    proposed, our = w("nouns.proposed"), w("subject.our")
    novel = w("nouns.novel_paren")
    wins = w("wins.verbs") + w("wins.achieves")
    own_adj = w("nouns.own_adjectives")
    return AnchorSets(
        subject=AnchorSet(re.compile(rf"\b(?:{cased(subject)})\b"), _words(subject),
                          re.compile(rf"{p.SUBJECT}(?:{p.VERBS}|{alt(w('cue.verbs_ing'))})")),
        called=AnchorSet(re.compile(rf"\b(?:{alt(called_first)})\b"), frozenset(called_first),
                         re.compile(rf"(?:{alt(naming + phrases)})\b")),
        our=AnchorSet(re.compile(rf"\b(?:{cased(our)}|[Tt]he (?:{alt(proposed)}))\b"),
                      _words(our, ("the",)),
                      re.compile(rf"{cased(our)}\b|[Tt]he (?:{alt(proposed)})\b")),
        novel=AnchorSet(re.compile(rf"\b(?:{alt(novel)})\b"), frozenset(novel)),
        wins=AnchorSet(p.WINS_AT, frozenset(wins)),
        all_words=(_words(subject) | frozenset(called_first) | _words(our, ("the",))
                   | frozenset(novel) | frozenset(wins) | frozenset(w("nouns.resulting"))),
        naming_tokens=_words(naming, distinct),
        naming_hints=tuple(x.lower() for x in naming + distinct),
        our_next=tuple(f"{a} " for a in own_adj),
        resulting=w("nouns.resulting"),
        own_apposition_hints=(tuple(f"{r} " for r in w("nouns.resulting"))
                              + tuple(f"{o[1:]} {a} " for o in our for a in own_adj)),
    )


class At:
    """A match-like (name span, start) found from an anchor."""

    __slots__ = ("_span", "_start")

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

    def __init__(self, words: list[str], offsets: list[int], anchors: frozenset[str]) -> None:
        self.words: dict[str, list[int]] = {}
        self.sets: dict[frozenset[str], list[int]] = {}
        self.gated: dict[frozenset[str], list[int]] = {}
        for i in compress(range(len(words)), map(anchors.__contains__, words)):
            self.words.setdefault(words[i], []).append(offsets[i])


def starts(aset: AnchorSet, text: str, at: Anchors | None) -> list[int]:
    """Where the anchor words of ``aset`` are in ``text`` (``at``: their offsets,
    from the tokens; without it they are found by its regex), and, for a set
    with a gate, only where the cue goes on ("we propose", "the proposed",
    "which we call")."""
    words = aset.words
    if at is None:
        found = [a.start() for a in aset.regex.finditer(text)]
    else:
        cached = at.sets.get(words)   # the offsets of one anchor set, sorted once per text
        if cached is None:
            cached = at.sets[words] = sorted(o for w in words for o in at.words.get(w, ()))
        found = cached
    gate = aset.gate
    if gate is not None:
        gated = at.gated.get(words) if at is not None else None
        if gated is None:
            gated = [o for o in found if gate.match(text, o)]
            if at is not None:
                at.gated[words] = gated
        return gated
    return found


def anchored(rx: re.Pattern[str], aset: AnchorSet | None, text: str,
             at: Anchors | None = None) -> Iterator[re.Match[str]]:
    """Matches of ``rx``, tried only where a word of ``aset`` is (see :func:`starts`)."""
    if aset is None:
        yield from rx.finditer(text)
        return
    for a_start in starts(aset, text, at):
        m = rx.match(text, a_start)
        if m:
            yield m


def _name_before(p: Patterns, text: str, end: int, start: int) -> At | None:
    begin = max(text.rfind(" ", 0, end), text.rfind("(", 0, end),
                text.rfind("“", 0, end), text.rfind('"', 0, end)) + 1
    if begin < end and p.NAME_FULL.fullmatch(text, begin, end):
        return At(begin, end, begin)
    return None


def appositions(p: Patterns, text: str) -> Iterator[At]:
    """The names before ", a" (found by a scan of the text: cheaper than a look
    at every comma token)."""
    for a in p.APPOSITION_AT.finditer(text):
        found = _name_before(p, text, a.start(), a.start())
        if found:
            yield found


def winners(p: Patterns, aset: AnchorSet, text: str, at: Anchors | None) -> Iterator[At]:
    """The names before "(consistently) outperforms"."""
    for a_start in starts(aset, text, at):
        if not p.WINS_AT.match(text, a_start):
            continue
        adv = p.ADVERB_BEFORE.search(text, max(0, a_start - 30), a_start)
        if not adv:
            continue
        found = _name_before(p, text, adv.start(), a_start)
        if found:
            yield found


def enumerated(p: Patterns, text: str) -> Iterator[At]:
    """The Title phrases after an enumeration mark "(i)"."""
    for a_start in [a.start() for a in p.ENUM_AT.finditer(text)]:  # ")" may not be a token
        a = p.ENUM_AT.match(text, a_start)
        if not a or not p.ENUM_MARK.search(text, max(0, a_start - 4), a_start):
            continue
        m = p.ENUM_TITLE.match(text, a.end())
        if m:
            yield At(m.start("name"), m.end("name"), a_start)


def own_appositions(p: Patterns, sets: AnchorSets, text: str,
                    at: Anchors | None) -> Iterator[re.Match[str]]:
    """Matches of ``OWN_APPOSITION``, tried only where "the resulting" or
    "our proposed/new/novel/final" starts (the token anchors, when there are)."""
    if at is None:
        if any(w in text for w in sets.own_apposition_hints):
            yield from p.OWN_APPOSITION.finditer(text)
        return
    starts_ = [o for w in ("our", "Our") for o in at.words.get(w, ())
               if text.startswith(sets.our_next, o + 4)]
    starts_ += [o - 4 for r in sets.resulting for o in at.words.get(r, ())
                if o >= 4 and text[o - 4: o] in ("the ", "The ")]
    for o in sorted(starts_):
        m = p.OWN_APPOSITION.match(text, o)
        if m:
            yield m
