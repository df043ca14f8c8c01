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
the words that weigh most in the product). It does not score every pair
(that grows with the square of the papers: an hour at 100,000): a paper's
candidates are found through an inverted index over the terms, each paper
entered under its :data:`TOP_TERMS` weightiest terms and each term keeping
the :data:`POSTING` papers it weighs most in; the :data:`CANDIDATES` best
candidates by that partial product are then scored exactly, over all their
terms. The work per paper is bounded by those caps, so the time grows about
linearly (bench/similar_scale.py); with caps that do not bind it is the
exhaustive ranking (tests hold it), and at 10,307 real papers 98.7 % of the
exhaustive top-10 neighbours are found (99.5 % of the top 5). Papers are
ranked a block of :data:`BLOCK` at a time so memory stays bounded.
Deterministic: scores are rounded to four decimals, ties broken by paper id.

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

__all__ = ["BLOCK", "CANDIDATES", "MAX_DF", "POSTING", "TOP_K", "TOP_TERMS", "WORDS", "Document", "Neighbour", "documents",
           "similar_papers", "terms"]

#: neighbours kept per paper
TOP_K = 10
#: the words' share of the score (the things': the rest)
WORDS = 0.85
#: words in more than this share of the papers are left out (of a corpus where that
#: share is more than MIN_CAP papers)
MAX_DF = 0.2
MIN_CAP = 100
#: papers ranked per block
BLOCK = 256
#: the candidate search: a paper's TOP_TERMS weightiest terms, a term's POSTING
#: papers it weighs most in, CANDIDATES papers per paper scored exactly
TOP_TERMS = 40
POSTING = 400
CANDIDATES = 60
#: shared things and words named per neighbour
SHOWN_THINGS = 4
SHOWN_WORDS = 5

#: the words left out of the terms: English stop words and the boilerplate of
#: abstracts (``kg/data/similar_stopwords.txt``)
_STOP = frozenset().union(*read_sections("similar_stopwords.txt").values())




def _fold(word: str) -> str:
    """A light plural folding: "videos" -> "video", "policies" -> "policy"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ys")):
        return word[:-1]
    return word


_TOKEN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*|[.,;:!?()\[\]{}]")
#: word as written -> its folding, or "" when it is left out (short, a stop word)
_FOLDED: dict[str, str] = {}


def _folded(word: str) -> str:
    """``word``'s folding, or "" when it is left out; remembered in :data:`_FOLDED`
    (the caller looks there first: this runs once per distinct word)."""
    folded = "" if len(word) < 3 or word in _STOP else _fold(word)
    if folded in _STOP:
        folded = ""
    if len(_FOLDED) < 1_000_000:
        _FOLDED[word] = folded
    return folded


def terms(text: str) -> Iterator[tuple[str, str]]:
    """The terms of a text with the words they were written as: content words
    (folded) and each pair of adjacent content words.

    >>> [t for t, _ in terms("Training video diffusion models on GPUs")]
    ['training', 'video', 'training video', 'diffusion', 'video diffusion', 'model', \
'diffusion model', 'gpus']
    """
    prev = prev_word = ""
    for word in _TOKEN.findall(text.lower()):
        folded = _FOLDED.get(word)
        if folded is None:
            folded = _folded(word)
        if not folded:                      # punctuation, a stop word: no pair across
            prev = ""
            continue
        yield folded, word
        if prev:
            yield f"{prev} {folded}", f"{prev_word} {word}"
        prev, prev_word = folded, word


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


def _matrix(n: int, rows: np.ndarray, cols: np.ndarray, tf: np.ndarray, names: Sequence[str],
            *, max_df: float, log_tf: bool) -> _Matrix:
    """Rows of ``(1 + log tf) * idf`` (or ``idf``) over the terms at least two
    papers and at most ``max_df`` of them hold, each row scaled to unit length.
    ``rows``, ``cols``, ``tf``: one entry per (paper, term) held (term ``cols``
    indexes ``names``), rows ascending."""
    from scipy.sparse import csr_matrix

    df = np.bincount(cols, minlength=len(names))
    cap = max(MIN_CAP, int(max_df * n))
    kept = np.flatnonzero((df >= 2) & (df <= cap))
    kept = kept[np.argsort(np.asarray([names[int(t)] for t in kept], dtype=object), kind="stable")]
    column = np.full(len(names), -1, dtype=np.int32)
    column[kept] = np.arange(len(kept))
    idf = np.log(n / df[kept].astype(np.float64))
    keep = column[cols] >= 0
    r, c = rows[keep], column[cols[keep]]
    w = ((1.0 + np.log(tf[keep])) if log_tf else np.ones(len(c))) * idf[c]
    order = np.lexsort((c, r))
    r, c, w = r[order], c[order], w[order]
    norm = np.sqrt(np.bincount(r, weights=w * w, minlength=n))
    w = w / norm[r]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(r, minlength=n), out=indptr[1:])
    matrix = csr_matrix((w, c.astype(np.int32), indptr), shape=(n, len(kept)))
    return _Matrix(matrix, tuple(names[int(t)] for t in kept), idf)


@dataclass(frozen=True)
class _Terms:
    """The terms of every paper: one entry per (paper, term) with its count, each
    term's name and the spelling it is most often written with."""

    rows: np.ndarray
    cols: np.ndarray
    tf: np.ndarray
    names: list[str]
    written: dict[str, str]


