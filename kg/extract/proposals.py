"""What a paper itself introduces: ``we propose X``, ``we introduce X, a ...``,
``X, a novel ...``, ``called X``, ``dubbed X``, ``named X``, ``our method X``,
a benchmark ``we present``.

Pure functions over clean text; the spaCy component only calls
:func:`find_proposals`.

Examples
--------
>>> [p.name for p in find_proposals("To fix it, we propose ToMoE, a method that prunes.")]
['ToMoE']
>>> [(p.name, p.type) for p in find_proposals(
...     "We introduce Layerwise Learning Rate (LLR), an adaptive scheme.")]
[('Layerwise Learning Rate', 'method'), ('LLR', 'method')]
>>> [(p.name, p.type) for p in find_proposals("We present MMBench-X, a new benchmark for VLMs.")]
[('MMBench-X', 'dataset')]
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from typing import Callable, Iterator, Sequence

from kg.extract.acronyms import AcronymPair
from kg.extract.emphasis import coined
from kg.extract.heads import head_type

# a name: a token with a capital after its first letter, or digits, or ++ /
# ^ marks: ToMoE, LLR, R^3, W4A16, PPI++, Meta-iLaD, DiffusionDB
_NAME_TOKEN = (r"(?:[A-Za-z0-9Α-Ω][\w^+\-.']*[A-Z0-9+^][\w^+\-'#]*|[A-Z][a-z]+[A-Z][\w^+\-'#]*)"
               r"(?: [A-Z][a-z]*-[\w\-]+| [Vv]\d+(?:\.\d+)?(?![\w\-]))?")
# a Title Case phrase: Shannon Scaling Law, Layerwise Learning Rate
#
# A hyphen inside a word could also be the separator between two words, and a
# chain like "A-A-A-..." then splits in about n^7 ways when the pattern fails.
# So the split is decided up front: a hyphen before something that can start
# a word of the phrase (a capital, a function word) separates; any other
# hyphen is part of the word ("Self-attention"). The tails are possessive.
_WORD_START = (r"(?:[A-Z]|\d+[A-Z]|[a-z]+[A-Z]"
               r"|(?:of|for|and|with|in|on|to|via|the|a|as)(?![\w']))")
_WORD_TAIL = rf"[\w']*+(?:-(?!{_WORD_START})[\w']*+)*+"
_TITLE_WORD = rf"(?:[A-Z]{_WORD_TAIL}|\d++[A-Z]{_WORD_TAIL}|[a-z]++[A-Z]{_WORD_TAIL})"
_TITLE = rf"{_TITLE_WORD}(?:[ \-](?:of|for|and|with|in|on|to|via|the|a|{_TITLE_WORD})){{1,7}}"
# a Title phrase that ends in a capitalised word (no trailing "of", "in")
_TITLE_ONLY = (rf"{_TITLE_WORD}(?:[ \-](?:(?:of|for|and|with|in|on|to|via|the|a|as)[ \-])*{_TITLE_WORD})"
               r"{1,6}")
_ACR = r"\([A-Za-z][\w^+\-]{1,14}\)"
_ACR_AT_END = re.compile(r"\(([^()]+)\)$")

_VERBS = (r"introducing|proposing|developing|presenting|designing|propose|proposes|proposed|introduce|introduces|present|presents|develop|develops|"
          r"design|designs|devise|devises|formulate|construct|curate|create|build|release|"
          r"developed|introduced|presented|designed|devised|built|created|constructed|curated|"
          r"contribute|put forward|offer|call|term|name")
_ADJ = (r"a|an|the|our|two|three|new|novel|simple|first|general|unified|efficient|effective|"
        r"scalable|principled|lightweight|practical|generic|flexible|robust|comprehensive|"
        r"large-scale|fast|provable|provably|theoretical|versatile|training-free|plug-and-play|"
        r"framework|method|approach|algorithm|technique|model|benchmark|dataset|suite|family|"
        r"class|set|called|named|termed|dubbed|of|this|it|use|the use|game-agnostic")
_FILLER = rf"(?:(?:{_ADJ}),?\s+)*"
# "a new family of sparse sketches, ", "a novel DPMs-based transfer learning method, "
_LOOSE = (r"(?:(?!(?:to|that|which|using|on|for|with|from|in|by|and)\b|[A-Z][\w\-]*,)"
          r"[\w\-]+[,:]?\s+){0,7}")   # (not past a name: "we propose Momentor, a Video-LLM")
_OPEN_Q = r"[\"“‘']?"
_SUBJECT = (r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article)|[Oo]ur (?:work|paper))\s+"
            r"(?:first\s+|further\s+|also\s+|then\s+|thus\s+|therefore\s+|hence\s+|here\s+)?"
            r"|\b[Bb]y\s+(?=(?:introduc|propos|develop|present|design)ing))")
_VERBS_ING = r"introducing|proposing|developing|presenting|designing"
_CUE = re.compile(
    rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}{_OPEN_Q}"
    rf"(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?"
    rf"|{_TITLE}(?=[\"”’']?\s*(?:[,.(;:—–]|that\b|which\b|to\b|for\b|by\b|with\b|as\b|in\b|and\s+[a-z]))"
    rf"|{_TITLE_ONLY}(?=\s+(?:method|framework|model|algorithm|approach|technique|strategy|module|"
    rf"mechanism|loss|objective|architecture|benchmark|dataset)\b)"
    rf"|[A-Z][a-z]{{2,}}[\w+\-]*(?=\s*(?:,\s*(?:a|an|the first|which)\s|\(|:\s|[—–])))")
# "we propose attention with dynamic relational priming (prime attention)"
_CUE_PAREN = re.compile(
    rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}(?P<name>(?!(?:a|an|the|yet|our|this)\b)[a-z][\w\-]*"
    rf"(?: [\w\-]+){{1,7}}) "
    rf"\((?P<alias>(?!(?:with|for|to|of|in|on|by|see|where|which|that|e\.g|i\.e|resp|called|termed|"
    rf"dubbed|named|namely|coined)\b)"
    rf"[a-z][\w\- ]{{2,40}})\)")
_FUNCTION_WORDS = frozenset("with for to of in on by and or the a an from via as at".split())
_CUE_LOOSE = re.compile(rf"{_SUBJECT}(?:{_VERBS})\s+{_LOOSE}(?:[\w\-]+\s*(?:[—–]\s*(?:the\s+)?|\())?"
                        rf"(?P<name>{_NAME_TOKEN})")

_CALLED = re.compile(
    rf"\b(?:called|dubbed|named|termed|coined|namely|abbreviated as|denoted as|denoted by|"
    rf"referred to as|which we call|we call it|we name it|we term)\s+(?:as\s+)?(?:the\s+)?{_OPEN_Q}"
    rf"(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?)")
# a single capitalised word or a Title phrase, ended by punctuation or a clause:
# "the framework named Ditto to", "a new training objective named 3D Cloze Test to"
_CAP_WORD = r"[A-Z][a-z]{2,}[\w+\-]*"
_BOUND = (r"(?![\w\-])(?=[\"”’']?(?:\s*[,.(;:—–]|\s+(?:that|which|to|for|by|with|as|in|is|and|on)\b"
          r"|\s*$))")
_BOUND_WORD = r"(?![\w\-])(?=[\"”’']?(?:\s*[,.(;:—–]|\s+(?:that|which|to|is|was|and)\b|\s*$))"
# lower case phrases: "called input clarification ensembling, which", "namely node
# intervention and node merging,", "a process we call 'operator action'"
_LOWER_WORD = (r"(?!(?:a|an|the|this|these|our|its|to|for|that|which|is|are|was|were|be|can|will|"
               r"with|by|from|in|on|as|at|we|it|such|also)\b)[a-z][\w\-]*(?<!ly)")
_CALLED_MORE = re.compile(
    rf"\b(?:called|dubbed|named|termed|coined|namely|denoted as|referred to as|which we call|"
    rf"we call it|we call|we name it|we term|we dub|which we denote|we denote it)\s+(?:as\s+)?(?:the\s+)?"
    rf"(?:{_OPEN_Q}(?P<name>{_TITLE_ONLY}{_BOUND}|{_CAP_WORD}{_BOUND_WORD})"
    rf"|[\"“‘'`](?P<quoted>{_LOWER_WORD}(?: {_LOWER_WORD}){{0,4}})[\"”’']"
    rf"|(?P<lower>{_LOWER_WORD}(?: {_LOWER_WORD}){{1,7}})(?<! and)(?<! or)"
    rf"(?=,\s|\s\(|\.\s|\.$|;|\s+(?:for|that|which)\b)"
    # "Q-score matching": a capitalised hyphenated word, then lower-case ones
    rf"|(?P<mixed>[A-Z][\w]*-[a-z][\w\-]*(?: {_LOWER_WORD}){{1,3}})(?=,\s|\s\(|\.\s|\.$|;))")
# a lower-case name needs the paper's own voice in its sentence
_OWN_VOICE = re.compile(r"\b(?:[Ww]e (?:\w+ )?(?:propose|introduce|present|develop|design|devise|call|"
                        r"term|name|dub|coin|refer)|[Oo]ur|novel|new|proposed"
                        # "we identify an interesting phenomenon called X": coined by the paper
                        r"|[Ww]e (?:\w+ )?(?:identify|discover|observe|uncover|reveal)\b[^.]*\b"
                        r"(?:phenomenon|effect|property|behaviou?r))\b")
# "two methods, namely X and Y" (not "two factors, namely the graph topology")
_NAMELY_OF_METHODS = re.compile(r"\b(?:methods|approaches|algorithms|techniques|strategies|modules|"
                                r"variants|components|mechanisms|schemes|models|frameworks|variant|"
                                r"method|approach|algorithm|technique|strategy|module|mechanism|model|"
                                r"framework|loss|objective)\s*,?\s*$")
# "which are termed Video-LLMs", "the so-called Mapper graph": names of others
_PASSIVE_BEFORE = re.compile(r"(?:\bso[- ]|\b(?:also|often|commonly|usually|widely|generally|"
                             r"typically|are|were|been|sometimes)\s+)$")
# the contribution is a problem, setting or notion, not a method: "a problem setting
# called Open-world Prompt Tuning (OPT)", "the Factored-Reward Bandits (FRBs), a novel
# setting", "this key property, dubbed word sensitivity"
_SETTING_BEFORE = re.compile(r"\b(?:setting|task|phenomenon|property|notion|concept|observation|"
                             r"assumption|assumptions|condition|effect),?(?:\s+(?:that|which|is|are|we|"
                             r"be|will|often|also))*\s+(?:called|named|termed|dubbed|call|term|dub|coin)"
                             r"\s+(?:as\s+)?(?:the\s+)?[\"“‘']?$")
_SETTING_AFTER = re.compile(r"\)?(?:\s*\([^()]*\))?\s*,\s*(?:a|an)\s+(?:\w+\s+){0,2}"
                            r"(?:setting|problem|phenomenon)\b")
_NOT_PART_AFTER = re.compile(r"\s*(?:problems?|settings?|framework for|tasks?)\b")
_PAIR_CUE = re.compile(rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}{_OPEN_Q}$")
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
# "we ... and design FC-Entry algorithm": the paper's second verb
_AND_VERB = re.compile(rf"\band\s+(?:then\s+)?(?:propose|design|develop|introduce|present|devise)\s+"
                       rf"(?:(?:a|an|the|new|novel)\s+)*(?:(?:method|framework|model|algorithm|"
                       rf"benchmark|dataset|approach)\s+(?=[A-Z]))?"
                       rf"(?P<name>{_NAME_TOKEN}|(?:{_TITLE_ONLY}|{_CAP_WORD})"
                       rf"(?=\s*(?:,\s*(?:a|an)\s|\(|:\s|[—–])))")
_AND_VERB_HINT = re.compile(r"and (?:then )?(?:propose|design|develop|introduce|present|devise)")
# "We introduce prospector heads, an efficient ...", "we present bifurcated attention, a"
_CUE_LOWER = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:also\s+|further\s+|therefore\s+|then\s+|first\s+)?"
    rf"(?:introduce|propose|present|develop|design|devise)s?\s+"
    rf"(?:the\s+)?(?P<name>(?!(?:two|three|several|various|both|some|one|another|new|novel|simple|"
    rf"first|second|same|following|main|key|general)\b)"
    rf"{_LOWER_WORD}(?: (?:{_LOWER_WORD}|[A-Z]{{2,}}[a-z]?[A-Z]*\b)){{0,3}}),\s+(?:a|an|which)\b")
# "We propose a novel method, severity encoding, to estimate": the name between commas
_METHOD_COMMA = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:also\s+|further\s+|then\s+|first\s+)?"
    rf"(?:introduce|propose|present|develop|design|devise)s?\s+(?:a|an)\s+(?:(?:novel|new|simple|"
    rf"general|efficient|effective|principled)\s+)*(?:method|approach|technique|algorithm|"
    rf"framework|module|strategy|loss|objective),\s+"
    rf"(?P<name>(?!(?:called|termed|named|dubbed|namely|coined)\b){_LOWER_WORD}(?: {_LOWER_WORD}){{0,3}}),\s")
# "we present a new amortized inference method—the Simformer—which"
_DASH_NAME = re.compile(
    r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article))\s+)(?:introduce|propose|present|develop|"
    r"design|devise)s?\s+(?:(?!(?:to|that|which|using|on|for|with|from|in|by|and)\b)[\w\-]+,?\s+){0,7}"
    rf"[\w\-]+\s*[—–]\s*(?:the\s+)?(?P<name>{_CAP_WORD}|{_NAME_TOKEN})(?=\s*[—–,])")
_DASH_HINT = re.compile(r"[—–]\s*(?:the\s+)?[A-Z]")
# "we introduce ETHER and its relaxation ETHER+", "namely X and Y"
_AND_NEXT = re.compile(
    rf"\s+and\s+(?:its\s+[a-z\-]+\s+|the\s+)?(?P<name>{_NAME_TOKEN}|{_TITLE_ONLY}{_BOUND}|"
    rf"{_CAP_WORD}{_BOUND_WORD})")
# "federated adaptive asynchronous optimization, named FADAS"
_LOWER_NAMED = re.compile(
    rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}(?P<long>[a-z][\w\-]*(?: [a-z][\w\-]*){{1,7}}),?\s+"
    rf"(?:named|called|dubbed|termed|coined|namely)\s+(?P<name>{_NAME_TOKEN})")
# "Central to our approach is Graph Symmetric Attention, which"
_OUR_IS = re.compile(
    rf"\b[Oo]ur (?:approach|method|framework|model|algorithm|design|solution) (?:is|uses|relies on|"
    rf"introduces|builds on)\s+(?:a |an |the )?(?P<name>{_TITLE}(?:\s*{_ACR})?|{_NAME_TOKEN})")
# "the resulting Particle Denoising Diffusion Sampler (PDDS)": named with its acronym
_RESULTING = re.compile(rf"\b[Tt]he resulting (?P<name>{_TITLE_ONLY}\s*{_ACR})")
# "We call this probabilistic score the Visual Generative Pre-Training Score (VisualGPTScore)"
_CALL_THIS = re.compile(rf"\b[Ww]e (?:call|term|name|dub) (?:this|these|such|such an?) (?:[\w\-]+ ){{1,3}}?"
                        rf"(?:the |an? )?(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?)")
# "a novel Dreaming Strategy": a Title phrase the paper coins
_NOVEL_TITLE = re.compile(rf"(?:novel|innovative) (?P<name>{_TITLE_ONLY})(?![\w\-])(?!\s*\(|\s+[A-Z])")
_ARTICLE_BEFORE = re.compile(r"(?:^|\W)(?:a|an|the) $")   # (a literal start keeps the scan fast)
# "the proposed SPT", "our Leddam"
_OWN = re.compile(rf"\b(?:[Tt]he proposed|[Oo]ur proposed|[Oo]ur)\s+(?P<name>{_TITLE_ONLY}{_BOUND}"
                  rf"|{_TITLE_WORD}(?:[ \-]{_TITLE_WORD}){{1,5}}(?= [a-z])|{_NAME_TOKEN})")
_OUR = re.compile(
    rf"\b[Oo]ur (?:proposed |new |novel )?(?:method|approach|framework|model|algorithm|benchmark|"
    rf"dataset|system|technique|architecture|pipeline|tool|library|estimator|optimizer|detector|"
    rf"network|agent|policy|solver|sampler|loss|objective|module|attack|defense|encoder|decoder|"
    rf"planner|controller|learner|classifier|generator|simulator|environment|strategy|scheme|"
    rf"procedure|mechanism|solution),?\s+"
    rf"\(?(?:the\s+)?(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN})")
_NOVEL_PAREN = re.compile(
    rf"\b(?:novel|new|our|proposed)\b(?P<gap>[^.()]{{0,80}}?)\((?P<name>{_NAME_TOKEN})\)")
# "a novel paradigm that leverages the Abstract Syntax Tree (AST)": the name is another's
_NOVEL_GAP_STOP = re.compile(r"\b(?:that|which|leverag\w*|using|uses|based|from|of|on|with|via|into|to)\b")
# anchored on a cheap literal, then the name is matched backwards from it
_APPOSITION_AT = re.compile(r",\s+(?:a|an)\s+")
_WINS_AT = re.compile(r"\b(?:outperforms|surpasses|beats|achieves state-of-the-art)\b")
_ADVERB_BEFORE = re.compile(r"\s+(?:(?:consistently|significantly|substantially|also)\s+)?$")
_NAME_FULL = re.compile(_NAME_TOKEN)
_ENUM_AT = re.compile(r"\)\s*")
_ENUM_MARK = re.compile(r"(?:^|[\s(])(?:\d|i{1,3}|iv|[a-c])$")
_ENUM_TITLE = re.compile(rf"(?P<name>{_TITLE})(?=,?\s+(?:which|that|to)\b)")
# an acronym pair introduced right after a cue, or named as a part of the system
_PART = re.compile(r"^\s*(?:(?:module|component|block|layer|loss|mechanism|strategy|framework|"
                   r"method|algorithm|approach|scheme|objective|regularizer)\b(?!s)|,\s*which\b|"
                   r",\s*(?:a|an)\s+(?:\w+\s+)?(?:new|novel|simple|proposed)\b)")

_NOT_A_THING = re.compile(r"\b(?:[Ll]aws?|[Hh]ypothesis|[Tt]heorem|[Pp]rinciple|[Cc]onjecture|[Ii]ndex|"
                          r"[Ss]core|[Mm]etric|[Pp]aradox|[Ee]ffect|[Pp]henomenon|[Dd]istance|"
                          r"[Dd]ivergence|[Dd]iscrepancy|[Dd]isparity|[Mm]easure|[Aa]ssumption|"
                          r"[Cc]ondition|[Pp]roperty)$")
_GENERIC_NOUNS = frozenset("method methods approach framework model algorithm technique scheme "
                           "strategy variant system pipeline objective loss module mechanism "
                           "architecture benchmark dataset agent paradigm network tool library "
                           "family task setting problem procedure criterion solution plugin".split())
_QUOTES = frozenset("\"“‘'")
# "The resulting model, Tripod, achieves", "Our proposed baselines, FRBC and FRBT, achieve"
_OWN_APPOSITION = re.compile(
    rf"\b(?:[Tt]he resulting|[Oo]ur (?:proposed|new|novel|final))\s+(?:[\w\-]+\s+){{0,2}}?"
    rf"(?P<noun>[a-z]+),\s+(?P<name>(?:{_NAME_TOKEN}|{_CAP_WORD})(?:,?\s+and\s+(?:{_NAME_TOKEN}|"
    rf"{_CAP_WORD}))?),")
_GENERIC_PLURALS = frozenset("methods approaches frameworks models algorithms techniques schemes strategies "
                             "results experiments evidence analyses bounds guarantees insights tools "
                             "variants systems pipelines".split())
_NOUN_AFTER = re.compile(r"\)\s+([a-z]+)")
# (a short list on purpose: every model/method cue noun of discovery also let in fields and
# tasks such as "Evolutionary Computation (EC) methods", "uncertainty quantification (UQ)")
_OWN_THING_NOUNS = frozenset("pipeline framework method approach algorithm model architecture "
                             "regression module network system technique strategy loss objective "
                             "scheme mechanism estimator paradigm".split())
_FIRST_PERSON = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work))\b")
def _own_appositions(text: str, at: _Anchors | None) -> Iterator[re.Match[str]]:
    """Matches of :data:`_OWN_APPOSITION`, tried only where "the resulting" or
    "our proposed/new/novel/final" starts (the token anchors, when there are)."""
    if at is None:
        if any(w in text for w in _OWN_APPOSITION_HINTS):
            yield from _OWN_APPOSITION.finditer(text)
        return
    starts = [o for w in ("our", "Our") for o in at.words.get(w, ())
              if text.startswith(_OUR_NEXT, o + 4)]
    starts += [o - 4 for o in at.words.get("resulting", ())
               if o >= 4 and text[o - 4: o] in ("the ", "The ")]
    for o in sorted(starts):
        m = _OWN_APPOSITION.match(text, o)
        if m:
            yield m


_OUR_NEXT = ("proposed ", "new ", "novel ", "final ")
_APPOSITION_NOUNS = _GENERIC_NOUNS | _GENERIC_PLURALS | {"baseline", "baselines"}
_OWN_APPOSITION_HINTS = ("resulting ", "ur proposed ", "ur new ", "ur novel ", "ur final ")
_AND_SPLIT = re.compile(r",?\s+and\s+")
_DIGITS = re.compile(r"[\d.,]+")
_CAPITAL_NEXT = re.compile(r"\s+[A-Z]")
_TWO_LOWER = re.compile(r"[a-z]{2}")
_METRIC_AFTER = re.compile(r"(?:\s*\([^()]*\))?\)?\s*,?\s*(?:a\s+|an\s+)?(?:new\s+|novel\s+)?metric\b"
                           r"(?!\s+(?:loss|learning|space|embedding))")
_SPELLING = re.compile(r"^(?:[A-Z]{2,3}[a-z]{3,}|[a-z]{2,}[A-Z][a-z]{2,})$")
_ADJECTIVE_COMPOUND = re.compile(r"^[\w^+]+-(?:[a-z]+)$")
_NOT_NAMES = frozenset({"2D", "3D", "4D", "1D", "We", "This", "The", "Our", "In", "To", "A", "An", "It", "These", "LLM",
                        "LLMs", "AI", "ML", "I", "II", "III"})


@dataclass(frozen=True, slots=True)
class Proposal:
    name: str
    start: int
    end: int
    type: str     # model / method / dataset


class _Found:
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
        if name in _NOT_NAMES or len(name) < 2 or _DIGITS.fullmatch(name) or (
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


_ALPHA = re.compile(r"[A-Za-z]+")


@lru_cache(maxsize=1)
def _cue_types() -> dict[str, str]:
    """Cue noun -> the type it implies (as :func:`kg.extract.discover.cue_type`)."""
    from kg.extract.discover import DATASET_CUES, METHOD_CUES, MODEL_CUES

    out = {w: "method" for w in METHOD_CUES}
    out.update({w: "model" for w in MODEL_CUES})
    out.update({w: "dataset" for w in DATASET_CUES})
    return out


def _type_after(text: str, end: int, before: str) -> str:
    """The type the nearest noun after the name (or in the cue) implies."""
    cues = _cue_types()
    for m in _ALPHA.finditer(text, end, end + 80):
        t = cues.get(m.group(0))
        if t is not None:
            return t
    for m in _ALPHA.finditer(before):
        t = cues.get(m.group(0))
        if t is not None:
            return t
    return "method"


_SENTENCE_SUBJECT = re.compile(r"\s*(?:(?:Specifically|Then|First|Moreover|Further|In addition|"
                               r"Finally|(?:For|In|To|With|On|By|At) [^,.]{1,40}),\s*)?"
                               r"(?:the\s+|our\s+)?([\w^+\-]+)")


# a lower-case noun right after a name: the name modifies what the paper makes
_MODIFIER_AFTER = re.compile(r"\s+(?!(?:and|or|to|that|which|for|in|on|with|by|as|is|are|was|were|"
                             r"can|from|of|via|using|based|into|under|at|the|a|an)\b)[a-z][a-z\-]+")
_NOTION_BEFORE = re.compile(r"\b(?:notion|concept|idea|phenomenon|property)s? of (?:an? |the )?$")


def _coined_type(text: str, s: int, e: int, end: int) -> str:
    """The type of a name the author set apart after a cue: its head noun's; a
    notion or a lower-case phrase with no telling head is no model, method or
    dataset ("the notion of a *universal critic*", "the “weights component”")."""
    name = text[s:e]
    if _NOTION_BEFORE.search(text[max(0, s - 30): s].rstrip("“‘\"'`")):
        return "other"
    typ = head_type(name)
    if typ in ("model", "method", "dataset"):
        return typ
    if typ is not None or name.lower() == name:
        return "other"
    return _type_after(text, end, "")


_THING_BEFORE = re.compile(r"(?<!\bto )\b((?i:pipeline|framework|method|approach|algorithm|model|"
                           r"architecture|module|network|system|technique|strategy|scheme|"
                           r"mechanism|estimator|benchmark|dataset|agent|optimizer|solver|attack|"
                           r"paradigm|suite|transformer)s?)(?:\s*\([^()]{1,20}\))?(?:,\s+|\s)$")
_APPOSED_AFTER = re.compile(r"(?=[,;:]|\.(?:\s|$)|\s*\(|\s+(?:which|that|to|for|is|and)\b)")
_PAREN_APPOSED = re.compile(rf"\),\s+(?P<name>{_NAME_TOKEN})(?=,|\s*\(|\s+(?:which|that|to|for|is)\b)")


def _apposed(text: str, s: int, e: int) -> tuple[int, int] | None:
    """The span of a name set in apposition to the thing a cue introduces: "a
    novel graph generative framework, SGDM, which", "a novel video Multimodal
    Large Language Model (MLLM), MotionEpic, which" (``s:e`` is the name the
    loose cue found: the apposed name itself, or the acronym before it)."""
    if text[s - 1: s] == "(":
        m = _PAREN_APPOSED.match(text, e)
        if m and _THING_BEFORE.search(text, max(0, s - 60), m.start("name")):
            return m.span("name")
        return None
    if _THING_BEFORE.search(text, max(0, s - 40), s) and _APPOSED_AFTER.match(text, e):
        return s, e
    return None


def _sentence_start(text: str, pos: int) -> int:
    """Where the sentence holding ``pos`` starts."""
    i = text.rfind(". ", 0, pos)
    return 0 if i < 0 else i + 2


def _word_in(word: str, text: str) -> bool:
    """Is ``word`` in ``text`` as a whole word (not inside "X-based", "XNet")?"""
    i = text.find(word)
    while i >= 0:
        before = text[i - 1: i] if i else ""
        after = text[i + len(word): i + len(word) + 1]
        if not (before and (before.isalnum() or before in "-_")) and not (
                after and (after.isalnum() or after in "-_")):
            return True
        i = text.find(word, i + 1)
    return False


@lru_cache(maxsize=4096)
def _names_a_thing(long: str) -> bool:
    """Does a long form's head noun name a model, method or dataset ("IoU-based
    Optimal Matching"), not an object ("Cumulative Density Function")?"""
    return head_type(long) in ("model", "method", "dataset")


