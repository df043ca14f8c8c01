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

# a name: a token with a capital after its first letter, or digits, or ++ /
# ^ marks: ToMoE, LLR, R^3, W4A16, PPI++, Meta-iLaD, DiffusionDB
_NAME_TOKEN = (r"(?:[A-Za-z0-9][\w^+\-.']*[A-Z0-9+^][\w^+\-']*|[A-Z][a-z]+[A-Z][\w^+\-']*)"
               r"(?: [A-Z][a-z]*-[\w\-]+)?")
# a Title Case phrase: Shannon Scaling Law, Layerwise Learning Rate
_TITLE_WORD = r"(?:[A-Z][\w'\-]*|\d+[A-Z][\w'\-]*|[a-z]+[A-Z][\w'\-]*)"
_TITLE = rf"{_TITLE_WORD}(?:[ \-](?:of|for|and|with|in|on|to|via|the|a|{_TITLE_WORD})){{1,7}}"
_ACR = r"\([A-Za-z][\w^+\-]{1,14}\)"
_ACR_AT_END = re.compile(r"\(([^()]+)\)$")

_VERBS = (r"introducing|proposing|developing|presenting|designing|propose|proposes|proposed|introduce|introduces|present|presents|develop|develops|"
          r"design|designs|devise|devises|formulate|construct|curate|create|build|release|"
          r"contribute|put forward|offer|call|term|name")
_ADJ = (r"a|an|the|our|two|three|new|novel|simple|first|general|unified|efficient|effective|"
        r"scalable|principled|lightweight|practical|generic|flexible|robust|comprehensive|"
        r"large-scale|fast|provable|provably|theoretical|versatile|training-free|plug-and-play|"
        r"framework|method|approach|algorithm|technique|model|benchmark|dataset|suite|family|"
        r"class|set|called|named|termed|dubbed|of|this|it|use|the use|game-agnostic")
_FILLER = rf"(?:(?:{_ADJ}),?\s+)*"
# "a new family of sparse sketches, ", "a novel DPMs-based transfer learning method, "
_LOOSE = r"(?:(?!(?:to|that|which|using|on|for|with|from|in|by|and)\b)[\w\-]+,?\s+){0,7}"
_OPEN_Q = r"[\"“‘']?"
_SUBJECT = (r"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study|article)|[Oo]ur (?:work|paper))\s+"
            r"(?:first\s+|further\s+|also\s+|then\s+|thus\s+|therefore\s+|hence\s+|here\s+)?"
            r"|\b[Bb]y\s+(?=(?:introduc|propos|develop|present|design)ing))")
_VERBS_ING = r"introducing|proposing|developing|presenting|designing"
_CUE = re.compile(
    rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}{_OPEN_Q}"
    rf"(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?"
    rf"|{_TITLE}(?=[\"”’']?\s*(?:[,.(;:—–]|that\b|which\b|to\b|for\b|by\b|with\b|as\b|in\b)))")
# "we propose attention with dynamic relational priming (prime attention)"
_CUE_PAREN = re.compile(
    rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}(?P<name>[a-z][\w\-]*(?: [\w\-]+){{1,7}}) "
    rf"\((?P<alias>[a-z][\w\- ]{{2,40}})\)")
_CUE_LOOSE = re.compile(rf"{_SUBJECT}(?:{_VERBS})\s+{_LOOSE}(?:[\w\-]+\s*(?:[—–]\s*(?:the\s+)?|\())?"
                        rf"(?P<name>{_NAME_TOKEN})")

_CALLED = re.compile(
    rf"\b(?:called|dubbed|named|termed|coined|namely|abbreviated as|which we call|we call it|"
    rf"we name it|we term)\s+(?:as\s+)?(?:the\s+)?{_OPEN_Q}"
    rf"(?P<name>{_TITLE}\s*{_ACR}|{_NAME_TOKEN}(?:\s*{_ACR})?)")
# "federated adaptive asynchronous optimization, named FADAS"
_LOWER_NAMED = re.compile(
    rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}(?P<long>[a-z][\w\-]*(?: [a-z][\w\-]*){{1,7}}),?\s+"
    rf"(?:named|called|dubbed|termed|coined|namely)\s+(?P<name>{_NAME_TOKEN})")
# "Central to our approach is Graph Symmetric Attention, which"
_OUR_IS = re.compile(
    rf"\b[Oo]ur (?:approach|method|framework|model|algorithm|design|solution) (?:is|uses|relies on|"
    rf"introduces|builds on)\s+(?:a |an |the )?(?P<name>{_TITLE}(?:\s*{_ACR})?|{_NAME_TOKEN})")
# "the proposed SPT", "our Leddam"
_OWN = re.compile(rf"\b(?:[Tt]he proposed|[Oo]ur proposed|[Oo]ur)\s+(?P<name>{_NAME_TOKEN})")
_OUR = re.compile(
    rf"\b[Oo]ur (?:proposed |new |novel )?(?:method|approach|framework|model|algorithm|benchmark|"
    rf"dataset|system|technique|architecture|pipeline|tool|library|estimator|optimizer),?\s+"
    rf"\(?(?P<name>{_NAME_TOKEN})")
