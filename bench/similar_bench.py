"""Similar papers: the build's ranking against a plain TF-IDF and the old query, in one run.

Usage: python bench/similar_bench.py [--venue-papers N] [--sweep] [--keep DIR]
                                     [--against TREE]

Two yardsticks, each over its own build (``kg build``, one core), every
ranking asked for each paper's top 5:

(a) **venues** (easy): a listing assembled here from /work/shared/corpora, the
    first N papers (default 400) of ICML 2023, CVPR 2023 and NeurIPS 2020,
    each paper under the track line "Area · VENUE"; a neighbour counts when it
    is from the query paper's venue. Chance is about 1/3.
(c) **titles** (on the build of (a)): a neighbour counts when the two titles
    (from the truth files; the listings carry none, so no ranking saw them)
    share a word of four letters or more found in at most 1 % of the titles.
(b) **topics**: the annotated concept sets (tests/data/devset/concepts/
    cvpr23_big, iclr23_big, icml23_big, icml24_big: tuning sets), each built on
    its own from its venue's truth file (the annotated papers only, so every
    neighbour is annotated: 200 to 240 papers a build); a neighbour counts when
    the two papers share at least one annotated concept (text folded: lower
    case, a final "s" dropped), "any"; and, stricter, one annotated in at most
    5 % of the set's papers, "rare" (so "generalization" or "deep learning"
    do not count).

The rankings: **tfidf** a plain TF-IDF cosine over the abstracts as written
(scikit-learn's ``TfidfVectorizer`` with English stop words); **old** the
query kg had before (bench/similar_papers_old.rq: shared entities and
concepts weighted 1/paperCount, at least 2 shared); **new** the build's
``similar-papers`` query. Coverage: how many papers get no neighbour at all.
``--against TREE`` adds a column: the ranking of another kg tree's
:func:`kg.analysis.similar.similar_papers` (e.g. main's, /work/main) on the
same builds, in a process of its own. ``--sweep`` also ranks (b) with :func:`kg.analysis.similar.similar_papers`
for a few word shares (the constant WORDS) and thresholds.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CORPORA = Path("/work/shared/corpora")
CONCEPT_SETS = ROOT / "tests" / "data" / "devset" / "concepts"
OLD_QUERY = Path(__file__).with_name("similar_papers_old.rq")
VENUES = {"ICML 2023": "icml_2023_all", "CVPR 2023": "cvpr_2023_all",
          "NeurIPS 2020": "neurips_2020_all"}
SETS = {"cvpr23_big": "cvpr_2023_all", "iclr23_big": "iclr_2023_all",
        "icml23_big": "icml_2023_all", "icml24_big": "icml_2024_all"}
TOP = 5

Ranking = dict[str, list[str]]  # paper id -> neighbour ids, best first


def _truth(stem: str) -> list[dict[str, object]]:
    with open(CORPORA / f"{stem}.truth.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _entry(rec: Mapping[str, object], track: str | None) -> str:
    authors = ", ".join(rec["authors_shown"])  # type: ignore[arg-type]
    if rec["authors_truncated"]:
        authors += " 等"
    head = f"{track}\n\n" if track else ""
    return f"{head}{authors}\n\n{rec['abstract']}\n\n"


def _write_listing(path: Path, entries: Sequence[tuple[Mapping[str, object], str | None]]
                   ) -> None:
    path.write_text("论文检索\n\n" + "".join(_entry(r, t) for r, t in entries), encoding="utf-8")


def _build(listing: Path, out: Path) -> float:
    from kg.build.pipeline import build

    t0 = time.perf_counter()
    build([listing], out)
    return time.perf_counter() - t0


def _papers(out: Path) -> list[tuple[str, str]]:
    """(paper id, abstract as written) of a build, in corpus order."""
    from kg.build.read import load_build

    return [(p.id, p.abstract) for p in load_build(out, extractions=False).corpus.papers]


_AGAINST = """
import json, sys
sys.path.insert(0, sys.argv[1])
from kg.analysis.similar import documents, similar_papers
from kg.build.read import load_build
from kg.extract.concept_vocab import load
near = similar_papers(documents(load_build(sys.argv[2]), load()))
print(json.dumps({p: [n.paper for n in ns][:int(sys.argv[3])] for p, ns in near.items()}))
"""


def _against(tree: Path, out: Path, k: int = TOP) -> Ranking:
    """Another kg tree's ranking of a build's papers."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", _AGAINST, str(tree), str(out), str(k)],
                          capture_output=True, text=True, check=True)
    ranking: Ranking = json.loads(done.stdout)
    return ranking


