"""The steps the proposal rules (:mod:`kg.extract.proposals.rules`) are made
of: where a rule's pattern is tried (``where_*``), the guards that drop a
match (``no_*``: True drops it), the type a name gets (``type_*``) and how
its names are recorded (``record_*``). Each works on the :class:`Ctx` of one
text and the :class:`~kg.extract.proposals.rules.Rule` it serves.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Protocol

from kg.extract.acronyms import AcronymPair
from kg.extract.discover import AND_PAIR_NOUNS, DATASET_CUES
from kg.extract.emphasis import coined
from kg.extract.proposals.anchors import (
    Anchors,
    AnchorSet,
    AnchorSets,
    At,
    anchored,
    appositions,
    enumerated,
    own_appositions,
    winners,
)
from kg.extract.proposals.classify import coined_type, cue_types, type_after
from kg.extract.proposals.pairs import PairPatterns, pair_proposals
from kg.extract.proposals.patterns import Patterns
from kg.extract.proposals.record import Found
from kg.extract.proposals.repository import repository_names
from kg.extract.proposals.spans import pieces, sentence_start, word_in

Hit = re.Match[str] | At


class Rule(Protocol):
    """What a step reads of its rule (:class:`kg.extract.proposals.rules.Rule`)."""

    @property
    def rx(self) -> re.Pattern[str] | None: ...
    @property
    def strict(self) -> bool: ...
    @property
    def strong(self) -> bool: ...
    @property
    def naming(self) -> bool: ...
    @property
    def and_next(self) -> bool: ...
    def typing(self, ctx: Ctx, m: Hit, s: int, e: int) -> str: ...


class Ctx:
    """One text on its way through the rules: the text, its tokens' anchors,
    the patterns, and the proposals found so far (:class:`Found`)."""

    __slots__ = ("text", "p", "pp", "a", "col", "add", "known", "at", "naming", "pairs",
                 "set_apart", "words", "offsets")

    def __init__(self, text: str, p: Patterns, pp: PairPatterns, a: AnchorSets, col: Found,
                 at: Anchors | None, naming: bool, pairs: Sequence[AcronymPair],
                 set_apart: Sequence[str], words: list[str] | None,
                 offsets: list[int] | None) -> None:
        self.text, self.p, self.pp, self.a, self.col, self.at = text, p, pp, a, col, at
        self.add, self.known = col.add, col.known
        self.naming, self.pairs, self.set_apart = naming, pairs, set_apart
        self.words, self.offsets = words, offsets


Where = Callable[[Ctx, Rule], Iterable[Hit]]
Guard = Callable[[Ctx, Hit, int, int], bool]
Typing = Callable[[Ctx, Hit, int, int], str]
Record = Callable[[Ctx, Rule, Hit, int, int], None]


# -- where a pattern is tried ------------------------------------------------

def where_anchored(aset: AnchorSet) -> Where:
    """Where a word of the anchor set ``aset`` is."""
    def where(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
        if rule.naming and not ctx.naming or rule.rx is None:
            return ()
        return anchored(rule.rx, aset, ctx.text, ctx.at)
    return where


def where_hinted(hint: Callable[[Ctx], bool], then: Where | None = None) -> Where:
    """Only in a text with ``hint``; there by ``then`` (default: a scan)."""
    def where(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
        if not hint(ctx):
            return ()
        if then is not None:
            return then(ctx, rule)
        return rule.rx.finditer(ctx.text) if rule.rx is not None else ()
    return where


def where_appositions(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    return appositions(ctx.p, ctx.text)


def where_winners(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    return winners(ctx.p, ctx.a.wins, ctx.text, ctx.at)


def where_enumerated(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    return enumerated(ctx.p, ctx.text)


def where_own_appositions(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    return own_appositions(ctx.p, ctx.a, ctx.text, ctx.at)


def where_once(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    """One pass over the whole text (the acronym pairs)."""
    return (At(0, 0, 0),)


def where_set_apart(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    return (At(s, e, s) for _, s, e in coined(ctx.text, ctx.set_apart)) if ctx.set_apart else ()


def where_repository(ctx: Ctx, rule: Rule) -> Iterable[Hit]:
    if "github.com/" not in ctx.text and "gitlab.com/" not in ctx.text:
        return ()
    return (At(s, e, s) for _, s, e in repository_names(ctx.text, ctx.words, ctx.offsets,
                                                         ctx.col.guards.not_names))


def without_defined_tail(ctx: Ctx, s: int, e: int) -> int:
    """Where a name ends without a last "for X" whose X the text named before:
    "we devise a Social Body Interaction Self-Attention (SBI-MSA) module ... we
    present a novel Trajectory-Aware Relative Position Encoding for SBI-MSA"
    names the encoding, made for SBI-MSA."""
    text = ctx.text
    if " " not in text[s:e]:
        return e
    m = ctx.p.JOINED_TAIL.search(text, s, e)
    if m is None:
        return e
    tail = m.group("tail")
    return m.start() if tail.lower() != tail and word_in(tail, text[:s]) else e


# -- guards: True drops the match ----------------------------------------------

def no_passive(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"which are termed Video-LLMs", "the so-called Mapper graph": another's name."""
    return bool(ctx.p.PASSIVE_BEFORE.search(ctx.text, max(0, m.start() - 12), m.start()))


