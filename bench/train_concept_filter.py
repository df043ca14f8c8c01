"""Train the concept filter of :mod:`kg.extract.concept_filter` and rebuild
``kg/data/concept_filter/`` (model and tables), reproducibly.

    .venv/bin/pip install -e '.[train]'      # scikit-learn, for this script only
    .venv/bin/python bench/train_concept_filter.py [--no-write] [--corpora DIR]

Data: the four tuning sets of issue 29 (``tests/data/devset/concepts/``
iclr23_big, icml24_big, cvpr23_big, icml23_big; never the held-out ones) and,
for background document frequencies, the listings of the same four venues in
``../shared/corpora/`` (NeurIPS 2020, the held-out venue, is left out).

Prints leave-one-venue-out (LOVO) figures: each venue scored by a model
trained on the other three, with its threshold chosen on those three by an
inner leave-one-venue-out (the lowest probability at which kg's mentions plus
the accepted phrases keep precision >= 0.90), and background counts from the
other three venues' listings only. Then trains on all four, picks the
threshold on the pooled LOVO predictions, and writes the shipped files.
Keyphraseness (listed / seen in the annotated abstracts) is cross-fitted: a
training abstract's own row never sees its own labels.
"""
from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from devset_eval import HELD_OUT_CONCEPTS, _found, near  # noqa: E402

from kg.extract import concept_filter as cf  # noqa: E402
from kg.extract.candidates import Candidates, chunk_candidates, load_tables, token_keys  # noqa: E402

SETS = ("iclr23_big", "icml24_big", "cvpr23_big", "icml23_big")
LISTINGS = {"iclr23_big": "iclr_2023_all.txt", "icml24_big": "icml_2024_all.txt",
            "cvpr23_big": "cvpr_2023_all.txt", "icml23_big": "icml_2023_all.txt"}
DEVSET = ROOT / "tests" / "data" / "devset" / "concepts"
OUT = ROOT / "kg" / "data" / "concept_filter"
PRECISION = 0.90
FOLDS = 5
SEED = 0
PARAMS = dict(max_iter=800, learning_rate=0.1, max_depth=1, min_samples_leaf=40,
              l2_regularization=1.0, max_bins=64)


# ------------------------------------------------------------------ data


def _nlp():
    """kg's pipeline; the shipped filter is not loaded (this script rebuilds it)."""
    from kg.extract import _nlp as nlp

    cf.load_model = cf.load_tables = lambda: None   # type: ignore[assignment]
    return nlp(None)


def background(corpora: Path) -> dict[str, tuple[Counter, int]]:
    """Per venue: document frequency of every candidate key in its listing, and its size."""
    from kg.extract import _clean, _head
    from kg.extract.components import _words
    from kg.parse import read_corpus

    nlp = _nlp()
    tables = load_tables()
    out = {}
    for s in SETS:
        corpus = read_corpus([corpora / LISTINGS[s]])
        df: Counter = Counter()
        for p in corpus.papers:
            words = _words(nlp.make_doc(_head(_clean(p.abstract))))[0]
            df.update(set(chunk_candidates(words, tables).keys))
        out[s] = (df, len(corpus.papers))
    return out


class Doc:
    """One annotated abstract: its candidates, context and gold keys."""

    def __init__(self, venue: str, row: dict, words, offsets, starts, text, mentions, pairs,
                 aliases):
        self.venue, self.row, self.text = venue, row, text
        self.words, self.offsets = list(words), list(offsets)
        self.mentions, self.aliases = list(mentions), list(aliases)
        tk = token_keys(self.words)
        self.cands: Candidates = chunk_candidates(self.words, load_tables(), tk)
        self.ctx = cf.context(self.words, self.offsets, frozenset(starts), tk, self.mentions,
                              pairs)
        self.rows = cf.open_rows(self.cands, self.ctx)
        self.gold = {cf.fold(x["text"]) for x in row["concepts"] + row["named"]}
        self.y = np.array([self.cands.keys[j] in self.gold for j in self.rows], dtype=np.int8)

    def phrase(self, a: cf.Accepted) -> str:
        return self.text[self.offsets[a.start]:self.offsets[a.end - 1] + len(self.words[a.end - 1])]


