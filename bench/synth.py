"""A synthetic corpus with the shapes of real listings, for benchmarks and tests.

``make_build(n_papers, seed)`` returns a :class:`kg.models.Build` (corpus plus
one :class:`~kg.models.Extraction` per paper); ``python bench/synth.py N -o
FILE.txt`` writes the same corpus as a listing file (the format of DESIGN.md)
so end-to-end benchmarks can parse it.

Shapes, drawn from the ICML 2024 corpus (``../shared/corpora``) and the seeds:

- authors shown per paper: the ICML distribution (1..10, mode 4); about 10%
  of the lists are cut to their first 10 names and end in ``等``;
- authors are reused across papers by a Simon/Yule process (a new author with
  probability ``p_new``, otherwise a co-author of an author already on the
  paper or an author chosen in proportion to their papers), so papers per
  author is heavy-tailed (Lotka), the co-author graph is clustered and has a
  giant component. ``p_new`` follows a Heaps' law fitted to two points:
  ICML 2024 (2,610 papers, 9,566 authors) and ~120,000 authors for 100,000
  papers;
- tracks: those of the seed listings, weighted by how often they occur there;
  authors have a home track, so tracks and communities correlate; a few
  papers have an area alone or no track;
- abstracts: 1,180 +- 240 characters (ICML), with about 6 entity mentions
  drawn from a vocabulary with a Zipf-like frequency; every mention's
  ``start``/``end`` index the abstract (``abstract[start:end] == text``).

Deterministic for a seed (only :class:`random.Random` with that seed is used).

Examples
--------
>>> b = make_build(50, seed=1)
>>> len(b.corpus.papers), len(b.extractions)
(50, 50)
>>> all(b.extractions[p.id].abstract[m.start:m.end] == m.text
...     for p in b.corpus.papers for m in b.extractions[p.id].mentions)
True
>>> make_build(50, seed=1) == b
True
"""
from __future__ import annotations

import argparse
import bisect
import itertools
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `kg` importable from the repo
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.identity import normalise_text, paper_id  # noqa: E402
from kg.models import Build, Corpus, Extraction, Mention, Paper, Source, Track  # noqa: E402

# ICML 2024: how many authors a (not cut) listing shows, 1..10.
_SHOWN = {1: 34, 2: 300, 3: 487, 4: 500, 5: 459, 6: 303, 7: 207, 8: 107, 9: 69, 10: 44}
# ICML 2024: full list length of the lists that were cut (all shown as 10).
_CUT_FULL = {11: 28, 12: 28, 13: 16, 14: 6, 15: 3, 16: 3, 18: 2, 19: 4, 21: 1, 22: 3, 23: 2, 25: 3}
TRUNCATED_SHARE = 0.10
# The tracks of the seed listings, with how often each occurs there.
_TRACKS = {
    "Deep Learning · Large Language Models": 9,
    "General Machine Learning · Evaluation": 3,
    "Reinforcement Learning · Multi-agent": 2,
    "General Machine Learning · Online Learning, Active Learning and Bandits": 2,
    "Deep Learning · Generative Models and Autoencoders": 2,
    "Theory · Game Theory": 1,
    "Social Aspects · Safety": 1,
    "Social Aspects · Alignment": 1,
    "Optimization · Non-Convex": 1,
    "General Machine Learning · Representation Learning": 1,
    "General Machine Learning · Hardware and Software": 1,
    "Deep Learning · Robustness": 1,
    "Deep Learning · Graph Neural Networks": 1,
    "Deep Learning · Everything Else": 1,
    "Applications · Time Series": 1,
    "Applications · Neuroscience, Cognitive Science": 1,
    "Applications · Everything Else": 1,
    "Applications · Computer Vision": 1,
    "Applications · Chemistry, Physics, and Earth Sciences": 1,
}
NO_TRACK_SHARE = 0.05
AREA_ONLY_SHARE = 0.03
ABSTRACT_MEAN, ABSTRACT_SD, ABSTRACT_MIN, ABSTRACT_MAX = 1180, 240, 320, 2200
MENTIONS_MEAN = 6
# Heaps' law for distinct authors: authors ~= HEAPS_A * papers ** HEAPS_B.
HEAPS_A, HEAPS_B = 41.0, 0.694
CO_AUTHOR_REUSE = 0.75  # a reused author is a past co-author of one already on the paper
WINDOW = 25_000  # preferential choice among the most recent authorships (aging)
SOFT_CAP = 20  # beyond this many papers, attachment grows sublinearly (no 1,000-paper hubs)