def no_others_voice(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"On top of the widely-used augmentation technique called GT-Aug, we ...",
    "Recent research has identified a phenomenon called Neural Collapse (NC)":
    another's thing, named before the paper's own voice in its sentence."""
    text = ctx.text
    head = sentence_start(text, m.start())
    return bool(ctx.p.OTHERS_VOICE.search(text, head, m.start())) and not \
        ctx.p.FIRST_PERSON.search(text, head, m.start())


def no_defined_before(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"Indirect time-of-flight (iToF) imaging allows ... we propose a polarimetric
    iToF imaging method": an acronym the text defined before names what the
    paper's thing is made of, not the thing."""
    name = ctx.text[s:e]
    return any(p.short == name and p.short_end <= m.start() for p in ctx.pairs)


def no_known_without_voice(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"Adam corresponds to a framework called Follow-the-Regularized-Leader": a
    known name, not in the paper's own voice."""
    text = ctx.text
    return ctx.known(text[s:e].split(" (")[0]) and not ctx.p.FIRST_PERSON.search(
        text, sentence_start(text, m.start()), m.start())


def no_gap_stop(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"a novel paradigm that leverages the Abstract Syntax Tree (AST)": another's."""
    return isinstance(m, re.Match) and bool(ctx.p.NOVEL_GAP_STOP.search(m.group("gap")))


def no_known_modifier(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"we develop an RL algorithm called X": RL modifies the thing made."""
    return bool(ctx.p.MODIFIER_AFTER.match(ctx.text, e)) and ctx.known(ctx.text[s:e])


_TITLE_WORD = re.compile(r"[A-Z][a-z]+")
_LOWER_NEXT = re.compile(r"\s+[a-z]")


@lru_cache(maxsize=1)
def _first_words() -> frozenset[str]:
    """The first words of the known names and concepts of two or more words
    ("langevin" of Langevin Dynamics, "bayesian" of Bayesian optimization).

    The tables are the ones the pipeline has loaded: ``load(None)``, as its
    components ask for them (``lru_cache`` tells ``load()`` from ``load(None)``,
    and the second key unpickled the gazetteer again), and the
    vocabulary of the cached concept index (not the concept files parsed again)."""
    from kg.extract.concept_finder import cached_index
    from kg.extract.gazetteer import load as load_gazetteer

    names = [f for e in load_gazetteer(None).entities.values() for f in (e.canonical, *e.aliases)]
    names += [f for c in cached_index(None).vocab.concepts.values() for f in (c.label, *c.forms)]
    return frozenset(n.split()[0].lower() for n in names if " " in n)


def no_eponym(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"we propose the Langevin sampling algorithm": one capitalised word that
    opens known names (Langevin Dynamics) modifies the thing made; "the
    Blindspot unlearning method" names it."""
    name = ctx.text[s:e]
    return (_TITLE_WORD.fullmatch(name) is not None and _LOWER_NEXT.match(ctx.text, e) is not None
            and name.lower() in _first_words())


def no_namely_of_others(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"two factors, namely the graph topology": no methods named."""
    text = ctx.text
    return text.startswith(ctx.p.NAMELY, m.start()) and not ctx.p.NAMELY_OF_METHODS.search(
        text, max(0, m.start() - 60), m.start())


def no_lower_without_voice(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """A lower-case name only where the sentence speaks of the paper's own work."""
    if isinstance(m, re.Match) and m.group("name"):
        return False
    sent = ctx.text[sentence_start(ctx.text, m.start()): m.start() + 12]
    return not ctx.p.OWN_VOICE.search(sent)


def no_generic_end(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"we introduce two methods, a": a thing, not its name."""
    name = ctx.text[s:e]
    last = name.split()[-1]
    return last in ctx.p.GENERIC_NOUNS or last in ctx.p.GENERIC_PLURALS or (
        name.endswith("ing") and " " not in name)


def no_generic_long(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"a simple yet effective method, called X": no name before X."""
    return ctx.text[s:e].rsplit(" ", 1)[-1] in ctx.p.GENERIC_NOUNS


def no_voice_before(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """No "we" earlier in the sentence."""
    return not ctx.p.WE.search(ctx.text[sentence_start(ctx.text, m.start()): m.start()])


def no_article(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"a novel Dreaming Strategy" (not "novel Dreaming Strategy" in a title)."""
    return not ctx.p.ARTICLE_BEFORE.search(ctx.text[max(0, m.start() - 5): m.start()])


def no_function_word_end(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"a transformer with (multiple) bottlenecks": no name ends in "with"."""
    return ctx.text[s:e].rsplit(" ", 1)[-1] in ctx.p.FUNCTION_WORDS


def no_thing_noun(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"The resulting model, Tripod": the noun must be a thing's."""
    return isinstance(m, re.Match) and m.group("noun") not in ctx.p.APPOSITION_NOUNS


# -- typing ------------------------------------------------------------------

def type_cue(ctx: Ctx, m: Hit, s: int, e: int) -> str:
    """The nearest cue noun after the name, or in the cue before it."""
    return type_after(ctx.text, e, ctx.text[m.start(): s])


def type_after_name(ctx: Ctx, m: Hit, s: int, e: int) -> str:
    """The nearest cue noun after the name."""
    return type_after(ctx.text, e, "")


def type_after_match(ctx: Ctx, m: Hit, s: int, e: int) -> str:
    """The nearest cue noun after the whole match."""
    return type_after(ctx.text, m.end() if isinstance(m, re.Match) else e, "")


def type_noun(ctx: Ctx, m: Hit, s: int, e: int) -> str:
    """The noun the name is apposed to ("the resulting model, X")."""
    noun = m.group("noun") if isinstance(m, re.Match) else ""
    return cue_types().get(noun) or cue_types().get(noun[:-1]) or \
        type_after(ctx.text, m.end() if isinstance(m, re.Match) else e, noun)


# -- recording ---------------------------------------------------------------

def record_cue(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """A name and its acronym; the acronym of a setting is a setting too;
    "we introduce ETHER and its relaxation ETHER+" (``rule.and_next``)."""
    text, add, known = ctx.text, ctx.add, ctx.known
    ptype = rule.typing(ctx, m, s, e)
    for name, ps, pe in pieces(text, s, e):
        if not add(name, ps, pe, ptype, rule.strong or (rule.strict and not known(name))):
            ptype = "other"   # "a problem setting called X (Y)": Y is a setting too
    if rule.and_next and not text.startswith(ctx.p.NAMELY, m.start()):
        nxt = ctx.p.AND_NEXT.match(text, e)
        if nxt:
            for name, ps, pe in pieces(text, *nxt.span("name")):
                add(name, ps, pe, ptype, not known(name))


def record_apposed(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """"we propose a novel graph generative framework, SGDM, which": the paper's
    own name even where the gazetteer knows one like it (SGDM); else as
    :func:`record_cue`."""
    text, p = ctx.text, ctx.p
    apposed = None
    if text[s - 1: s] == "(":
        pm = p.PAREN_APPOSED.match(text, e)
        if pm and p.THING_BEFORE.search(text, max(0, s - 60), pm.start("name")):
            apposed = pm.span("name")
    elif p.THING_BEFORE.search(text, max(0, s - 40), s) and p.APPOSED_AFTER.match(text, e):
        apposed = (s, e)
    if apposed is None:
        record_cue(ctx, rule, m, s, e)
        return
    ps, pe = apposed
    thing = p.THING_BEFORE.search(text, max(0, ps - 60), ps)
    ctx.add(text[ps:pe], ps, pe, (thing and cue_types().get(thing.group(1).lower()))
            or type_after(text, pe, ""), True)


def record_one(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """The span as one name."""
    ctx.add(ctx.text[s:e], s, e, rule.typing(ctx, m, s, e), rule.strict)


def record_and_pair(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """"Image-Report Contrastive and Image-Report Matching losses": two names,
    typed by the plural noun after them; a known one is no proposal."""
    assert isinstance(m, re.Match)
    ptype = "dataset" if m.group("noun") in DATASET_CUES else "method"
    left, right = ctx.text[s:e].split(" and ", 1)
    ctx.add(left, s, s + len(left), ptype, False)
    ctx.add(right, e - len(right), e, ptype, False)


def no_and_pair_noun(ctx: Ctx, m: Hit, s: int, e: int) -> bool:
    """"X and Y losses" names two things; "X and Y are ..." does not; each of X
    and Y is a Title phrase or a name."""
    if not isinstance(m, re.Match) or m.group("noun") not in AND_PAIR_NOUNS:
        return True
    left, right = ctx.text[s:e].split(" and ", 1)
    return not (ctx.p.TITLE_NAME.fullmatch(left) and ctx.p.TITLE_NAME.fullmatch(right))


def record_listed(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """The names that open the items of a colon list after "we create two new
    metrics:" (each typed by what follows it; a known name is no proposal)."""
    for it in ctx.p.LIST_ITEM.finditer(ctx.text, s, e):
        ps, pe = it.span("item")
        name = ctx.text[ps:pe]
        ctx.add(name, ps, pe, rule.typing(ctx, it, ps, pe), False)


def record_pieces(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """A name and its acronym, of one type."""
    ptype = rule.typing(ctx, m, s, e)
    for name, ps, pe in pieces(ctx.text, s, e):
        ctx.add(name, ps, pe, ptype, False)


def record_pieces_each(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """A name and its acronym, each typed by what follows it (``rule.strict``:
    only a name that is not known)."""
    for name, ps, pe in pieces(ctx.text, s, e):
        ctx.add(name, ps, pe, rule.typing(ctx, m, ps, pe), rule.strict and not ctx.known(name))


def record_and_parts(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """"AlphaFlow and ESMFlow", "node intervention and node merging": two names."""
    group = next(g for g in ("name", "quoted", "lower", "mixed") if m.group(g)) \
        if isinstance(m, re.Match) else "name"
    ptype = rule.typing(ctx, m, s, e)
    name = ctx.text[s:e]
    parts = [(name, s)]
    if " and " in name:
        left, right = name.split(" and ", 1)
        nl, nr = len(left.split()), len(right.split())
        if (group == "name" and nl == 1 and nr == 1) or (group == "lower" and abs(nl - nr) <= 1):
            parts = [(left, s), (right, s + len(left) + 5)]
    for part, ps in parts:
        if group == "lower" and (part.split()[-1] in ctx.p.GENERIC_NOUNS or len(part.split()) > 5):
            continue
        ctx.add(part, ps, ps + len(part), ptype, False)


def record_name_alias(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """"attention with dynamic relational priming (prime attention)": both."""
    assert isinstance(m, re.Match)
    ptype = rule.typing(ctx, m, s, e)
    ctx.add(m.group("name"), s, e, ptype, False)
    ctx.add(m.group("alias"), m.start("alias"), m.end("alias"), ptype, False)


def record_pairs(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """The acronym pairs the paper makes its own (:mod:`~kg.extract.proposals.pairs`)."""
    pair_proposals(ctx.col, ctx.pairs, ctx.p, ctx.pp, ctx.a.subject.regex)


def record_split(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """"Our proposed baselines, FRBC and FRBT": each name."""
    ptype = rule.typing(ctx, m, s, e)
    text = ctx.text
    for part in ctx.p.AND_SPLIT.split(text[s:e]):
        ps = text.index(part, s)
        ctx.add(part, ps, ps + len(part), ptype, False)


def record_coined(ctx: Ctx, rule: Rule, m: Hit, s: int, e: int) -> None:
    """A phrase the author set apart right after a cue, typed by its head noun."""
    text, marked = ctx.text, ctx.col.marked
    marked.add((s, e))
    cut = pieces(text, s, e)
    ptype = coined_type(text, cut[0][1], cut[0][2], e, ctx.col.guards.notion_before)
    for name, ps, pe in cut:
        marked.add((ps, pe))
        ctx.add(name, ps, pe, ptype, False)