def _pieces(text: str, s: int, e: int) -> list[tuple[str, int, int]]:
    chunk = text[s:e]
    am = _ACR_AT_END.search(chunk)
    if am:
        a_start = s + am.start(1)
        long = text[s: s + am.start()].rstrip()
        return [(long, s, s + len(long)), (am.group(1), a_start, a_start + len(am.group(1)))]
    name = chunk.rstrip(".,;:'\"”’")
    return [(name, s, s + len(name))]


class _At:
    """A match-like (name span, start) found from an anchor."""

    def __init__(self, s: int, e: int, start: int) -> None:
        self._span = (s, e)
        self._start = start

    def span(self, _group: str) -> tuple[int, int]:
        return self._span

    def start(self) -> int:
        return self._start


class _Anchors:
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
            at: _Anchors | None) -> list[int]:
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


def _anchored(rx: re.Pattern[str], text: str, at: _Anchors | None = None) -> Iterator[re.Match[str]]:
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


def _backward(rx: re.Pattern[str], text: str, at: _Anchors | None = None) -> Iterator[_At]:
    """The names found backwards from a cheap anchor ``rx`` (:data:`_APPOSITION_AT`,
    :data:`_WINS_AT`, :data:`_ENUM_AT`): the name before ", a", before "outperforms",
    the Title phrase after an enumeration mark "(i)"."""
    if rx is _APPOSITION_AT or rx is _WINS_AT:
        # ", a ..." is found by a scan of the text (cheaper than a look at every comma token)
        anchors = ([a.start() for a in rx.finditer(text)] if rx is _APPOSITION_AT
                   else _starts(rx, _WINS_WORDS, text, at))
        for a_start in anchors:
            end = a_start
            if rx is _WINS_AT:
                if not rx.match(text, a_start):
                    continue
                adv = _ADVERB_BEFORE.search(text, max(0, end - 30), end)
                if not adv:
                    continue
                end = adv.start()
            begin = max(text.rfind(" ", 0, end), text.rfind("(", 0, end),
                        text.rfind("“", 0, end), text.rfind('"', 0, end)) + 1
            if begin < end and _NAME_FULL.fullmatch(text, begin, end):
                yield _At(begin, end, begin)
    elif rx is _ENUM_AT:
        for a_start in [a.start() for a in rx.finditer(text)]:  # ")" may not be a token
            a = rx.match(text, a_start)
            if not a or not _ENUM_MARK.search(text, max(0, a_start - 4), a_start):
                continue
            m = _ENUM_TITLE.match(text, a.end())
            if m:
                yield _At(m.start("name"), m.end("name"), a_start)


