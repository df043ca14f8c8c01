"""Similar papers by topic: each paper's nearest papers, computed once at build time.

A paper is two sparse vectors, each scaled to unit length:

* its **words**: the content words and adjacent word pairs of its clean
  abstract (lower case, a light plural folding, no stop words), weighted by
  ``(1 + log tf) * log(N / df)``;
* its **things**: the concepts and entities it mentions, weighted by
  ``log(N / df)`` (sharing "ImageNet-1K" says more than sharing "deep
  learning").

Two papers' similarity is ``WORDS * cos(words) + (1 - WORDS) * cos(things)``
(:data:`WORDS`, measured on the annotated concept sets: bench/similar_bench.py).
Terms and things only one paper has can match nothing and are left out, so
are words in more than :data:`MAX_DF` of the papers of a large corpus (they
say little and cost the most in the product).

:func:`similar_papers` gives each paper its :data:`TOP_K` best neighbours
with a score above zero, each with what the two share (the rarest things,
the words that weigh most in the product), computed a block of
:data:`BLOCK` papers at a time so memory stays bounded. Deterministic:
scores are rounded to four decimals, ties broken by paper id.

Examples
--------
>>> docs = [Document("a", "Video diffusion models animate images.", ("c:diffusion",)),
...         Document("b", "We animate images with video diffusion.", ("c:diffusion",)),
...         Document("c", "A theory of convex optimisation.", ()),
...         Document("d", "Convex optimisation and its theory.", ())]
>>> near = similar_papers(docs)
>>> [(n.paper, n.things, n.words[:2]) for n in near["a"]]
[('b', ('c:diffusion',), ('animate images', 'video diffusion'))]
>>> near["c"][0].paper, near["c"][0].score > 0
('d', True)
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kg.extract.wordfile import read_sections
from kg.models import Build

if TYPE_CHECKING:  # pragma: no cover
    from scipy.sparse import csr_matrix

    from kg.extract.concept_vocab import ConceptVocab

__all__ = ["BLOCK", "MAX_DF", "TOP_K", "WORDS", "Document", "Neighbour", "documents",
           "similar_papers", "terms"]

#: neighbours kept per paper
TOP_K = 10
#: the words' share of the score (the things': the rest)
WORDS = 0.85
#: words in more than this share of the papers are left out (of a corpus where that
#: share is more than MIN_CAP papers)
MAX_DF = 0.2
MIN_CAP = 100
#: papers ranked per block (a block's scores are BLOCK x papers floats)
BLOCK = 256
#: shared things and words named per neighbour
SHOWN_THINGS = 4
SHOWN_WORDS = 5

_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: the words left out of the terms: English stop words and the boilerplate of
#: abstracts (``kg/data/similar_stopwords.txt``)
_STOP = frozenset().union(*read_sections("similar_stopwords.txt").values())


_BREAK = re.compile(r"[.,;:!?()\[\]{}]").search


def _fold(word: str) -> str:
    """A light plural folding: "videos" -> "video", "policies" -> "policy"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ys")):
        return word[:-1]
    return word


def terms(text: str) -> Iterator[tuple[str, str]]:
    """The terms of a text with the words they were written as: content words
    (folded) and each pair of adjacent content words.

    >>> [t for t, _ in terms("Training video diffusion models on GPUs")]
    ['training', 'video', 'training video', 'diffusion', 'video diffusion', 'model', \
'diffusion model', 'gpus']
    """
    stop = _STOP
    prev: tuple[str, str] | None = None
    end = 0
    lower = text.lower()
    for m in _WORD.finditer(lower):
        word = m.group()
        if _BREAK(lower, end, m.start()):
            prev = None                     # no pair across punctuation
        end = m.end()
        if len(word) < 3 or word in stop:
            prev = None
            continue
        folded = _fold(word)
        if folded in stop:
            prev = None
            continue
        yield folded, word
        if prev is not None:
            yield f"{prev[0]} {folded}", f"{prev[1]} {word}"
        prev = (folded, word)


@dataclass(frozen=True)
class Document:
    """One paper as the ranking sees it: its id, clean abstract and the keys of the
    things (concepts, entities) it mentions."""

    id: str
    text: str
    things: tuple[str, ...] = ()


def documents(build: Build, concepts: ConceptVocab | None = None) -> list[Document]:
    """The papers of a build as the ranking sees them: the clean abstract (the
    abstract as written without an extraction) and the things mentioned, a
    concept as ``c:ID`` (a gazetteer entry that is a concept counts as the
    concept, as in the graph), an entity as ``e:KEY``."""
    from kg.identity import entity_key

    is_concept = {} if concepts is None else {
        entity_key(c.entity): c.id for c in concepts.concepts.values() if c.entity}
    out = []
    for paper in build.corpus.papers:
        ex = build.extractions.get(paper.id)
        if ex is None:
            out.append(Document(paper.id, paper.abstract))
            continue
        things: dict[str, None] = {}
        for m in ex.mentions:
            key = m.identity_key
            cid = key if m.layer == "concept" else is_concept.get(key)
            things[f"c:{cid}" if cid is not None else f"e:{key}"] = None
        out.append(Document(paper.id, ex.abstract, tuple(things)))
    return out


@dataclass(frozen=True)
class Neighbour:
    """One of a paper's nearest papers: its id, the score (0 to 1, four decimals),
    the things both mention (rarest first) and the words both use (weightiest
    first, as written)."""

    paper: str
    score: float
    things: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Matrix:
    """Unit-length rows (papers) over columns (terms), with each column's weight
    and name."""

    rows: csr_matrix
    names: tuple[str, ...]
    idf: np.ndarray


