"""The cue passes of the proposal detector: :func:`find_proposals` tries each
naming pattern (``we propose X``, ``called X``, ``our method X``, ``X, a novel
...``, a name set apart after a cue) where it may match, and records what it
finds through the guards of :class:`kg.extract.proposals.record.Found`.
"""
from __future__ import annotations

import re
from typing import Callable, Iterator, Sequence

from kg.extract.acronyms import AcronymPair
from kg.extract.emphasis import coined
from kg.extract.proposals.anchors import (
    NAMING_HINTS,
    NAMING_PATTERNS,
    NAMING_TOKENS,
    Anchors,
    At,
    anchored,
    backward,
    own_appositions,
)
from kg.extract.proposals.classify import coined_type, cue_types, type_after
from kg.extract.proposals.pairs import pair_proposals
from kg.extract.proposals.patterns import (
    AND_NEXT,
    AND_SPLIT,
    AND_VERB,
    AND_VERB_HINT,
    APPOSED_AFTER,
    APPOSITION_AT,
    APPOSITION_NOUNS,
    ARTICLE_BEFORE,
    CALL_THIS,
    CALLED,
    CALLED_MORE,
    CUE,
    CUE_LOOSE,
    CUE_LOWER,
    CUE_PAREN,
    DASH_HINT,
    DASH_NAME,
    ENUM_AT,
    FIRST_PERSON,
    FUNCTION_WORDS,
    GENERIC_NOUNS,
    GENERIC_PLURALS,
    LOWER_NAMED,
    METHOD_COMMA,
    MODIFIER_AFTER,
    NAMELY_OF_METHODS,
    NOVEL_GAP_STOP,
    NOVEL_PAREN,
    NOVEL_TITLE,
    OUR,
    OUR_IS,
    OWN,
    OWN_VOICE,
    PAREN_APPOSED,
    PASSIVE_BEFORE,
    RESULTING,
    THING_BEFORE,
    WINS_AT,
)
from kg.extract.proposals.record import Found, Proposal
from kg.extract.proposals.repository import repository_names
from kg.extract.proposals.spans import pieces, sentence_start


def _apposed(text: str, s: int, e: int) -> tuple[int, int] | None:
    """The span of a name set in apposition to the thing a cue introduces: "a
    novel graph generative framework, SGDM, which", "a novel video Multimodal
    Large Language Model (MLLM), MotionEpic, which" (``s:e`` is the name the
    loose cue found: the apposed name itself, or the acronym before it)."""
    if text[s - 1: s] == "(":
        m = PAREN_APPOSED.match(text, e)
        if m and THING_BEFORE.search(text, max(0, s - 60), m.start("name")):
            return m.span("name")
        return None
    if THING_BEFORE.search(text, max(0, s - 40), s) and APPOSED_AFTER.match(text, e):
        return s, e
    return None


def _nothing(name: str) -> bool:
    """Nothing is known (``known`` and ``known_key`` when not given)."""
    return False