def load_docs() -> list[Doc]:
    from kg.extract import _clean, _docs
    from kg.extract.components import _words

    nlp = _nlp()
    nlp.get_pipe("kg_concepts").keywords = None   # kg's mentions without the filter's
    out = []
    for s in SETS:
        assert not s.startswith(HELD_OUT_CONCEPTS)
        rows = [json.loads(line) for line in (DEVSET / f"{s}.jsonl").read_text().splitlines()]
        raws = [r["abstract"] for r in rows]
        texts = [_clean(a) for a in raws]
        for r, doc in zip(rows, nlp.pipe(_docs(nlp, texts, raws), batch_size=256), strict=True):
            words, offsets, starts, text = _words(doc)
            ud = doc.user_data
            out.append(Doc(s, r, words, offsets, starts, text, ud.get("kg_mentions") or (),
                           ud.get("kg_acronyms") or (), dict.fromkeys(ud.get("kg_aliases") or ())))
    return out


# ------------------------------------------------------------------ tables and features


def _counts(docs: list[Doc]) -> tuple[Counter, Counter]:
    """Annotated counts by ``p:`` candidate key, ``l:`` last word and ``f:`` first
    word: abstracts listing it (as a concept or name), abstracts it is a candidate in."""
    listed: Counter = Counter()
    seen: Counter = Counter()
    for d in docs:
        c = d.cands
        for j, k in enumerate(c.keys):
            names = (f"p:{k}", f"l:{c.last[j]}", f"f:{d.ctx.tkeys[c.spans[j][0][0]]}")
            seen.update(names)
            if k in d.gold:
                listed.update(names)
    return listed, seen


def _kp(listed: Counter, seen: Counter) -> dict[str, dict[str, tuple[int, int]]]:
    out: dict[str, dict[str, tuple[int, int]]] = {"p": {}, "l": {}, "f": {}}
    for name, n in seen.items():
        if n > 0:
            kind, key = name.split(":", 1)
            out[kind][key] = (listed.get(name, 0), n)
    return out


def _tables(bg_df, n_bg: int, listed: Counter, seen: Counter) -> cf.Tables:
    kp = _kp(listed, seen)
    return cf.Tables(bg_df, n_bg, kp["p"], kp["l"], kp["f"])


def _background(bg, venues) -> tuple[Counter, int]:
    df: Counter = Counter()
    for v in sorted(venues):
        df.update(bg[v][0])
    return df, sum(bg[v][1] for v in venues)


def tables_for(docs: list[Doc], bg, venues) -> cf.Tables:
    return _tables(*_background(bg, venues), *_counts(docs))


def matrix(docs: list[Doc], bg, venues) -> np.ndarray:
    """Features of training ``docs``: background counts of ``venues`` (a doc's
    own count subtracted where its venue is among them) and annotated counts
    cross-fitted (from the other folds of ``docs``)."""
    ids = sorted(d.row["id"] for d in docs)
    fold_of = {pid: i % FOLDS for i, pid in enumerate(ids)}
    df, n = _background(bg, venues)
    listed, seen = _counts(docs)
    per_fold = []
    for f in range(FOLDS):
        fl, fs = _counts([d for d in docs if fold_of[d.row["id"]] == f])
        per_fold.append(_tables(df, n, listed - fl, seen - fs))
    return np.vstack([cf.features(d.cands, d.rows, d.ctx, per_fold[fold_of[d.row["id"]]],
                                  own=1 if d.venue in venues else 0) for d in docs])


def test_matrix(docs: list[Doc], t: cf.Tables) -> list[np.ndarray]:
    return [cf.features(d.cands, d.rows, d.ctx, t) for d in docs]


# ------------------------------------------------------------------ model