_FIRST = [
    "Wei", "Jing", "Yang", "Lei", "Xin", "Hao", "Yu", "Chen", "Jun", "Ming", "Tao", "Yi", "Li",
    "Lu", "Bo", "Kai", "Rui", "Zhe", "Yan", "Qi", "Hui", "Peng", "Xiao", "Ying", "Jie", "Fang",
    "Lin", "Ning", "Shu", "Zhen", "Sheng", "Jian", "Cheng", "Heng", "Long", "Feng", "Ji-Woo",
    "Min-Jun", "Seo-Yeon", "Hyun", "Sung", "Jae", "Takumi", "Yuki", "Haruto", "Sota", "Aiko", "Ren",
    "Arjun", "Rohan", "Priya", "Aditya", "Ananya", "Rahul", "Sanjay", "Kavya", "Vikram", "Neha",
    "Saket", "Michael", "David", "James", "John", "Robert", "Daniel", "Thomas", "Matthew", "Andrew",
    "Christopher", "Sarah", "Emily", "Jessica", "Laura", "Anna", "Maria", "Julia", "Sophie", "Emma",
    "Olivia", "Grace", "Amy", "Lukas", "Jonas", "Felix", "Tobias", "Niklas", "Jan", "Piotr",
    "Michał", "Tomasz", "Mateusz", "Marek", "François", "Élodie", "Zoë", "José", "Sébastien",
    "Jürgen", "Ólafur", "Søren", "Ørjan", "Łukasz", "Ahmed", "Omar", "Fatima", "Layla", "Yusuf",
    "Mehmet", "Elif", "Reza", "Alireza", "Sara", "Dmitry", "Ivan", "Olga", "Pavel", "Nikolai",
    "Giulia", "Marco", "Luca", "Francesca", "Pablo", "Lucía", "Diego", "Carmen", "Kwame", "Amara",
    "Chinedu", "Thabo", "Ngozi", "Boqing", "Cho-Jui", "Shiwei", "Tyrone", "Naicheng",
]
_LAST = [
    "Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma",
    "Zhu", "Hu", "Guo", "He", "Lin", "Luo", "Gao", "Zheng", "Liang", "Xie", "Tang", "Han", "Cao",
    "Deng", "Feng", "Cai", "Yuan", "Pan", "Du", "Dai", "Jiang", "Yin", "Kim", "Lee", "Park", "Choi",
    "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Tanaka", "Suzuki", "Sato", "Watanabe", "Ito",
    "Nakamura", "Kobayashi", "Yamamoto", "Sharma", "Gupta", "Singh", "Kumar", "Patel", "Reddy",
    "Iyer", "Rao", "Nair", "Tiwari", "Prakash", "Smith", "Johnson", "Williams", "Brown", "Jones",
    "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Moore", "Jackson", "Martin", "Thompson",
    "White", "Harris", "Clark", "Lewis", "Walker", "Hall", "Allen", "Young", "King", "Wright",
    "Scott", "Green", "Baker", "Adams", "Nelson", "Müller", "Schmidt", "Schneider", "Fischer",
    "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Nowak", "Kowalski", "Wiśniewski", "Miłoś",
    "Cygan", "Bortkiewicz", "Dubois", "Lefèvre", "Moreau", "Rossi", "Russo", "Ferrari", "Esposito",
    "García", "Martínez", "López", "González", "Rodríguez", "Ivanov", "Petrov", "Smirnov",
    "Kuznetsov", "Yilmaz", "Kaya", "Demir", "Hosseini", "Ahmadi", "Karimi", "Okafor", "Mensah",
    "Nguyen", "Tran", "Pham", "Hoang", "Konidaris", "Greenwald", "Hartvigsen", "Ganjdanesh",
    "Shirkavand", "Ostaszewski", "Trzcinski", "Hsieh", "O'Brien", "Vandenberg",
]
_REAL_ENTITIES = (
    ("LLaMA-2", "model"), ("LLaMA-3", "model"), ("GPT-4", "model"), ("GPT-3.5", "model"),
    ("BERT", "model"), ("T5", "model"), ("CLIP", "model"), ("ViT", "model"),
    ("ResNet-50", "model"), ("Stable Diffusion", "model"), ("Mistral-7B", "model"),
    ("Qwen-2.5", "model"), ("Phi-2", "model"), ("Transformer", "model"), ("U-Net", "model"),
    ("Adam", "method"), ("AdamW", "method"), ("SGD", "method"), ("LoRA", "method"),
    ("RLHF", "method"), ("DPO", "method"), ("PPO", "method"), ("Mixture-of-Experts", "method"),
    ("knowledge distillation", "method"), ("contrastive learning", "method"),
    ("ImageNet", "dataset"), ("CIFAR-10", "dataset"), ("CIFAR-100", "dataset"),
    ("MNIST", "dataset"), ("COCO", "dataset"), ("GSM8K", "dataset"), ("MMLU", "dataset"),
    ("HumanEval", "dataset"), ("WikiText-103", "dataset"), ("MuJoCo", "dataset"),
    ("image classification", "task"), ("question answering", "task"),
    ("machine translation", "task"), ("FID", "metric"), ("BLEU", "metric"),
)
_SYLLABLES = [
    "Graph", "Flow", "Diff", "Trans", "Meta", "Neuro", "Quant", "Sparse", "Deep", "Hyper", "Multi",
    "Auto", "Contra", "Robust", "Fed", "Causal", "Spec", "Tempo", "Vision", "Lang", "Prompt",
    "Token", "Mamba", "Hydra", "Atlas", "Orion", "Vega", "Nova", "Lumen", "Cortex", "Sigma",
    "Delta", "Omega", "Kappa",
]
_SUFFIXES = {"model": ("Net", "Former", "GPT", "LM", "BERT", "ViT", "Diffusion"),
             "method": ("Opt", "Prune", "Distill", "Align", "Tune", "Mix", "Reg"),
             "dataset": ("Bench", "QA", "Set", "-1K", "Suite", "Eval"),
             "task": (" detection", " segmentation", " retrieval", " forecasting"),
             "metric": ("-Score", " Index", " Rate")}
