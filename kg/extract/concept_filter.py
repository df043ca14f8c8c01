"""The learned filter that decides which candidate phrases of an abstract are
concepts (issue 29).

Candidates come from :mod:`kg.extract.candidates`; each gets a row of
:data:`FEATURES` (numpy, one array per abstract), and a gradient-boosted tree
ensemble trained by ``bench/train_concept_filter.py`` scores them in numpy
(no scikit-learn at run time). The model and its tables ship in
``kg/data/concept_filter/`` (``README.md`` there says what they learned from):

- ``model.npz``: the trees as arrays, the threshold and the feature names;
- ``background.tsv.gz``: document frequencies of candidate keys in a
  background corpus of listings (derived counts only);
- ``annotated.tsv.gz``: per candidate key, word and head word, how often the
  project's annotated abstracts wrote it and how often they listed it as a
  concept ("keyphraseness").

:func:`accept` is the whole decision for one abstract: candidates not already
a mention, their features, their scores, and the accepted phrases' first free
occurrences, best first.
"""
from __future__ import annotations

import gzip
import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

import numpy as np

from kg.extract.candidates import Candidates, ChunkTables

if TYPE_CHECKING:
    from kg.extract.acronyms import AcronymPair
    from kg.models import Extraction, Mention

FEATURES = (
    "words", "chars", "count", "whole", "edge", "inner", "first_pos", "joined", "caps_token",
    "capitalised", "digit", "bg_df", "bg_last", "bg_first", "idf_mean", "bg_ratio", "kp",
    "kp_seen", "kp_last", "kp_last_seen", "kp_first", "kp_first_seen", "in_concept", "in_entity",
    "has_concept", "acronym_long", "acronym_short", "ing", "plural", "doc_tokens", "same_head")


@dataclass(frozen=True, eq=False)
class Tables:
    """What features look up: background document frequencies (``bg`` over
    ``n_bg`` documents) and annotated counts (``kp``: key -> (listed, seen);
    ``kp_last``, ``kp_first``: the same for a candidate's last and first word)."""

    bg: Mapping[str, int]
    n_bg: int
    kp: Mapping[str, tuple[int, int]]
    kp_last: Mapping[str, tuple[int, int]]
    kp_first: Mapping[str, tuple[int, int]]
    idf: dict[str, float] = field(default_factory=dict)   # filled as words are seen


@dataclass(frozen=True, eq=False)
class Model:
    """A boosted ensemble of one-split trees, summed per feature into a step
    function: feature ``f`` adds ``value[f, i]`` where ``i`` is the number of
    ``cuts[f]`` below ``x`` (a tree sends ``x <= cut`` left); ``cuts`` rows are
    sorted and padded with +inf. ``baseline`` is added to the sum; the
    logistic of the sum is the probability, ``threshold`` on it accepts."""

    cuts: np.ndarray
    value: np.ndarray
    baseline: float
    threshold: float


@dataclass(frozen=True)
class Accepted:
    """An accepted phrase's occurrence: token range, key and probability."""

    start: int
    end: int
    key: str
    score: float


@dataclass(frozen=True, eq=False)
class Context:
    """What a component knows of one abstract besides its candidates."""

    words: Sequence[str]
    tkeys: Sequence[str]                 # token keys (candidates.token_keys)
    sent_starts: frozenset[int] | set[int]
    in_concept: np.ndarray               # per token: inside a concept mention
    in_entity: np.ndarray                # per token: inside an entity mention
    taken: frozenset[str]                # folded keys of the abstract's mentions
    longs: frozenset[str]                # folded long forms of defined acronyms
    shorts: frozenset[str]               # folded short forms


def _prefix(flags: Sequence[float] | np.ndarray) -> np.ndarray:
    """Prefix sums of a per-token sequence (``out[e] - out[s]``: the sum over ``s:e``)."""
    out = np.zeros(len(flags) + 1)
    np.cumsum(flags, out=out[1:])
    return out


