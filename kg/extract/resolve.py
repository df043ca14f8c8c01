"""Putting the detectors' findings together into the mentions of one abstract.

Gazetteer matches, acronym pairs, proposals and discovered names are merged
into one list of :class:`kg.models.Mention`: an acronym and its long form
become one entity (the gazetteer's, or a new one named by the acronym); every
later use of an acronym or proposed name is a mention of the same entity;
everything the paper proposes is flagged ``proposed``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kg.extract.acronyms import AcronymPair
from kg.extract.discover import Discovery, not_entities
from kg.extract.gazetteer import Gazetteer
from kg.extract.normalise import entity_key, singular_key
from kg.extract.proposals import Proposal
from kg.extract.ruler import Match
from kg.models import Alias, Mention

_MODEL_HEADS = frozenset(
    "model network networks transformer machine autoencoder encoder decoder architecture "
    "classifier regressor operator field agent perceptron llm vlm mlp gnn cnn rnn".split())
_METHOD_HEADS = frozenset(
    "learning optimization optimisation descent method algorithm attention training tuning "
    "finetuning fine-tuning regularization normalization sampling search estimation distillation "
    "quantization pruning decoding alignment adaptation gradient policy optimizer encoding "
    "embedding augmentation prompting generation feedback matching aggregation averaging "
    "decomposition approximation factorization regression clustering attack defense framework "
    "approach scheme strategy technique procedure mechanism loss objective reasoning "
    "prompt thought retrieval distillation inference refinement fusion annotator traceability "
    "correlation planning design update updates sketch transform passing programming "
    "propagation reduction".split())
_DATASET_HEADS = frozenset("dataset benchmark corpus suite bench collection datasets "
                           "benchmarks".split())
_NOT_AFTER = re.compile(r"^\)?\s*(?:theory|theorem|hypothesis|law|condition|conditions|equation|"
                        r"equations|property|score|metric|rate|ratio|problem|problems|setting)\b")


@dataclass
class _Ent:
    canonical: str
    type: str
    key: str
    family: str | None = None


def head_type(long: str) -> str | None:
    """The type a long form's head noun implies, or None (not a model/method/dataset)."""
    words = re.split(r"[\s\-]+", long.lower().strip())
    if not words:
        return None
    head = words[-1]
    for w in (head, singular_key(head)):
        if w in _DATASET_HEADS:
            return "dataset"
        if w in _MODEL_HEADS:
            return "model"
        if w in _METHOD_HEADS:
            return "method"
    if "learning" in words[:-1]:
        return "method"  # "Learning to Rank", "Learning from Demonstrations"
    return None


def _cue_type(after: str) -> str | None:
    """The type a noun right after an acronym's parenthesis implies: "(VLP) models"."""
    from kg.extract.discover import cue_type

    m = re.match(r"\)?\s*([A-Za-z]+)", after)
    return cue_type([m.group(1)]) if m else None


def _acronym_canonical(short: str) -> str:
    if len(short) > 2 and short.endswith("s") and short[:-1].isupper():
        return short[:-1]
    return short


