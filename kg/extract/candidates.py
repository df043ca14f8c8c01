"""Candidate phrases of an abstract: noun-phrase chunks over kg's tokens and
their sub-spans, for the learned filter of :mod:`kg.extract.concept_filter`.

Pure functions over the token texts the pipeline already has (no parser, no
tagger). A chunk is a run of tokens between boundaries: punctuation (a hyphen
or slash inside a run joins its words), spaCy's English stop words, and the
verbs and adverbs that are never nouns or adjectives
(``kg/data/boundary_words.txt``, from WordNet's tables). Words ending in
``-ing`` or ``-ed`` stay inside a chunk ("learned representations",
"self-supervised learning"). Every sub-span of a chunk of 1 to
:data:`MAX_WORDS` words is a candidate; occurrences are grouped by their
folded key (case, separators and a plural ``s`` ignored), so a phrase is one
candidate however often the abstract writes it.

>>> words = ["We", "study", "offline", "reinforcement", "learning", "with",
...          "self", "-", "supervised", "representations", "."]
>>> c = chunk_candidates(words, load_tables())
>>> [(c.keys[i], c.spans[i][0]) for i in range(len(c.keys))][:3]
[('study', (1, 2)), ('studyoffline', (1, 3)), ('studyofflinereinforcement', (1, 4))]
>>> "offlinereinforcementlearning" in c.keys, "selfsupervisedrepresentation" in c.keys
(True, True)
>>> "with" in c.keys, c.whole[c.keys.index("selfsupervisedrepresentation")]
(False, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

from kg.identity import entity_key, singular_key

MAX_WORDS = 5     # longest candidate, in words
MAX_CHUNK = 12    # a longer run of words is no noun phrase: only its edges are used
JOINERS = frozenset({"-", "‐", "‑", "–", "/"})


@dataclass(frozen=True, eq=False)
class ChunkTables:
    """The words at which a chunk is cut (stop words and boundary words, lower case)."""

    stops: frozenset[str]


@lru_cache(maxsize=1)
def load_tables() -> ChunkTables:
    """spaCy's English stop words and ``kg/data/boundary_words.txt``, once."""
    from spacy.lang.en.stop_words import STOP_WORDS

    text = (files("kg") / "data" / "boundary_words.txt").read_text(encoding="utf-8")
    words = {w for line in text.splitlines() for w in line.split("#", 1)[0].split()}
    return ChunkTables(frozenset(STOP_WORDS) | frozenset(words))


@dataclass(frozen=True, eq=False)
class Candidates:
    """The candidates of one abstract, in order of first occurrence.

    ``keys[i]`` is the folded key of candidate ``i``; ``spans[i]`` its
    occurrences as token ranges ``(start, end)``; ``whole[i]`` how many of
    them are a whole chunk; ``edge[i]`` how many end where their chunk ends
    (the head position); ``words[i]`` its number of words, ``last[i]`` the
    key of its last word; ``n_tokens`` the abstract's token count."""

    keys: list[str]
    spans: list[list[tuple[int, int]]]
    whole: list[int]
    edge: list[int]
    words: list[int]
    last: list[str]
    n_tokens: int


def token_keys(words: list[str]) -> list[str]:
    """Each token's key (:func:`kg.identity.entity_key`); a joiner's is empty."""
    try:
        return list(map(_KEYS.__getitem__, words))
    except KeyError:
        if len(_KEYS) > 500_000:
            _KEYS.clear()
        for w in set(words).difference(_KEYS):
            _KEYS[w] = "" if w in JOINERS else entity_key(w)
        return list(map(_KEYS.__getitem__, words))


_KEYS: dict[str, str] = {}   # token -> key, for the words seen so far


def chunks(words: list[str], tables: ChunkTables) -> list[tuple[int, int]]:
    """The chunks of a token list as ``(start, end)`` token ranges, joiners
    at their edges trimmed.

    >>> chunks(["a", "graph", "neural", "network", "is", "post", "-", "hoc", "."], load_tables())
    [(1, 4), (5, 8)]
    """
    out: list[tuple[int, int]] = []
    stops = tables.stops
    start = -1
    n = len(words)
    for i in range(n + 1):
        w = words[i] if i < n else "."
        if w in JOINERS and start >= 0:
            continue
        # a stop word inside a hyphenated compound ("non-convex", "end-to-end") is no cut
        cut = not w[:1].isalnum() or w in JOINERS or (
            w.lower() in stops and not (i + 1 < n and words[i + 1] in JOINERS)
            and not (i > 0 and words[i - 1] in JOINERS and start >= 0))
        if cut:
            if start >= 0:
                end = i
                while end > start and words[end - 1] in JOINERS:
                    end -= 1
                if end > start:
                    out.append((start, end))
                start = -1
        elif start < 0:
            start = i
    return out


def chunk_candidates(words: list[str], tables: ChunkTables,
                     keys: list[str] | None = None) -> Candidates:
    """The candidates of a token list (see the module's doc)."""
    keys = keys if keys is not None else token_keys(words)
    index: dict[str, int] = {}
    out_keys: list[str] = []
    spans: list[list[tuple[int, int]]] = []
    whole: list[int] = []
    edge: list[int] = []
    nw: list[int] = []
    last: list[str] = []
    for cs, ce in chunks(words, tables):
        pos = [i for i in range(cs, ce) if keys[i]]          # the chunk's words
        for part in ((pos,) if len(pos) <= MAX_CHUNK else (pos[:MAX_WORDS], pos[-MAX_WORDS:])):
            _spans(part, cs, ce, keys, index, out_keys, spans, whole, edge, nw, last)
    return Candidates(out_keys, spans, whole, edge, nw, last, len(words))


def _spans(pos: list[int], cs: int, ce: int, keys: list[str], index: dict[str, int],
           out_keys: list[str], spans: list[list[tuple[int, int]]], whole: list[int],
           edge: list[int], nw: list[int], last: list[str]) -> None:
    """Add the sub-spans of the words at token indices ``pos`` of chunk ``(cs, ce)``."""
    n = len(pos)
    for a in range(n):
        s = pos[a]
        key = ""
        for b in range(a, min(n, a + MAX_WORDS)):
            e = pos[b] + 1
            key += keys[pos[b]]
            k = singular_key(key)
            j = index.get(k)
            if j is None:
                j = index[k] = len(out_keys)
                out_keys.append(k)
                spans.append([])
                whole.append(0)
                edge.append(0)
                nw.append(b - a + 1)
                last.append(singular_key(keys[pos[b]]))
            spans[j].append((s, e))
            if e == ce:
                edge[j] += 1
                if s == cs:
                    whole[j] += 1
