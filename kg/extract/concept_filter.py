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
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Mapping, Sequence

import numpy as np

from kg.extract.candidates import Candidates

FEATURES = (
    "words", "chars", "count", "whole", "edge", "inner", "first_pos", "joined", "caps_token",
    "capitalised", "digit", "bg_df", "bg_last", "bg_first", "idf_mean", "idf_min", "idf_max",
    "bg_ratio", "kp", "kp_seen", "kp_last", "kp_last_seen", "kp_first", "kp_first_seen",
    "in_concept", "in_entity", "has_concept", "acronym_long", "acronym_short", "ing", "plural",
    "doc_tokens", "same_head")


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


@dataclass(frozen=True, eq=False)
class Model:
    """A tree ensemble as arrays, ``(trees, nodes)`` each: ``feature``,
    ``threshold`` (go left when ``x <= threshold``), ``left``, ``right`` (a
    leaf points at itself) and ``value`` (a leaf's raw score); ``baseline``
    is added to the sum; ``depth`` the deepest path; ``threshold`` on the
    probability accepts."""

    feature: np.ndarray
    split: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    baseline: float
    depth: int
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


def _log(n: float) -> float:
    return math.log1p(n)


def features(c: Candidates, rows: Sequence[int], ctx: Context, t: Tables,
             own: int = 0) -> np.ndarray:
    """The feature rows (``len(rows)`` by ``len(FEATURES)``) of candidates
    ``rows`` of ``c``. ``own`` is subtracted from background counts (1 when
    the abstract is itself in the background corpus, in training)."""
    words, tkeys, bg, kp = ctx.words, ctx.tkeys, t.bg, t.kp
    n_tok = max(c.n_tokens, 1)
    lg_n = math.log(t.n_bg + 1)
    heads = Counter(c.last)
    ic, ie = ctx.in_concept, ctx.in_entity
    # per-token inverse document frequency, looked up once per distinct word
    idf: dict[str, float] = {}
    out = np.zeros((len(rows), len(FEATURES)), dtype=np.float64)
    for r, j in enumerate(rows):
        key = c.keys[j]
        spans = c.spans[j]
        s, e = spans[0]
        toks = [i for i in range(s, e) if tkeys[i]]
        ws = [words[i] for i in toks]
        idfs = []
        for i in toks:
            k = tkeys[i]
            v = idf.get(k)
            if v is None:
                v = idf[k] = lg_n - math.log(max(bg.get(k, 0) - own, 0) + 1)
            idfs.append(v)
        last, first = c.last[j], tkeys[s]
        df = max(bg.get(key, 0) - own, 0)
        df_last = max(bg.get(last, 0) - own, 0)
        g, seen = kp.get(key, (0, 0))
        gl, sl = t.kp_last.get(last, (0, 0))
        gf, sf = t.kp_first.get(first, (0, 0))
        n_in_c = sum(1 for a, b in spans if ic[a:b].all())
        n_in_e = sum(1 for a, b in spans if ie[a:b].any())
        out[r] = (
            c.words[j], len(key), len(spans), c.whole[j], c.edge[j], len(spans) - c.edge[j],
            s / n_tok, e - s > len(toks), any(len(w) > 1 and w.isupper() for w in ws),
            sum(1 for i, w in zip(toks, ws) if w[:1].isupper() and i not in ctx.sent_starts),
            any(ch.isdigit() for ch in key), _log(df), _log(df_last),
            _log(max(bg.get(first, 0) - own, 0)), sum(idfs) / len(idfs), min(idfs), max(idfs),
            _log(df) - _log(df_last), (g + 0.1) / (seen + 1), _log(seen), (gl + 0.1) / (sl + 2),
            _log(sl), (gf + 0.1) / (sf + 2), _log(sf), n_in_c / len(spans), n_in_e / len(spans),
            bool(ic[s:e].any()) and n_in_c == 0, key in ctx.longs, key in ctx.shorts,
            ws[-1].endswith("ing"), ws[-1].endswith("s") and not ws[-1].endswith("ss"),
            _log(n_tok), heads[last])
    return out


def scores(X: np.ndarray, m: Model) -> np.ndarray:
    """The probability of each row of ``X`` (all trees at once, level by level)."""
    if not len(X):
        return np.zeros(0)
    n_trees = m.feature.shape[0]
    node = np.zeros((X.shape[0], n_trees), dtype=np.int64)
    tree = np.arange(n_trees)[None, :]
    rows = np.arange(X.shape[0])[:, None]
    for _ in range(m.depth):
        f = m.feature[tree, node]
        go_left = X[rows, f] <= m.split[tree, node]
        node = np.where(go_left, m.left[tree, node], m.right[tree, node])
    raw = m.value[tree, node].sum(axis=1) + m.baseline
    return 1.0 / (1.0 + np.exp(-raw))


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

def data_dir():
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
    return Model(a["feature"].astype(np.int64), a["split"].astype(np.float64),
                 a["left"].astype(np.int64), a["right"].astype(np.int64),
                 a["value"].astype(np.float64), float(a["baseline"]), int(a["depth"]),
                 float(a["threshold"]))


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
            tkeys: Sequence[str], mentions: Sequence, pairs: Sequence) -> Context:
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
