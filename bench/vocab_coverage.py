"""Breadth of the concept vocabulary (issue 29, item 3): the author-keyword
proxy, before and after, side by side in one run.

    .venv/bin/python bench/vocab_coverage.py --against OLD_TREE [--misses AREA]
    .venv/bin/python bench/vocab_coverage.py --single-words robustness,generalization

The proxy: the prior-year author keywords (``../shared/vocab/
author_keywords_2019_2023.tsv``, a checklist only: nothing of it is shipped)
that occur as phrases in the clean abstracts of ``../shared/corpora/*.txt``;
a (keyword, paper) pair is **covered** when kg emits, in that paper, a
concept mention whose text or canonical label folds to the keyword. Folding:
lower case, words of letters and digits (hyphens and spaces alike), kg's
British -> US spellings, a final plural ``s`` dropped from every word.

The checklist: the keywords at least ``MIN_PAPERS`` (5) papers used (the
file's long tail is split phrases: "a", "novel", "state of the art"), less
the generic words of the settled rules (``tests/data/devset/CONCEPTS_RULES.md``
rule 4: model, method, data, training, ...) and a few more that are never a
topic on their own (``GENERIC`` below), less the named artefacts (a keyword
kg's gazetteer knows that is no concept's ``entity``: BERT, ImageNet, Adam:
the entity layer's, not the vocabulary's), less keywords of more than six
words.

Figures: ``pairs`` = covered pairs / pairs (each paper where a keyword occurs
counts once); ``keywords`` = distinct keywords covered in at least one of the
papers where they occur / distinct keywords that occur. Each for all
keywords and for each area.

Areas, by a transparent rule: a keyword belongs to the first area in
``AREAS`` one of whose patterns matches it (case-folded, words of letters and
digits joined by one space): a pattern matches whole words, or, ending in
``*``, words starting so (``fair*``: fairness, fair ranking); a keyword no
pattern matches is ``core ML``.

Each tree is extracted in a child process with ``PYTHONPATH`` set to it
(``--against`` a git worktree of the code before), so the vocabulary, the
matcher and everything they touch are each side's own.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SHARED = HERE.parent / "shared"
CORPORA = SHARED / "corpora"
KEYWORDS = SHARED / "vocab" / "author_keywords_2019_2023.tsv"
MAX_WORDS = 6
MIN_PAPERS = 5

#: rule 4's generic words, and words that name no topic on their own
GENERIC = {
    "model", "models", "method", "methods", "framework", "approach", "algorithm", "algorithms",
    "data", "dataset", "datasets", "benchmark", "benchmarks", "performance", "accuracy",
    "efficiency", "training", "inference", "experiment", "experiments", "task", "tasks",
    "problem", "neural network", "neural networks", "deep learning model",
    "deep learning models", "loss", "objective", "theory", "analysis",
    # never a topic alone
    "learning", "representation", "representations", "language", "vision", "video", "graph",
    "graphs", "memory", "control", "dynamics", "simulation", "geometry", "evaluation",
    "consistency", "neural", "network", "networks", "deep", "image", "images", "text",
    "features", "information", "design", "scale", "structure", "systems", "application",
    "applications", "prediction", "knowledge", "understanding", "interaction", "computation",
    "recognition", "generation", "search", "sequence", "environment", "baseline", "recall",
    "ai", "metric", "metrics", "testing", "library", "software",
}

#: area -> word-start patterns, in priority order (the first that matches wins)
AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("fairness/privacy/safety/interp.", (
        "fair*", "bias", "biases", "debias*", "privacy", "private", "safety", "safe",
        "adversarial*", "attack*", "backdoor*", "poison*", "robust*", "certifi*",
        "watermark*", "jailbreak*", "red team*", "alignment", "interpretab*", "explainab*",
        "explanation*", "xai", "attribution*", "saliency", "unlearning", "membership inference",
        "trustworth*", "ethic*", "toxic*", "misinformation", "deepfake*", "security", "secure",
        "memorization", "hallucination*", "calibration", "uncertaint*", "out of distribution",
        "ood", "anomal*", "novelty detection", "shortcut*", "spurious*")),
    ("causality", ("causal*", "counterfactual*", "treatment effect*", "intervention*",
                   "instrumental variable*", "confound*", "identifiab*")),
    ("RL", ("reinforcement", "rl", "deep rl", "policy", "policies", "reward*", "bandit*",
            "q learning", "mdp*", "markov decision*", "exploration", "actor critic",
            "imitation*", "multi agent*", "multiagent", "game*", "regret", "planning",
            "model based", "world model*", "value function*", "offline*")),
    ("robotics/control", ("robot*", "control*", "manipulation", "locomotion", "navigation",
                          "autonomous driving", "self driving", "trajectory*", "motion planning",
                          "grasp*", "embodied", "sim2real", "sim to real", "legged", "drone*",
                          "vehicle*", "slam", "autonomous*")),
    ("biology/health", ("protein*", "gene", "genes", "genom*", "genetic*", "dna", "rna",
                        "cell", "cells", "single cell", "biolog*", "bioinformatic*", "medical",
                        "medicine", "clinical", "health*", "ehr", "electronic health*",
                        "patient*", "disease*", "drug*", "molecul*", "brain*", "neuro*",
                        "fmri", "eeg", "mri", "ct", "radiolog*", "patholog*",
                        "histopatholog*", "cancer", "tumor*", "covid*", "epidemi*",
                        "biomedical", "antibod*", "enzyme*", "docking", "spike*", "spiking",
                        "cognitive*", "cognition", "hippocamp*", "cortex", "cortical", "ecg",
                        "biological*", "chemi*", "chemistry", "retrosynthesis")),
    ("physics/chemistry/science", ("physic*", "pde", "pdes", "partial differential*",
                                   "differential equation*", "ode", "odes", "material*",
                                   "crystal*", "climate", "weather", "fluid*", "quantum",
                                   "dynamical system*", "hamiltonian*", "lagrangian*",
                                   "scientific", "turbulen*", "particle*", "astro*", "earth",
                                   "ocean*", "atmospher*", "force field*", "equivarian*",
                                   "symmetr*", "operator learning", "neural operator*",
                                   "simulator*", "science")),
    ("speech/audio", ("speech", "audio*", "speaker*", "music*", "sound*", "acoustic*",
                      "voice*", "asr", "tts", "text to speech", "spoken")),
    ("vision", ("image*", "video*", "visual*", "vision", "3d", "point cloud*", "pixel*",
                "segmentation", "detection", "detector*", "object*", "pose*", "depth",
                "stereo", "optical flow", "camera*", "scene*", "nerf", "radiance*", "render*",
                "face", "faces", "facial", "person", "super resolution", "inpainting",
                "denois*", "deblur*", "photo*", "view synthesis", "cnn", "cnns",
                "convolution*", "vit", "vits", "clip", "tracking", "mesh*", "shape*",
                "action recognition", "captioning", "vqa", "remote sensing", "satellite*",
                "medical image*", "gaussian splatting", "occupancy", "lidar")),
    ("language", ("language*", "nlp", "text*", "word*", "sentence*", "translation",
                  "dialog*", "question answering", "qa", "llm", "llms", "bert", "gpt*",
                  "prompt*", "in context*", "instruction*", "chatbot*", "summariz*", "parsing",
                  "syntax", "syntactic", "semantic parsing", "entity", "entities",
                  "knowledge graph*", "token*", "retrieval*", "reasoning", "chain of thought",
                  "code generation", "program synthesis", "linguistic*", "multilingual",
                  "corpus", "corpora", "lexical", "sentiment", "rag", "machine reading",
                  "natural language*", "transformer*", "attention")),
    ("graphs", ("graph*", "gnn", "gnns", "node*", "link prediction", "message passing",
                "network embedding*", "community detection", "relational",
                "hypergraph*", "heterophily", "oversmoothing", "over smoothing")),
    ("time series", ("time series", "forecast*", "temporal", "sequential data",
                     "spatiotemporal", "spatio temporal", "irregular*", "event sequence*",
                     "point process*")),
    ("recommender systems", ("recommend*", "collaborative filtering", "click*", "ctr",
                             "ranking", "learning to rank", "user*", "personaliz*",
                             "information retrieval", "search engine*")),
    ("systems/efficiency", ("distributed", "federated", "parallel*", "compiler*", "hardware",
                            "gpu*", "tpu*", "accelerat*", "quantiz*", "pruning", "sparsit*",
                            "compression", "efficient*", "latency", "edge", "on device",
                            "mobile", "communication*", "scalab*", "system*", "low precision",
                            "low rank", "distillation", "neural architecture search", "nas",
                            "automl", "energy efficien*", "mixed precision", "serving",
                            "pipeline*", "binar*", "large scale*")),
    ("optimization", ("optimi*", "gradient*", "sgd", "convex*", "nonconvex", "non convex",
                      "convergence", "stochastic approximation", "adam", "momentum",
                      "learning rate*", "saddle*", "minimax", "min max", "bilevel*",
                      "zeroth order", "second order", "hessian*", "line search",
                      "variational inequalit*", "loss landscape*", "landscape*")),
    ("theory/statistics", ("theory", "theoretical*", "generalization*", "bound*",
                           "complexity", "pac*", "vc dimension", "rademacher",
                           "statistic*", "estimation", "estimator*", "sample complexity",
                           "learnab*", "overparameteri*", "over parameteri*",
                           "neural tangent*", "ntk", "kernel*", "mean field", "information theor*",
                           "hypothesis test*", "bayesian*", "inference", "probabilist*",
                           "sampling", "mcmc", "langevin*", "variational*", "gaussian process*",
                           "nonparametric*", "high dimensional*", "random matrix*",
                           "double descent", "implicit bias", "implicit regulariz*",
                           "approximation*", "expressiv*", "conformal*", "stability",
                           "identifiability", "hypothesis")),
    ("generative models", ("generative*", "diffusion*", "gan", "gans", "vae", "vaes",
                           "autoencoder*", "normalizing flow*", "flow*", "score based*",
                           "energy based*", "likelihood*", "density estimation",
                           "image generation", "text to image", "synthesis")),
)


def fold_words(text: str, respell) -> tuple[str, ...]:
    words = [respell(w) for w in re.findall(r"[^\W_]+", text.lower())]
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is"))
                 else w for w in words)


def area_of(keyword: str) -> str:
    text = " " + " ".join(re.findall(r"[^\W_]+", keyword.lower())) + " "
    for area, pats in AREAS:
        for p in pats:
            if (f" {p[:-1]}" if p.endswith("*") else f" {p} ") in text:
                return area
    return "core ML"


# -- child: one tree's extraction ------------------------------------------------------

def child(out: Path) -> None:
    """Extract every corpus with the tree on PYTHONPATH; write one JSON line a paper:
    corpus, id, clean abstract, the concept mentions' (text, canonical)."""
    from kg.extract import extract_corpus
    from kg.parse import read_corpus

    with out.open("w", encoding="utf-8") as f:
        for path in sorted(CORPORA.glob("*.txt")):
            corpus = read_corpus([path])
            done = extract_corpus(corpus)   # one core on either tree's kg
            found = list(getattr(done, "extractions", done))  # a CorpusExtraction since #28
            for paper, ex in zip(corpus.papers, found, strict=True):
                cs = sorted({(m.text, m.canonical) for m in ex.mentions if m.layer == "concept"})
                f.write(json.dumps({"corpus": path.stem, "id": paper.id, "abstract": ex.abstract,
                                    "concepts": cs}, ensure_ascii=False) + "\n")