def _all_terms(docs: Sequence[Document]) -> _Terms:
    """Tokenise every abstract once (:func:`terms`, with each word's folding cached)."""
    vocab: dict[str, int] = {}
    spelled: Counter[tuple[int, str]] = Counter()   # only spellings unlike the term
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    tfs: list[np.ndarray] = []
    for i, d in enumerate(docs):
        ids: list[int] = []
        for term, as_written in terms(d.text):
            t = vocab.setdefault(term, len(vocab))
            ids.append(t)
            if as_written != term:
                spelled[t, as_written] += 1
        if ids:
            u, cnt = np.unique(np.asarray(ids, dtype=np.int32), return_counts=True)
            cols.append(u)
            tfs.append(cnt.astype(np.int32))
            rows.append(np.full(len(u), i, dtype=np.int32))
    names = list(vocab)
    total = np.bincount(np.concatenate(cols), weights=np.concatenate(tfs),
                        minlength=len(names)) if cols else np.zeros(0)
    other: Counter[int] = Counter()
    for (t, _), c in spelled.items():
        other[t] += c
    best: dict[int, tuple[int, str]] = {}
    for (t, spelling), c in spelled.items():   # as most often written, ties: the smallest
        as_is = int(total[t]) - other[t]
        first = best.get(t, (-as_is, names[t]) if as_is > 0 else (1, ""))
        best[t] = min(first, (-c, spelling))
    written = {names[t]: w for t, (_, w) in best.items()}
    return _Terms(_cat(rows), _cat(cols), _cat(tfs), names, written)


