"""The regular expressions of naming sentences, built from the lexicon
(:mod:`kg.extract.proposals.lexicon`): the building blocks (a name token, a
Title Case phrase, the naming verbs, the paper's own voice), the cue patterns
made of them (each with a ``name`` group), and the context tests the cue
rules apply around a match.

The shapes of names (a token with an inner capital, a Title phrase) are
here; every word a pattern needs comes from the lexicon.

>>> p = build_patterns(load_lexicon())
>>> p.CALLED.search("a method, called ToMoE, that prunes").group("name")
'ToMoE'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.extract.proposals.lexicon import Lexicon, alt, cased, load_lexicon

__all__ = ["NAME_TOKEN", "Patterns", "build_patterns", "default_patterns"]

# a name: a token with a capital after its first letter, or digits, or ++ /
# ^ marks: ToMoE, LLR, R^3, W4A16, PPI++, Meta-iLaD, DiffusionDB
NAME_TOKEN = (r"(?:[A-Za-z0-9Α-Ω][\w^+\-.']*[A-Z0-9+^][\w^+\-'#]*|[A-Z][a-z]+[A-Z][\w^+\-'#]*)"
              r"(?: [A-Z][a-z]*-[\w\-]+| [Vv]\d+(?:\.\d+)?(?![\w\-]))?")
_ACR = r"\([A-Za-z][\w^+\-]{1,14}\)"
# a single capitalised word: "the framework named Ditto to"
_CAP_WORD = r"[A-Z][a-z]{2,}[\w+\-]*"
OPEN_Q = r"[\"“‘']?"


def _title(lex: Lexicon) -> tuple[str, str, str]:
    """A Title Case word, a Title phrase and a Title phrase that ends in a
    capitalised word: Shannon Scaling Law, Layerwise Learning Rate.

    A hyphen inside a word could also be the separator between two words, and a
    chain like "A-A-A-..." then splits in about n^7 ways when the pattern fails.
    So the split is decided up front: a hyphen before something that can start
    a word of the phrase (a capital, a joiner) separates; any other hyphen is
    part of the word ("Self-attention"). The tails are possessive.
    """
    inner = alt(lex["title.joiners"])
    inner_all = alt(lex["title.joiners"] + lex["title.joiners_inner"])
    start = rf"(?:[A-Z]|\d+[A-Z]|[a-z]+[A-Z]|(?:{inner_all})(?![\w']))"
    tail = rf"[\w']*+(?:-(?!{start})[\w']*+)*+"
    word = rf"(?:[A-Z]{tail}|\d++[A-Z]{tail}|[a-z]++[A-Z]{tail})"
    title = rf"{word}(?:[ \-](?:{inner}|{word})){{1,7}}"
    title_only = rf"{word}(?:[ \-](?:(?:{inner_all})[ \-])*{word}){{1,6}}"
    return word, title, title_only


@dataclass(frozen=True)
class Patterns:
    """The compiled patterns and word sets of one lexicon (names as in the
    cue rules of :mod:`kg.extract.proposals.rules`)."""

    VERBS: str
    NAMELY: tuple[str, ...]
    FILLER: str
    SUBJECT: str
    CUE: re.Pattern[str]
    PAIR_CUE: re.Pattern[str]
    CUE_PAREN: re.Pattern[str]
    FUNCTION_WORDS: frozenset[str]
    CUE_LOOSE: re.Pattern[str]
    CALLED: re.Pattern[str]
    CALLED_MORE: re.Pattern[str]
    OWN_VOICE: re.Pattern[str]
    NAMELY_OF_METHODS: re.Pattern[str]
    PASSIVE_BEFORE: re.Pattern[str]
    AND_VERB: re.Pattern[str]
    AND_VERB_HINT: re.Pattern[str]
    CUE_LOWER: re.Pattern[str]
    METHOD_COMMA: re.Pattern[str]
    DASH_NAME: re.Pattern[str]
    DASH_HINT: re.Pattern[str]
    AND_NEXT: re.Pattern[str]
    LOWER_NAMED: re.Pattern[str]
    OUR_IS: re.Pattern[str]
    RESULTING: re.Pattern[str]
    CALL_THIS: re.Pattern[str]
    CALL_THIS_HINTS: tuple[str, ...]
    NOVEL_TITLE: re.Pattern[str]
    NOVEL_TITLE_HINTS: tuple[str, ...]
    ARTICLE_BEFORE: re.Pattern[str]
    OWN: re.Pattern[str]
    OUR: re.Pattern[str]
    NOVEL_PAREN: re.Pattern[str]
    NOVEL_GAP_STOP: re.Pattern[str]
    APPOSITION_AT: re.Pattern[str]
    WINS_AT: re.Pattern[str]
    ADVERB_BEFORE: re.Pattern[str]
    NAME_FULL: re.Pattern[str]
    ENUM_AT: re.Pattern[str]
    ENUM_MARK: re.Pattern[str]
    ENUM_TITLE: re.Pattern[str]
    GENERIC_NOUNS: frozenset[str]
    OWN_APPOSITION: re.Pattern[str]
    GENERIC_PLURALS: frozenset[str]
    JOINED_TAIL: re.Pattern[str]
    AND_PAIR: re.Pattern[str]
    COUNTED_LIST: re.Pattern[str]
    LIST_ITEM: re.Pattern[str]
    OTHERS_VOICE: re.Pattern[str]
    TITLE_NAME: re.Pattern[str]
    FIRST_PERSON: re.Pattern[str]
    WE: re.Pattern[str]
    APPOSITION_NOUNS: frozenset[str]
    AND_SPLIT: re.Pattern[str]
    MODIFIER_AFTER: re.Pattern[str]
    THING_BEFORE: re.Pattern[str]
    APPOSED_AFTER: re.Pattern[str]
    PAREN_APPOSED: re.Pattern[str]


def build_patterns(lex: Lexicon) -> Patterns:
    """Compile every pattern of the detector from the word lists of ``lex``."""
    c = re.compile
    w = lex.__getitem__
    word, title, title_only = _title(lex)
    participles, namely = w("naming.participles"), w("naming.namely")
    naming = alt(participles + namely)
    naming_verbs = w("naming.verbs") + w("naming.verbs_not_cue")
    verbs = alt(w("cue.verbs") + w("naming.verbs"))
    filler_words = alt(w("cue.filler") + participles + w("cue.filler_more"))
    # "a novel and efficient X": a joiner only between two filler words
    joiners = alt(w("cue.filler_joiners"))
    filler = (rf"(?:(?:{filler_words})(?:\s+(?:{joiners})(?=\s+(?:{filler_words})\b))?,?\s+)*")
    loose_stops = alt(w("cue.loose_stops"))
    # "a new family of sparse sketches, ", "a novel DPMs-based transfer learning method, "
    loose = (rf"(?:(?!(?:{loose_stops})\b|[A-Z][\w\-]*,)"
             r"[\w\-]+[,:]?\s+){0,7}")   # (not past a name: "we propose Momentor, a Video-LLM")
    adverbs = "|".join(rf"{a}\s+" for a in w("subject.adverbs"))
    verbs_ing = alt(w("cue.verbs_ing"))
    subject = (rf"(?:\b(?:{cased(w('subject.we'))}|{cased(w('subject.this'))} "
               rf"(?:{alt(w('subject.this_nouns'))})|{cased(w('subject.our'))} "
               rf"(?:{alt(w('subject.our_nouns'))}))\s+(?:{adverbs})?"
               rf"|\b{cased(w('subject.by'))}\s+(?=(?:{verbs_ing})))")
    we = cased(w("subject.we"))
    this_short = f"{cased(w('subject.this'))} (?:{alt(w('subject.short_this_nouns'))})"
    base = alt(w("cue.verbs_base"))
    lower_word = rf"(?!(?:{alt(w('bounds.not_lower'))})\b)[a-z][\w\-]*(?<!ly)"
    bound = (rf"(?![\w\-])(?=[\"”’']?(?:\s*[,.(;:—–]|\s+(?:{alt(w('bounds.after_name'))})\b"
             r"|\s*$))")
    bound_word = rf"(?![\w\-])(?=[\"”’']?(?:\s*[,.(;:—–]|\s+(?:{alt(w('bounds.after_word'))})\b|\s*$))"
    and_verbs = alt(w("voice.and_verbs"))
    generic = frozenset(w("nouns.generic"))
    generic_plurals = frozenset(w("nouns.generic_plurals"))
    own_adj = alt(w("nouns.own_adjectives"))
    wins = w("wins.verbs") + tuple(f"{a} state-of-the-art" for a in w("wins.achieves"))
    after_title = "|".join(rf"{b}\b" for b in w("bounds.after_title"))
    short_adverbs = "|".join(rf"{a}\s+" for a in w("subject.short_adverbs"))
    comma_adverbs = "|".join(rf"{a}\s+" for a in w("subject.method_comma_adverbs"))
    our_adjectives = "|".join(f"{a} " for a in w("nouns.our_adjectives"))
    return Patterns(
        VERBS=verbs, NAMELY=namely, FILLER=filler, SUBJECT=subject,
        CUE=c(rf"{subject}(?:{verbs})\s+{filler}{OPEN_Q}"
              # (a name token that starts a Title phrase is its first word:
              # "we introduce Value-Aware Mutual Information Maximization to")
              rf"(?P<name>{title}\s*{_ACR}|(?>{NAME_TOKEN})(?:\s*{_ACR}|(?!\s+[A-Z][a-z]+\b(?!-)))"
              rf"|{title}(?=[\"”’']?\s*(?:[,.(;:—–]|"
              rf"{after_title}|and\s+[a-z]))"
              rf"|{title_only}(?=\s+(?:{alt(w('cue.thing_after'))})\b)"
              rf"|[A-Z][a-z]{{2,}}[\w+\-]*(?=\s*(?:,\s*(?:a|an|the first|which)\s|\(|:\s|[—–]))"
              # "we propose the Blindspot unlearning method" (not "the Bayesian ... method",
              # nor "a Verilog generation framework, BetterV": the name follows)
              rf"|(?![A-Z][a-z]+(?:ian|ean)\b)[A-Z][a-z]{{2,}}[\w+\-]*"
              rf"(?=\s+(?:[a-z][\w\-]*\s+){{0,2}}(?:{alt(w('cue.thing_after'))})\b(?!\s*,)))"),
        # a cue right before an acronym pair: "we propose Layerwise Learning Rate (LLR)"
        PAIR_CUE=c(rf"{subject}(?:{verbs})\s+{filler}{OPEN_Q}$"),
        # "we propose attention with dynamic relational priming (prime attention)"
        CUE_PAREN=c(rf"{subject}(?:{verbs})\s+{filler}(?P<name>(?!(?:"
                    rf"{alt(w('bounds.not_cue_paren_start'))})\b)[a-z][\w\-]*"
                    rf"(?: [\w\-]+){{1,7}}) "
                    rf"\((?P<alias>(?!(?:{alt(w('bounds.not_alias') + participles + namely)})\b)"
                    rf"[a-z][\w\- ]{{2,40}})\)"),
        FUNCTION_WORDS=frozenset(w("bounds.function_words")),
        CUE_LOOSE=c(rf"{subject}(?:{verbs})\s+{loose}(?:[\w\-]+\s*(?:[—–]\s*(?:the\s+)?|\())?"
                    rf"(?P<name>{NAME_TOKEN})"),
        CALLED=c(rf"\b(?:{naming}|{alt(w('naming.phrases'))})\s+(?:as\s+)?(?:the\s+)?{OPEN_Q}"
                 rf"(?P<name>{title}\s*{_ACR}|{NAME_TOKEN}(?:\s*{_ACR})?)"),
        # lower case phrases: "called input clarification ensembling, which", "namely node
        # intervention and node merging,", "a process we call 'operator action'"
        CALLED_MORE=c(
            rf"\b(?:{naming}|{alt(w('naming.phrases_more'))})\s+(?:as\s+)?(?:the\s+)?"
            rf"(?:{OPEN_Q}(?P<name>{title_only}{bound}|{_CAP_WORD}{bound_word})"
            rf"|[\"“‘'`](?P<quoted>{lower_word}(?: {lower_word}){{0,4}})[\"”’']"
            rf"|(?P<lower>{lower_word}(?: {lower_word}){{1,7}})(?<! and)(?<! or)"
            rf"(?=,\s|\s\(|\.\s|\.$|;|\s+(?:{alt(w('bounds.after_lower'))})\b)"
            # "Q-score matching": a capitalised hyphenated word, then lower-case ones
            rf"|(?P<mixed>[A-Z][\w]*-[a-z][\w\-]*(?: {lower_word}){{1,3}})(?=,\s|\s\(|\.\s|\.$|;))"),
        OWN_VOICE=c(rf"\b(?:{we} (?:\w+ )?(?:{alt(w('voice.make_verbs') + naming_verbs)}"
                    rf"|{alt(w('naming.coin') + w('voice.refer'))})"
                    rf"|{cased(w('voice.own')[:1])}|{alt(w('voice.own')[1:])}"
                    rf"|{we} (?:\w+ )?(?:{alt(w('voice.find_verbs'))})\b[^.]*\b"
                    rf"(?:{alt(w('voice.found_nouns'))}))\b"),
        NAMELY_OF_METHODS=c(rf"\b(?:{alt(w('nouns.namely_of'))})\s*,?\s*$"),
        # "We create two new metrics for this task: an EntityScore to gauge ..., and an
        # AudioScore to ...": the items of a colon list after counted things the paper makes
        COUNTED_LIST=c(rf"{subject}(?:{verbs})\s+(?:{alt(w('cue.counts'))})\s+[^.:;]{{0,80}}?:\s+"
                       r"(?P<name>[^.;:]{1,300})"),
        # one item: after a comma, "and", a number, "a"/"an"/"the" ("2) ImageNet-W, an ...")
        LIST_ITEM=c(rf"(?:(?<=:\s)|,\s+|\band\s+)(?:\(?\d\)\s+|\([a-z]\)\s+)?(?:(?:a|an|the)\s+)?"
                    rf"(?P<item>{NAME_TOKEN})(?=[\s,]|$)"),
        OTHERS_VOICE=c(rf"\b(?:{cased(w('voice.others'))})\b"),
        PASSIVE_BEFORE=c(rf"(?:\bso[- ]|\b(?:{alt(w('voice.passive'))})\s+)$"),
        # "we ... and design FC-Entry algorithm": the paper's second verb
        AND_VERB=c(rf"\band\s+(?:then\s+)?(?:{and_verbs})\s+"
                   rf"(?:(?:{alt(w('voice.and_adjectives'))})\s+)*(?:(?:{alt(w('voice.and_nouns'))})"
                   rf"\s+(?=[A-Z]))?"
                   rf"(?P<name>{NAME_TOKEN}|(?:{title_only}|{_CAP_WORD})"
                   rf"(?=\s*(?:,\s*(?:a|an)\s|\(|:\s|[—–])))"),
        AND_VERB_HINT=c(rf"and (?:then )?(?:{and_verbs})"),
        # "We introduce prospector heads, an efficient ...", "we present bifurcated attention, a"
        CUE_LOWER=c(
            rf"\b(?:{we}|{this_short})\s+"
            rf"(?:{short_adverbs})?"
            rf"(?:{base})s?\s+"
            rf"(?:the\s+)?(?P<name>(?!(?:{alt(w('bounds.not_cue_lower'))})\b)"
            rf"{lower_word}(?: (?:{lower_word}|[A-Z]{{2,}}[a-z]?[A-Z]*\b)){{0,3}}),\s+(?:a|an|which)\b"),
        # "We propose a novel method, severity encoding, to estimate": the name between commas
        METHOD_COMMA=c(
            rf"\b(?:{we}|{this_short})\s+"
            rf"(?:{comma_adverbs})?"
            rf"(?:{base})s?\s+(?:a|an)\s+(?:(?:{alt(w('nouns.method_comma_adjectives'))})\s+)*"
            rf"(?:{alt(w('nouns.method_comma'))}),\s+"
            rf"(?P<name>(?!(?:{alt(participles + namely)})\b)"
            rf"{lower_word}(?: {lower_word}){{0,3}}),\s"),
        # "we present a new amortized inference method—the Simformer—which"
        DASH_NAME=c(
            rf"(?:\b(?:{we}|{cased(w('subject.this'))} (?:{alt(w('subject.this_nouns'))}))\s+)"
            rf"(?:{base})s?\s+(?:(?!(?:{loose_stops})\b)[\w\-]+,?\s+){{0,7}}"
            rf"[\w\-]+\s*[—–]\s*(?:the\s+)?(?P<name>{_CAP_WORD}|{NAME_TOKEN})(?=\s*[—–,])"),
        DASH_HINT=c(r"[—–]\s*(?:the\s+)?[A-Z]"),
        # "we introduce ETHER and its relaxation ETHER+", "namely X and Y"
        AND_NEXT=c(rf"\s+and\s+(?:its\s+[a-z\-]+\s+|the\s+)?(?P<name>{NAME_TOKEN}|{title_only}{bound}|"
                   rf"{_CAP_WORD}{bound_word})"),
        # "federated adaptive asynchronous optimization, named FADAS"
        # (a naming participle: "a dataset of commodity sensors, namely D-ToF, I-ToF, ..."
        # lists examples)
        LOWER_NAMED=c(rf"{subject}(?:{verbs})\s+{filler}(?P<long>[a-z][\w\-]*(?: [a-z][\w\-]*){{1,7}}),?\s+"
                      rf"(?:{alt(participles)})\s+(?P<name>{NAME_TOKEN})"),
        # "Central to our approach is Graph Symmetric Attention, which"
        OUR_IS=c(rf"\b{cased(w('subject.our'))} (?:{alt(w('nouns.our_is'))}) "
                 rf"(?:{alt(w('nouns.our_is_verbs'))})\s+(?:a |an |the )?"
                 rf"(?P<name>{title}(?:\s*{_ACR})?|{NAME_TOKEN})"),
        # "the resulting Particle Denoising Diffusion Sampler (PDDS)": named with its acronym
        RESULTING=c(rf"\b[Tt]he (?:{alt(w('nouns.resulting'))}) (?P<name>{title_only}\s*{_ACR})"),
        # "We call this probabilistic score the Visual Generative Pre-Training Score"
        CALL_THIS=c(rf"\b{we} (?:{alt(naming_verbs)}) "
                    r"(?:this|these|such|such an?) (?:[\w\-]+ ){1,3}?"
                    rf"(?:the |an? )?(?P<name>{title}\s*{_ACR}|{NAME_TOKEN}(?:\s*{_ACR})?)"),
        CALL_THIS_HINTS=tuple(f"e {v} {t}" for v in naming_verbs for t in ("th", "su")),
        # "a novel Dreaming Strategy": a Title phrase the paper coins
        NOVEL_TITLE=c(rf"(?:{alt(w('nouns.novel_title'))}) (?P<name>{title_only})(?![\w\-])"
                      r"(?!\s*\(|\s+[A-Z])"),
        NOVEL_TITLE_HINTS=tuple(f"{n} " for n in w("nouns.novel_title")),
        ARTICLE_BEFORE=c(r"(?:^|\W)(?:a|an|the) $"),   # (a literal start keeps the scan fast)
        # "the proposed SPT", "our Leddam"
        OWN=c(rf"\b(?:[Tt]he (?:{alt(w('nouns.proposed'))})|{cased(w('subject.our'))} "
              rf"(?:{alt(w('nouns.proposed'))})|{cased(w('subject.our'))})\s+"
              rf"(?P<name>{title_only}{bound}"
              rf"|{word}(?:[ \-]{word}){{1,5}}(?= [a-z])|{NAME_TOKEN})"),
        OUR=c(rf"\b{cased(w('subject.our'))} "
              rf"(?:{our_adjectives})?"
              rf"(?:{alt(w('nouns.our'))}),?\s+"
              rf"\(?(?:the\s+)?(?P<name>{title}\s*{_ACR}|{NAME_TOKEN})"),
        NOVEL_PAREN=c(rf"\b(?:{alt(w('nouns.novel_paren'))})\b(?P<gap>[^.()]{{0,80}}?)"
                      rf"\((?P<name>{NAME_TOKEN})\)"),
        # "a novel paradigm that leverages the Abstract Syntax Tree (AST)": the name is another's
        NOVEL_GAP_STOP=c(rf"\b(?:{alt(w('bounds.novel_gap_stops'))})\b"),
        # anchored on a cheap literal, then the name is matched backwards from it
        APPOSITION_AT=c(r",\s+(?:a|an)\s+"),
        WINS_AT=c(rf"\b(?:{alt(wins)})\b"),
        ADVERB_BEFORE=c(rf"\s+(?:(?:{alt(w('wins.adverbs'))})\s+)?$"),
        NAME_FULL=c(NAME_TOKEN),
        ENUM_AT=c(r"\)\s*"),
        ENUM_MARK=c(r"(?:^|[\s(])(?:\d|i{1,3}|iv|[a-c])$"),
        ENUM_TITLE=c(rf"(?P<name>{title})(?=,?\s+(?:{alt(w('bounds.after_enum'))})\b)"),
        GENERIC_NOUNS=generic,
        # "The resulting model, Tripod, achieves", "Our proposed baselines, FRBC and FRBT, achieve"
        OWN_APPOSITION=c(
            rf"\b(?:[Tt]he (?:{alt(w('nouns.resulting'))})|{cased(w('subject.our'))} (?:{own_adj}))"
            rf"\s+(?:[\w\-]+\s+){{0,2}}?"
            rf"(?P<noun>[a-z]+),\s+(?P<name>(?:{NAME_TOKEN}|{_CAP_WORD})(?:,?\s+and\s+(?:{NAME_TOKEN}|"
            rf"{_CAP_WORD}))?),"),
        GENERIC_PLURALS=generic_plurals,
        # "this paper introduces Image-Report Contrastive and Image-Report Matching losses"
        # (each side checked with TITLE_NAME after the match: the alternation itself,
        # backtracking over " and ", is quadratic on a chain like "A-A-A-...")
        AND_PAIR=c(rf"{subject}(?:{verbs})\s+{filler}(?P<name>[A-Z][^.,;:()]{{0,80}}? and "
                   rf"[A-Z][^.,;:()]{{0,80}}?) (?P<noun>[a-z]+)\b"),
        TITLE_NAME=c(rf"(?:{title_only}|{NAME_TOKEN})"),
        # "a novel Trajectory-Aware Relative Position Encoding for SBI-MSA": a name's last
        # words, a joiner and one more name (dropped where that name is defined before)
        JOINED_TAIL=c(rf" (?:{alt(w('title.tail_joiners'))}) (?P<tail>[^\s()]+)$"),
        FIRST_PERSON=c(rf"\b(?:{we}|{cased(w('subject.our'))}|{cased(w('subject.this'))} "
                       rf"(?:{alt(w('subject.first_person_nouns'))}))\b"),
        WE=c(rf"\b(?:{we})\b"),
        APPOSITION_NOUNS=generic | generic_plurals | frozenset(w("nouns.apposition_more")),
        AND_SPLIT=c(r",?\s+and\s+"),
        # a lower-case noun right after a name: the name modifies what the paper makes
        MODIFIER_AFTER=c(rf"\s+(?!(?:{alt(w('bounds.not_modified'))})\b)[a-z][a-z\-]+"),
        THING_BEFORE=c(rf"(?<!\bto )\b((?i:{alt(w('nouns.thing_before'))})s?)"
                       r"(?:\s*\([^()]{1,20}\))?(?:,\s+|\s)$"),
        APPOSED_AFTER=c(rf"(?=[,;:]|\.(?:\s|$)|\s*\(|\s+(?:{alt(w('bounds.after_apposed'))})\b)"),
        PAREN_APPOSED=c(rf"\),\s+(?P<name>{NAME_TOKEN})"
                        rf"(?=,|\s*\(|\s+(?:{alt(w('bounds.after_paren_apposed'))})\b)"),
    )


@lru_cache(maxsize=1)
def default_patterns() -> Patterns:
    """The patterns of kg's own lexicon (built once)."""
    return build_patterns(load_lexicon())