def features(c: Candidates, rows: Sequence[int], ctx: Context, t: Tables,
             own: int = 0) -> np.ndarray:
    """The feature rows (``len(rows)`` by ``len(FEATURES)``) of candidates
    ``rows`` of ``c``, computed column by column. ``own`` is subtracted from
    background counts (1 when the abstract is itself in the background corpus,
    in training). A candidate's token features are those of its first occurrence."""
    words, tkeys, bg = ctx.words, ctx.tkeys, t.bg
    n_tok = max(c.n_tokens, 1)
    lg_n = math.log(t.n_bg + 1)
    keys = [c.keys[j] for j in rows]
    last = [c.last[j] for j in rows]
    first_span = [c.spans[j][0] for j in rows]
    s = np.fromiter((a for a, _ in first_span), np.int64, len(rows))
    e = np.fromiter((b for _, b in first_span), np.int64, len(rows))
    first = [tkeys[a] for a, _ in first_span]
    n_words = np.fromiter((c.words[j] for j in rows), np.float64, len(rows))
    count = np.fromiter((len(c.spans[j]) for j in rows), np.float64, len(rows))
    edge = np.fromiter((c.edge[j] for j in rows), np.float64, len(rows))

    def df(ks: list[str]) -> np.ndarray:
        return np.maximum(np.fromiter((bg.get(k, 0) for k in ks), np.float64, len(ks)) - own, 0)

    def kp(table: Mapping[str, tuple[int, int]], ks: list[str],
           prior: float) -> tuple[np.ndarray, np.ndarray]:
        got = [table.get(k, (0, 0)) for k in ks]
        listed = np.fromiter((g for g, _ in got), np.float64, len(ks))
        seen = np.fromiter((n for _, n in got), np.float64, len(ks))
        return (listed + 0.1) / (seen + prior), np.log1p(seen)

    cache = t.idf if not own else {}
    idfs = []
    for k in tkeys:
        v = cache.get(k)
        if v is None:
            v = cache[k] = lg_n - math.log(max(bg.get(k, 0) - own, 0) + 1) if k else 0.0
        idfs.append(v)
    idf = _prefix(idfs)
    caps = _prefix([len(w) > 1 and w.isupper() for w in words])
    starts = ctx.sent_starts
    capd = _prefix([w[:1].isupper() and i not in starts for i, w in enumerate(words)])
    digit = _prefix([not w.isalpha() and any(ch.isdigit() for ch in w) for w in words])
    ic = _prefix(ctx.in_concept)
    ie = _prefix(ctx.in_entity)
    lw = [words[b - 1] for b in e.tolist()]
    heads: dict[str, int] = {}
    for k in c.last:
        heads[k] = heads.get(k, 0) + 1
    d_phrase, d_last = df(keys), df(last)
    kp_p, kp_ps = kp(t.kp, keys, 1.0)
    kp_l, kp_ls = kp(t.kp_last, last, 2.0)
    kp_f, kp_fs = kp(t.kp_first, first, 2.0)
    length = (e - s).astype(np.float64)
    n_ic = ic[e] - ic[s]
    cols = (
        n_words, np.fromiter(map(len, keys), np.float64, len(rows)), count,
        np.fromiter((c.whole[j] for j in rows), np.float64, len(rows)), edge, count - edge,
        s / n_tok, length > n_words, caps[e] > caps[s], capd[e] - capd[s], digit[e] > digit[s],
        np.log1p(d_phrase), np.log1p(d_last), np.log1p(df(first)),
        (idf[e] - idf[s]) / n_words, np.log1p(d_phrase) - np.log1p(d_last),
        kp_p, kp_ps, kp_l, kp_ls, kp_f, kp_fs, n_ic == length, ie[e] > ie[s],
        (n_ic > 0) & (n_ic < length),
        np.fromiter((k in ctx.longs for k in keys), np.float64, len(rows)),
        np.fromiter((k in ctx.shorts for k in keys), np.float64, len(rows)),
        np.fromiter((w.endswith("ing") for w in lw), np.float64, len(rows)),
        np.fromiter((w.endswith("s") and not w.endswith("ss") for w in lw), np.float64,
                    len(rows)),
        np.full(len(rows), math.log1p(n_tok)),
        np.fromiter((heads[k] for k in last), np.float64, len(rows)))
    return np.column_stack(cols).astype(np.float64)


def scores(X: np.ndarray, m: Model) -> np.ndarray:
    """The probability of each row of ``X``: one binary search per feature."""
    raw = np.full(X.shape[0], m.baseline)
    for f in range(m.cuts.shape[0]):
        raw += m.value[f, np.searchsorted(m.cuts[f], X[:, f], side="left")]
    out: np.ndarray = 1.0 / (1.0 + np.exp(-raw))
    return out