def _cat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)
def similar_papers(docs: Sequence[Document], *, k: int = TOP_K, words: float = WORDS,
                   max_df: float = MAX_DF, block: int = BLOCK, top_terms: int = TOP_TERMS,
                   posting: int = POSTING, candidates: int = CANDIDATES
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
    top_terms, posting, candidates : int
        The candidate search: each paper's ``top_terms`` weightiest terms, each
        term's ``posting`` papers it weighs most in, ``candidates`` papers scored
        exactly per paper (see the module's docstring).

    Returns
    -------
    dict of str to tuple of Neighbour
        Paper id -> its neighbours (score above zero; a paper that shares no
        word and no thing with any other has none), in paper-id order.
    """
    from scipy.sparse import hstack

    docs = sorted(docs, key=lambda d: d.id)
    n = len(docs)
    if n < 2:
        return {d.id: () for d in docs}
    found = _all_terms(docs)
    text = _matrix(n, found.rows, found.cols, found.tf, found.names, max_df=max_df, log_tf=True)
    written = found.written
    del found
    thing_ids: dict[str, int] = {}
    trow: list[int] = []
    tcol: list[int] = []
    for i, d in enumerate(docs):
        for t in dict.fromkeys(d.things):
            trow.append(i)
            tcol.append(thing_ids.setdefault(t, len(thing_ids)))
    things = _matrix(n, np.asarray(trow, dtype=np.int64), np.asarray(tcol, dtype=np.int64),
                     np.ones(len(tcol)), list(thing_ids), max_df=1.0, log_tf=False)
    both = hstack([text.rows * math.sqrt(words), things.rows * math.sqrt(1.0 - words)],
                  format="csr")
    both.sort_indices()
    query = _row_top(both, top_terms)
    index = _row_top(query.T.tocsr(), posting).T.tocsr()   # each term's postings, capped
    index_t = index.T.tocsr()
    ids = [d.id for d in docs]
    out: dict[str, tuple[Neighbour, ...]] = {}
    for start in range(0, n, block):
        stop = min(n, start + block)
        first, cand = _best((query[start:stop] @ index_t).tocsr(), candidates, start)
        exact = both[first].multiply(both[cand]).sum(axis=1).A1
        kept_i, kept_j, score = _kept(first, cand, exact, k)
        shared = text.rows[kept_i].multiply(text.rows[kept_j]).tocsr()
        shared_things = things.rows[kept_i].multiply(things.rows[kept_j]).tocsr()
        per: dict[int, list[Neighbour]] = {i: [] for i in range(start, stop)}
        for r, (i, j, sc) in enumerate(zip(kept_i.tolist(), kept_j.tolist(), score.tolist(),
                                           strict=True)):
            per[i].append(Neighbour(ids[j], sc, _things_of(shared_things, r, things),
                                    _words_of(shared, r, text, written)))
        for i in range(start, stop):
            out[ids[i]] = tuple(per[i])
    return out


def _row_top(m: csr_matrix, cap: int) -> csr_matrix:
    """Each row's ``cap`` largest entries (ties: the first columns)."""
    from scipy.sparse import csr_matrix

    m = m.tocsr()
    m.sort_indices()
    row = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
    order = np.lexsort((m.indices, -m.data, row))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - m.indptr[row[order]]
    keep = rank < cap
    counts = np.bincount(row[keep], minlength=m.shape[0])
    indptr = np.zeros(m.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return csr_matrix((m.data[keep], m.indices[keep], indptr), shape=m.shape)


def _best(approx: csr_matrix, cap: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """The (paper, candidate) pairs of a block (its first paper: ``start``): each
    row's columns with one of its ``cap`` best approximate scores (ties all kept),
    not the paper itself."""
    firsts: list[np.ndarray] = []
    cands: list[np.ndarray] = []
    indptr, indices, data = approx.indptr, approx.indices, approx.data
    for r in range(approx.shape[0]):
        col = indices[indptr[r]:indptr[r + 1]]
        val = data[indptr[r]:indptr[r + 1]]
        other = col != start + r
        col, val = col[other], val[other]
        if len(col) > cap:
            cut = np.partition(val, len(val) - cap)[len(val) - cap]
            col = col[val >= cut]
        cands.append(np.sort(col).astype(np.int64))
        firsts.append(np.full(len(col), start + r, dtype=np.int64))
    return np.concatenate(firsts), np.concatenate(cands)


def _kept(first: np.ndarray, cand: np.ndarray, exact: np.ndarray, k: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each paper's ``k`` best candidates by exact score (rounded to four decimals,
    above zero), best first, ties by paper id order."""
    rounded = np.round(exact, 4)
    pos = rounded > 0
    first, cand, rounded = first[pos], cand[pos], rounded[pos]
    order = np.lexsort((cand, -rounded, first))
    first, cand, rounded = first[order], cand[order], rounded[order]
    starts = np.searchsorted(first, first, side="left")
    keep = (np.arange(len(first)) - starts) < k
    return first[keep], cand[keep], rounded[keep]


def _things_of(shared: csr_matrix, r: int, things: _Matrix) -> tuple[str, ...]:
    """The things both papers of pair ``r`` mention, rarest first (ties by key)."""
    cols = shared.indices[shared.indptr[r]:shared.indptr[r + 1]]
    ranked = sorted((-float(things.idf[c]), things.names[c]) for c in cols.tolist())
    return tuple(name for _, name in ranked[:SHOWN_THINGS])


def _words_of(shared: csr_matrix, r: int, text: _Matrix, written: dict[str, str]
              ) -> tuple[str, ...]:
    """The words both abstracts of pair ``r`` use (as written), by their part of the
    product (ties by term); a word already inside a shown pair is not named again."""
    lo, hi = shared.indptr[r], shared.indptr[r + 1]
    common, weight = shared.indices[lo:hi], shared.data[lo:hi]
    order = np.lexsort((common, -np.round(weight, 9)))
    names = text.names
    picked: list[str] = []
    for o in order.tolist():
        term = names[int(common[o])]
        if any(term in p.split() for p in picked):
            continue                        # inside a pair already shown
        if " " in term:                     # a pair stands for the words it holds
            parts = term.split()
            picked = [p for p in picked if p not in parts]
        if len(picked) == SHOWN_WORDS:
            break
        picked.append(term)
    return tuple(written.get(p, p) for p in picked)
