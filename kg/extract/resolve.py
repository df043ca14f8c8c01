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
from itertools import compress

from kg.extract.acronyms import AcronymPair
from kg.extract.discover import Discovery, name_shaped, not_entities
from kg.extract.gazetteer import Form, Gazetteer
from kg.extract.guards import in_any, is_setting, url_spans
from kg.extract.heads import head_type, heads
from kg.extract.proposals import Proposal
from kg.extract.ruler import Match
from kg.identity import entity_key, own_key, singular_key
from kg.models import Alias, Entity, Mention

_NOT_AFTER = re.compile(r"^\)?\s*(?:theory|theorem|hypothesis|law|condition|conditions|equation|"
                        r"equations|property|score|metric|rate|ratio|problem|problems|setting)\b")


@dataclass
class _Ent:
    canonical: str
    type: str
    key: str
    family: str | None = None


def _another_thing(gaz: Gazetteer, name: str, key: str, ent: _Ent) -> bool:
    """Is a name the paper proposes another thing than the gazetteer entry its key
    folds to? Yes where both are written with capitals and the entry's case rules
    refuse the paper's spelling ("Maestro" and MAESTRO, "GliDe" and GLIDE); a
    lower-case spelling ("sharpness-aware minimization") or entry ("mixup") says
    nothing."""
    from kg.extract.ruler import surface_ok

    if name.islower() or ent.canonical.islower():
        return False
    form = gaz.lookup(key) or gaz.lookup(singular_key(key))
    return form is not None and not surface_ok(name, form, False)


def _cue_type(after: str) -> str | None:
    """The type a noun right after an acronym's parenthesis implies: "(VLP) models",
    "(PU) learning"."""
    from kg.extract.discover import cue_type

    m = re.match(r"\)?\s*([A-Za-z\-]+)", after)
    if not m:
        return None
    word = m.group(1)
    return cue_type([word]) or ("method" if word in heads()["method-after"] else None)


_MINOR = frozenset([
    "of", "and", "for", "the", "with", "in", "on", "to", "a", "an", "by", "via", "from", "or",
])


def _same_long_form(a: str, b: str) -> bool:
    """Could two long forms name the same thing? (half their content words
    agree, up to spelling, and two of them where both have two: "proximal policy
    optimisation" and "Proximal Policy Optimization", "low-rank adapters" and
    "Low-Rank Adaptation", "RL from verifiable reward" and "Reinforcement Learning
    from Verifiable Rewards"; one shared word makes a coinage no known name:
    "Algorithm Distillation (AD)" is no Algorithmic Differentiation,
    "Mixture-of-Denoisers (MoD)" no Mixture-of-Depths).

    >>> _same_long_form("multi-party computation", "Model Predictive Control")
    False
    >>> _same_long_form("Algorithm Distillation", "Algorithmic Differentiation")
    False
    """
    wa = {w[:5] for w in re.split(r"[\s\-]+", a.lower()) if w and w not in _MINOR}
    wb = {w[:5] for w in re.split(r"[\s\-]+", b.lower()) if w and w not in _MINOR}
    shared = len(wa & wb)
    return (bool(wa and wb) and shared >= min(2, len(wa), len(wb))
            and 2 * shared >= max(len(wa), len(wb)))


def _short_form_entity(gaz: Gazetteer, key: str, long: str) -> Form | None:
    """The gazetteer entry of an acronym, unless the entry spells out another
    long form: "multi-party computation (MPC)" is no Model Predictive Control."""
    f = gaz.lookup(key) or gaz.lookup(singular_key(key))
    if f is None:
        return None
    e = f.entity
    longs = [n for n in (e.canonical, *e.aliases) if " " in n or len(re.findall(r"[A-Za-z]{3,}", n)) > 1]
    if longs and not any(_same_long_form(long, n) for n in longs):
        return None
    return f


_NOT_A_NAME = re.compile(
    r"_|^(?:[A-Za-z]\d+){2,}$|^(?:FP|BF|INT|UINT|TF|fp|bf|int)\d+|^\d|"   # x_1, W4A16, FP16, 4-WL
    r"^[A-Z]{2,}\d*s$|"                                                       # DNAs, RCTs: plural acronyms
    r"^[a-z]+-|"                                                               # approximate-DP, non-CP
    r"['’]\d+$|"                                                              # NeurIPS'22
    # capitals that spell an acronym inside ordinary words: fineTuning, whOle
    r"^[a-z]{2,}[A-Z][a-z]{2,}$")