_TYPE_WEIGHTS = {"model": 0.35, "method": 0.3, "dataset": 0.25, "task": 0.06, "metric": 0.04}
_WORDS = [
    "model", "models", "learning", "training", "data", "method", "methods", "approach", "results",
    "performance", "task", "tasks", "framework", "propose", "show", "demonstrate", "improve",
    "improves", "efficient", "robust", "theoretical", "empirical", "analysis", "bound", "bounds",
    "optimal", "algorithm", "algorithms", "network", "networks", "representation",
    "representations", "generalization", "sample", "complexity", "loss", "objective", "gradient",
    "gradients", "inference", "distribution", "distributions", "prior", "posterior", "policy",
    "reward", "agent", "environment", "language", "vision", "graph", "nodes", "features",
    "attention", "layers", "parameters", "scaling", "benchmark", "benchmarks", "baseline",
    "baselines", "state-of-the-art", "experiments", "extensive", "novel", "existing", "however",
    "moreover", "furthermore", "specifically", "based", "across", "under", "without", "while",
    "through", "which", "where", "that", "these", "this", "our", "we", "achieves", "significantly",
    "compared", "large", "small", "high", "low", "new", "key", "challenging", "problem", "problems",
    "setting", "settings", "regime", "convergence", "rate", "stochastic", "adversarial", "noise",
    "uncertainty", "calibration", "fairness", "privacy", "safety", "alignment", "reasoning",
    "memory", "computational", "cost", "budget", "latency", "throughput", "accuracy", "error",
    "estimation",
]
_MENTION_TEMPLATES = (
    ("We propose {0}, a new approach to this problem.", True),
    ("Experiments on {0} show consistent gains.", False),
    ("Compared with {0}, our method is more efficient.", False),
    ("We build on {0} and {1} to reduce the cost of training.", False),
    ("Our analysis covers {0} as a special case.", False),
    ("Results with {0} on {1} confirm the theory.", False),
    ("Unlike {0}, the approach needs no extra labels.", False),
    ("We evaluate on {0}, {1} and {2}.", False),
    ("{0} remains a strong baseline in this setting.", False),
)