def extract(tree: Path, out: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(out)],
                   env=env, cwd=tree, check=True)


# -- scoring ---------------------------------------------------------------------------

def keywords(respell) -> dict[tuple[str, ...], str]:
    from kg.extract.concept_vocab import load as load_concepts
    from kg.extract.gazetteer import load as load_gazetteer
    from kg.identity import entity_key

    gaz = load_gazetteer()
    concept_entities = {c.entity for c in load_concepts().concepts.values() if c.entity}
    out: dict[tuple[str, ...], str] = {}
    generic = {fold_words(g, respell) for g in GENERIC}
    for line in KEYWORDS.read_text(encoding="utf-8").splitlines()[1:]:
        kw, papers = line.split("\t")[:2]
        k = fold_words(kw, respell)
        if not k or len(k) > MAX_WORDS or k in generic or int(papers) < MIN_PAPERS:
            continue
        form = gaz.lookup(entity_key(kw))
        if form is not None and form.entity.canonical not in concept_entities:
            continue
        out.setdefault(k, kw.strip())
    return out


def score(rows: list[dict], kws: dict[tuple[str, ...], str], respell):
    """(keyword, paper) pairs: ``{kw: [covered per paper where it occurs]}``."""
    got: dict[tuple[str, ...], list[bool]] = defaultdict(list)
    for r in rows:
        words = fold_words(r["abstract"], respell)
        grams = {words[i:i + n] for n in range(1, MAX_WORDS + 1)
                 for i in range(len(words) - n + 1)}
        found = grams & kws.keys()
        if not found:
            continue
        mentioned = {fold_words(t, respell) for pair in r["concepts"] for t in pair}
        for k in found:
            got[k].append(k in mentioned)
    return got