def _tfidf(papers: Sequence[tuple[str, str]], k: int = TOP) -> Ranking:
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    ids = [pid for pid, _ in papers]
    x = TfidfVectorizer(stop_words="english").fit_transform([a for _, a in papers])
    sims = (x @ x.T).toarray()
    np.fill_diagonal(sims, 0.0)
    out: Ranking = {}
    for i, row in enumerate(sims):
        order = sorted((j for j in np.flatnonzero(row > 0)), key=lambda j: (-row[j], ids[j]))
        out[ids[i]] = [ids[j] for j in order[:k]]
    return out


def _query(out: Path, spec: str, papers: Sequence[tuple[str, str]], k: int = TOP) -> Ranking:
    from kg import queries
    from kg.store import EmbeddedStore

    store = EmbeddedStore(out / "store")
    ranking: Ranking = {}
    for pid, _ in papers:
        res = queries.run(store, spec, {"paper": pid})
        seen: list[str] = []
        for value in res.column("similar"):
            if value.value not in seen:
                seen.append(value.value)
        ranking[pid] = seen[:k]
    return ranking


Figures = tuple[float, float, int]


def _share(ranking: Ranking, good: Callable[[str, str], bool]) -> Figures:
    """Share of top neighbours that count, over the top-5 slots that hold one and
    over all 5 slots of every paper (an empty slot counts as a miss); and how many
    papers have no neighbour."""
    hits = slots = empty = 0
    for pid, near in ranking.items():
        if not near:
            empty += 1
        for q in near[:TOP]:
            slots += 1
            hits += good(pid, q)
    return (hits / slots if slots else 0.0), hits / (TOP * len(ranking)), empty


def _fold(text: str) -> str:
    t = re.sub(r"\s+", " ", text.casefold().strip())
    return t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t


