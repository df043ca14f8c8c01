"""Finding the concepts of :mod:`kg.extract.concept_vocab` in an abstract's tokens.

Pure functions in the style of :mod:`kg.extract.ruler`; the spaCy component
(:mod:`kg.extract.components`, ``kg_concepts``) only calls :func:`find` and
:func:`merge`. A concept's forms are keyed word by word (lower case, one
spelling of British/US pairs from ``kg/data/spelling.txt``, separators
dropped), so "diffusion models", "Diffusion Models" and "diffusion-model" meet
one key; plurals are generated from the same file. A scan over tokens
concatenates their keys and stops as soon as the running key is no prefix of
any form's key; the longest match wins. One-word forms are indexed only for a
concept whose ``single`` flag allows them; acronyms match case-sensitively
(with a plural ``s``), and an acronym the abstract defines for a concept's long
form (``diffusion models (DMs)``) means that concept in that abstract.

>>> from kg.extract.concept_vocab import load
>>> idx = build_index(load())
>>> text = "Diffusion models (DMs) beat post-training quantisation; DMs and LLMs."
>>> words = ["Diffusion", "models", "(", "DMs", ")", "beat", "post", "-", "training",
...          "quantisation", ";", "DMs", "and", "LLMs", "."]
>>> offsets = [0, 10, 17, 18, 21, 23, 28, 32, 33, 42, 54, 56, 60, 64, 68]
>>> [(text[m.start:m.end], m.concept) for m in find(words, offsets, idx)]
[('Diffusion models', 'diffusion-model'), ('DMs', 'diffusion-model'), \
('post-training quantisation', 'post-training-quantization'), ('DMs', 'diffusion-model'), \
('LLMs', 'large-language-model')]
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from itertools import accumulate, compress

from kg.extract.acronyms import AcronymPair
from kg.extract.concept_vocab import Concept, ConceptVocab
from kg.identity import entity_key
from kg.models import Mention

MAX_TOKENS = 10
MAX_OWN = 20   # proposed names looked for again (merge)


@dataclass(frozen=True, eq=False)
class Spelling:
    """The rewriting rules of ``kg/data/spelling.txt``: whole words, word
    endings (longest first) and plural endings."""

    words: Mapping[str, str]
    endings: tuple[tuple[str, str], ...]
    plurals: tuple[tuple[str, str], ...]

    def word(self, w: str) -> str:
        """One lower-case word in the spelling both sides of a match share.

        >>> s = spelling()
        >>> s.word("optimisation"), s.word("modelling"), s.word("colour"), s.word("noise")
        ('optimization', 'modeling', 'color', 'noise')
        """
        return _respell(self, w)


@lru_cache(maxsize=100_000)
def _respell(sp: Spelling, w: str) -> str:
    got = sp.words.get(w)
    if got is not None:
        return got
    for old, new in sp.endings:
        if w.endswith(old) and len(w) - len(old) >= 3:
            return w[: len(w) - len(old)] + new
    return w


def parse_spelling(lines: Iterable[str]) -> Spelling:
    """Read the spelling file's lines (see its header for the format)."""
    words: dict[str, str] = {}
    endings: list[tuple[str, str]] = []
    plurals: list[tuple[str, str]] = []
    for line in lines:
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        if parts[0] == "ending:" and len(parts) == 3:
            endings.append((parts[1], parts[2]))
        elif parts[0] == "plural:" and len(parts) == 3:
            plurals.append((parts[1], parts[2]))
        elif len(parts) == 2:
            words[parts[0]] = parts[1]
    endings.sort(key=lambda e: -len(e[0]))
    return Spelling(words, tuple(endings), tuple(plurals))


@lru_cache(maxsize=1)
def spelling() -> Spelling:
    """The rules of ``kg/data/spelling.txt``."""
    return parse_spelling(
        (files("kg") / "data" / "spelling.txt").read_text(encoding="utf-8").splitlines())


_WORD = re.compile(r"[^\W_]+")


def phrase_key(text: str, sp: Spelling | None = None) -> str:
    """The key of a phrase or token: its words lower-cased, respelt, joined.

    >>> phrase_key("Post-Training Quantisation") == phrase_key("post training quantization")
    True
    """
    sp = sp or spelling()
    return "".join(sp.word(w) for w in _WORD.findall(text.lower()))