def table(sides: dict[str, dict], kws, areas: list[str], exclude: str = "") -> list[str]:
    names = list(sides)
    head = f"{'area':<32} {'keywords':>8} {'pairs':>7}  " + "  ".join(
        f"{n + ' pairs':>11} {n + ' kw':>9}" for n in names)
    lines = [head]
    for area in ["all", *areas]:
        cells = []
        n_kw = n_pairs = 0
        for n in names:
            got = sides[n]
            ks = [k for k in got if area == "all" or area_of(kws[k]) == area]
            pairs = [c for k in ks for c in got[k]]
            n_kw, n_pairs = len(ks), len(pairs)
            p = sum(pairs) / len(pairs) if pairs else 0.0
            q = sum(any(got[k]) for k in ks) / len(ks) if ks else 0.0
            cells.append(f"{p:>11.3f} {q:>9.3f}")
        lines.append(f"{area:<32} {n_kw:>8} {n_pairs:>7}  " + "  ".join(cells))
    return lines


TUNING = ("iclr23_big", "icml24_big", "cvpr23_big", "icml23_big")


def single_words(words: list[str]) -> None:
    """How the annotators of the tuning sets treat bare words (see ``--single-words``)."""
    sys.path.insert(0, str(HERE))
    from tests.devset_eval import fold, near

    sets = HERE / "tests" / "data" / "devset" / "concepts"
    rows = [json.loads(x) for s in TUNING
            for x in (sets / f"{s}.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    print(f"{'word':<20} {'abstracts':>9} {'listed':>6} {'right':>5} {'share':>5}")
    for w in words:
        pat = re.compile(r"(?<![\w-])" + re.escape(w.strip()) + r"(?:s|es)?(?![\w-])", re.I)
        occ = listed = right = 0
        for r in rows:
            if not pat.search(r["abstract"]):
                continue
            names = [x["text"] for x in r["named"] + r["concepts"]] + list(r["proposed"]) + [
                h for p in r["aliases"] for h in p]
            occ += 1
            listed += fold(w) in {fold(x) for x in names}
            right += near(w, names)
        print(f"{w.strip():<20} {occ:>9} {listed:>6} {right:>5} {right / occ if occ else 0:>5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="source tree of the code before")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--misses", metavar="AREA", help="list the most frequent uncovered "
                    "keywords of AREA ('all' for every area), held-out venue left out")
    ap.add_argument("--top", type=int, default=60)
    ap.add_argument("--single-words", metavar="WORDS", help="comma-separated words: on the four "
                    "tuning concept sets, the abstracts that write each (a final s folded), "
                    "those whose annotators listed the bare word, and the share where the "
                    "bare word would count as right (devset_eval's near): the measure that "
                    "decides a one-word concept's `single` flag (>= 0.70)")
    ap.add_argument("--keep", type=Path, help="folder to keep the extractions in (reused)")
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    if args.single_words:
        single_words(args.single_words.split(","))
        return
    from kg.extract.concept_finder import spelling

    sp = spelling()
    kws = keywords(sp.word)
    tmp = args.keep or Path(os.environ.get("TMPDIR", "/tmp")) / f"vocab_coverage.{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    trees = ([("before", args.against.resolve())] if args.against else []) + [("after", HERE)]
    sides = {}
    for name, tree in trees:
        out = tmp / f"{name}.jsonl"
        if not (args.keep and out.exists() and name == "before"):
            extract(tree, out)
        rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
        sides[name] = score(rows, kws, sp.word)
    areas = [a for a, _ in AREAS] + ["core ML"]
    n = len(rows)
    print(f"{n:,} papers of {', '.join(p.stem for p in sorted(CORPORA.glob('*.txt')))}; "
          f"{len(kws):,} checklist keywords (used by >= {MIN_PAPERS} papers; generic, named "
          f"artefacts and > {MAX_WORDS} words left out)")
    print("pairs = (keyword, paper) pairs covered / occurring; kw = keywords covered in "
          ">= 1 paper / occurring")
    print("\n".join(table(sides, kws, areas)))
    if args.misses:
        held = [json.loads(x) for x in (tmp / f"{trees[-1][0]}.jsonl").read_text(
            encoding="utf-8").splitlines()]
        tuned = [r for r in held if not r["corpus"].startswith("neurips_2020")]
        got = score(tuned, kws, sp.word)
        miss = Counter({k: len(v) - sum(v) for k, v in got.items()
                        if args.misses == "all" or area_of(kws[k]) == args.misses})
        print(f"\nmost frequent uncovered ({args.misses}; NeurIPS 2020 left out):")
        print("; ".join(f"{kws[k]} {c}/{len(got[k])}" for k, c in miss.most_common(args.top)
                        if c))


if __name__ == "__main__":
    main()
