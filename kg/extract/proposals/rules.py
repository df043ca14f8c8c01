"""The proposal rules as data: each :class:`Rule` names its pattern (built from
the lexicon), where it is tried, its guards, how its names are typed and
recorded, and the example it was made from (a test checks that each rule
finds its example's names). :func:`build_rules` makes the table of a lexicon;
:func:`kg.extract.proposals.find_proposals` runs the table in order (an
earlier rule's decision on a span stands).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from kg.extract.proposals.anchors import AnchorSets, build_anchor_sets
from kg.extract.proposals.lexicon import Lexicon, load_lexicon
from kg.extract.proposals.pairs import PairPatterns, build_pair_patterns
from kg.extract.proposals.patterns import Patterns, build_patterns
from kg.extract.proposals.record import Guards, build_guards
from kg.extract.proposals.steps import (
    Ctx,
    Guard,
    Hit,
    Record,
    Typing,
    Where,
    no_and_pair_noun,
    no_article,
    no_defined_before,
    no_eponym,
    no_function_word_end,
    no_gap_stop,
    no_generic_end,
    no_generic_long,
    no_known_modifier,
    no_known_without_voice,
    no_lower_without_voice,
    no_namely_of_others,
    no_others_voice,
    no_passive,
    no_thing_noun,
    no_voice_before,
    record_and_pair,
    record_and_parts,
    record_apposed,
    record_coined,
    record_cue,
    record_listed,
    record_name_alias,
    record_one,
    record_pairs,
    record_pieces,
    record_pieces_each,
    record_split,
    type_after_match,
    type_after_name,
    type_cue,
    type_noun,
    where_anchored,
    where_appositions,
    where_enumerated,
    where_hinted,
    where_once,
    where_own_appositions,
    where_repository,
    where_set_apart,
    where_winners,
)

__all__ = ["Rule", "Rules", "build_rules", "default_rules"]


@dataclass(frozen=True)
class Rule:
    """One naming cue: its pattern (a :class:`Patterns` field, or None for a
    pass with no pattern of its own), where it is tried, the guards that drop
    a match, the type its names get, how they are recorded, and the example
    it was made from with the names it finds there."""

    name: str
    pattern: str | None        # (as a :class:`Patterns` field name)
    where: Where
    example: str
    finds: tuple[str, ...]
    guards: tuple[Guard, ...] = ()
    typing: Typing = type_cue
    record: Record = record_cue
    group: str = "name"        # the match group of the name ("*": the first one set)
    strict: bool = False       # a known name is no proposal (unless strong)
    strong: bool = False       # holds even for a known name
    naming: bool = False       # needs a naming word in the text
    and_next: bool = False     # "X and its relaxation Y": Y too
    rx: re.Pattern[str] | None = None   # the pattern itself (set by :func:`build_rules`)

    def span(self, m: Hit) -> tuple[int, int]:
        """The name's span in a match."""
        if self.group == "*" and isinstance(m, re.Match):
            return next(m.span(g) for g in ("name", "quoted", "lower", "mixed") if m.group(g))
        return m.span(self.group)


@dataclass(frozen=True)
class Rules:
    """The rule table of one lexicon, with the patterns, anchors and guards it uses."""

    patterns: Patterns
    pairs: PairPatterns
    anchors: AnchorSets
    guards: Guards
    table: tuple[Rule, ...]


def _has(*hints: str) -> Callable[[Ctx], bool]:
    return lambda ctx: any(map(ctx.text.__contains__, hints))


