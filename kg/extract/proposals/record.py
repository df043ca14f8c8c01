"""Recording a proposal: the :class:`Proposal` record, and the guards every name
passes on its way in (no pronoun, number, modifier or spelled-out acronym; a
problem setting, law, metric or notion is recorded with the type ``other``).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kg.extract.acronyms import AcronymPair
from kg.extract.proposals.lexicon import Lexicon, alt, cased

_QUOTES = frozenset("\"“‘'")
_DIGITS = re.compile(r"[\d.,]+")
_VERSION = re.compile(r"[vV]\d+(?:\.\d+)*")   # "Uni-Perceiver v2": v2 alone is no name
_CAPITAL_NEXT = re.compile(r"\s+[A-Z]")
_TWO_LOWER = re.compile(r"[a-z]{2}")
_SPELLING = re.compile(r"^(?:[A-Z]{2,3}[a-z]{3,}|[a-z]{2,}[A-Z][a-z]{2,})$")
_ADJECTIVE_COMPOUND = re.compile(r"^[\w^+]+-(?:[a-z]+)$")


@dataclass(frozen=True)
class Guards:
    """The tests every name passes on its way in, built from the lexicon."""

    setting_before: re.Pattern[str]
    setting_after: re.Pattern[str]
    not_a_thing: re.Pattern[str]
    metric_after: re.Pattern[str]
    notion_before: re.Pattern[str]
    not_names: frozenset[str]
    adjective: re.Pattern[str]


def build_guards(lex: Lexicon) -> Guards:
    """The guards of ``lex``: the words of a setting, law, metric or notion."""
    w = lex.__getitem__
    naming = alt(w("naming.participles") + w("naming.verbs") + w("naming.verbs_not_cue")
                 + w("naming.coin"))
    return Guards(
        # the contribution is a problem, setting or notion, not a method: "a problem setting
        # called Open-world Prompt Tuning (OPT)", "the Factored-Reward Bandits (FRBs), a novel
        # setting", "this key property, dubbed word sensitivity"
        setting_before=re.compile(
            rf"\b(?:{alt(w('guards.setting_nouns'))}),?(?:\s+(?:{alt(w('guards.setting_between'))}))*"
            rf"\s+(?:{naming})\s+(?:as\s+)?(?:the\s+)?[\"“‘']?$"),
        setting_after=re.compile(r"\)?(?:\s*\([^()]*\))?\s*,\s*(?:a|an)\s+(?:\w+\s+){0,2}"
                                 rf"(?:{alt(w('guards.setting_after'))})\b"),
        not_a_thing=re.compile(rf"\b(?:{cased(w('guards.not_a_thing'))})$"),
        metric_after=re.compile(r"(?:\s*\([^()]*\))?\)?\s*,?\s*(?:a\s+|an\s+)?(?:new\s+|novel\s+)?"
                                rf"(?:{alt(w('guards.metric'))})\b"
                                rf"(?!\s+(?:{alt(w('guards.metric_not_before'))}))"),
        notion_before=re.compile(rf"\b(?:{alt(w('guards.notion'))})s? of (?:an? |the )?$"),
        not_names=frozenset(w("guards.not_names")),
        adjective=adjective_pattern(lex),
    )


def adjective_pattern(lex: Lexicon) -> re.Pattern[str]:
    """A hyphenated adjective (or a phrase ending in one) or a name's fragment, by
    the lexicon's ``guards.adjective_suffixes`` and ``guards.adjective_prefixes``:
    "Graph-Neural-Network-based", "Semantic-Aware", "quasi-Monte", "bi-Lipschitz"."""
    w = lex.__getitem__
    return re.compile(
        rf"(?:^|\s)[\w^+]+(?:-[\w^+]+)*-(?i:{alt(w('guards.adjective_suffixes'))})$"
        rf"|^(?:{alt(w('guards.adjective_prefixes'))})-[A-Z][a-z]+$")


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

    __slots__ = ("text", "spans", "marked", "known", "known_key", "guards")

    def __init__(self, text: str, known: Callable[[str], bool],
                 known_key: Callable[[str], bool], guards: Guards) -> None:
        self.text = text
        self.guards = guards
        self.spans: dict[tuple[int, int], Proposal] = {}
        self.marked: set[tuple[int, int]] = set()   # names set apart by the author
        self.known = known
        self.known_key = known_key

    def add(self, name: str, ps: int, pe: int, ptype: str, strict: bool) -> bool:
        """Record a proposal (False if it names a setting, so its acronym does too)."""
        text, g = self.text, self.guards
        seen = self.spans.get((ps, pe))
        if seen is not None:
            return seen.type != "other"   # (decided by an earlier cue)
        if any(s0 <= ps and pe <= e0 for s0, e0 in self.spans):
            return True   # inside a name an earlier cue found: "Image-Report" of "Image-Report
            # Contrastive and Image-Report Matching losses"
        if name in g.not_names or len(name) < 2 or _DIGITS.fullmatch(name) or _VERSION.fullmatch(
                name) or (
                not strict and self.known(name)):
            return True
        if (_ADJECTIVE_COMPOUND.search(name) or g.adjective.search(name)) and (
                text[ps - 1: ps] not in _QUOTES and (ps, pe) not in self.marked):
            return True  # "PDE-informed", "Continuous-time", "GNN-based": a modifier, not a name
        if (_SPELLING.match(name) and _CAPITAL_NEXT.match(text, pe)) or (
                " " in name and not _TWO_LOWER.search(name.replace("LLMs", ""))):
            return True  # "PROjected DIffusion" (an acronym's letters), "W4A8 LLMs": no name
        if (g.setting_before.search(text, max(0, ps - 40), ps) or g.setting_after.match(text, pe)
                or g.not_a_thing.search(name) or g.metric_after.match(text, pe)):
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
        g = self.guards
        return bool(g.setting_before.search(text, max(0, first - 40), first)
                    or g.setting_after.match(text, last))