# ... and "PROjected DIffusion" (but "We propose AVGrad, a ..." is a name)
_SPELLING = re.compile(r"^[A-Z]{2,3}[a-z]{3,}$")
_TITLE_NEIGHBOUR = re.compile(r"^[A-Z][a-z]+$")


def untyped_name(text: str, d: Discovery) -> bool:
    """Is an untyped name-shaped token a name of its own (a coined model or
    method name with no cue noun around it), not a math symbol, a precision
    format, a plural acronym, a modifier or part of a URL?

    >>> text = "Ditto beats MPCFormer, see github.com/MAGICS-LAB, in W4A16 and FP16."
    >>> [untyped_name(text, d) for d in (Discovery(12, 21, "MPCFormer", "other", 2, 3),
    ...     Discovery(38, 48, "MAGICS-LAB", "other", 6, 7), Discovery(56, 61, "W4A16", "other", 9, 10))]
    [True, False, False]
    """
    if not name_shaped(d.text) or _NOT_A_NAME.search(d.text):
        return False
    if _SPELLING.match(d.text) and re.match(r"\s+[A-Z]", text[d.end: d.end + 3]):
        return False
    before = text[max(0, d.start - 1): d.start]
    after = text[d.end: d.end + 1]
    if before == "(" and after == ")" and re.search(r"\b[a-z]+\s*$", text[max(0, d.start - 30): d.start - 1]):
        return False   # a label after a lower-case phrase: "counterfactual direct (Str-DE)"
    if before == "/" or after == "/" or "." in text[max(0, d.start - 12): d.start].split(" ")[-1]:
        return False
    # a word of a capitalised phrase ("LineAr CompreSsion in WirEless", "Nvidia NeMo")
    prev = text[max(0, d.start - 30): d.start].split()
    nxt = text[d.end: d.end + 30].split()
    prev_word = prev[-1] if prev and text[d.start - 1: d.start] == " " else ""
    next_word = nxt[0] if nxt and text[d.end: d.end + 1] == " " else ""
    sentence_start = not prev or prev[-1].endswith((".", "!", "?", ":"))
    return not ((_TITLE_NEIGHBOUR.match(prev_word) and not sentence_start)
                or _TITLE_NEIGHBOUR.match(next_word))


_GENERIC_HEAD = re.compile(r"[\s\-]+(?:algorithms?|methods?|models?|frameworks?|architectures?|suite)$",
                           re.IGNORECASE)


_GENERIC_ENDINGS = ("algorithm", "algorithms", "method", "methods", "model", "models", "framework",
                    "frameworks", "architecture", "architectures", "suite")


def _without_generic_head(text: str, start: int, end: int, ent: Entity,
                          gaz: Gazetteer) -> int:
    """The end of a known name without a generic head that is no part of it:
    "Bradley-Terry model" -> "Bradley-Terry", "EM algorithm" -> "EM", but
    "Segment Anything Model" (SAM) and "Gaussian Mixture Model" (GMM) stay whole."""
    surface = text[start:end]
    if not surface.lower().endswith(_GENERIC_ENDINGS):
        return end
    h = _GENERIC_HEAD.search(surface)
    if h is None or h.start() == 0:
        return end
    shorter = surface[: h.start()]
    f = gaz.lookup(entity_key(shorter))
    if f is None or f.entity.key != ent.key:
        return end
    n_words = len(re.split(r"[\s\-]+", surface.strip()))
    head_letter = h.group(0).strip(" -")[:1].upper()
    for form in (ent.canonical, *ent.aliases):
        if form.isupper() and len(form) == n_words and form[-1] == head_letter:
            return end   # the head is a letter of the acronym: part of the name
    return start + len(shorter)


def _acronym_canonical(short: str) -> str:
    if len(short) > 2 and short.endswith("s") and short[:-1].isupper():
        return short[:-1]
    return short


_Span = tuple[int, int]


