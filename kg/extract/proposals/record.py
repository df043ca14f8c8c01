"""Recording a proposal: the :class:`Proposal` record, and the guards every name
passes on its way in (no pronoun, number, modifier or spelled-out acronym; a
problem setting, law, metric or notion is recorded with the type ``other``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from kg.extract.acronyms import AcronymPair

# the contribution is a problem, setting or notion, not a method: "a problem setting
# called Open-world Prompt Tuning (OPT)", "the Factored-Reward Bandits (FRBs), a novel
# setting", "this key property, dubbed word sensitivity"
_SETTING_BEFORE = re.compile(r"\b(?:setting|task|phenomenon|property|notion|concept|observation|"
                             r"assumption|assumptions|condition|effect),?(?:\s+(?:that|which|is|are|we|"
                             r"be|will|often|also))*\s+(?:called|named|termed|dubbed|call|term|dub|coin)"
                             r"\s+(?:as\s+)?(?:the\s+)?[\"“‘']?$")
_SETTING_AFTER = re.compile(r"\)?(?:\s*\([^()]*\))?\s*,\s*(?:a|an)\s+(?:\w+\s+){0,2}"
                            r"(?:setting|problem|phenomenon)\b")

_NOT_A_THING = re.compile(r"\b(?:[Ll]aws?|[Hh]ypothesis|[Tt]heorem|[Pp]rinciple|[Cc]onjecture|[Ii]ndex|"
                          r"[Ss]core|[Mm]etric|[Pp]aradox|[Ee]ffect|[Pp]henomenon|[Dd]istance|"
                          r"[Dd]ivergence|[Dd]iscrepancy|[Dd]isparity|[Mm]easure|[Aa]ssumption|"
                          r"[Cc]ondition|[Pp]roperty)$")
_QUOTES = frozenset("\"“‘'")
_DIGITS = re.compile(r"[\d.,]+")
_CAPITAL_NEXT = re.compile(r"\s+[A-Z]")
_TWO_LOWER = re.compile(r"[a-z]{2}")
_METRIC_AFTER = re.compile(r"(?:\s*\([^()]*\))?\)?\s*,?\s*(?:a\s+|an\s+)?(?:new\s+|novel\s+)?metric\b"
                           r"(?!\s+(?:loss|learning|space|embedding))")
_SPELLING = re.compile(r"^(?:[A-Z]{2,3}[a-z]{3,}|[a-z]{2,}[A-Z][a-z]{2,})$")
_ADJECTIVE_COMPOUND = re.compile(r"^[\w^+]+-(?:[a-z]+)$")
# words that are never a proposed name
NOT_NAMES = frozenset({"2D", "3D", "4D", "1D", "We", "This", "The", "Our", "In", "To", "A", "An", "It",
                       "These", "LLM", "LLMs", "AI", "ML", "I", "II", "III"})


@dataclass(frozen=True, slots=True)
class Proposal:
    """A name the text says it introduces, its offsets in the clean text, and its type."""

    name: str
    start: int
    end: int
    type: str     # model / method / dataset / other


class Found:
    """The proposals of one text by span, as the passes find them, and the
    guards every name passes on its way in."""

    __slots__ = ("text", "spans", "marked", "known", "known_key")

    def __init__(self, text: str, known: Callable[[str], bool],
                 known_key: Callable[[str], bool]) -> None:
        self.text = text
        self.spans: dict[tuple[int, int], Proposal] = {}
        self.marked: set[tuple[int, int]] = set()   # names set apart by the author
        self.known = known
        self.known_key = known_key

    def add(self, name: str, ps: int, pe: int, ptype: str, strict: bool) -> bool:
        """Record a proposal (False if it names a setting, so its acronym does too)."""
        text = self.text
        seen = self.spans.get((ps, pe))
        if seen is not None:
            return seen.type != "other"   # (decided by an earlier cue)
        if name in NOT_NAMES or len(name) < 2 or _DIGITS.fullmatch(name) or (
                not strict and self.known(name)):
            return True
        if _ADJECTIVE_COMPOUND.search(name) and text[ps - 1: ps] not in _QUOTES and (
                (ps, pe) not in self.marked):
            return True  # "PDE-informed", "Continuous-time": a modifier, not a name
        if (_SPELLING.match(name) and _CAPITAL_NEXT.match(text, pe)) or (
                " " in name and not _TWO_LOWER.search(name.replace("LLMs", ""))):
            return True  # "PROjected DIffusion" (an acronym's letters), "W4A8 LLMs": no name
        if (_SETTING_BEFORE.search(text, max(0, ps - 40), ps) or _SETTING_AFTER.match(text, pe)
                or _NOT_A_THING.search(name) or _METRIC_AFTER.match(text, pe)):
            # a problem setting, phenomenon, law, hypothesis or metric the paper proposes:
            # proposed, but no model, method or dataset
            ptype = "other"
        self.spans[(ps, pe)] = Proposal(name, ps, pe, ptype)
        return ptype != "other"

    def blocked(self, p: AcronymPair) -> bool:
        """A pair that names a problem setting: "a problem setting called X (Y)", "X (Y), a
        novel setting"."""
        text = self.text
        first = min(p.long_start, p.short_start)
        last = max(p.long_end, p.short_end) + (text[max(p.long_end, p.short_end):][:1] == ")")
        return bool(_SETTING_BEFORE.search(text, max(0, first - 40), first)
                    or _SETTING_AFTER.match(text, last))