def plural_keys(key: str, sp: Spelling) -> set[str]:
    """The keys of a form's plurals (its last word's): ``+s`` and the file's endings."""
    out = {key + "s"}
    for sing, plur in sp.plurals:
        if key.endswith(sing):
            out.add(key[: len(key) - len(sing)] + plur)
    return out


@dataclass(frozen=True)
class ConceptIndex:
    """What the scan looks up.

    ``steps`` maps every prefix of a form key to (the concept the key names,
    or None; whether a longer key starts with it); ``acronyms`` maps an
    acronym as written (and its plural) to its concept; ``entities`` maps a
    gazetteer entity key to the concept that entry is; ``firsts`` the keys
    of a form's first words (one or more); ``collisions`` lists
    keys and acronyms two concepts share (dropped, or given to the label);
    ``longest`` is the most words a form has.
    """

    vocab: ConceptVocab
    spelling: Spelling
    steps: Mapping[str, tuple[str | None, bool]]
    acronyms: Mapping[str, str]
    entities: Mapping[str, str]
    firsts: frozenset[str] = frozenset()
    collisions: tuple[str, ...] = ()
    longest: int = 0


def _one_word(form: str) -> bool:
    return len([w for w in re.split(r"[\s\-‐–]+", form.strip()) if w]) == 1


def build_index(vocab: ConceptVocab, sp: Spelling | None = None) -> ConceptIndex:
    """Index a vocabulary: the keys of every form (a concept's label first, its
    plurals after its singulars, concepts in id order: the first claim of a
    key keeps it), its acronyms and its gazetteer entity."""
    sp = sp or spelling()
    full: dict[str, str] = {}
    firsts: set[str] = set()
    collisions: list[str] = []
    longest = 0
    concepts = [vocab.concepts[c] for c in sorted(vocab.concepts)]
    for rank in (0, 1, 2):          # labels, then other forms, then generated plurals
        for c in concepts:
            forms = [c.label] if rank == 0 else [f for f in c.forms if f != c.label] \
                if rank == 1 else [c.label, *c.forms]
            for form in forms:
                if _one_word(form) and not c.single:
                    continue
                key = phrase_key(form, sp)
                if not key:
                    continue
                parts = [sp.word(w) for w in _WORD.findall(form.lower())]
                longest = max(longest, len(parts))
                firsts.update("".join(parts[:k]) for k in range(1, len(parts) + 1))
                for k in (sorted(plural_keys(key, sp)) if rank == 2 else [key]):
                    owner = full.setdefault(k, c.id)
                    if owner != c.id and rank < 2:
                        collisions.append(f"{form!r} of {c.id} is a form of {owner}")
    prefixes = {k[:i] for k in full for i in range(1, len(k))}
    steps: dict[str, tuple[str | None, bool]] = {p: (full.get(p), True) for p in prefixes}
    for k, cid in full.items():
        if k not in steps:
            steps[k] = (cid, False)
    acronyms: dict[str, str] = {}
    shared: set[str] = set()
    for c in concepts:
        for a in c.acronyms:
            for form in (a, a + "s"):
                if acronyms.get(form, c.id) != c.id:
                    shared.add(form)
                acronyms.setdefault(form, c.id)
    for form in sorted(shared):
        collisions.append(f"acronym {form!r} of several concepts")
        del acronyms[form]
    entities = {entity_key(c.entity): c.id for c in concepts if c.entity}
    return ConceptIndex(vocab, sp, steps, acronyms, entities, frozenset(firsts - {""}),
                        tuple(collisions), longest)


@lru_cache(maxsize=2)
def cached_index(directory: str | None = None) -> ConceptIndex:
    """:func:`build_index` of the vocabulary in ``directory`` (default: kg's), once per
    process and from the start-up cache: extraction and the RDF stage share it."""
    from pathlib import Path

    from kg.extract.concept_vocab import concepts_dir, load
    from kg.util.cache import cached

    paths = [*sorted((Path(directory) if directory else concepts_dir()).glob("*.jsonl")),
             Path(str(files("kg") / "data" / "spelling.txt"))]
    return cached("concept-index", paths, lambda: build_index(load(directory), spelling()))


@dataclass(frozen=True, slots=True)
class ConceptMatch:
    """A concept found at ``text[start:end]`` (tokens ``token_start:token_end``);
    ``acronym`` when it was found by its short form."""

    start: int
    end: int
    concept: str
    token_start: int
    token_end: int
    acronym: bool = False