def token_marks(offsets: Sequence[int], spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """Per token, whether it lies in one of the character ``spans``."""
    out = np.zeros(len(offsets), dtype=bool)
    for start, end in spans:
        a = bisect_right(offsets, start - 1)
        b = bisect_right(offsets, end - 1)
        out[a:b] = True
    return out


def open_rows(c: Candidates, ctx: Context) -> list[int]:
    """The candidates the filter decides on: those no mention already names."""
    return [j for j, k in enumerate(c.keys) if k not in ctx.taken]


def choose(c: Candidates, rows: Sequence[int], p: np.ndarray, threshold: float,
           blocked: np.ndarray) -> list[Accepted]:
    """The accepted candidates (probability >= ``threshold``), best first, each at
    its first occurrence that overlaps no blocked token (a mention's) nor an
    occurrence accepted before it; in text order."""
    order = sorted((i for i in range(len(rows)) if p[i] >= threshold),
                   key=lambda i: (-p[i], c.keys[rows[i]]))
    used = blocked.copy()
    out = []
    for i in order:
        j = rows[i]
        for s, e in c.spans[j]:
            if not used[s:e].any():
                used[s:e] = True
                out.append(Accepted(s, e, c.keys[j], float(p[i])))
                break
    return sorted(out, key=lambda a: (a.start, a.end))


# ------------------------------------------------------------------ shipped files

def data_dir() -> Traversable:
    return files("kg") / "data" / "concept_filter"


def read_counts(text: str) -> dict[str, tuple[int, ...]]:
    """A counts table: ``key<TAB>n[<TAB>n...]`` lines (``#`` comment lines skipped)."""
    out: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            k, *ns = line.split("\t")
            out[k] = tuple(map(int, ns))
    return out


def write_counts(rows: Mapping[str, Sequence[int]], header: str) -> bytes:
    """The gzipped text of a counts table, keys sorted (byte-identical per content)."""
    body = "".join(f"{k}\t{chr(9).join(map(str, v))}\n" for k, v in sorted(rows.items()))
    return gzip.compress((header + body).encode("utf-8"), mtime=0)


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The shipped tables, once."""
    d = data_dir()
    bg = read_counts(gzip.decompress((d / "background.tsv.gz").read_bytes()).decode("utf-8"))
    ann = read_counts(gzip.decompress((d / "annotated.tsv.gz").read_bytes()).decode("utf-8"))
    n_bg = bg.pop("", (0,))[0]
    kp: dict[str, dict[str, tuple[int, int]]] = {"p": {}, "l": {}, "f": {}}
    for k, v in ann.items():
        kind, key = k.split(":", 1)
        kp[kind][key] = (v[0], v[1])
    return Tables({k: v[0] for k, v in bg.items()}, n_bg, kp["p"], kp["l"], kp["f"])


def model_from_arrays(a: Mapping[str, np.ndarray]) -> Model:
    return Model(a["cuts"].astype(np.float64), a["value"].astype(np.float64),
                 float(a["baseline"]), float(a["threshold"]))


@lru_cache(maxsize=1)
def load_model() -> Model:
    """The shipped model, once."""
    import io

    with np.load(io.BytesIO((data_dir() / "model.npz").read_bytes())) as a:
        names = tuple(str(x) for x in a["features"])
        if names != FEATURES:
            raise ValueError("kg/data/concept_filter/model.npz was trained on other features: "
                             "rebuild it with bench/train_concept_filter.py")
        return model_from_arrays(a)


# ------------------------------------------------------------------ one abstract

def fold(text: str) -> str:
    """A phrase's key as candidates are keyed (case, separators, a plural s)."""
    from kg.identity import entity_key, singular_key

    return singular_key(entity_key(text))


def context(words: Sequence[str], offsets: Sequence[int], sent_starts: frozenset[int] | set[int],
            tkeys: Sequence[str], mentions: Sequence[Mention],
            pairs: Sequence[AcronymPair]) -> Context:
    """The :class:`Context` of an abstract from its tokens, its mentions
    (:class:`kg.models.Mention`) and its acronym pairs."""
    return Context(
        words, tkeys, sent_starts,
        token_marks(offsets, [(m.start, m.end) for m in mentions if m.layer == "concept"]),
        token_marks(offsets, [(m.start, m.end) for m in mentions if m.layer != "concept"]),
        frozenset(fold(t) for m in mentions for t in (m.text, m.canonical)),
        frozenset(fold(p.long) for p in pairs), frozenset(fold(p.short) for p in pairs))


def accept(c: Candidates, ctx: Context, tables: Tables, model: Model) -> list[Accepted]:
    """The accepted phrases of one abstract (see :func:`choose`)."""
    rows = open_rows(c, ctx)
    if not rows:
        return []
    p = scores(features(c, rows, ctx, tables), model)
    return choose(c, rows, p, model.threshold, ctx.in_concept | ctx.in_entity)


def keyword_mentions(text: str, words: Sequence[str], offsets: Sequence[int],
                     sent_starts: frozenset[int] | set[int], mentions: Sequence[Mention],
                     pairs: Sequence[AcronymPair], tables: ChunkTables,
                     filt: tuple[Tables, Model]) -> list[Mention]:
    """The abstract's mentions plus a ``keyword`` mention (key: the phrase's
    :func:`kg.identity.entity_key`) at each accepted phrase, sorted by place."""
    from kg.extract.candidates import chunk_candidates, token_keys
    from kg.identity import entity_key
    from kg.models import Mention

    tkeys = token_keys(list(words))
    c = chunk_candidates(list(words), tables, tkeys)
    ctx = context(words, offsets, sent_starts, tkeys, mentions, pairs)
    found = accept(c, ctx, *filt)
    if not found:
        return list(mentions)
    added = []
    for a in found:
        start, end = offsets[a.start], offsets[a.end - 1] + len(words[a.end - 1])
        phrase = text[start:end]
        added.append(Mention(text=phrase, canonical=phrase, type="keyword", start=start, end=end,
                             key=entity_key(phrase), layer="keyword"))
    return sorted([*mentions, *added], key=lambda m: (m.start, m.end, m.layer))


def without_keywords(extraction: Extraction) -> Extraction:
    """An :class:`kg.models.Extraction` without its keyword mentions (what the
    graph stages read until keywords have their own place in the graph)."""
    from dataclasses import replace

    if not any(m.layer == "keyword" for m in extraction.mentions):
        return extraction
    return replace(extraction, mentions=tuple(m for m in extraction.mentions
                                              if m.layer != "keyword"))
