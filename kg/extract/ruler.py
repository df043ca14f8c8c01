"""Matching the gazetteer against tokens, separator- and plural-insensitively.

A scan over tokens concatenates each token's key (lower case, separators
removed) and stops as soon as the running key is no prefix of any gazetteer
key, so ``LLaMA-2``, ``Llama 2`` and ``LLaMA2`` all meet the same entry.
Pure functions; the spaCy component only calls :func:`match`.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress
from typing import Final, Literal

from kg.extract.gazetteer import Form, Gazetteer
from kg.extract.normalise import is_variant_token, strip_variant
from kg.identity import compact, entity_key, singular_key

MAX_TOKENS = 8


@dataclass(frozen=True, slots=True)
class Match:
    start: int      # character offsets into the text
    end: int
    form: Form
    token_start: int
    token_end: int


_KEYS: dict[str, str] = {}


def _key(word: str) -> str:
    # a typographic apostrophe is the gazetteer's straight one: "Newton’s method"
    k = entity_key(word.replace("’", "'") if "’" in word else word)
    if len(_KEYS) < 500_000:
        _KEYS[word] = k
    return k or ""


def token_key(text: str) -> str:
    k = _KEYS.get(text)   # ("" is a key too: punctuation's, looked up, not made again)
    return _key(text) if k is None else k


def surface_ok(surface: str, form: Form, sentence_start: bool) -> bool:
    """Case rules: ambiguous names only as written; lower-case common words are
    not names unless the entity's own name is lower case."""
    if form.case_sensitive:
        c = compact(surface)
        if c in form.exact or (c.endswith("s") and c[:-1] in form.exact) or c + "s" in form.exact:
            return True
        if any(ch.isupper() for ch in c[1:]):
            # "neural ODEs" for "Neural ODE": only the first letter's case differs
            folded = {e[:1].lower() + e[1:] for e in form.exact}
            low = c[:1].lower() + c[1:]
            return low in folded or (low.endswith("s") and low[:-1] in folded)
        if sentence_start and c[:1].isupper():
            low = c[:1].lower() + c[1:]
            return low in form.exact or (low.endswith("s") and low[:-1] in form.exact)
        return False
    body = surface[1:] if sentence_start else surface
    if any(ch.isupper() or ch.isdigit() for ch in body):
        return True
    # all lower case (or only a capital that starts a sentence)
    name = form.entity.canonical
    return not any(ch.isupper() for ch in name)


def _variants(name: str) -> set[str]:
    """Spellings of a name with its hyphens and spaces swapped or dropped."""
    name = name.replace("–", "-").replace("‐", "-")
    out = {name, name.replace("-", " "), name.replace(" ", "-"), name.replace("-", ""),
           name.replace(" ", "")}
    out |= {v.replace("-", "–") for v in out if "-" in v}
    out |= {re.sub(r"(?<=[A-Za-z]{2})(?=\d)", sep, v) for v in list(out) for sep in (" ", "-")}
    return out


def _mixed_separators(name: str) -> set[str]:
    """Spellings whose first separators are hyphens and the rest spaces
    ("Long-Range Arena" for "Long Range Arena"): they can tokenise to a
    different first token than any uniform spelling."""
    words = name.replace("-", " ").split()
    return {"-".join(words[:k]) + " " + " ".join(words[k:]) for k in range(2, len(words))}


def first_keys(gaz: Gazetteer, tokenize: Callable[[str], list[str]]) -> frozenset[str]:
    """Keys a match's first token can have: the first token of every spelling of
    every name, as ``tokenize`` (a text -> token texts function) splits it."""
    names = {n for f in gaz.index.values() for n in (f.entity.canonical, *f.entity.aliases)}
    keys = set()
    for name in names:
        for v in _variants(name) | _mixed_separators(name):
            toks = tokenize(v)
            if toks:
                keys.add(token_key(toks[0]))
    return frozenset(k for k in keys if k and k[0].isalnum())


# lower-case function words never start a name (one that does, like "The Pile",
# is written with a capital)
_SIZE_END = frozenset("0123456789bmkt")   # a token that may end in a size/variant suffix
_FUNCTION_WORDS = frozenset([
    "the", "of", "to", "a", "an", "in", "we", "on", "is", "as", "by", "be", "at", "it", "or", "not",
    "and", "for", "with", "from", "this", "that", "our", "are", "can", "its", "their", "these",
])


def match(words: list[str], offsets: list[int], text: str, gaz: Gazetteer,
          sentence_starts: set[int] | None = None,
          starts: frozenset[str] | None = None) -> list[Match]:
    """Longest gazetteer matches, left to right, not overlapping.

    ``words`` are token texts, ``offsets`` their character offsets in ``text``;
    ``starts`` (:func:`first_keys`) lets the scan skip tokens no name begins with.
    """
    return select(words, offsets, text, scan(words, gaz, starts), gaz, sentence_starts)


