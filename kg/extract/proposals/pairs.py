"""The acronym pairs a paper introduces as its own: "we propose Layerwise Learning
Rate (LLR)", a pair named as a part of the system ("(GSR) module"), defined in a
sentence about the paper's system, or followed by a method's noun in the
paper's own voice ("robust and conjugate Gaussian process (RCGP) regression").
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from kg.extract.acronyms import AcronymPair
from kg.extract.proposals.classify import cue_types, names_a_thing, type_after
from kg.extract.proposals.lexicon import Lexicon, alt
from kg.extract.proposals.patterns import Patterns
from kg.extract.proposals.record import Found
from kg.extract.proposals.spans import sentence_start, word_in

_NOUN_AFTER = re.compile(r"\)\s+([a-z]+)")


@dataclass(frozen=True)
class PairPatterns:
    """The contexts that make an acronym pair the paper's own, from the lexicon."""

    not_part_after: re.Pattern[str]
    we_make: re.Pattern[str]
    used_before: re.Pattern[str]
    own_part_cue: re.Pattern[str]
    part: re.Pattern[str]
    own_thing_nouns: frozenset[str]
    sentence_subject: re.Pattern[str]
    own_before: re.Pattern[str]   # (ends where the short form starts: see _used_as_own)
    made_passive: re.Pattern[str]


def build_pair_patterns(lex: Lexicon) -> PairPatterns:
    """The pair contexts of ``lex`` (its ``pairs`` lists)."""
    w = lex.__getitem__
    return PairPatterns(
        not_part_after=re.compile(rf"\s*(?:{alt(w('pairs.not_part_after'))})\b"),
        # a sentence that builds the paper's own system: "we offer two matching strategies:",
        # "Within SemiRES, we design ..."
        we_make=re.compile(rf"\b[Ww]e (?:[a-z]+ ){{0,6}}?(?:to |and )?"
                           rf"(?:{alt(w('pairs.make_verbs'))})\s+(?:[^\s.;]*\s+){{0,10}}$"),
        used_before=re.compile(rf"\b(?:{alt(w('pairs.used_before'))})\s+"
                               rf"(?:(?:{alt(w('pairs.used_before_adjectives'))})\s+)*$"),
        own_part_cue=re.compile(rf"\b(?:{alt(w('pairs.part_cues'))})\b"),
        # an acronym pair introduced right after a cue, or named as a part of the system
        part=re.compile(rf"^\s*(?:(?:{alt(w('pairs.part_nouns'))})\b(?!s)|,\s*which\b|"
                        rf",\s*(?:a|an)\s+(?:\w+\s+)?(?:{alt(w('pairs.part_adjectives'))})\b)"),
        own_thing_nouns=frozenset(w("pairs.own_thing_nouns")),
        sentence_subject=re.compile(rf"\s*(?:(?:{alt(w('pairs.openers'))}|"
                                    rf"(?:{alt(w('pairs.opener_prepositions'))}) [^,.]{{1,40}}),\s*)?"
                                    r"(?:the\s+|our\s+)?([\w^+\-]+)"),
        # a sentence's start ("RCIG establishes", "Our RCIG") or the paper's own words
        # ("our proposed SaEC") right before a short form (\Z: at the search's endpos)
        own_before=re.compile(rf"(?:(?:^|[.!?]\s+)(?:The\s+|Our\s+)?|"
                              rf"\b(?:{alt(w('pairs.own_before'))})\s+)\Z"),
        made_passive=re.compile(rf"\)?(?:\s+[a-z][\w\-]*){{0,3}}\s+(?:is|are)\s+"
                                rf"(?:{alt(w('pairs.made_passive'))})\b"),
    )


_WORD_EDGE = re.compile(r"\b")
#: characters before a short form where the paper's own words ("our proposed") may stand
OWN_WINDOW = 120