_HYPHENS = frozenset("-‐‑–")
_APOSTROPHES = frozenset("'’")
_TABLES: dict[int, tuple[ConceptIndex, dict[str, str], dict[str, bool], dict[str, bool]]] = {}


def _word_tables(index: ConceptIndex) -> tuple[dict[str, str], dict[str, bool], dict[str, bool]]:
    """Per index, decided once per distinct token: its key; whether a match
    may start at it (its key is a form's first words, or it is an acronym);
    whether its key starts a form's key at all (a part of a closed compound:
    "pre" of "pretrained")."""
    got = _TABLES.get(id(index))
    if got is None or got[0] is not index:
        got = _TABLES[id(index)] = (index, {}, {}, {})
    if len(got[2]) > 500_000:
        for table in got[1:]:
            table.clear()
    return got[1], got[2], got[3]


def local_acronyms(pairs: Sequence[AcronymPair], index: ConceptIndex) -> dict[str, str | None]:
    """The acronyms one abstract defines, as written (and singular/plural), to
    the concept of their long form; None for a vocabulary acronym the abstract
    spells out as something else ("domain mixing (DM)" is no diffusion model).

    >>> from kg.extract.concept_vocab import load
    >>> idx = build_index(load())
    >>> local_acronyms([AcronymPair("denoising diffusion models", "DDMs", 0, 26, 28, 32),
    ...                 AcronymPair("domain mixing", "DM", 40, 53, 55, 57)], idx)
    {'DDMs': 'diffusion-model', 'DDM': 'diffusion-model', 'DM': None, 'DMs': None}
    """
    out: dict[str, str | None] = {}
    for p in pairs:
        short = p.short[:-1] if len(p.short) > 2 and p.short.endswith("s") \
            and p.short[:-1].isupper() else p.short
        forms = (p.short, short, short + "s")
        step = index.steps.get(phrase_key(p.long, index.spelling))
        cid = step[0] if step else None
        if cid is None:
            known = index.acronyms.get(short)
            if known is None or _spells(p.long, index.vocab.concepts[known], index.spelling):
                continue
        for f in forms:
            out.setdefault(f, cid)
    return out


def _spells(long: str, concept: Concept, sp: Spelling) -> bool:
    """Does a long form name the concept, up to a word? ("large-scale language
    models (LLMs)" does; "domain mixing (DM)" does not name diffusion models)."""
    words = {sp.word(w)[:5] for w in _WORD.findall(long.lower())}
    for form in (concept.label, *concept.forms):
        fw = {sp.word(w)[:5] for w in _WORD.findall(form.lower())}
        if fw and 2 * len(words & fw) >= max(len(words), len(fw)) + 1:
            return True
    return False


def find(words: list[str], offsets: list[int], index: ConceptIndex,
         pairs: Sequence[AcronymPair] = ()) -> list[ConceptMatch]:
    """Longest concept matches, left to right, not overlapping.

    ``words`` are token texts and ``offsets`` their character offsets; ``pairs``
    the acronyms the abstract defines (:func:`kg.extract.acronyms.find_acronyms`).
    """
    n = len(words)
    steps = index.steps
    acr: Mapping[str, str | None] = index.acronyms
    keys, starts, parts = _word_tables(index)
    for w in set(words).difference(starts):
        k = keys[w] = phrase_key(w, index.spelling)
        step = steps.get(k)
        starts[w] = k in index.firsts or w in acr or (step is not None and step[0] is not None)
        parts[w] = step is not None
    todo: Iterable[int] = compress(range(n), map(starts.__getitem__, words))
    # a word part starts a form only before a hyphen: "pre-trained" for "pretrained"
    extra = [i - 1 for i in compress(range(1, n), map(_HYPHENS.__contains__, words[1:]))
             if parts[words[i - 1]] and not starts[words[i - 1]]]
    if pairs:
        local = local_acronyms(pairs, index)
        if local:
            acr = {**index.acronyms, **local}
            extra += compress(range(n), map(local.__contains__, words))
    if extra:
        todo = sorted({*todo, *extra})
    out: list[ConceptMatch] = []
    next_free = 0
    for i in todo:
        if i < next_free or (i > 1 and words[i - 1] in _HYPHENS and offsets[i - 1] + 1 == offsets[i]
                             and offsets[i - 2] + len(words[i - 2]) == offsets[i - 1]):
            continue   # no concept starts inside a compound: "vision-language models"
        cid = acr.get(words[i])
        best: tuple[int, str, bool] | None = (i + 1, cid, True) if cid is not None else None
        key = ""
        for j in range(i, i + MAX_TOKENS if i + MAX_TOKENS < n else n):
            kj = keys[words[j]]
            if not kj:
                if words[j] in _HYPHENS and j > i:
                    continue
                break
            key += kj
            step = steps.get(key)
            if step is None:
                break
            if step[0] is not None and words[j][0] not in _APOSTROPHES:
                best = (j + 1, step[0], False)   # (no "Transformer" + "'s" as a plural)
            if not step[1]:
                break
        if best is not None:
            end_tok, cid, is_acr = best
            out.append(ConceptMatch(offsets[i], offsets[end_tok - 1] + len(words[end_tok - 1]),
                                    cid, i, end_tok, is_acr))
            next_free = end_tok
    return _senses(out, words, index) if len(out) > 1 else out