# Each long pattern is tried only where its first word is: a scan for one
# literal word is far cheaper than a scan for the whole pattern.
_SUBJECT_AT = re.compile(r"\b(?:[Ww]e|[Tt]his|[Oo]ur|[Bb]y)\b")
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
_GATES = {_SUBJECT_WORDS: re.compile(rf"{_SUBJECT}(?:{_VERBS}|{_VERBS_ING})"),
          _OUR_WORDS: re.compile(r"[Oo]ur\b|[Tt]he proposed\b"),
          _CALLED_WORDS: re.compile(r"(?:called|dubbed|named|termed|coined|namely|abbreviated|which we|"
                                    r"we (?:call|name|term|dub|denote)|denoted (?:as|by)|referred to as)\b")}
_ALL_ANCHOR_WORDS = (_SUBJECT_WORDS | _CALLED_WORDS | _OUR_WORDS | _NOVEL_WORDS | _WINS_WORDS
                     | {"resulting"})
_ANCHORS = {id(_CUE): (_SUBJECT_AT, _SUBJECT_WORDS), id(_CUE_LOOSE): (_SUBJECT_AT, _SUBJECT_WORDS),
            id(_CUE_PAREN): (_SUBJECT_AT, _SUBJECT_WORDS),
            id(_LOWER_NAMED): (_SUBJECT_AT, _SUBJECT_WORDS), id(_CALLED): (_CALLED_AT, _CALLED_WORDS),
            id(_OUR): (_OUR_AT, _OUR_WORDS), id(_OWN): (_OUR_AT, _OUR_WORDS),
            id(_OUR_IS): (_OUR_AT, _OUR_WORDS),
            id(_NOVEL_PAREN): (_NOVEL_AT, _NOVEL_WORDS),
            id(_CALLED_MORE): (_CALLED_AT, _CALLED_WORDS), id(_DASH_NAME): (_SUBJECT_AT, _SUBJECT_WORDS),
            id(_CUE_LOWER): (_SUBJECT_AT, _SUBJECT_WORDS),
            id(_METHOD_COMMA): (_SUBJECT_AT, _SUBJECT_WORDS)}