class _Resolution:
    """The spans of one abstract as the detectors' findings are merged in:
    ``(start, end) -> (entity, priority)``, and what the merge has learnt so far
    (the acronyms and proposed names, the keys proposed, the acronyms the
    abstract redefines)."""

    def __init__(self, text: str, gaz: Gazetteer) -> None:
        self.text = text
        self.gaz = gaz
        self.spans: dict[_Span, tuple[_Ent, float]] = {}
        self.proposed_keys: set[str] = set()
        self.short_forms: dict[str, _Ent] = {}
        self.redefined: set[str] = set()
        self.rekeyed: dict[str, _Ent] = {}
        self.proposed_ents: dict[str, _Ent] = {}
        self.inner_type: dict[_Span, str] = {}
        self.prop_at: dict[_Span, Proposal] = {}

    def put(self, start: int, end: int, ent: _Ent, prio: float) -> None:
        """A new span replaces the spans it overlaps if it has priority or is longer."""
        spans = self.spans
        clash = [k for k in spans if k[0] < end and start < k[1]]
        for k in clash:
            other = spans[k][1]
            if other > prio or (other == prio and (k[1] - k[0]) >= end - start):
                return
        for k in clash:
            del spans[k]
        spans[(start, end)] = (ent, prio)

    def from_gaz(self, key: str, surface: str = "") -> _Ent | None:
        # "RLS" is no plural of RL: an all-capital name keeps its final S
        gaz = self.gaz
        f = gaz.lookup(key) or (None if surface[-1:] == "S" and surface.isupper()
                                else gaz.lookup(singular_key(key)))
        if f is None:
            return None
        e = f.entity
        return _Ent(e.canonical, e.type, e.key, e.family)

    def add_matches(self, matches: list[Match], pairs: list[AcronymPair]) -> None:
        for m in matches:   # (the ruler's matches never overlap: no clash to check)
            e = m.form.entity
            end = _without_generic_head(self.text, m.start, m.end, e, self.gaz)
            self.spans[(m.start, end)] = (_Ent(e.canonical, e.type, e.key, e.family), 2)
        # the type of a known name inside a long form: "Stochastic Gradient Descent with
        # Momentum"
        for p in pairs:
            for m in matches:
                if p.long_start <= m.start and m.end <= p.long_end and m.form.entity.type in (
                        "model", "method", "dataset"):
                    self.inner_type[(p.long_start, p.long_end)] = m.form.entity.type

    def add_pair(self, p: AcronymPair) -> None:
        # the long form is the less ambiguous: "Expectation-Maximization (EM)" is not Exact Match
        ent = self.from_gaz(entity_key(p.long))
        if ent is None:
            if _short_form_entity(self.gaz, entity_key(p.short), p.long) is not None:
                ent = self.from_gaz(entity_key(p.short))
            elif self.from_gaz(entity_key(p.short)) is not None:
                # the abstract spells out other words than the gazetteer's: every use of
                # these letters is the abstract's thing ("multi-party computation (MPC)")
                self.redefined.update((p.short, _acronym_canonical(p.short)))
        prop_at = self.prop_at
        is_prop = (p.long_start, p.long_end) in prop_at or (p.short_start, p.short_end) in prop_at
        if ent is None and (p.short in not_entities() or _acronym_canonical(p.short)
                            in not_entities()):
            return  # fields and hardware: "machine learning (ML)", "GPU"
        if ent is None:
            ent = self._coined_pair_entity(p, is_prop)
            if ent is None:
                return
        self.put(p.long_start, p.long_end, ent, 3)
        self.put(p.short_start, p.short_end, ent, 3)
        self.short_forms[p.short] = ent
        self.short_forms.setdefault(_acronym_canonical(p.short), ent)
        if is_prop:
            self.proposed_keys.add(ent.key)

    def _pair_type(self, p: AcronymPair, is_prop: bool) -> str | None:
        """The type of an acronym pair the gazetteer does not know, or None."""
        text = self.text
        after = text[p.short_end: p.short_end + 20] if p.long_start < p.short_start else \
            text[p.long_end: p.long_end + 20]
        typ = head_type(p.long)
        if typ is None:
            typ = _cue_type(after) or self.inner_type.get((p.long_start, p.long_end))
        elif typ == "task":
            # "Kernel Principal Component Analysis": a known method inside wins
            typ = self.inner_type.get((p.long_start, p.long_end))
        if is_prop:
            # (is_prop: one of the two spans is a proposal)
            pt = (self.prop_at.get((p.short_start, p.short_end))
                  or self.prop_at[(p.long_start, p.long_end)])
            # a proposed setting or metric stays no model/method/dataset
            typ = "other" if pt.type == "other" else typ or pt.type
        elif _NOT_AFTER.match(after):
            typ = None
        return typ

    def _coined_pair_entity(self, p: AcronymPair, is_prop: bool) -> _Ent | None:
        """The abstract's own entity for an acronym pair, named by the acronym."""
        typ = self._pair_type(p, is_prop)
        if typ is None:
            return None
        canonical = _acronym_canonical(p.short)
        key = entity_key(canonical)
        rekey = p.short in self.redefined and self.gaz.lookup(key) is not None
        if rekey:
            # "multi-party computation (MPC)" is not the gazetteer's Model Predictive
            # Control: the abstract's MPC is known by its long form
            key = entity_key(p.long)
        ent = _Ent(canonical, typ, key)
        if rekey:
            self.rekeyed[p.short] = ent
        return ent

    def drop_redefined(self) -> None:
        """Drop the gazetteer's reading of letters the abstract redefines."""
        redefined, text = self.redefined, self.text
        if redefined:
            for k in [k for k, (_, prio) in self.spans.items() if prio == 2 and (
                    text[k[0]:k[1]] in redefined or text[k[0]:k[1] - 1] in redefined)]:
                del self.spans[k]

    def generic(self, name: str) -> bool:
        """Is ``name`` a generic class of models, which no paper proposes ("a NN that
        sorts", "a GNN")? (The gazetteer's ``model class`` entries; the fields and
        abbreviations of ``kg/data/not_entities.txt`` may be a paper's own acronym:
        "Predictive Dynamic Fusion (PDF)".)"""
        key = entity_key(name)
        f = self.gaz.lookup(key) or (None if name.isupper() else self.gaz.lookup(singular_key(key)))
        return f is not None and f.entity.kind == "model class"

    def add_proposal(self, pr: Proposal) -> None:
        spans, text = self.spans, self.text
        if self.generic(pr.name):
            return
        outer = [k for k in spans if k[0] <= pr.start and pr.end <= k[1]]
        if outer:
            for k in outer:
                # a known name that contains the proposal as a word is not proposed:
                # "a two-stage PU learning method" does not propose PU learning
                # (but "we introduce QuIP#" does propose QuIP#)
                if spans[k][1] != 2 or (k[0] == pr.start and " " not in text[pr.end: k[1]]):
                    self.proposed_keys.add(spans[k][0].key)
            return
        inside = [k for k in spans if pr.start <= k[0] and k[1] <= pr.end]
        # a longer proposed name wraps known parts: "2RA Q-learning", or the full
        # title of an acronym whose minimal long form is shorter
        pair_inside = [k for k in inside if spans[k][1] == 3]
        ent = spans[pair_inside[0]][0] if pair_inside else self._proposed_entity(pr)
        self.put(pr.start, pr.end, ent, 4)
        self.proposed_keys.add(ent.key)
        self.short_forms.setdefault(pr.name, ent)

    def _proposed_entity(self, pr: Proposal) -> _Ent:
        key = entity_key(pr.name)
        # an acronym the abstract redefines is its own: "DORA" is its pair, not DoRA;
        # "Algorithm Distillation (AD)" proposes no Automatic Differentiation
        ent = self.rekeyed.get(pr.name)
        if ent is None and pr.name in self.redefined:
            key = own_key(key)
        elif ent is None:
            ent = self.from_gaz(key, pr.name)
        if ent is not None and ent.key == key and _another_thing(self.gaz, pr.name, key, ent):
            # the paper's own "Maestro" is not the MAESTRO dataset: its own entity
            ent, key = None, own_key(key)
        ent = ent or self.proposed_ents.get(key) or _Ent(pr.name, pr.type, key)
        self.proposed_ents.setdefault(key, ent)   # one entity (and type) for every use
        return ent

    def add_later_uses(self, words: list[str], offsets: list[int]) -> None:
        """Later uses of acronyms and proposed names."""
        short_forms = self.short_forms
        if not short_forms:
            return
        forms = set(short_forms) | {f + "s" for f in short_forms}
        for i in compress(range(len(words)), map(forms.__contains__, words)):
            w = words[i]
            ent = short_forms.get(w) or short_forms[w[:-1]]   # (else w is a plural of one)
            start, end = offsets[i], offsets[i] + len(w)
            # the abstract's own definition beats the gazetteer's reading of the same
            # letters: "Dynamic Memory Compression (DMC)" ... "DMC" is not DeepMind Control
            known = self.spans.get((start, end))
            prio = 2.5 if known is not None and known[1] == 2 and known[0].key != ent.key else 1
            self.put(start, end, ent, prio)

    def add_discoveries(self, discoveries: list[Discovery], pairs: list[AcronymPair],
                        keep_untyped: bool) -> None:
        text = self.text
        long_spans = [(p.long_start, p.long_end) for p in pairs]
        pair_shorts = {p.short for p in pairs} | {_acronym_canonical(p.short) for p in pairs}
        for d in discoveries:
            typ = d.type
            if typ == "other" and d.text not in pair_shorts and not any(
                    s <= d.start and d.end <= e for s, e in long_spans) and untyped_name(text, d):
                typ = "method"   # a coined name with no cue around it: FlowSite, F-UCB, MPCFormer
            if typ == "other" and not keep_untyped:
                continue
            self.put(d.start, d.end, _Ent(d.text, typ, entity_key(d.text)), 0)

    def drop_settings(self) -> None:
        """A size or number format, a user name in a URL: never an entity."""
        text = self.text
        in_urls = url_spans(text)
        for k in [k for k, (_, prio) in self.spans.items()
                  if (prio != 2 and is_setting(text[k[0]:k[1]])) or in_any(k, in_urls)]:
            del self.spans[k]

    def mentions(self) -> list[Mention]:
        spans, text = self.spans, self.text
        proposed_keys = self.proposed_keys | _extensions(spans, self.proposed_keys, self.gaz)
        proposed_keys -= _known_inside_own(spans, proposed_keys, self.gaz)
        return [
            Mention(text=text[s:e], canonical=ent.canonical, type=ent.type, start=s, end=e,
                    proposed=ent.key in proposed_keys, key=ent.key, family=ent.family)
            for (s, e), (ent, _) in sorted(spans.items())
        ]


