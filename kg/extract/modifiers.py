"""Modifiers that narrow a known concept: "LiDAR-based 3D object detection",
"single-image novel view synthesis", "deep video compression" are each one
mention whose span takes in the modifiers and whose concept is the known one
they narrow (3D object detection, novel view synthesis, video compression).

The word lists are data (``kg/data/concept_modifiers.txt``): ``extend`` (words
and whole hyphenated compounds that narrow: "unsupervised", "few-shot",
"multi-agent"), ``extend_suffix`` (the last part of a compound that makes it
narrow: "X-based", "X-only", "X-free", "X-aware") and ``never`` ("novel",
"existing", "efficient", "state-of-the-art"; checked first).

>>> mods = load()
>>> words = ["We", "study", "LiDAR", "-", "based", "3D", "object", "detection", "."]
>>> offsets = [0, 3, 9, 14, 15, 21, 24, 31, 40]
>>> m = ConceptMatch(21, 40, "3d-object-detection", 5, 8)
>>> [(x.start, x.token_start) for x in extend(words, offsets, [m], mods)]
[(9, 2)]
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from kg.extract.concept_finder import ConceptMatch, spelling
from kg.extract.wordfile import read_sections

_HYPHENS = frozenset("-‐‑–")
MAX_MODIFIERS = 3   # compounds or words taken in before one concept


@dataclass(frozen=True)
class Modifiers:
    """The three lists of ``kg/data/concept_modifiers.txt``."""

    extend: frozenset[str]
    suffixes: frozenset[str]
    never: frozenset[str]
    attested: frozenset[str] = frozenset()   # see :func:`with_vocabulary`

    def narrows(self, modifier: str) -> bool:
        """Does a word or compound (lower case, parts joined by "-") narrow a concept?

        >>> m = load()
        >>> m.narrows("lidar-based"), m.narrows("few-shot"), m.narrows("novel"), m.narrows("-based")
        (True, True, False, False)
        """
        if modifier in self.never or modifier.replace("-", "") in self.never:
            return False
        if modifier in self.extend or modifier.replace("-", "") in self.extend:
            return True   # (also written with or without its hyphens: "auto-regressive")
        head, _, last = modifier.rpartition("-")
        return bool(head) and not head.endswith("-") and last in self.suffixes


@lru_cache(maxsize=1)
def load() -> Modifiers:
    """The modifier lists kg ships."""
    s = read_sections("concept_modifiers.txt")
    return Modifiers(s.get("extend", frozenset()), s.get("extend_suffix", frozenset()),
                     s.get("never", frozenset()))


def with_vocabulary(mods: Modifiers, labels: Iterable[str]) -> Modifiers:
    """The lists, and as ``attested`` the lower-case words that stand before the
    last word of a concept's label or form ("feature" of "feature selection",
    "video" of "video object segmentation"), less ``never``, the words of the
    file's ``stop`` section (function words, verbs, vague adjectives) and words
    in "-ing" (in running text mostly a verb: "using", "predicting"). An
    attested word, or a compound of them ("text-video"), right before a concept
    narrows it ("channel pruning"; "LiDAR segmentation" is not narrowed so: no
    lower-case word).

    >>> m = with_vocabulary(load(), ["feature selection", "question and answering"])
    >>> sorted(m.attested)
    ['feature', 'question']
    """
    stop = read_sections("concept_modifiers.txt").get("stop", frozenset())
    words = {w for label in labels for w in label.split()[:-1]
             if w.isalpha() and w.islower() and not w.endswith("ing")}
    # and their other spellings ("dialogue" for "dialog"), so the check in
    # :func:`extend` stays one set lookup
    words |= {gb for gb, us in spelling().words.items() if us in words}
    return replace(mods, attested=frozenset(words - mods.never - stop))


def _compound_before(words: Sequence[str], offsets: Sequence[int], end: int,
                     floor: int) -> int:
    """The first token of the hyphenated compound (or word) whose last token is
    ``end``: tokens joined by hyphens with no space between, none before ``floor``."""
    i = end
    while (i - 2 >= floor and words[i - 1] in _HYPHENS
           and offsets[i - 1] == offsets[i - 2] + len(words[i - 2])
           and offsets[i] == offsets[i - 1] + len(words[i - 1])):
        i -= 2
    return i


def _opens(words: Sequence[str], k: int) -> bool:
    """Is token ``k`` a capitalised word opening a sentence ("Medical image captioning")?"""
    w = words[k]
    return w[:1].isupper() and w[1:].islower() and (k == 0 or words[k - 1] in (".", "!", "?"))


def _key(words: Sequence[str], start: int, end: int) -> str:
    return "".join("-" if w in _HYPHENS else w for w in words[start:end + 1]).lower()


def _defined_start(offsets: Sequence[int], m: ConceptMatch,
                   defined: Collection[tuple[int, int]], floor: int,
                   blocked: Sequence[tuple[int, int]]) -> int | None:
    """The first token of a long form the abstract defines an acronym for that
    ends where the match ends and starts before it, within reach (not before
    ``floor``, not into an entity): "panoramic depth completion (PDC)" is the
    author's term, whatever the modifier lists say."""
    for s, e in defined:
        if e != m.end or s >= m.start or any(bs < m.start and s < be for bs, be in blocked):
            continue
        k = bisect_left(offsets, s)
        if floor <= k < m.token_start and offsets[k] == s and m.token_start - k <= MAX_MODIFIERS + 2:
            return k
    return None