# every word one of _CALLED, _CALLED_MORE and _LOWER_NAMED needs (lower-cased)
_NAMING_HINTS = ("called", "dubbed", "named", "termed", "coined", "namely", "abbreviated",
                 "denote", "referred", "we call", "we name", "we term", "we dub")
_NAMING_TOKENS = frozenset(w for base in (
    "called dubbed named termed coined namely abbreviated denote denoted denotes referred "
    "call name term dub").split() for w in (base, base.capitalize()))
_NAMING_PATTERNS = (_CALLED, _LOWER_NAMED)


def _pair_proposals(col: _Found, pairs: Sequence[AcronymPair]) -> None:
    """The acronym pairs a text introduces as its own: right after a cue, named as
    a part of the system, defined in a sentence about it, or with a method's noun
    after it in the paper's own voice."""
    text, known, known_key, add, found = col.text, col.known, col.known_key, col.add, col.spans
    # acronym pairs: right after a cue, or named as a part ("(GSR) module", "(FiF), which")
    for p in pairs:
        first = min(p.long_start, p.short_start)
        last = max(p.long_end, p.short_end)
        before = text[max(0, first - 120): first]
        cue = _PAIR_CUE.search(before) if _SUBJECT_AT.search(before) else None
        after = text[last + 1: last + 30] if text[last: last + 1] == ")" else text[last: last + 30]
        part = not cue and _PART.match(after)
        if part and after.lstrip().startswith(",") and len(
                text[_sentence_start(text, first): first].split()) < 3:
            continue   # "Homomorphic encryption (HE), which allows ...": a definition, no part
        if cue or part:
            if (known(p.short) and (known(p.long) or known_key(p.long))) or (
                    part and (known(p.long) or known_key(p.long))):
                # (a known thing, whatever the case of its long form: "the direct
                # preference optimization (DPO) algorithm")
                continue
            ptype = "other" if col.blocked(p) else _type_after(text, last, "")
            add(p.long, p.long_start, p.long_end, ptype, True)
            add(p.short, p.short_start, p.short_end, ptype, True)
    # the parts of a proposed system: acronyms defined in a sentence about it
    # ("OGA first performs rejection via adaptive label traceability (ALT)", "Within
    # SemiRES, we offer two matching strategies: IoU-based Optimal Matching (IOM) and ...")
    own = {p.name for p in found.values() if " " not in p.name}
    for p in pairs:
        if (p.long_start, p.long_end) in found or not (own or _names_a_thing(p.long)):
            continue   # (neither route below can take it: skip the lookups)
        if known(p.short) or known(p.long):
            continue
        first = min(p.long_start, p.short_start)
        sent_start = _sentence_start(text, first)
        head = text[sent_start: first]
        subject = _SENTENCE_SUBJECT.match(head)
        if (subject and subject.group(1) in own) or (
                _names_a_thing(p.long) and not _USED_BEFORE.search(head[-60:])
                and not _NOT_PART_AFTER.match(text, max(p.long_end, p.short_end) + 1)
                and (_WE_MAKE.search(head[-150:]) or (_OWN_PART_CUE.search(head) and any(
                    _word_in(o, head) for o in own)))):
            ptype = "other" if col.blocked(p) else _type_after(text, max(p.long_end, p.short_end), "")
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
        head = text[_sentence_start(text, p.long_start): p.long_start]
        if _FIRST_PERSON.search(head) and not _USED_BEFORE.search(head[-60:]):
            ptype = _cue_types().get(noun.group(1)) or _type_after(text, p.short_end, "")
            add(p.long, p.long_start, p.long_end, ptype, True)
            add(p.short, p.short_start, p.short_end, ptype, True)