def _senses(matches: list[ConceptMatch], words: Sequence[str],
            index: ConceptIndex) -> list[ConceptMatch]:
    """A bare one-word match means the abstract's own longer term ending in
    that word where the term is another sense, not a narrower one: "vector
    quantization ... the quantization" is vector quantization, "dataset
    distillation ... distillation" dataset distillation; after "post-training
    quantization" a bare "quantization" stays quantization."""
    bare = [k for k, m in enumerate(matches) if m.token_end - m.token_start == 1 and not m.acronym]
    if not bare:
        return matches
    concepts = index.vocab.concepts
    sp = index.spelling
    heads: dict[str, set[str]] = {}
    for m in matches:
        if m.token_end - m.token_start > 1 and not m.acronym:
            last = concepts[m.concept].label.split()[-1]
            heads.setdefault(phrase_key(last, sp), set()).add(m.concept)
    out = list(matches)
    for k in bare:
        m = matches[k]
        key = phrase_key(words[m.token_start], sp)
        senses = heads.get(key) or heads.get(key[:-1] if key.endswith("s") else key, set())
        senses = {c for c in senses if c != m.concept
                  and m.concept not in index.vocab.ancestors(c)
                  and c not in index.vocab.ancestors(m.concept)}
        if len(senses) == 1:
            out[k] = ConceptMatch(m.start, m.end, senses.pop(), m.token_start, m.token_end)
    return out


_NAME_STOP = re.compile(r"\s(?:with|for|of|via|using|and|in|on|by|from|to)\s.*$")
_VARIANT = re.compile(r"^[A-Za-z]?\d*(?:/\d+)?$|^(?:tiny|small|base|large|huge)$", re.I)


def head_concept(name: str, index: ConceptIndex) -> str | None:
    """The concept a name says its thing is, by the words it ends in (up to a
    function word): "Exclusion-Guided Proxy Contrastive Learning" is contrastive
    learning, "Recurrent Vision Transformers" and "RO-ViT" vision transformers;
    a concept's acronym with a size after it ("ViT-B/16") is that concept. Only
    words that alone may match count as one-word heads (a ``single`` concept or
    an acronym, case-sensitive).

    >>> from kg.extract.concept_vocab import load
    >>> idx = build_index(load())
    >>> [head_concept(n, idx) for n in ("Exclusion-Guided Proxy Contrastive Learning",
    ...                                 "Streaming Vision Transformer", "RO-ViT", "ViT-B/16",
    ...                                 "U-shaped Network with Skip Connections", "Mixture")]
    ['contrastive-learning', 'vision-transformer', 'vision-transformer', \
'vision-transformer', None, None]
    """
    parts = [w for w in re.split(r"[\s\-‐–]+", _NAME_STOP.sub("", name.strip())) if w]
    if len(parts) > 1 and parts[0] in index.acronyms and all(map(_VARIANT.match, parts[1:])):
        return index.acronyms[parts[0]]
    # a tail of more words than the longest form has names nothing: a name of
    # thousands of parts (a hostile "A-A-A-...") costs no more than a short one
    most, words = 0, 0
    for part in reversed(parts):
        words += len(_WORD.findall(part))
        if words > index.longest:
            break
        most += 1
    for k in range(most, 0, -1):
        tail = parts[len(parts) - k:]
        if k == 1 and tail[0] in index.acronyms:
            return index.acronyms[tail[0]]
        step = index.steps.get(phrase_key(" ".join(tail), index.spelling))
        if step is not None and step[0] is not None and (
                k > 1 or index.vocab.concepts[step[0]].single):
            return step[0]
    return None