def scan(words: list[str], gaz: Gazetteer,
         starts: frozenset[str] | None = None) -> dict[int, list[tuple[int, Form]]]:
    """Candidate matches by start token: ``{i: [(end_token, form), ...]}``,
    shortest first."""
    n = len(words)
    table = _steps(gaz)
    first = starts or gaz.prefixes
    # the tokens a name can start at, decided once per distinct word
    can_start = _CAN_START.setdefault(id(first), {})
    for w in set(words).difference(can_start):   # (a dict: CPython probes it per word)
        k = token_key(w)
        can_start[w] = bool(k and w not in _FUNCTION_WORDS and (
            k in first or k[:-1] in first or (k[-1:] in _SIZE_END and k in table)
            or _variant_form(w, gaz) is not None))   # "DeiT-Tiny", "BERT-Base"
    todo = list(compress(range(n), map(can_start.__getitem__, words)))
    if len(can_start) > 500_000:
        can_start.clear()
    keys: list[str | None] = [None] * n
    variant_of = _variant_table(gaz)
    by_start: dict[int, list[tuple[int, Form]]] = {}
    for i in todo:
        cands: list[tuple[int, Form]] = []
        key = ""
        for j in range(i, i + MAX_TOKENS if i + MAX_TOKENS < n else n):
            kj = keys[j]
            if kj is None:
                kj = keys[j] = token_key(words[j])
            if not kj:
                if words[j] == ".":   # a name never runs over a full stop
                    break
                continue
            key += kj
            step = table.get(key)
            if step is None:
                break
            if step[0] is not None:
                cands.append((j + 1, step[0]))
            if not step[1]:
                break
        if not cands:
            f = variant_of.get(words[i], _UNSEEN)
            if f is False:
                f = _variant_form(words[i], gaz)
            if f is not None:
                cands = [(i + 1, f)]
        if cands:
            by_start[i] = cands
    return by_start


_CAN_START: dict[int, dict[str, bool]] = {}
_STEPS: dict[int, tuple[Gazetteer, dict[str, tuple[Form | None, bool]]]] = {}


def _steps(gaz: Gazetteer) -> dict[str, tuple[Form | None, bool]]:
    """One lookup per scan step: ``key -> (form it names, or None; whether a
    longer key starts with it)``. A key names the form of its own key, else of
    its singular (``llms`` -> ``llm``) or, for a key without ``s``, of its
    plural (``gan`` -> ``gans``)."""
    got = _STEPS.get(id(gaz))
    if got is not None and got[0] is gaz:
        return got[1]
    index = gaz.index
    forms: dict[str, Form] = {}
    for g in index:
        for k in (g + "s", g[:-1] + "ies"):
            if singular_key(k) == g and k not in index:
                forms[k] = index[g]
        if g.endswith("s") and not g[:-1].endswith("s") and g[:-1] not in index:
            forms[g[:-1]] = index[g]
    forms.update(index)
    table = {k: (forms.get(k), True) for k in gaz.prefixes}
    for k, f in forms.items():
        if k not in table:
            table[k] = (f, False)
    _STEPS[id(gaz)] = (gaz, table)
    return table


_VARIANT_OF: dict[int, dict[str, Form | None]] = {}
_UNSEEN: Final[Literal[False]] = False   # (a word not looked up yet: None is "no entry")


def _variant_table(gaz: Gazetteer) -> dict[str, Form | None]:
    table = _VARIANT_OF.setdefault(id(gaz), {})
    if len(table) > 200_000:
        table.clear()
    return table


def _variant_form(word: str, gaz: Gazetteer) -> Form | None:
    """The entry a token names once its size/variant suffix is dropped."""
    table = _variant_table(gaz)
    f = table.get(word, _UNSEEN)
    if f is False:
        stripped = strip_variant(word)
        f = table[word] = gaz.index.get(entity_key(stripped)) if stripped != word else None
    return f


def select(words: list[str], offsets: list[int], text: str,
           by_start: dict[int, list[tuple[int, Form]]], gaz: Gazetteer,
           sentence_starts: set[int] | None = None) -> list[Match]:
    """Longest candidates that pass the case rules, left to right, not overlapping."""
    n = len(words)
    out: list[Match] = []
    sentence_starts = sentence_starts or set()
    next_free = 0
    for i in sorted(by_start):
        if i < next_free:
            continue
        cands = by_start[i]
        hit = None
        for end_tok, form in reversed(cands):   # longest first; shorter if it fails
            # swallow trailing size/variant tokens: "Llama 2 7B", "Mistral-7B-Instruct"
            while end_tok < n:
                if is_variant_token(words[end_tok]):
                    end_tok += 1
                elif (words[end_tok] == "-" and end_tok + 1 < n and offsets[end_tok + 1]
                      == offsets[end_tok] + 1 and is_variant_token(words[end_tok + 1])):
                    end_tok += 2
                else:
                    break
            start = offsets[i]
            end = offsets[end_tok - 1] + len(words[end_tok - 1])
            if surface_ok(strip_variant(text[start:end]), form, i in sentence_starts):
                hit = Match(start, end, form, i, end_tok)
                break
        if hit is not None:
            out.append(hit)
            next_free = hit.token_end
    return out