def _table(p: Patterns, a: AnchorSets) -> tuple[Rule, ...]:
    subject, called, our = (where_anchored(x) for x in (a.subject, a.called, a.our))
    return (
        Rule("and_pair", "AND_PAIR", subject,
             "This paper introduces Image-Report Contrastive and Image-Report Matching losses.",
             ("Image-Report Contrastive", "Image-Report Matching"), guards=(no_and_pair_noun,),
             record=record_and_pair),
        Rule("cue", "CUE", subject, "To fix it, we propose ToMoE, a method that prunes.",
             ("ToMoE",), guards=(no_known_modifier, no_eponym), strict=True, strong=True,
             and_next=True),
        Rule("called", "CALLED", called, "We propose a method, called FooNet, that prunes.",
             ("FooNet",), guards=(no_passive, no_others_voice, no_namely_of_others,
                                  no_known_without_voice), strict=True,
             strong=True,
             naming=True, and_next=True),
        Rule("our", "OUR", our, "Our method, ToMoE, prunes experts.", ("ToMoE",),
             strict=True, strong=True),
        Rule("cue_loose", "CUE_LOOSE", subject,
             "We propose a novel graph generative framework, SGDM, which samples graphs.",
             ("SGDM",), guards=(no_defined_before,), record=record_apposed),
        Rule("lower_named", "LOWER_NAMED", subject,
             "We propose federated adaptive asynchronous optimization, named FADAS, for it.",
             ("FADAS",), naming=True),
        Rule("our_is", "OUR_IS", our,
             "Central to our approach is Graph Symmetric Attention, which mixes nodes.",
             ("Graph Symmetric Attention",), strict=True, strong=True),
        Rule("novel_paren", "NOVEL_PAREN", where_anchored(a.novel),
             "We build a novel sparse attention mechanism (SparQ) for long inputs.", ("SparQ",),
             guards=(no_gap_stop,)),
        Rule("counted_list", "COUNTED_LIST", subject,
             "We create two new metrics for this task: an EntityScore to gauge entities, and an "
             "AudioScore to gauge audio.", ("EntityScore", "AudioScore"), typing=type_after_name,
             record=record_listed),
        Rule("enumerated", None, where_enumerated,
             "We make two contributions: (i) Shortcut Text Gradient, which saves memory.",
             ("Shortcut Text Gradient",)),
        Rule("apposition", None, where_appositions,
             "Experiments show that ToMoE, a pruning method, works.", ("ToMoE",)),
        Rule("wins", None, where_winners, "ToMoE consistently outperforms the baselines.",
             ("ToMoE",)),
        Rule("called_more", "CALLED_MORE", called,
             "We propose a technique called input clarification ensembling, which helps.",
             ("input clarification ensembling",),
             guards=(no_passive, no_others_voice, no_namely_of_others, no_lower_without_voice),
             record=record_and_parts, group="*", naming=True),
        Rule("method_comma", "METHOD_COMMA", subject,
             "We propose a novel method, severity encoding, to estimate severity.",
             ("severity encoding",), record=record_one),
        Rule("cue_lower", "CUE_LOWER", subject,
             "We introduce prospector heads, an efficient module for attribution.",
             ("prospector heads",), guards=(no_generic_end,), typing=type_after_name,
             record=record_one),
        Rule("and_verb", "AND_VERB", where_hinted(lambda ctx: bool(p.AND_VERB_HINT.search(ctx.text))),
             "We study sparse graphs and design FC-Entry, a new algorithm.", ("FC-Entry",),
             guards=(no_voice_before,), typing=type_after_name, record=record_pieces_each,
             strict=True),
        Rule("dash_name", "DASH_NAME",
             where_hinted(lambda ctx: bool(p.DASH_HINT.search(ctx.text)), subject),
             "We present a new amortized inference method—the Simformer—which works.",
             ("Simformer",), record=record_one),
        Rule("lower_named_long", "LOWER_NAMED", subject,
             "We propose federated adaptive asynchronous optimization, named FADAS, for it.",
             ("federated adaptive asynchronous optimization",), guards=(no_generic_long,),
             typing=type_after_match, record=record_one, group="long", naming=True),
        Rule("call_this", "CALL_THIS", where_hinted(_has(*p.CALL_THIS_HINTS)),
             "We call this probabilistic score the Visual Generative Score (VisualGS).",
             ("Visual Generative Score", "VisualGS"), typing=type_after_name,
             record=record_pieces_each),
        Rule("resulting", "RESULTING",
             where_hinted(_has(*(f"{r} " for r in a.resulting))),
             "The resulting Particle Denoising Diffusion Sampler (PDDS) is fast.",
             ("Particle Denoising Diffusion Sampler", "PDDS"), typing=type_after_name,
             record=record_pieces_each),
        Rule("novel_title", "NOVEL_TITLE", where_hinted(_has(*p.NOVEL_TITLE_HINTS)),
             "The agent is equipped with a novel Dreaming Strategy that helps.",
             ("Dreaming Strategy",), guards=(no_article,), typing=type_after_name,
             record=record_one),
        Rule("own", "OWN", our, "The proposed SPT prunes weights.", ("SPT",),
             typing=type_after_match, record=record_pieces),
        Rule("cue_paren", "CUE_PAREN", subject,
             "We propose attention with dynamic relational priming (prime attention) here.",
             ("attention with dynamic relational priming", "prime attention"),
             guards=(no_function_word_end,), typing=type_after_match, record=record_name_alias),
        Rule("pairs", None, where_once,
             "We introduce Layerwise Learning Rate (LLR), an adaptive scheme.",
             ("Layerwise Learning Rate", "LLR"), record=record_pairs),
        Rule("own_apposition", "OWN_APPOSITION", where_own_appositions,
             "The resulting model, Tripod, achieves good results.", ("Tripod",),
             guards=(no_thing_noun,), typing=type_noun, record=record_split),
        # "We introduce *max-reward RL*", "We call this the “weights component”"
        Rule("set_apart", None, where_set_apart,
             "We call this the “weights component” of the model.", ("weights component",),
             record=record_coined),
        # the name the paper's own code repository carries ("... at github.com/x/OSSCAR")
        Rule("repository", None, where_repository,
             "OSSCAR prunes. Code: https://github.com/lab/osscar.", ("OSSCAR",),
             typing=type_after_name, record=record_one, strict=True),
    )


def build_rules(lex: Lexicon) -> Rules:
    """The rule table, patterns, anchors and guards of the lexicon ``lex``."""
    p = build_patterns(lex)
    a = build_anchor_sets(lex, p)
    table = tuple(replace(r, rx=getattr(p, r.pattern)) if r.pattern else r for r in _table(p, a))
    return Rules(p, build_pair_patterns(lex), a, build_guards(lex), table)


@lru_cache(maxsize=1)
def default_rules() -> Rules:
    """The rules of kg's own lexicon (built once)."""
    return build_rules(load_lexicon())