def _matrix(bags: Sequence[Counter[str]], *, max_df: float, log_tf: bool) -> _Matrix:
    """Rows of ``(1 + log tf) * idf`` (or ``idf``) over the terms at least two
    papers and at most ``max_df`` of them hold, each row scaled to unit length."""
    from scipy.sparse import csr_matrix

    n = len(bags)
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    cap = max(MIN_CAP, int(max_df * n))
    names = tuple(sorted(t for t, d in df.items() if 2 <= d <= cap))
    column = {t: j for j, t in enumerate(names)}
    idf = np.array([math.log(n / df[t]) for t in names], dtype=np.float64)
    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    for bag in bags:
        cols = sorted(column[t] for t in bag if t in column)
        vals = [(1.0 + math.log(bag[names[j]])) if log_tf else 1.0 for j in cols]
        w = np.asarray(vals, dtype=np.float64) * idf[cols] if cols else np.zeros(0)
        norm = float(np.sqrt(np.dot(w, w)))
        indices.extend(cols)
        data.extend((w / norm).tolist() if norm > 0 else w.tolist())
        indptr.append(len(indices))
    rows = csr_matrix((np.asarray(data, dtype=np.float64), np.asarray(indices, dtype=np.int64),
                       np.asarray(indptr, dtype=np.int64)), shape=(n, len(names)))
    return _Matrix(rows, names, idf)


def similar_papers(docs: Sequence[Document], *, k: int = TOP_K, words: float = WORDS,
                   max_df: float = MAX_DF, block: int = BLOCK
                   ) -> dict[str, tuple[Neighbour, ...]]:
    """Each paper's ``k`` nearest papers, best first, with what they share.

    Parameters
    ----------
    docs : sequence of Document
        The papers (ids unique).
    k : int
        Neighbours per paper.
    words : float
        The words' share of the score, 0 to 1.
    max_df : float
        Words in more than this share of the papers are left out.
    block : int
        Papers ranked at a time.

    Returns
    -------
    dict of str to tuple of Neighbour
        Paper id -> its neighbours (score above zero; a paper that shares no
        word and no thing with any other has none), in paper-id order.
    """
    from scipy.sparse import hstack

    docs = sorted(docs, key=lambda d: d.id)
    if len(docs) < 2:
        return {d.id: () for d in docs}
    written_as: Counter[tuple[str, str]] = Counter()
    bags: list[Counter[str]] = []
    for d in docs:
        found = list(terms(d.text))
        written_as.update(found)
        bags.append(Counter(term for term, _ in found))
    text = _matrix(bags, max_df=max_df, log_tf=True)
    things = _matrix([Counter(set(d.things)) for d in docs], max_df=1.0, log_tf=False)
    both = hstack([text.rows * math.sqrt(words), things.rows * math.sqrt(1.0 - words)],
                  format="csr")
    ids = [d.id for d in docs]
    thing_idf = dict(zip(things.names, things.idf.tolist(), strict=True))
    # each term as most often written (ties: the smallest spelling)
    column = {t: j for j, t in enumerate(text.names)}
    shown: dict[int, str] = {}
    for (term, written), _ in sorted(written_as.items(), key=lambda kv: (-kv[1], kv[0][1])):
        j = column.get(term)
        if j is not None and j not in shown:
            shown[j] = written
    out: dict[str, tuple[Neighbour, ...]] = {}
    transposed = both.T.tocsc()
    for start in range(0, len(docs), block):
        scores = (both[start:start + block] @ transposed).toarray()
        for r, row in enumerate(scores):
            i = start + r
            row[i] = 0.0
            best = _top(row, k)
            out[ids[i]] = tuple(
                Neighbour(ids[j], float(s), _shared_things(docs[i], docs[j], thing_idf),
                          _shared_words(text, i, j, shown))
                for j, s in best)
    return out


def _top(row: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The ``k`` best columns of a row of scores (rounded to four decimals, above
    zero), ties broken by column (paper id) order."""
    rounded = np.round(row, 4)
    positive = np.flatnonzero(rounded > 0)
    if len(positive) > k:
        cut = np.partition(rounded[positive], len(positive) - k)[len(positive) - k]
        positive = positive[rounded[positive] >= cut]
    order = np.lexsort((positive, -rounded[positive]))[:k]
    return [(int(positive[o]), float(rounded[positive[o]])) for o in order]


def _shared_things(a: Document, b: Document, idf: dict[str, float]) -> tuple[str, ...]:
    """The things both papers mention, rarest first (ties by key)."""
    common = set(a.things).intersection(b.things).intersection(idf)
    ranked = sorted(common, key=lambda t: (-idf[t], t))
    return tuple(ranked[:SHOWN_THINGS])


def _shared_words(text: _Matrix, i: int, j: int, shown: dict[int, str]) -> tuple[str, ...]:
    """The words both abstracts use (as written), by their part of the product (ties
    by term); a word already inside a shown pair is not named again."""
    rows = text.rows
    ai, aw = rows.indices[rows.indptr[i]:rows.indptr[i + 1]], rows.data[rows.indptr[i]:rows.indptr[i + 1]]
    bi, bw = rows.indices[rows.indptr[j]:rows.indptr[j + 1]], rows.data[rows.indptr[j]:rows.indptr[j + 1]]
    common, ia, ib = np.intersect1d(ai, bi, assume_unique=True, return_indices=True)
    weight = aw[ia] * bw[ib]
    order = np.lexsort((common, -np.round(weight, 9)))
    picked: list[int] = []
    for o in order:
        col = int(common[o])
        term = text.names[col]
        if any(term in text.names[p].split() for p in picked):
            continue                        # inside a pair already shown
        if " " in term:                     # a pair stands for the words it holds
            picked = [p for p in picked if text.names[p] not in term.split()]
        if len(picked) == SHOWN_WORDS:
            break
        picked.append(col)
    return tuple(shown[p] for p in picked)