def _used_as_own(pp: PairPatterns, text: str, short: str, after: int) -> bool:
    """Does ``short`` open a later sentence ("RCIG establishes") or follow the
    paper's own words ("our proposed SaEC")? (What comes before each
    occurrence of ``short`` after ``after`` that ends a word is checked with
    one pattern compiled once, not a pattern made for each short form:
    bench/RESULTS.md.)

    >>> from kg.extract.proposals.lexicon import load_lexicon
    >>> pp = build_pair_patterns(load_lexicon())
    >>> t = "We define RCIG (x). Thus RCIG works. Our RCIGs. The RCIG works."
    >>> _used_as_own(pp, t, "RCIG", 14), _used_as_own(pp, t[:36], "RCIG", 14)
    (True, False)
    """
    n = len(short)
    i = text.find(short, after)
    while i >= 0:
        # the words that make a use the paper's own stand right before it: a window
        # keeps each look short (from ``after`` on, a long text made this quadratic)
        if _WORD_EDGE.match(text, i + n) and pp.own_before.search(
                text, max(after, i - OWN_WINDOW), i):
            return True
        i = text.find(short, i + 1)
    return False


@lru_cache(maxsize=1)
def _concept_names() -> tuple[frozenset[str], frozenset[str]]:
    """The concept vocabulary's acronyms, and its labels and forms in lower case
    (the vocabulary of the pipeline's cached concept index: see
    :func:`kg.extract.proposals.steps._first_words`)."""
    from kg.extract.concept_finder import cached_index

    v = cached_index(None).vocab
    return (frozenset(a for c in v.concepts.values() for a in c.acronyms),
            frozenset(f.lower() for c in v.concepts.values() for f in (c.label, *c.forms)))


def known_concept(short: str, long: str) -> bool:
    """Is an acronym pair a concept (by its acronym or its long form, a plural s aside)?

    >>> known_concept("PTQ", "post-training quantization"), known_concept("RCIG", "rcig")
    (True, False)
    """
    acronyms, labels = _concept_names()
    low = long.lower()
    return (short in acronyms or short.removesuffix("s") in acronyms or low in labels
            or low.removesuffix("s") in labels)


def pair_proposals(col: Found, pairs: Sequence[AcronymPair], p_: Patterns, pp: PairPatterns,
                   subject_at: re.Pattern[str]) -> None:
    """The acronym pairs a text introduces as its own: right after a cue, named as
    a part of the system, defined in a sentence about it, or with a method's noun
    after it in the paper's own voice (``p_`` and ``pp``: the patterns;
    ``subject_at``: the first words of the paper's voice)."""
    _cued_pairs(col, pairs, p_, pp, subject_at)
    _system_parts(col, pairs, pp)
    _before_own_noun(col, pairs, p_, pp)
    _coined_pairs(col, pairs, p_, pp)


def _add_pair(col: Found, p: AcronymPair, ptype: str) -> None:
    col.add(p.long, p.long_start, p.long_end, ptype, True)
    col.add(p.short, p.short_start, p.short_end, ptype, True)


def _cued_pairs(col: Found, pairs: Sequence[AcronymPair], p_: Patterns, pp: PairPatterns,
                subject_at: re.Pattern[str]) -> None:
    """Acronym pairs right after a cue, or named as a part ("(GSR) module", "(FiF), which")."""
    text, known, known_key = col.text, col.known, col.known_key
    for p in pairs:
        first = min(p.long_start, p.short_start)
        last = max(p.long_end, p.short_end)
        before = text[max(0, first - 120): first]
        cue = p_.PAIR_CUE.search(before) if subject_at.search(before) else None
        after = text[last + 1: last + 30] if text[last: last + 1] == ")" else text[last: last + 30]
        # (a part, unless what is before names a use: "to make use of the Convex-Concave
        # Procedure (CCCP), which")
        part = not cue and pp.part.match(after) and not pp.used_before.search(before[-60:])
        if part and after.lstrip().startswith(",") and len(
                text[sentence_start(text, first): first].split()) < 3:
            continue   # "Homomorphic encryption (HE), which allows ...": a definition, no part
        if cue or part:
            if (known(p.short) and (known(p.long) or known_key(p.long))) or (
                    part and (known(p.long) or known_key(p.long))):
                # (a known thing, whatever the case of its long form: "the direct
                # preference optimization (DPO) algorithm")
                continue
            _add_pair(col, p, "other" if col.blocked(p) else type_after(text, last, ""))