def fit(X: np.ndarray, y: np.ndarray):
    from sklearn.ensemble import HistGradientBoostingClassifier

    m = HistGradientBoostingClassifier(random_state=SEED, early_stopping=False, **PARAMS)
    return m.fit(X, y)


def export(m, threshold: float) -> dict[str, np.ndarray]:
    """A fitted HistGradientBoostingClassifier of one-split trees as the step
    functions of :class:`cf.Model`."""
    splits: dict[int, list[tuple[float, float, float]]] = {}
    for (tree,) in m._predictors:
        nodes = tree.nodes
        root = nodes[0]
        if root["is_leaf"]:
            continue
        assert nodes[root["left"]]["is_leaf"] and nodes[root["right"]]["is_leaf"]
        splits.setdefault(int(root["feature_idx"]), []).append(
            (float(root["num_threshold"]), float(nodes[root["left"]]["value"]),
             float(nodes[root["right"]]["value"])))
    n_f = len(cf.FEATURES)
    cut_sets = {f: sorted({t for t, _, _ in sp}) for f, sp in splits.items()}
    width = max([len(c) for c in cut_sets.values()] + [1])
    cuts = np.full((n_f, width), np.inf)
    value = np.zeros((n_f, width + 1))
    for f, sp in splits.items():
        cs = cut_sets[f]
        cuts[f, :len(cs)] = cs
        for t, left, right in sp:
            k = cs.index(t)
            value[f, :k + 1] += left        # x <= t: bins 0..k
            value[f, k + 1:] += right
    return {"cuts": cuts, "value": value, "baseline": np.float64(m._baseline_prediction[0][0]),
            "threshold": np.float64(threshold), "features": np.array(cf.FEATURES)}


def predict(model: cf.Model, Xs: list[np.ndarray]) -> list[np.ndarray]:
    return [cf.scores(X, model) for X in Xs]


# ------------------------------------------------------------------ scoring


def score(docs: list[Doc], probs: list[np.ndarray], threshold: float) -> dict[str, float]:
    """devset_eval's concept-set measures with kg's mentions plus the accepted phrases."""
    tp = {"named": 0, "concepts": 0}
    n = {"named": 0, "concepts": 0}
    ptp = pfp = 0
    for d, p in zip(docs, probs, strict=True):
        acc = cf.choose(d.cands, d.rows, p, threshold, d.ctx.in_concept | d.ctx.in_entity)
        texts = [m.text for m in d.mentions] + [d.phrase(a) for a in acc]
        got = {cf.fold(t) for m in d.mentions for t in (m.text, m.canonical)}
        got |= {cf.fold(d.phrase(a)) for a in acc}
        r = d.row
        pairs = [tuple(p) for p in r["aliases"]] + [(a.long, a.short) for a in d.aliases]
        for measure in ("named", "concepts"):
            for item in dict.fromkeys(x["text"] for x in r[measure]):
                tp[measure] += _found(item, got, pairs)
                n[measure] += 1
        listed = [x["text"] for x in r["named"] + r["concepts"]] + list(r["proposed"]) + [
            h for p in r["aliases"] for h in p]
        distinct = {cf.fold(t): t for t in texts}
        wrong = sum(1 for t in distinct.values() if not near(t, listed))
        ptp += len(distinct) - wrong
        pfp += wrong
    return {"named": tp["named"] / max(n["named"], 1),
            "concepts": tp["concepts"] / max(n["concepts"], 1),
            "precision": ptp / max(ptp + pfp, 1), "n": len(docs)}


GRID = np.round(np.arange(0.20, 0.96, 0.02), 2)


def pick_threshold(docs: list[Doc], probs: list[np.ndarray]) -> float:
    """The lowest threshold at which precision >= PRECISION (the highest if none)."""
    for t in GRID:
        if score(docs, probs, float(t))["precision"] >= PRECISION:
            return float(t)
    return float(GRID[-1])