def concept_mention(text: str, start: int, end: int, concept: Concept,
                    proposed: bool = False) -> Mention:
    """The mention of a concept at ``text[start:end]``."""
    return Mention(text=text[start:end], canonical=concept.label, type=concept.type,
                   start=start, end=end, proposed=proposed, key=concept.id, layer="concept")


def merge(text: str, mentions: Sequence[Mention], matches: Sequence[ConceptMatch],
          index: ConceptIndex, known: Callable[[Mention], bool]) -> list[Mention]:
    """The entity mentions and the concept matches of one abstract as one list,
    sorted by place.

    An entity mention of a gazetteer entry that is a concept (the concept's
    ``entity``) becomes a mention of that concept, never a proposed one. Where a concept match and an
    entity mention overlap, the entity stays unless it is a soft one (not
    ``known`` to the gazetteer, not proposed) that the match covers: "Stable
    Diffusion" stays the model, while a long form the resolver typed only by
    its head noun ("test-time adaptation (TTA)") becomes the concept.
    """
    concepts = index.vocab.concepts
    out: list[Mention] = []
    for m in mentions:
        cid = index.entities.get(m.key) if m.layer == "entity" else None
        # a concept is no paper's own: "we introduce a GNN" proposes no graph neural network
        out.append(concept_mention(text, m.start, m.end, concepts[cid])
                   if cid is not None else m)
    if not matches:
        return out
    out.sort(key=lambda m: (m.start, m.end))
    at = _Spans([(m.start, m.end) for m in out])
    # an entity the resolver gave a long form that is a concept's form (by its
    # acronym's letters: "Test-time adaptation (TTA)" is no Test-Time
    # Augmentation) is that concept everywhere the abstract names it
    taken = {m.key for c in matches if not c.acronym for m in map(out.__getitem__,
                                                                    at.overlapping(c.start, c.end))
             if m.layer == "entity" and not m.proposed and m.start == c.start and m.end == c.end
             and not known(m)}

    def soft(m: Mention) -> bool:
        return m.layer == "entity" and not m.proposed and (m.key in taken or not known(m))

    # a proposed name is the entity wherever it is written, also where the
    # resolver did not mark it again ("Diffusion Pruning ... Diffusion Pruning is");
    # (the first few names: each is a pass over the text, and a paper has one or two)
    names = list(dict.fromkeys(m.text for m in out if m.proposed and " " in m.text))[:MAX_OWN]
    own = _Spans(sorted((s, s + len(name)) for name in names for s in _occurrences(text, name)))
    dropped: set[int] = set()
    added: list[Mention] = []
    for c in matches:
        if own.overlapping(c.start, c.end):
            continue
        clash = at.overlapping(c.start, c.end)
        if any(not (c.start <= m.start and m.end <= c.end
                    and (soft(m) or (m.layer == "concept" and (
                        m.key == c.concept or c.end - c.start > m.end - m.start))))
               for m in map(out.__getitem__, clash)):
            continue
        dropped.update(clash)
        added.append(concept_mention(text, c.start, c.end, concepts[c.concept]))
    kept = [m for i, m in enumerate(out) if i not in dropped]
    return sorted(kept + added, key=lambda m: (m.start, m.end, m.layer))


class _Spans:
    """Spans sorted by start, asked which overlap a range, in log time for
    spans that do not overlap each other (a long abstract has thousands)."""

    def __init__(self, spans: list[tuple[int, int]]):
        self.starts = [s for s, _ in spans]
        self.spans = spans
        self.reach = list(accumulate((e for _, e in spans), max))   # furthest end so far

    def overlapping(self, start: int, end: int) -> list[int]:
        k = bisect_left(self.starts, end) - 1
        out = []
        while k >= 0 and self.reach[k] > start:
            if self.spans[k][1] > start:
                out.append(k)
            k -= 1
        return out[::-1]


def _occurrences(text: str, sub: str) -> list[int]:
    out = []
    i = text.find(sub)
    while i >= 0:
        out.append(i)
        i = text.find(sub, i + 1)
    return out