_NOVEL_PAREN = re.compile(
    rf"\b(?:novel|new|our|proposed)\b[^.()]{{0,80}}?\((?P<name>{_NAME_TOKEN})\)")
# anchored on a cheap literal, then the name is matched backwards from it
_APPOSITION_AT = re.compile(r",\s+(?:a|an)\s+")
_WINS_AT = re.compile(r"\b(?:outperforms|surpasses|beats|achieves state-of-the-art)\b")
_ADVERB_BEFORE = re.compile(r"\s+(?:(?:consistently|significantly|substantially|also)\s+)?$")
_NAME_FULL = re.compile(_NAME_TOKEN)
_ENUM_AT = re.compile(r"\)\s*")
_ENUM_MARK = re.compile(r"(?:^|[\s(])(?:\d|i{1,3}|iv|[a-c])$")
_ENUM_TITLE = re.compile(rf"(?P<name>{_TITLE})(?=,?\s+(?:which|that|to)\b)")
# an acronym pair introduced right after a cue, or named as a part of the system
_PART = re.compile(r"^\s*(?:module|component|block|layer|loss|mechanism|strategy|framework|"
                   r"method|algorithm|approach|scheme|objective|regularizer|,\s*(?:a|an|which)\b)")

_NOT_A_THING = re.compile(r"\b(?:Law|Laws|Hypothesis|Theorem|Principle|Conjecture|Index|Score|"
                          r"Metric|Paradox|Effect|Phenomenon)$")
_GENERIC_NOUNS = frozenset("method methods approach framework model algorithm technique scheme "
                           "strategy variant system pipeline".split())
_ADJECTIVE_COMPOUND = re.compile(r"^[\w^+]+-(?:[a-z]+)$")
_NOT_NAMES = frozenset({"2D", "3D", "4D", "1D", "We", "This", "The", "Our", "In", "To", "A", "An", "It", "These", "LLM",
                        "LLMs", "AI", "ML", "I", "II", "III"})


@dataclass(frozen=True, slots=True)
class Proposal:
    name: str
    start: int
    end: int
    type: str     # model / method / dataset


def _type_after(text: str, end: int, before: str) -> str:
    """The type the nearest noun after the name (or in the cue) implies."""
    from kg.extract.discover import cue_type

    words = re.findall(r"[A-Za-z]+", text[end: end + 80]) + re.findall(r"[A-Za-z]+", before)
    return cue_type(words) or "method"


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


def _anchored(rx: re.Pattern, text: str, at: dict[str, list[int]] | None = None):
    """Matches of ``rx``, tried only where its first word is (``at``: word ->
    offsets, from the tokens; without it the anchor word is found by regex)."""
    def starts(anchor: re.Pattern, words: frozenset[str]):
        if at is None:
            return [a.start() for a in anchor.finditer(text)]
        return sorted(o for w in words for o in at.get(w, ()))

    if rx is _APPOSITION_AT or rx is _WINS_AT:
        for a_start in starts(rx, _WINS_WORDS if rx is _WINS_AT else frozenset({","})):
            if rx is _APPOSITION_AT:
                if not rx.match(text, a_start):
                    continue
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
    else:
        anchor, words = _ANCHORS.get(id(rx), (None, None))
        if anchor is None:
            yield from rx.finditer(text)
            return
        for a_start in starts(anchor, words):
            m = rx.match(text, a_start)
            if m:
                yield m


# Each long pattern is tried only where its first word is: a scan for one
# literal word is far cheaper than a scan for the whole pattern.
_SUBJECT_AT = re.compile(r"\b(?:[Ww]e|[Tt]his|[Oo]ur|[Bb]y)\b")
_CALLED_AT = re.compile(r"\b(?:called|dubbed|named|termed|coined|namely|abbreviated|which|we)\b")
_OUR_AT = re.compile(r"\b(?:[Oo]ur|[Tt]he proposed)\b")
_NOVEL_AT = re.compile(r"\b(?:novel|new|our|proposed)\b")
_SUBJECT_WORDS = frozenset("We we This this Our our By by".split())
_CALLED_WORDS = frozenset("called dubbed named termed coined namely abbreviated which we".split())
_OUR_WORDS = frozenset("Our our The the".split())
_NOVEL_WORDS = frozenset("novel new our proposed".split())
_WINS_WORDS = frozenset("outperforms surpasses beats achieves".split())
_ALL_ANCHOR_WORDS = (_SUBJECT_WORDS | _CALLED_WORDS | _OUR_WORDS | _NOVEL_WORDS | _WINS_WORDS
                     | {",", ")"})