def lovo(docs: list[Doc], bg, held: str, inner: bool = True):
    """Train on the venues other than ``held``, score ``held``: (threshold, probs of held)."""
    train_v = [v for v in SETS if v != held]
    train = [d for d in docs if d.venue in train_v]
    test = [d for d in docs if d.venue == held]
    X = matrix(train, bg, train_v)
    y = np.concatenate([d.y for d in train])
    m = fit(X, y)
    model = cf.model_from_arrays(export(m, 0.5))
    probs = predict(model, test_matrix(test, tables_for(train, bg, train_v)))
    threshold = None
    if inner:
        oof_docs, oof_probs = [], []
        for w in train_v:
            _, p = lovo([d for d in docs if d.venue != held], bg, w, inner=False)
            oof_docs += [d for d in docs if d.venue == w]
            oof_probs += p
        threshold = pick_threshold(oof_docs, oof_probs)
    return threshold, probs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--no-write", action="store_true", help="print the figures only")
    ap.add_argument("--cache", type=Path, help="pickle the background counts here (reused)")
    args = ap.parse_args()
    if args.cache and args.cache.exists():
        bg = pickle.loads(args.cache.read_bytes())
    else:
        bg = background(args.corpora)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(bg))
    docs = load_docs()
    print(f"{len(docs)} abstracts, {sum(len(d.cands.keys) for d in docs) / len(docs):.1f} "
          f"candidates an abstract, {sum(len(d.rows) for d in docs)} open rows, "
          f"{sum(int(d.y.sum()) for d in docs)} positive")
    all_docs, all_probs = [], []
    print("venue        threshold  concept_R  named_R  precision  (LOVO)")
    for v in SETS:
        t, probs = lovo(docs, bg, v)
        test = [d for d in docs if d.venue == v]
        s = score(test, probs, t)
        base = score(test, [np.zeros(len(d.rows)) for d in test], 1.0)
        print(f"{v:12} {t:9.2f}  {s['concepts']:9.3f}  {s['named']:7.3f}  {s['precision']:9.3f}"
              f"  (kg alone: {base['concepts']:.3f} / {base['named']:.3f} / "
              f"{base['precision']:.3f})")
        all_docs += test
        all_probs += probs
    t_final = pick_threshold(all_docs, all_probs)
    pooled = score(all_docs, all_probs, t_final)
    print(f"pooled LOVO at the pooled threshold {t_final:.2f}: concept R {pooled['concepts']:.3f}, "
          f"named R {pooled['named']:.3f}, precision {pooled['precision']:.3f}")
    if args.no_write:
        return
    X = matrix(docs, bg, SETS)
    y = np.concatenate([d.y for d in docs])
    arrays = export(fit(X, y), t_final)
    write(arrays, bg, docs)


def write(arrays: dict[str, np.ndarray], bg, docs: list[Doc]) -> None:
    import io

    OUT.mkdir(exist_ok=True)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    (OUT / "model.npz").write_bytes(_zip_fixed(buf.getvalue()))
    df, n = _background(bg, SETS)
    rows = {k: (c,) for k, c in df.items() if c >= 2}
    rows[""] = (n,)
    (OUT / "background.tsv.gz").write_bytes(cf.write_counts(
        rows, "# candidate key<TAB>documents of the background listings it is a candidate in "
        "(>= 2); the empty key: the number of documents\n"))
    listed, seen = _counts(docs)
    ann = {name: (listed.get(name, 0), n) for name, n in seen.items()
           if not name.startswith("p:") or n >= 2 or listed.get(name, 0) >= 1}
    (OUT / "annotated.tsv.gz").write_bytes(cf.write_counts(
        ann, "# kind:key<TAB>abstracts listing it as a concept or name<TAB>abstracts it is a "
        "candidate in; kind p = phrase, l = last word, f = first word\n"))
    for f in sorted(OUT.iterdir()):
        print(f"{f.relative_to(ROOT)}: {f.stat().st_size:,} bytes")


def _zip_fixed(data: bytes) -> bytes:
    """An npz with its members' timestamps fixed (byte-identical rebuilds)."""
    import io
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(src.namelist()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, src.read(name))
    return out.getvalue()


if __name__ == "__main__":
    main()