def _cum(weights):
    return list(itertools.accumulate(weights))


def _sentence(rng: random.Random) -> str:
    words = rng.choices(_WORDS, k=rng.randint(9, 24))
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def _vocabulary(rng: random.Random, size: int) -> list[tuple[str, str, str]]:
    """Entity names (canonical, type, key): real ones and invented ones."""
    vocab = list(_REAL_ENTITIES)
    seen = {normalise_text(n) for n, _ in vocab}
    types, tw = list(_TYPE_WEIGHTS), _cum(_TYPE_WEIGHTS.values())
    while len(vocab) < size:
        t = rng.choices(types, cum_weights=tw)[0]
        name = rng.choice(_SYLLABLES) + rng.choice(_SYLLABLES).lower() + rng.choice(_SUFFIXES[t])
        if rng.random() < 0.3:
            name += f"-{rng.randint(1, 70)}"
        if normalise_text(name) not in seen:
            seen.add(normalise_text(name))
            vocab.append((name, t))
    rng.shuffle(vocab)  # so the frequent (low-rank) ones are a mix of real and invented
    return [(n, t, normalise_text(n)) for n, t in vocab]


class _Names:
    """Unique person names, some with a middle initial once the pool runs low."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen: set[str] = set()

    def new(self) -> str:
        rng = self.rng
        while True:
            name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
            if name in self.seen:
                name = f"{rng.choice(_FIRST)} {chr(65 + rng.randrange(26))}. {rng.choice(_LAST)}"
            if name in self.seen:
                name = (f"{rng.choice(_FIRST)} {chr(65 + rng.randrange(26))}. "
                        f"{rng.choice(_LAST)}-{rng.choice(_LAST)}")
            if name not in self.seen:
                self.seen.add(name)
                return name


def _recent(slots: list[int], rand) -> int:
    """An author in proportion to their authorships among the last WINDOW ones.

    The window ages activity out (people stop publishing), which keeps the
    tail of papers per author at realistic heights on large corpora.
    """
    n = len(slots)
    w = min(n, WINDOW)
    return slots[n - 1 - int(rand() * w)]


def _track(line: str) -> Track:
    area, _, sub = line.partition(" · ")
    return Track(area=area, subarea=sub or None, line=line)


def make_build(n_papers: int, seed: int = 0, *, file: str | None = None) -> Build:
    """A synthetic :class:`~kg.models.Build` of ``n_papers`` unique papers.

    Parameters
    ----------
    n_papers : int
        How many papers (each with its own abstract, so none merge).
    seed : int
        Seed of the only random generator used; same seed, same build.
    file : str, optional
        The listing file name recorded in each paper's :class:`Source`
        (default ``synth-N-SEED.txt``); lines are those :func:`write_listing`
        writes.

    Returns
    -------
    Build
        ``corpus`` with ``entries == n_papers`` and ``extractions`` keyed by
        paper id.

    Examples
    --------
    >>> b = make_build(200)
    >>> sum(p.authors_truncated for p in b.corpus.papers) > 0
    True
    >>> max(len(p.authors) for p in b.corpus.papers) <= 10
    True
    """
    if n_papers < 0:
        raise ValueError("n_papers must be >= 0")
    rng = random.Random(seed)
    file = file or f"synth-{n_papers}-{seed}.txt"

    shown_k, shown_cw = list(_SHOWN), _cum(_SHOWN.values())
    mean_slots = (1 - TRUNCATED_SHARE) * sum(k * w for k, w in _SHOWN.items()) / sum(
        _SHOWN.values()) + TRUNCATED_SHARE * 10
    target_authors = HEAPS_A * max(n_papers, 1) ** HEAPS_B
    p_new = min(0.95, max(0.05, target_authors / (mean_slots * max(n_papers, 1))))

    tracks = [_track(t) for t in _TRACKS]
    track_cw = _cum(_TRACKS.values())

    vocab = _vocabulary(rng, max(200, min(20000, n_papers // 5)))
    vocab_cw = _cum(1.0 / (r + 1) ** 1.07 for r in range(len(vocab)))
    fillers = [_sentence(rng) for _ in range(4000)]
    names = _Names(rng)

    author_names: list[str] = []
    home: list[int] = []  # home track index of each author
    papers_of: list[list[int]] = []  # paper indices of each author
    slots: list[int] = []  # one entry per authorship: preferential choice = uniform here
    paper_authors: list[list[int]] = []

    papers: list[Paper] = []
    extractions: dict[str, Extraction] = {}
    line = 3  # line 1 is the page title, line 2 blank
    rand = rng.random

    for pi in range(n_papers):
        truncated = rand() < TRUNCATED_SHARE
        k = 10 if truncated else rng.choices(shown_k, cum_weights=shown_cw)[0]

        chosen: list[int] = []
        for _ in range(k):
            a = -1
            if slots and rand() >= p_new:
                a = _returning_author(rng, chosen, slots, papers_of, paper_authors)
            if a < 0:
                a = len(author_names)
                author_names.append(names.new())
                home.append(-1)
                papers_of.append([])
            chosen.append(a)

        # the track: mostly the home track of the first returning author
        r = rand()
        if r < NO_TRACK_SHARE:
            track, ti = None, -1
        else:
            ti = next((home[a] for a in chosen if home[a] >= 0), -1)
            if ti < 0 or rand() < 0.25:
                ti = bisect.bisect_right(track_cw, rand() * track_cw[-1])
            track = tracks[ti]
            if r < NO_TRACK_SHARE + AREA_ONLY_SHARE:
                track = Track(area=track.area, line=track.area)
        for a in chosen:
            if home[a] < 0:
                home[a] = ti if ti >= 0 else rng.randrange(len(tracks))
            papers_of[a].append(pi)
        slots.extend(chosen)
        paper_authors.append(chosen)

        abstract, mentions = _abstract(rng, vocab, vocab_cw, fillers)
        pid = paper_id(abstract)
        while pid in extractions:  # vanishingly rare; keep ids unique
            abstract += " " + fillers[rng.randrange(len(fillers))]
            pid = paper_id(abstract)
        papers.append(Paper(
            id=pid,
            authors=tuple(author_names[a] for a in chosen),
            abstract=abstract,
            authors_truncated=truncated,
            track=track,
            sources=(Source(file, line),),
        ))
        extractions[pid] = Extraction(paper_id=pid, abstract=abstract, mentions=mentions)
        line += 6 if track is not None else 4

    corpus = Corpus(papers=tuple(papers), entries=n_papers, files=(file,))
    return Build(corpus=corpus, extractions=extractions)


def _returning_author(rng: random.Random, chosen: list[int], slots: list[int],
                      papers_of: list[list[int]], paper_authors: list[list[int]]) -> int:
    """An author met before for the paper being written (four tries: a co-author of
    one already chosen, else a recent one; a prolific one less often), or -1."""
    rand = rng.random
    for _try in range(4):
        if chosen and rand() < CO_AUTHOR_REUSE:
            mate = chosen[rng.randrange(len(chosen))]
            past = papers_of[mate]
            if past:
                pa = paper_authors[past[rng.randrange(len(past))]]
                cand = pa[rng.randrange(len(pa))]
            else:
                cand = _recent(slots, rand)
        else:
            cand = _recent(slots, rand)
        n_cand = len(papers_of[cand])
        if cand not in chosen and (n_cand <= SOFT_CAP or rand() < (SOFT_CAP / n_cand) ** 0.6):
            return cand
    return -1


def _abstract(rng, vocab, vocab_cw, fillers) -> tuple[str, tuple[Mention, ...]]:
    """One abstract and its mentions, offsets computed as the text is joined."""
    target = min(ABSTRACT_MAX, max(ABSTRACT_MIN, int(rng.gauss(ABSTRACT_MEAN, ABSTRACT_SD))))
    n_mentions = max(1, min(14, int(rng.gauss(MENTIONS_MEAN, 2.0) + 0.5)))
    total = vocab_cw[-1]
    picks = [vocab[bisect.bisect_right(vocab_cw, rng.random() * total)] for _ in range(n_mentions)]

    # sentences: (template, entities, proposed) for mention sentences, str for fillers
    # distinct names share sentences; a repeated name gets a sentence of its own
    distinct = list(dict.fromkeys(picks))
    repeats = picks[len(distinct):] if len(distinct) < len(picks) else []
    single = [t for t in _MENTION_TEMPLATES if t[0].count("{") == 1]
    parts: list = []
    i = 0
    while i < len(distinct):
        tmpl, proposed = _MENTION_TEMPLATES[rng.randrange(len(_MENTION_TEMPLATES))]
        slots = tmpl.count("{")
        parts.append((tmpl, distinct[i:i + slots], proposed))
        i += slots
    for ent in repeats:
        tmpl, _proposed = single[rng.randrange(len(single))]
        parts.append((tmpl, [ent], False))
    length = sum(len(t) + 12 * len(e) for t, e, _ in parts)
    while length < target:
        s = fillers[rng.randrange(len(fillers))]
        parts.insert(rng.randrange(len(parts) + 1), s)
        length += len(s) + 1

    out: list[str] = []
    mentions: list[Mention] = []
    pos = 0
    for part in parts:
        if pos:
            out.append(" ")
            pos += 1
        if isinstance(part, str):
            out.append(part)
            pos += len(part)
            continue
        tmpl, ents, proposed = part
        # fill the template piece by piece, dropping slots without an entity
        pieces = tmpl.split("{")
        out.append(pieces[0])
        pos += len(pieces[0])
        for j, piece in enumerate(pieces[1:]):
            idx_end = piece.index("}")
            rest = piece[idx_end + 1:]
            if j < len(ents):
                name, typ, key = ents[j]
                mentions.append(Mention(
                    text=name, canonical=name, type=typ, start=pos, end=pos + len(name),
                    proposed=proposed and j == 0, key=key))
                out.append(name)
                pos += len(name)
            else:
                out.append("related work")
                pos += len("related work")
            out.append(rest)
            pos += len(rest)
    return "".join(out), tuple(mentions)


def listing_lines(build: Build):
    """Yield the lines (without newline) of ``build`` as a listing file.

    Each entry is a track line (if any), an author line (`` 等`` when cut)
    and the abstract, every line followed by a blank line, after the page
    title ``论文检索``, so :func:`make_build`'s ``Source.line`` values hold.
    """
    yield "论文检索"
    yield ""
    for p in build.corpus.papers:
        if p.track is not None:
            yield p.track.line or p.track.label
            yield ""
        yield ", ".join(p.authors) + (" 等" if p.authors_truncated else "")
        yield ""
        yield p.abstract
        yield ""


def write_listing(build: Build, path: str | Path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for ln in listing_lines(build):
            fh.write(ln + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="write a synthetic listing of N papers")
    ap.add_argument("n", type=int, help="number of papers")
    ap.add_argument("-o", "--output", required=True, help="listing file to write (.txt)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    b = make_build(args.n, args.seed, file=args.output)
    t1 = time.perf_counter()
    write_listing(b, args.output)
    t2 = time.perf_counter()
    n_auth = len({normalise_text(a) for p in b.corpus.papers for a in p.authors})
    print(f"{args.n} papers, {n_auth} authors, "
          f"{sum(p.authors_truncated for p in b.corpus.papers)} cut lists; "
          f"generated in {t1 - t0:.1f} s, written in {t2 - t1:.1f} s -> {args.output}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