def resolve(text: str, words: list[str], offsets: list[int], matches: list[Match],
            pairs: list[AcronymPair], proposals: list[Proposal], discoveries: list[Discovery],
            gaz: Gazetteer, keep_untyped: bool = False) -> tuple[list[Mention], list[Alias]]:
    spans: dict[tuple[int, int], tuple[_Ent, int]] = {}   # (start, end) -> (entity, priority)

    def put(start: int, end: int, ent: _Ent, prio: int) -> None:
        # a new span replaces the spans it overlaps if it has priority or is longer
        clash = [k for k in spans if k[0] < end and start < k[1]]
        for k in clash:
            other = spans[k][1]
            if other > prio or (other == prio and (k[1] - k[0]) >= end - start):
                return
        for k in clash:
            del spans[k]
        spans[(start, end)] = (ent, prio)

    def from_gaz(key: str) -> _Ent | None:
        f = gaz.lookup(key) or gaz.lookup(singular_key(key))
        if f is None:
            return None
        e = f.entity
        return _Ent(e.canonical, e.type, e.key, e.family)

    for m in matches:
        e = m.form.entity
        put(m.start, m.end, _Ent(e.canonical, e.type, e.key, e.family), 2)
    # the type of a known name inside a long form: "Stochastic Gradient Descent with Momentum"
    inner_type: dict[tuple[int, int], str] = {}
    for p in pairs:
        for m in matches:
            if p.long_start <= m.start and m.end <= p.long_end and m.form.entity.type in (
                    "model", "method", "dataset"):
                inner_type[(p.long_start, p.long_end)] = m.form.entity.type

    proposed_keys: set[str] = set()
    prop_at = {(p.start, p.end): p for p in proposals}
    short_forms: dict[str, _Ent] = {}
    aliases: list[Alias] = []
    for p in pairs:
        aliases.append(Alias(long=p.long, short=p.short))
        # the long form is the less ambiguous: "Expectation-Maximization (EM)" is not Exact Match
        ent = from_gaz(entity_key(p.long)) or from_gaz(entity_key(p.short))
        is_prop = (p.long_start, p.long_end) in prop_at or (p.short_start, p.short_end) in prop_at
        if ent is None and (p.short in not_entities() or _acronym_canonical(p.short)
                            in not_entities()):
            continue  # fields and hardware: "machine learning (ML)", "GPU"
        if ent is None:
            after = text[p.short_end: p.short_end + 20] if p.long_start < p.short_start else \
                text[p.long_end: p.long_end + 20]
            typ = head_type(p.long) or _cue_type(after) or inner_type.get((p.long_start, p.long_end))
            if is_prop:
                pt = prop_at.get((p.short_start, p.short_end)) or prop_at.get(
                    (p.long_start, p.long_end))
                typ = typ or pt.type
            elif _NOT_AFTER.match(after):
                typ = None
            if typ is None:
                continue
            canonical = _acronym_canonical(p.short)
            ent = _Ent(canonical, typ, entity_key(canonical))
        put(p.long_start, p.long_end, ent, 3)
        put(p.short_start, p.short_end, ent, 3)
        short_forms[p.short] = ent
        short_forms.setdefault(_acronym_canonical(p.short), ent)
        if is_prop:
            proposed_keys.add(ent.key)

    for pr in proposals:
        if any(k[0] <= pr.start and pr.end <= k[1] for k in spans):
            for k in [k for k in spans if k[0] <= pr.start and pr.end <= k[1]]:
                proposed_keys.add(spans[k][0].key)
            continue
        inside = [k for k in spans if pr.start <= k[0] and k[1] <= pr.end]
        # a longer proposed name wraps known parts: "2RA Q-learning", or the full
        # title of an acronym whose minimal long form is shorter
        pair_inside = [k for k in inside if spans[k][1] == 3]
        if pair_inside:
            ent = spans[pair_inside[0]][0]
        else:
            ent = from_gaz(entity_key(pr.name)) or _Ent(pr.name, pr.type, entity_key(pr.name))
        put(pr.start, pr.end, ent, 4)
        proposed_keys.add(ent.key)
        short_forms.setdefault(pr.name, ent)

    # later uses of acronyms and proposed names
    if short_forms:
        forms = set(short_forms) | {f + "s" for f in short_forms}
        for i in [i for i, w in enumerate(words) if w in forms]:
            w = words[i]
            ent = short_forms.get(w) or short_forms.get(w[:-1])
            put(offsets[i], offsets[i] + len(w), ent, 1)

    for d in discoveries:
        if d.type == "other" and not keep_untyped:
            continue
        put(d.start, d.end, _Ent(d.text, d.type if d.type != "other" else "other",
                                 entity_key(d.text)), 0)

    mentions = [
        Mention(text=text[s:e], canonical=ent.canonical, type=ent.type, start=s, end=e,
                proposed=ent.key in proposed_keys, key=ent.key, family=ent.family)
        for (s, e), (ent, _) in sorted(spans.items())
    ]
    return mentions, aliases