def resolve(text: str, words: list[str], offsets: list[int], matches: list[Match],
            pairs: list[AcronymPair], proposals: list[Proposal], discoveries: list[Discovery],
            gaz: Gazetteer, keep_untyped: bool = False) -> tuple[list[Mention], list[Alias]]:
    """The mentions and aliases of one abstract, in this order of precedence: the
    gazetteer's matches, the acronym pairs, the proposals, the later uses of
    acronyms and proposed names, the discovered names."""
    r = _Resolution(text, gaz)
    r.add_matches(matches, pairs)
    r.prop_at = {(p.start, p.end): p for p in proposals}
    aliases = [Alias(long=p.long, short=p.short) for p in pairs]
    for p in pairs:
        r.add_pair(p)
    r.drop_redefined()
    for pr in proposals:
        r.add_proposal(pr)
    r.add_later_uses(words, offsets)
    r.add_discoveries(discoveries, pairs, keep_untyped)
    r.drop_settings()
    return r.mentions(), aliases


_EXTENSION = re.compile(r"[-_]?(?:[A-Z][a-z]|\d)")


def _known_inside_own(spans: dict[_Span, tuple[_Ent, float]], proposed_keys: set[str],
                      gaz: Gazetteer) -> set[str]:
    """Known names the paper only builds on: a gazetteer entry proposed beside a
    coined name of the paper's own that puts words before it ("a low-rank (LoRa)
    branch" in the paper that proposes AutoLoRa: AutoLoRa is proposed, LoRA is
    not). A coined name that starts with the known one extends the paper's own
    name (MOMENT and MOMENT-1, MobileLLM and MobileLLM-LS: both proposed)."""
    known: set[str] = set()
    own: set[str] = set()
    for ent, _ in spans.values():
        if ent.key in proposed_keys:
            (known if gaz.lookup(ent.key) is not None else own).add(ent.key)
    return {k for k in known if len(k) >= 3 and any(k in o[1:] for o in own)}


def _extensions(spans: dict[_Span, tuple[_Ent, float]], proposed_keys: set[str],
                gaz: Gazetteer) -> set[str]:
    """Names the paper builds on its own proposed name: CodeAct ->
    CodeActAgent, CodeActInstruct; ToMoE -> ToMoE-Lite (never a known name)."""
    own = {ent.canonical for ent, _ in spans.values() if ent.key in proposed_keys
           and len(ent.canonical) >= 4 and " " not in ent.canonical}
    if not own:
        return set()
    out = set()
    for ent, _ in spans.values():
        name = ent.canonical
        if ent.key in proposed_keys or " " in name or gaz.lookup(ent.key) is not None:
            continue
        if any(name.startswith(o) and _EXTENSION.match(name, len(o)) for o in own):
            out.add(ent.key)
    return out