def _nothing(name: str) -> bool:
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
        return known_as_written(name) or (name.endswith("s") and known_as_written(name[:-1]))
    col = _Found(text, known_name, known_key or _nothing)
    known = known_name
    add, found, marked = col.add, col.spans, col.marked
    at = _Anchors(words, offsets) if words is not None and offsets is not None else None

    strong = (_CUE, _CALLED, _OUR, _OUR_IS)   # cues that hold even for a known name
    # the naming patterns need a naming word: most abstracts have none
    if words is not None:   # (a word a naming pattern needs is a token of its own)
        naming = not _NAMING_TOKENS.isdisjoint(words)
    else:
        lowered = text.lower()
        naming = any(h in lowered for h in _NAMING_HINTS)
    for rx, strict in ((_CUE, True), (_CALLED, True), (_OUR, True), (_CUE_LOOSE, False),
                       (_LOWER_NAMED, False), (_OUR_IS, True),
                       (_NOVEL_PAREN, False), (_ENUM_AT, False), (_APPOSITION_AT, False),
                       (_WINS_AT, False)):
        if not naming and rx in _NAMING_PATTERNS:
            continue
        hits: Iterator[re.Match[str] | _At] = (
            _backward(rx, text, at) if rx is _ENUM_AT or rx is _APPOSITION_AT or rx is _WINS_AT
            else _anchored(rx, text, at))
        for m in hits:
            s, e = m.span("name")
            if rx is _CALLED and _PASSIVE_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue
            if rx is _CALLED and known(text[s:e].split(" (")[0]) and not _FIRST_PERSON.search(
                    text, _sentence_start(text, m.start()), m.start()):
                continue   # "Adam corresponds to a framework called Follow-the-Regularized-Leader"
            if rx is _NOVEL_PAREN and isinstance(m, re.Match) and _NOVEL_GAP_STOP.search(
                    m.group("gap")):   # (a pattern's own match: an _At has no groups)
                continue
            if rx is _CUE_LOOSE:
                apposed = _apposed(text, s, e)
                if apposed:
                    # "we propose a novel graph generative framework, SGDM, which": the
                    # paper's own name even where the gazetteer knows one like it (SGDM)
                    ps, pe = apposed
                    thing = _THING_BEFORE.search(text, max(0, ps - 60), ps)
                    add(text[ps:pe], ps, pe, (thing and _cue_types().get(thing.group(1).lower()))
                        or _type_after(text, pe, ""), True)
                    continue
            if rx is _CUE and _MODIFIER_AFTER.match(text, e) and known(text[s:e]):
                continue   # "we develop an RL algorithm called X": RL modifies the thing made
            ptype = _type_after(text, e, text[m.start(): s])
            for name, ps, pe in _pieces(text, s, e):
                if not add(name, ps, pe, ptype, rx in strong or (strict and not known(name))):
                    ptype = "other"   # "a problem setting called X (Y)": Y is a setting too
            if rx is _CUE or (rx is _CALLED and not text.startswith("namely", m.start())):
                # "we introduce ETHER and its relaxation ETHER+"
                nxt = _AND_NEXT.match(text, e)
                if nxt:
                    for name, ps, pe in _pieces(text, *nxt.span("name")):
                        add(name, ps, pe, ptype, not known(name))
    for m in (_anchored(_CALLED_MORE, text, at) if naming else ()):
        if _PASSIVE_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue
        group = next(g for g in ("name", "quoted", "lower", "mixed") if m.group(g))
        s, e = m.span(group)
        if text.startswith("namely", m.start()) and not _NAMELY_OF_METHODS.search(
                text, max(0, m.start() - 60), m.start()):
            continue
        if group != "name":
            # a lower-case name only where the sentence speaks of the paper's own work
            sent = text[_sentence_start(text, m.start()): m.start() + 12]
            if not _OWN_VOICE.search(sent):
                continue
        ptype = _type_after(text, e, text[m.start(): s])
        name = text[s:e]
        parts = [(name, s)]
        if " and " in name:
            left, right = name.split(" and ", 1)
            nl, nr = len(left.split()), len(right.split())
            if (group == "name" and nl == 1 and nr == 1) or (group == "lower" and abs(nl - nr) <= 1):
                # "AlphaFlow and ESMFlow", "node intervention and node merging"
                parts = [(left, s), (right, s + len(left) + 5)]
        for part, ps in parts:
            if group == "lower" and (part.split()[-1] in _GENERIC_NOUNS or len(part.split()) > 5):
                continue
            add(part, ps, ps + len(part), ptype, False)
    for m in _anchored(_METHOD_COMMA, text, at):
        s, e = m.span("name")
        add(text[s:e], s, e, _type_after(text, e, text[m.start(): s]), False)
    for m in _anchored(_CUE_LOWER, text, at):
        s, e = m.span("name")
        name = text[s:e]
        if name.split()[-1] in _GENERIC_NOUNS or name.split()[-1] in _GENERIC_PLURALS or name.endswith("ing") \
                and " " not in name:
            continue
        add(name, s, e, _type_after(text, e, ""), False)
    if _AND_VERB_HINT.search(text):
        for m in _AND_VERB.finditer(text):
            sent = text[_sentence_start(text, m.start()): m.start()]
            if re.search(r"\b[Ww]e\b", sent):
                s, e = m.span("name")
                for name, ps, pe in _pieces(text, s, e):
                    add(name, ps, pe, _type_after(text, pe, ""), not known(name))
    for m in (_anchored(_DASH_NAME, text, at) if _DASH_HINT.search(text) else ()):
        s, e = m.span("name")
        add(text[s:e], s, e, _type_after(text, e, text[m.start(): s]), False)
    for m in (_anchored(_LOWER_NAMED, text, at) if naming else ()):
        if m.group("long").rsplit(" ", 1)[-1] in _GENERIC_NOUNS:
            continue  # "a simple yet effective method, called X": no name before X
        ptype = _type_after(text, m.end(), "")
        add(m.group("long"), m.start("long"), m.end("long"), ptype, False)
    for m in (_CALL_THIS.finditer(text) if "e call th" in text or "e term th" in text
              or "e call su" in text or "e name th" in text else ()):
        for name, ps, pe in _pieces(text, *m.span("name")):
            add(name, ps, pe, _type_after(text, pe, ""), False)
    if "resulting " in text:
        for m in _RESULTING.finditer(text):
            for name, ps, pe in _pieces(text, *m.span("name")):
                add(name, ps, pe, _type_after(text, pe, ""), False)
    if "novel " in text or "innovative " in text:   # "equipped with a novel Dreaming Strategy"
        for m in _NOVEL_TITLE.finditer(text):
            if not _ARTICLE_BEFORE.search(text[max(0, m.start() - 5): m.start()]):
                continue
            s, e = m.span("name")
            add(text[s:e], s, e, _type_after(text, e, ""), False)
    for m in _anchored(_OWN, text, at):
        ptype = _type_after(text, m.end(), "")
        for name, ps, pe in _pieces(text, *m.span("name")):
            add(name, ps, pe, ptype, False)
    for m in _anchored(_CUE_PAREN, text, at):
        if m.group("name").rsplit(" ", 1)[-1] in _FUNCTION_WORDS:
            continue   # "a transformer with (multiple) bottlenecks": no name ends in "with"
        ptype = _type_after(text, m.end(), "")
        add(m.group("name"), m.start("name"), m.end("name"), ptype, False)
        add(m.group("alias"), m.start("alias"), m.end("alias"), ptype, False)
    _pair_proposals(col, pairs)
    for m in _own_appositions(text, at):
        noun = m.group("noun")
        if noun not in _APPOSITION_NOUNS:
            continue
        ptype = _cue_types().get(noun) or _cue_types().get(noun[:-1]) or \
            _type_after(text, m.end(), noun)
        s, e = m.span("name")
        for part in _AND_SPLIT.split(text[s:e]):
            ps = text.index(part, s)
            add(part, ps, ps + len(part), ptype, False)
    # "We introduce *max-reward RL*", "We call this the “weights component”"
    for phrase, s, e in (coined(text, set_apart) if set_apart else ()):
        marked.add((s, e))
        pieces = _pieces(text, s, e)
        ptype = _coined_type(text, pieces[0][1], pieces[0][2], e)
        for name, ps, pe in pieces:
            marked.add((ps, pe))
            add(name, ps, pe, ptype, False)
    # the name the paper's own code repository carries ("... at github.com/x/OSSCAR")
    if "github.com/" in text or "gitlab.com/" in text:
        for name, s, e in repository_names(text, words, offsets):
            add(name, s, e, _type_after(text, e, ""), True)
    return sorted(found.values(), key=lambda p: p.start)


