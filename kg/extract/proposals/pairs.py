"""The acronym pairs a paper introduces as its own: "we propose Layerwise Learning
Rate (LLR)", a pair named as a part of the system ("(GSR) module"), defined in a
sentence about the paper's system, or followed by a method's noun in the
paper's own voice ("robust and conjugate Gaussian process (RCGP) regression").
"""
from __future__ import annotations

import re
from typing import Sequence

from kg.extract.acronyms import AcronymPair
from kg.extract.proposals.classify import cue_types, names_a_thing, type_after
from kg.extract.proposals.patterns import Patterns
from kg.extract.proposals.record import Found
from kg.extract.proposals.spans import sentence_start, word_in

_NOT_PART_AFTER = re.compile(r"\s*(?:problems?|settings?|framework for|tasks?)\b")
# a sentence that builds the paper's own system: "we offer two matching strategies:",
# "Within SemiRES, we design ..."
_WE_MAKE = re.compile(r"\b[Ww]e (?:[a-z]+ ){0,6}?(?:to |and )?(?:propose|introduce|"
                      r"present|develop|design|devise|offer|build|construct|employ a novel|"
                      r"incorporate a novel)\s+(?:[^\s.;]*\s+){0,10}$")
# a long form after these words names what is used or studied, not what is made
_USED_BEFORE = re.compile(r"\b(?:on|for|using|use|in|within|of|to|as|into|from|over|than|like|"
                          r"based on|combines?|apply|applying|incorporating|deal with)\s+"
                          r"(?:(?:the|a|an|existing|standard|classical|empirical|effective)\s+)*$")
_OWN_PART_CUE = re.compile(r"\b(?:consists? of|comprises?|includes?|contains?|employs?|uses?|"
                           r"incorporates?|introduces?|leverages?|with|via|through)\b")
# an acronym pair introduced right after a cue, or named as a part of the system
_PART = re.compile(r"^\s*(?:(?:module|component|block|layer|loss|mechanism|strategy|framework|"
                   r"method|algorithm|approach|scheme|objective|regularizer)\b(?!s)|,\s*which\b|"
                   r",\s*(?:a|an)\s+(?:\w+\s+)?(?:new|novel|simple|proposed)\b)")
_NOUN_AFTER = re.compile(r"\)\s+([a-z]+)")
# (a short list on purpose: every model/method cue noun of discovery also let in fields and
# tasks such as "Evolutionary Computation (EC) methods", "uncertainty quantification (UQ)")
_OWN_THING_NOUNS = frozenset("pipeline framework method approach algorithm model architecture "
                             "regression module network system technique strategy loss objective "
                             "scheme mechanism estimator paradigm".split())


_SENTENCE_SUBJECT = re.compile(r"\s*(?:(?:Specifically|Then|First|Moreover|Further|In addition|"
                               r"Finally|(?:For|In|To|With|On|By|At) [^,.]{1,40}),\s*)?"
                               r"(?:the\s+|our\s+)?([\w^+\-]+)")


def pair_proposals(col: Found, pairs: Sequence[AcronymPair], p_: Patterns,
                   subject_at: re.Pattern[str]) -> None:
    """The acronym pairs a text introduces as its own: right after a cue, named as
    a part of the system, defined in a sentence about it, or with a method's noun
    after it in the paper's own voice (``p_``: the patterns; ``subject_at``: the
    first words of the paper's voice)."""
    text, known, known_key, add, found = col.text, col.known, col.known_key, col.add, col.spans
    # acronym pairs: right after a cue, or named as a part ("(GSR) module", "(FiF), which")
    for p in pairs:
        first = min(p.long_start, p.short_start)
        last = max(p.long_end, p.short_end)
        before = text[max(0, first - 120): first]
        cue = p_.PAIR_CUE.search(before) if subject_at.search(before) else None
        after = text[last + 1: last + 30] if text[last: last + 1] == ")" else text[last: last + 30]
        part = not cue and _PART.match(after)
        if part and after.lstrip().startswith(",") and len(
                text[sentence_start(text, first): first].split()) < 3:
            continue   # "Homomorphic encryption (HE), which allows ...": a definition, no part
        if cue or part:
            if (known(p.short) and (known(p.long) or known_key(p.long))) or (
                    part and (known(p.long) or known_key(p.long))):
                # (a known thing, whatever the case of its long form: "the direct
                # preference optimization (DPO) algorithm")
                continue
            ptype = "other" if col.blocked(p) else type_after(text, last, "")
            add(p.long, p.long_start, p.long_end, ptype, True)
            add(p.short, p.short_start, p.short_end, ptype, True)
    # the parts of a proposed system: acronyms defined in a sentence about it
    # ("OGA first performs rejection via adaptive label traceability (ALT)", "Within
    # SemiRES, we offer two matching strategies: IoU-based Optimal Matching (IOM) and ...")
    own = {p.name for p in found.values() if " " not in p.name}
    for p in pairs:
        if (p.long_start, p.long_end) in found or not (own or names_a_thing(p.long)):
            continue   # (neither route below can take it: skip the lookups)
        if known(p.short) or known(p.long):
            continue
        first = min(p.long_start, p.short_start)
        sent_start = sentence_start(text, first)
        head = text[sent_start: first]
        subject = _SENTENCE_SUBJECT.match(head)
        if (subject and subject.group(1) in own) or (
                names_a_thing(p.long) and not _USED_BEFORE.search(head[-60:])
                and not _NOT_PART_AFTER.match(text, max(p.long_end, p.short_end) + 1)
                and (_WE_MAKE.search(head[-150:]) or (_OWN_PART_CUE.search(head) and any(
                    word_in(o, head) for o in own)))):
            ptype = "other" if col.blocked(p) else type_after(text, max(p.long_end, p.short_end), "")
            add(p.long, p.long_start, p.long_end, ptype, True)
            add(p.short, p.short_start, p.short_end, ptype, True)
    # "we demonstrate how to perform robust and conjugate Gaussian process (RCGP) regression":
    # a coined acronym with a method's noun after it, in the paper's own voice
    for p in pairs:
        if (p.long_start, p.long_end) in found or p.long_start > p.short_start:
            continue
        noun = _NOUN_AFTER.match(text, p.short_end)
        if not noun or noun.group(1) not in _OWN_THING_NOUNS or known(p.short) or known(p.long):
            continue
        head = text[sentence_start(text, p.long_start): p.long_start]
        if p_.FIRST_PERSON.search(head) and not _USED_BEFORE.search(head[-60:]):
            ptype = cue_types().get(noun.group(1)) or type_after(text, p.short_end, "")
            add(p.long, p.long_start, p.long_end, ptype, True)
            add(p.short, p.short_start, p.short_end, ptype, True)