def _system_parts(col: Found, pairs: Sequence[AcronymPair], pp: PairPatterns) -> None:
    """The parts of a proposed system: acronyms defined in a sentence about it ("OGA
    first performs rejection via adaptive label traceability (ALT)", "Within SemiRES,
    we offer two matching strategies: IoU-based Optimal Matching (IOM) and ...")."""
    text, known, found = col.text, col.known, col.spans
    own = {p.name for p in found.values() if " " not in p.name}
    for p in pairs:
        if (p.long_start, p.long_end) in found or not (own or names_a_thing(p.long)):
            continue   # (neither route below can take it: skip the lookups)
        if known(p.short) or known(p.long):
            continue
        first = min(p.long_start, p.short_start)
        sent_start = sentence_start(text, first)
        head = text[sent_start: first]
        subject = pp.sentence_subject.match(head)
        if (subject and subject.group(1) in own) or (
                names_a_thing(p.long) and not pp.used_before.search(head[-60:])
                and not pp.not_part_after.match(text, max(p.long_end, p.short_end) + 1)
                and (pp.we_make.search(head[-150:]) or (pp.own_part_cue.search(head) and any(
                    word_in(o, head) for o in own)))):
            last = max(p.long_end, p.short_end)
            _add_pair(col, p, "other" if col.blocked(p) else type_after(text, last, ""))


def _before_own_noun(col: Found, pairs: Sequence[AcronymPair], p_: Patterns,
                     pp: PairPatterns) -> None:
    """"we demonstrate how to perform robust and conjugate Gaussian process (RCGP)
    regression": a coined acronym with a method's noun after it, in the paper's own voice."""
    text, known, found = col.text, col.known, col.spans
    for p in pairs:
        if (p.long_start, p.long_end) in found or p.long_start > p.short_start:
            continue
        noun = _NOUN_AFTER.match(text, p.short_end)
        if not noun or noun.group(1) not in pp.own_thing_nouns or known(p.short) or known(p.long):
            continue
        head = text[sentence_start(text, p.long_start): p.long_start]
        if p_.FIRST_PERSON.search(head) and not pp.used_before.search(head[-60:]):
            _add_pair(col, p, cue_types().get(noun.group(1)) or type_after(text, p.short_end, ""))


def _coined_pairs(col: Found, pairs: Sequence[AcronymPair], p_: Patterns,
                  pp: PairPatterns) -> None:
    """"we propose a new algorithm using reparameterization and convexification of
    implicit gradients (RCIG) ... RCIG establishes ...": a pair no one knows (no name,
    no concept) defined in the paper's own voice (or made in the passive: "an Omni
    Self-Attention (OSA) paradigm is proposed", which is enough), whose short form
    then opens a sentence or follows "our"/"the proposed"."""
    text, known, found = col.text, col.known, col.spans
    for p in pairs:
        if (p.long_start, p.long_end) in found or p.long_start > p.short_start:
            continue
        if known(p.short) or known(p.long) or known_concept(p.short, p.long):
            continue
        head = text[sentence_start(text, p.long_start): p.long_start]
        passive = pp.made_passive.match(text, p.short_end) is not None
        if not passive and not p_.FIRST_PERSON.search(head):
            continue
        if passive or _used_as_own(pp, text, p.short, p.short_end):
            _add_pair(col, p, "other" if col.blocked(p) else type_after(text, p.short_end, ""))