def _annotated(name: str) -> tuple[list[tuple[Mapping[str, object], None]], dict[str, set[str]]]:
    """The truth records of a concept set and each abstract's annotated concepts."""
    truth = _truth(SETS[name])
    records, concepts = [], {}
    with open(CONCEPT_SETS / f"{name}.jsonl", encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            rec = truth[int(obj["id"].rsplit("-", 1)[1])]
            assert rec["abstract"] == obj["abstract"], obj["id"]
            records.append((rec, None))
            concepts[obj["abstract"]] = {_fold(c["text"]) for c in obj["concepts"]}
    return records, concepts


def _title_words(papers: Sequence[tuple[str, str]], records: Sequence[Mapping[str, object]]
                 ) -> dict[str, set[str]]:
    """Each paper's rare title words (its truth record's title, found by abstract):
    words of four letters or more, a final "s" dropped, in at most 1 % of the titles."""
    title = {str(r["abstract"]).strip(): str(r["title"]) for r in records}
    words = {}
    for pid, abstract in papers:
        text = title.get(abstract.strip(), "")
        words[pid] = {_fold(w) for w in re.findall(r"[a-z][a-z0-9-]{3,}", text.lower())
                      }
    df = Counter(w for ws in words.values() for w in ws)
    cap = 0.01 * len(papers)
    return {pid: {w for w in ws if df[w] <= cap} for pid, ws in words.items()}


def _judges(by_id: Mapping[str, set[str]], rare: set[str]
            ) -> tuple[Callable[[str, str], bool], Callable[[str, str], bool]]:
    """Do two papers share an annotated concept; a rare one?"""
    def any_(a: str, b: str) -> bool:
        return bool(by_id[a] & by_id[b])

    def rare_(a: str, b: str) -> bool:
        return bool(by_id[a] & by_id[b] & rare)

    return any_, rare_


def _line(name: str, figures: Mapping[str, Figures], n: int) -> str:
    cells = "  ".join(f"{v:5.3f} {a:5.3f} {e:>4}" for v, a, e in figures.values())
    return f"{name:<22} {n:>6}  {cells}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venue-papers", type=int, default=400)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--keep", type=Path, help="keep the builds here")
    ap.add_argument("--against", type=Path, help="another kg tree, ranked side by side")
    ap.add_argument("--sets", nargs="+", metavar="SET=LISTING",
                    help="the concept sets of (b) and their venue's listing stem, instead of "
                         "the four tuning sets (e.g. a held-aside set, scored once: "
                         "neurips20_blind=neurips_2020_all)")
    args = ap.parse_args(argv)
    if args.sets:
        SETS.clear()
        SETS.update(dict(item.split("=", 1) for item in args.sets))
    tmp = tempfile.TemporaryDirectory()
    work = args.keep or Path(tmp.name)
    work.mkdir(parents=True, exist_ok=True)
    kinds: tuple[str, ...] = ("tfidf", "old", "new") + (("against",) if args.against else ())
    print(f"share of top-{TOP} neighbours that count: over the slots filled, over all "
          f"{TOP} slots; papers with no neighbour")
    print(f"{'yardstick':<22} {'papers':>6}  " + "  ".join(f"{k + ' filled/all/none':<16}"
                                                           for k in kinds))

    # (a) venues
    entries = []
    for venue, stem in VENUES.items():
        entries += [(r, f"Area · {venue}") for r in _truth(stem)[:args.venue_papers]]
    listing = work / "venues.txt"
    _write_listing(listing, entries)
    out = work / "venues"
    if not (out / "store").exists():
        _build(listing, out)
    from kg.build.read import load_build

    venue_of = {p.id: p.track.subarea for p in load_build(out, extractions=False).corpus.papers
                if p.track is not None}
    papers = _papers(out)
    rankings = {"tfidf": _tfidf(papers), "old": _query(out, str(OLD_QUERY), papers),
                "new": _query(out, "similar-papers", papers)}
    if args.against:
        rankings["against"] = _against(args.against, out)
    figures = {k: _share(r, lambda a, b: venue_of[a] == venue_of[b]) for k, r in rankings.items()}
    print(_line("(a) same venue", figures, len(papers)))
    title_words = _title_words(papers, [r for r, _ in entries])
    figures = {k: _share(r, lambda a, b: bool(title_words[a] & title_words[b]))
               for k, r in rankings.items()}
    print(_line("(c) rare title word", figures, len(papers)))

    # (b) annotated concept sets
    totals: dict[str, list[float]] = {f"{k}/{m}": [0, 0, 0, 0] for k in kinds
                                      for m in ("any", "rare")}
    sweep: dict[str, list[float]] = {}
    for name in SETS:
        records, concepts = _annotated(name)
        listing = work / f"{name}.txt"
        _write_listing(listing, records)
        out = work / name
        if not (out / "store").exists():
            _build(listing, out)
        papers = _papers(out)
        by_id = {pid: concepts.get(abstract, set()) for pid, abstract in papers}
        df = Counter(c for cs in by_id.values() for c in cs)
        rare = {c for c, d in df.items() if d <= 0.05 * len(papers)}

        any_, rare_ = _judges(by_id, rare)

        rankings = {"tfidf": _tfidf(papers), "old": _query(out, str(OLD_QUERY), papers),
                    "new": _query(out, "similar-papers", papers)}
        if args.against:
            rankings["against"] = _against(args.against, out)
        for m, good in (("any", any_), ("rare", rare_)):
            figures = {k: _share(r, good) for k, r in rankings.items()}
            print(_line(f"(b) {name} {m}", figures, len(papers)))
            for k, (v, a, e) in figures.items():
                t = totals[f"{k}/{m}"]
                t[0] += v * len(papers)
                t[1] += a * len(papers)
                t[2] += len(papers)
                t[3] += e
        if args.sweep:
            _sweep(out, sweep, any_, rare_)
    for m in ("any", "rare"):
        t = {k: totals[f"{k}/{m}"] for k in kinds}
        figures = {k: (v[0] / v[2], v[1] / v[2], int(v[3])) for k, v in t.items()}
        print(_line(f"(b) all {len(SETS)} {m}", figures, int(t["tfidf"][2])))
        print(f"{'':<22} new / tfidf = {figures['new'][1] / figures['tfidf'][1]:.2f}x "
              f"(all slots), old / tfidf = {figures['old'][1] / figures['tfidf'][1]:.2f}x")
    for label, (hits_any, hits_rare, n) in sorted(sweep.items()):
        print(f"sweep {label:<28} any {hits_any / n:.3f}  rare {hits_rare / n:.3f}")
    tmp.cleanup()
    return 0


def _sweep(out: Path, sweep: dict[str, list[float]], any_: Callable[[str, str], bool],
           rare_: Callable[[str, str], bool]) -> None:
    """Rank the build's papers with a few settings of the library's ranking."""
    from kg.analysis.similar import documents, similar_papers
    from kg.build.read import load_build
    from kg.extract.concept_vocab import load

    docs = documents(load_build(out), load())
    for words in (0.0, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0):
        for max_df in (0.1, 0.2, 1.0):
            near = similar_papers(docs, k=TOP, words=words, max_df=max_df)
            ranking = {pid: [n.paper for n in ns] for pid, ns in near.items()}
            _, a, _ = _share(ranking, any_)
            _, r, _ = _share(ranking, rare_)
            t = sweep.setdefault(f"words={words} max_df={max_df}", [0.0, 0.0, 0])
            t[0] += a * len(docs)
            t[1] += r * len(docs)
            t[2] += len(docs)


if __name__ == "__main__":
    raise SystemExit(main())