_HOSTS = ("github.com/", "gitlab.com/")
_REPOSITORY = re.compile(r"(?:github|gitlab)\.com/[\w.\-]+/([\w.\-]*\w)")
_NAME_WORD = re.compile(r"(?<![\w\-/.])[A-Za-z0-9][\w\-+]*[\w+](?![\w\-+/])")


def repository_names(text: str, words: list[str] | None = None,
                     offsets: list[int] | None = None) -> list[tuple[str, int, int]]:
    """Where the text names the code repository it links to (its first use).

    A repository named like a word of the abstract names what the paper
    makes ("Our code is available at https://github.com/x/OSSCAR": OSSCAR is
    the paper's own). The word must look like a name (a capital or a digit)
    and match the repository's name up to case and separators. ``words`` and
    ``offsets`` are the text's tokens, when there are (cheaper than finding
    the words again).

    >>> repository_names("OSSCAR prunes. Code: https://github.com/lab/osscar.")
    [('OSSCAR', 0, 6)]
    >>> repository_names("We use transformers: https://github.com/x/transformers")
    []
    """
    from kg.extract.normalise import entity_key

    out = []
    for host in _HOSTS:
        at = text.find(host)   # (found by str.find: a regex scan for the host is 10x slower)
        while at >= 0:
            m = _REPOSITORY.match(text, at)
            at = text.find(host, at + 1)
            if m is None:
                continue
            key = entity_key(m.group(1))
            if len(key) < 3:
                continue
            end = text.rfind("http", 0, m.start())
            found = _word_with_key(text, key, end if end >= 0 else m.start(), words, offsets)
            if found:
                out.append(found)
    return out