def find_proposals(text: str, pairs: Sequence[AcronymPair] = (),
                   known: Callable[[str], bool] | None = None, words: list[str] | None = None,
                   offsets: list[int] | None = None, set_apart: Sequence[str] = (),
                   known_key: Callable[[str], bool] | None = None) -> list[Proposal]:
    """Names the text says it introduces, with offsets, in order, no repeats.

    ``pairs`` are the acronym pairs of the text (:func:`kg.extract.acronyms.
    find_acronyms`); ``known(name)`` tells whether a name is already a
    well-known entity, which the looser patterns never call proposed.
    ``set_apart`` are the phrases the author set in emphasis or quotes
    (:mod:`kg.extract.emphasis`): one right after a naming cue is coined.
    ``known_key(name)`` tells whether the name is a well-known entity's name
    whatever its case ("direct preference optimization").
    """
    known_as_written = known or _nothing

    def known_name(name: str) -> bool:
        """Known as written, or its singular is ("LLMs")."""
        return known_as_written(name) or (name.endswith("s") and known_as_written(name[:-1]))
    col = Found(text, known_name, known_key or _nothing)
    known, add, found, marked = known_name, col.add, col.spans, col.marked
    at = Anchors(words, offsets) if words is not None and offsets is not None else None

    strong = (CUE, CALLED, OUR, OUR_IS)   # cues that hold even for a known name
    # the naming patterns need a naming word: most abstracts have none
    if words is not None:   # (a word a naming pattern needs is a token of its own)
        naming = not NAMING_TOKENS.isdisjoint(words)
    else:
        lowered = text.lower()
        naming = any(h in lowered for h in NAMING_HINTS)
    for rx, strict in ((CUE, True), (CALLED, True), (OUR, True), (CUE_LOOSE, False),
                       (LOWER_NAMED, False), (OUR_IS, True),
                       (NOVEL_PAREN, False), (ENUM_AT, False), (APPOSITION_AT, False),
                       (WINS_AT, False)):
        if not naming and rx in NAMING_PATTERNS:
            continue
        hits: Iterator[re.Match[str] | At] = (
            backward(rx, text, at) if rx is ENUM_AT or rx is APPOSITION_AT or rx is WINS_AT
            else anchored(rx, text, at))
        for m in hits:
            s, e = m.span("name")
            if rx is CALLED and PASSIVE_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue
            if rx is CALLED and known(text[s:e].split(" (")[0]) and not FIRST_PERSON.search(
                    text, sentence_start(text, m.start()), m.start()):
                continue   # "Adam corresponds to a framework called Follow-the-Regularized-Leader"
            if rx is NOVEL_PAREN and isinstance(m, re.Match) and NOVEL_GAP_STOP.search(
                    m.group("gap")):   # (a pattern's own match: an At has no groups)
                continue
            if rx is CUE_LOOSE:
                apposed = _apposed(text, s, e)
                if apposed:
                    # "we propose a novel graph generative framework, SGDM, which": the
                    # paper's own name even where the gazetteer knows one like it (SGDM)
                    ps, pe = apposed
                    thing = THING_BEFORE.search(text, max(0, ps - 60), ps)
                    add(text[ps:pe], ps, pe, (thing and cue_types().get(thing.group(1).lower()))
                        or type_after(text, pe, ""), True)
                    continue
            if rx is CUE and MODIFIER_AFTER.match(text, e) and known(text[s:e]):
                continue   # "we develop an RL algorithm called X": RL modifies the thing made
            ptype = type_after(text, e, text[m.start(): s])
            for name, ps, pe in pieces(text, s, e):
                if not add(name, ps, pe, ptype, rx in strong or (strict and not known(name))):
                    ptype = "other"   # "a problem setting called X (Y)": Y is a setting too
            if rx is CUE or (rx is CALLED and not text.startswith("namely", m.start())):
                # "we introduce ETHER and its relaxation ETHER+"
                nxt = AND_NEXT.match(text, e)
                if nxt:
                    for name, ps, pe in pieces(text, *nxt.span("name")):
                        add(name, ps, pe, ptype, not known(name))
    for m in (anchored(CALLED_MORE, text, at) if naming else ()):
        if PASSIVE_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue
        group = next(g for g in ("name", "quoted", "lower", "mixed") if m.group(g))
        s, e = m.span(group)
        if text.startswith("namely", m.start()) and not NAMELY_OF_METHODS.search(
                text, max(0, m.start() - 60), m.start()):
            continue
        if group != "name":
            # a lower-case name only where the sentence speaks of the paper's own work
            sent = text[sentence_start(text, m.start()): m.start() + 12]
            if not OWN_VOICE.search(sent):
                continue
        ptype = type_after(text, e, text[m.start(): s])
        name = text[s:e]
        parts = [(name, s)]
        if " and " in name:
            left, right = name.split(" and ", 1)
            nl, nr = len(left.split()), len(right.split())
            if (group == "name" and nl == 1 and nr == 1) or (group == "lower" and abs(nl - nr) <= 1):
                # "AlphaFlow and ESMFlow", "node intervention and node merging"
                parts = [(left, s), (right, s + len(left) + 5)]
        for part, ps in parts:
            if group == "lower" and (part.split()[-1] in GENERIC_NOUNS or len(part.split()) > 5):
                continue
            add(part, ps, ps + len(part), ptype, False)
    for m in anchored(METHOD_COMMA, text, at):
        s, e = m.span("name")
        add(text[s:e], s, e, type_after(text, e, text[m.start(): s]), False)
    for m in anchored(CUE_LOWER, text, at):
        s, e = m.span("name")
        name = text[s:e]
        if name.split()[-1] in GENERIC_NOUNS or name.split()[-1] in GENERIC_PLURALS or name.endswith("ing") \
                and " " not in name:
            continue
        add(name, s, e, type_after(text, e, ""), False)
    if AND_VERB_HINT.search(text):
        for m in AND_VERB.finditer(text):
            sent = text[sentence_start(text, m.start()): m.start()]
            if re.search(r"\b[Ww]e\b", sent):
                s, e = m.span("name")
                for name, ps, pe in pieces(text, s, e):
                    add(name, ps, pe, type_after(text, pe, ""), not known(name))
    for m in (anchored(DASH_NAME, text, at) if DASH_HINT.search(text) else ()):
        s, e = m.span("name")
        add(text[s:e], s, e, type_after(text, e, text[m.start(): s]), False)
    for m in (anchored(LOWER_NAMED, text, at) if naming else ()):
        if m.group("long").rsplit(" ", 1)[-1] in GENERIC_NOUNS:
            continue  # "a simple yet effective method, called X": no name before X
        ptype = type_after(text, m.end(), "")
        add(m.group("long"), m.start("long"), m.end("long"), ptype, False)
    for m in (CALL_THIS.finditer(text) if "e call th" in text or "e term th" in text
              or "e call su" in text or "e name th" in text else ()):
        for name, ps, pe in pieces(text, *m.span("name")):
            add(name, ps, pe, type_after(text, pe, ""), False)
    if "resulting " in text:
        for m in RESULTING.finditer(text):
            for name, ps, pe in pieces(text, *m.span("name")):
                add(name, ps, pe, type_after(text, pe, ""), False)
    if "novel " in text or "innovative " in text:   # "equipped with a novel Dreaming Strategy"
        for m in NOVEL_TITLE.finditer(text):
            if not ARTICLE_BEFORE.search(text[max(0, m.start() - 5): m.start()]):
                continue
            s, e = m.span("name")
            add(text[s:e], s, e, type_after(text, e, ""), False)
    for m in anchored(OWN, text, at):
        ptype = type_after(text, m.end(), "")
        for name, ps, pe in pieces(text, *m.span("name")):
            add(name, ps, pe, ptype, False)
    for m in anchored(CUE_PAREN, text, at):
        if m.group("name").rsplit(" ", 1)[-1] in FUNCTION_WORDS:
            continue   # "a transformer with (multiple) bottlenecks": no name ends in "with"
        ptype = type_after(text, m.end(), "")
        add(m.group("name"), m.start("name"), m.end("name"), ptype, False)
        add(m.group("alias"), m.start("alias"), m.end("alias"), ptype, False)
    pair_proposals(col, pairs)
    for m in own_appositions(text, at):
        noun = m.group("noun")
        if noun not in APPOSITION_NOUNS:
            continue
        ptype = cue_types().get(noun) or cue_types().get(noun[:-1]) or \
            type_after(text, m.end(), noun)
        s, e = m.span("name")
        for part in AND_SPLIT.split(text[s:e]):
            ps = text.index(part, s)
            add(part, ps, ps + len(part), ptype, False)
    # "We introduce *max-reward RL*", "We call this the “weights component”"
    for phrase, s, e in (coined(text, set_apart) if set_apart else ()):
        marked.add((s, e))
        cut = pieces(text, s, e)
        ptype = coined_type(text, cut[0][1], cut[0][2], e)
        for name, ps, pe in cut:
            marked.add((ps, pe))
            add(name, ps, pe, ptype, False)
    # the name the paper's own code repository carries ("... at github.com/x/OSSCAR")
    if "github.com/" in text or "gitlab.com/" in text:
        for name, s, e in repository_names(text, words, offsets):
            add(name, s, e, type_after(text, e, ""), True)
    return sorted(found.values(), key=lambda p: p.start)
