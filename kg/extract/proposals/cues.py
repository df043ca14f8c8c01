"""The proposal detector's entry point: :func:`find_proposals` runs the rule
table (:mod:`kg.extract.proposals.rules`) over one text, each naming rule
(``we propose X``, ``called X``, ``our method X``, ``X, a novel ...``, a
name set apart after a cue) where it may match, and records what it finds
through the guards of :class:`kg.extract.proposals.record.Found`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from kg.extract.acronyms import AcronymPair
from kg.extract.proposals.anchors import Anchors
from kg.extract.proposals.record import Found, Proposal
from kg.extract.proposals.rules import Rules, default_rules
from kg.extract.proposals.steps import Ctx, without_defined_tail


def _nothing(name: str) -> bool:
    """Nothing is known (``known`` and ``known_key`` when not given)."""
    return False


def find_proposals(text: str, pairs: Sequence[AcronymPair] = (),
                   known: Callable[[str], bool] | None = None, words: list[str] | None = None,
                   offsets: list[int] | None = None, set_apart: Sequence[str] = (),
                   known_key: Callable[[str], bool] | None = None,
                   rules: Rules | None = None) -> list[Proposal]:
    """Names the text says it introduces, with offsets, in order, no repeats.

    ``pairs`` are the acronym pairs of the text (:func:`kg.extract.acronyms.
    find_acronyms`); ``known(name)`` tells whether a name is already a
    well-known entity, which the looser patterns never call proposed.
    ``set_apart`` are the phrases the author set in emphasis or quotes
    (:mod:`kg.extract.emphasis`): one right after a naming cue is coined.
    ``known_key(name)`` tells whether the name is a well-known entity's name
    whatever its case ("direct preference optimization"). ``rules`` is the
    rule table (default: that of kg's lexicon; see
    :func:`kg.extract.proposals.rules.build_rules`).
    """
    rules = rules or default_rules()
    known_as_written = known or _nothing

    def known_name(name: str) -> bool:
        """Known as written, or its singular is ("LLMs")."""
        return known_as_written(name) or (name.endswith("s") and known_as_written(name[:-1]))
    col = Found(text, known_name, known_key or _nothing, rules.guards)
    a = rules.anchors
    at = Anchors(words, offsets, a.all_words) if words is not None and offsets is not None else None
    # the naming rules need a naming word: most abstracts have none
    if words is not None:   # (a word a naming pattern needs is a token of its own)
        naming = not a.naming_tokens.isdisjoint(words)
    else:
        lowered = text.lower()
        naming = any(h in lowered for h in a.naming_hints)
    ctx = Ctx(text, rules.patterns, rules.pairs, a, col, at, naming, pairs, set_apart, words, offsets)
    for rule in rules.table:   # (rules.run, inlined: most rules find nothing in a text)
        guards, span, record = rule.guards, rule.span, rule.record
        for m in rule.where(ctx, rule):
            s, e = span(m)
            e = without_defined_tail(ctx, s, e)
            for g in guards:
                if g(ctx, m, s, e):
                    break
            else:
                record(ctx, rule, m, s, e)
    return sorted(col.spans.values(), key=lambda p: p.start)