def _word_with_key(text: str, key: str, end: int, words: list[str] | None,
                   offsets: list[int] | None) -> tuple[str, int, int] | None:
    """The first name-shaped word before ``end`` whose key is ``key``.

    ``str.find`` on the lower-cased text first, for the key's own letters and
    for its first three with a separator inside ("Med-ST" for medst); only a
    hit is looked at word by word (a loop over every word, or a regex made
    for each key, costs several times more).
    """
    from kg.extract.normalise import entity_key

    def name_at(i: int) -> tuple[str, int, int] | None:
        w = _NAME_WORD.match(text, i)
        word = w.group(0) if w else ""
        if word.lower() != word and word not in _NOT_NAMES and entity_key(word) == key:
            return word, i, i + len(word)
        return None

    low = text.lower()
    if len(low) == len(text):   # ("İ" lowers to two characters: offsets would shift)
        i = low.find(key, 0, end)
        while i >= 0:
            found = name_at(i)
            if found:
                return found
            i = low.find(key, i + 1, end)
        head = key[:3]
        if not any(low.find(v, 0, end) >= 0 for v in
                   [head] + [head[0] + sep + head[1:] for sep in "-_. "] +
                   [head[:2] + sep + head[2:] for sep in "-_. "]):
            return None   # no spelling of its first letters: the name is not there
    first = {key[0], key[0].upper()}
    spans = zip(words, offsets) if words is not None and offsets is not None else (
        (w.group(0), w.start()) for w in _NAME_WORD.finditer(text, 0, end))
    for word, start in spans:
        if start >= end:
            break
        if word[0] in first:   # (name_at reads the whole word: the tokenizer may split it)
            found = name_at(start)
            if found:
                return found
    return None