def extend(words: Sequence[str], offsets: Sequence[int], matches: Sequence[ConceptMatch],
           mods: Modifiers, blocked: Sequence[tuple[int, int]] = (),
           defined: Collection[tuple[int, int]] = ()) -> list[ConceptMatch]:
    """The matches with the narrowing modifiers written right before each
    taken into its span (up to :data:`MAX_MODIFIERS`), never past the match
    before it nor into a ``blocked`` character span (an entity mention). A
    match that ends a long form the abstract defines an acronym for, at or
    after its start, keeps its span ("data-centric machine learning (ML)": the
    author's term is "machine learning"), and so does a match that is itself a
    modifier ("self-supervised", "contrastive": no "zero-shot self-supervised"
    mention). An attested word (:func:`with_vocabulary`)
    narrows only a concept written in lower case ("sample Multi-Head
    Self-Attention layers" is no narrower attention).

    >>> ws = ["the", "novel", "few", "-", "shot", "image", "classification"]
    >>> offs = [0, 4, 10, 13, 14, 19, 25]
    >>> m = ConceptMatch(19, 39, "image-classification", 5, 7)
    >>> [x.start for x in extend(ws, offs, [m], load())]
    [10]
    """
    out: list[ConceptMatch] = []
    floor = 0
    for m in matches:
        i = m.token_start
        keep = any(e == m.end and s >= m.start for s, e in defined) or (
            not m.acronym and mods.narrows(_key(words, i, m.token_end - 1)))
        longer = _defined_start(offsets, m, defined, floor, blocked)
        if longer is not None:
            i, keep = longer, True
        for _ in range(0 if keep else MAX_MODIFIERS):
            last = i - 1
            if last < floor or not words[last][:1].isalnum() or words[last] in _HYPHENS:
                break
            first = _compound_before(words, offsets, last, floor)
            if first > floor and words[first - 1] in _HYPHENS:
                break   # part of a longer compound than the floor lets us see
            key = _key(words, first, last)
            if not mods.narrows(key) and not (
                    i == m.token_start and not m.acronym and words[m.token_start][:1].islower()
                    and all(w.islower() or w in _HYPHENS or (k == first and _opens(words, k))
                            for k, w in enumerate(words[first:last + 1], first))
                    and all(p in mods.attested for p in key.split("-"))):
                break
            if any(s < offsets[last] + len(words[last]) and offsets[first] < e
                   for s, e in blocked):
                break
            i = first
        out.append(m if i == m.token_start else replace(m, start=offsets[i], token_start=i))
        floor = m.token_end
    return out