_ANCHORS = {id(_CUE): (_SUBJECT_AT, _SUBJECT_WORDS), id(_CUE_LOOSE): (_SUBJECT_AT, _SUBJECT_WORDS),
            id(_CUE_PAREN): (_SUBJECT_AT, _SUBJECT_WORDS),
            id(_LOWER_NAMED): (_SUBJECT_AT, _SUBJECT_WORDS), id(_CALLED): (_CALLED_AT, _CALLED_WORDS),
            id(_OUR): (_OUR_AT, _OUR_WORDS), id(_OWN): (_OUR_AT, _OUR_WORDS),
            id(_OUR_IS): (_OUR_AT, _OUR_WORDS),
            id(_NOVEL_PAREN): (_NOVEL_AT, _NOVEL_WORDS)}


def find_proposals(text: str, pairs=(), known=None, words: list[str] | None = None,
                   offsets: list[int] | None = None) -> list[Proposal]:
    """Names the text says it introduces, with offsets, in order, no repeats.

    ``pairs`` are the acronym pairs of the text (:func:`kg.extract.acronyms.
    find_acronyms`); ``known(name)`` tells whether a name is already a
    well-known entity, which the looser patterns never call proposed.
    """
    known = known or (lambda name: False)
    found: dict[tuple[int, int], Proposal] = {}
    at: dict[str, list[int]] | None = None
    if words is not None and offsets is not None:
        at = {}
        for w, o in zip(words, offsets):
            if w in _ALL_ANCHOR_WORDS:
                at.setdefault(w, []).append(o)

    def add(name: str, ps: int, pe: int, ptype: str, strict: bool) -> None:
        if _NOT_A_THING.search(name) or text[pe: pe + 12].startswith((", a metric", " metric")):
            ptype = "other"   # a law, hypothesis or metric the paper proposes
        if name in _NOT_NAMES or len(name) < 2 or (not strict and known(name)):
            return
        if _ADJECTIVE_COMPOUND.search(name):
            return  # "PDE-informed", "Continuous-time": a modifier, not a name
        found.setdefault((ps, pe), Proposal(name, ps, pe, ptype))

    strong = (_CUE, _CALLED, _OUR, _OUR_IS)   # cues that hold even for a known name
    for rx, strict in ((_CUE, True), (_CALLED, True), (_OUR, True), (_CUE_LOOSE, False),
                       (_LOWER_NAMED, False), (_OUR_IS, True),
                       (_NOVEL_PAREN, False), (_ENUM_AT, False), (_APPOSITION_AT, False),
                       (_WINS_AT, False)):
        for m in _anchored(rx, text, at):
            s, e = m.span("name")
            ptype = _type_after(text, e, text[m.start(): s])
            for name, ps, pe in _pieces(text, s, e):
                add(name, ps, pe, ptype, rx in strong or (strict and not known(name)))
    for m in _anchored(_LOWER_NAMED, text, at):
        if m.group("long").rsplit(" ", 1)[-1] in _GENERIC_NOUNS:
            continue  # "a simple yet effective method, called X": no name before X
        ptype = _type_after(text, m.end(), "")
        add(m.group("long"), m.start("long"), m.end("long"), ptype, False)
    for m in _anchored(_OWN, text, at):
        ptype = _type_after(text, m.end(), "")
        for name, ps, pe in _pieces(text, *m.span("name")):
            add(name, ps, pe, ptype, False)
    for m in _anchored(_CUE_PAREN, text, at):
        ptype = _type_after(text, m.end(), "")
        add(m.group("name"), m.start("name"), m.end("name"), ptype, False)
        add(m.group("alias"), m.start("alias"), m.end("alias"), ptype, False)
    # acronym pairs: right after a cue, or named as a part ("(GSR) module", "(FiF), which")
    for p in pairs:
        first = min(p.long_start, p.short_start)
        last = max(p.long_end, p.short_end)
        before = text[max(0, first - 120): first]
        cue = re.search(rf"{_SUBJECT}(?:{_VERBS})\s+{_FILLER}{_OPEN_Q}$", before)
        after = text[last + 1: last + 30] if text[last: last + 1] == ")" else text[last: last + 30]
        if cue or _PART.match(after):
            if known(p.short) and known(p.long):
                continue
            ptype = _type_after(text, last, "")
            add(p.long, p.long_start, p.long_end, ptype, True)
            add(p.short, p.short_start, p.short_end, ptype, True)
    # the parts of a proposed system: acronyms defined in a sentence about it
    # ("OGA first performs rejection via adaptive label traceability (ALT)")
    own = {p.name for p in found.values() if " " not in p.name}
    if own:
        for p in pairs:
            if (p.long_start, p.long_end) in found:
                continue
            first = min(p.long_start, p.short_start)
            sent_start = max(text.rfind(". ", 0, first) + 2, 0)
            head = text[sent_start: first]
            subject = re.match(r"\s*(?:(?:Specifically|Then|First|Moreover|Further|In addition|"
                               r"Finally),\s*)?(?:the\s+|our\s+)?([\w^+\-]+)", head)
            if subject and subject.group(1) in own and not known(p.short):
                ptype = _type_after(text, max(p.long_end, p.short_end), "")
                add(p.long, p.long_start, p.long_end, ptype, True)
                add(p.short, p.short_start, p.short_end, ptype, True)
    return sorted(found.values(), key=lambda p: p.start)
