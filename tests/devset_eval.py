"""Scoring the extractor against the hand-annotated development sets (a
development tool beside the sets it scores, not part of the ``kg`` package).

    python tests/devset_eval.py [DEVSET.jsonl ...] [--errors] [--titles TRUTH.jsonl]

(from the repository root, with kg installed or ``PYTHONPATH=.``; the tests
import it as ``tests.devset_eval``)

prints precision and recall of mentions (models, methods, datasets) and of
proposed names, and recall of acronym pairs per split, and all together. The
sets and their history are in ``tests/data/devset/README.md``: each new set
was scored once before anyone looked at its errors; ``blind7``, ``blind8`` and
the concept sets ``cvpr23_held3``, ``icml23_held3`` are held out now (nobody
has looked at their errors): ``--errors`` and ``--coverage`` list no error of
theirs.
Mentions are compared per abstract as sets of normalised names (case,
separators, plural and size suffixes folded).

The concept sets (``tests/data/devset/concepts/*.jsonl``, annotated by
``../shared/annotation/concepts.md``; or any file given whose rows have
``named`` and ``concepts``) are scored after the old ones, one row a set, by
that guide's "How the scores are read": named and concept recall, precision
of kg's distinct mention texts, and proposed names and acronym pairs as above.
``--aggregate`` prints only their total; ``--vocab DIR`` extracts with the
concept files of DIR instead of kg's. ``--coverage SOURCES`` says, for the
listed concepts kg misses, where a vocabulary could have had them: kg's own
concept files, the open vocabularies in SOURCES (``../shared/vocab``: ITO, AIO,
Papers with Code methods and tasks), its author keywords only, or none.
"""
from __future__ import annotations

import argparse
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from kg.extract.normalise import strip_variant
from kg.identity import entity_key, singular_key

SCORED_TYPES = ("model", "method", "dataset")
DEFAULT = Path(__file__).resolve().parent / "data" / "devset" / "devset.jsonl"
# every set, oldest first (tests/data/devset/README.md tells their history)
ALL_SETS = tuple(DEFAULT.with_name(f"{name}.jsonl") for name in (
    "devset", "devset2", "devset3", "devset4", "blind", "blind2", "blind3", "blind4", "blind5",
    "blind6", "blind7", "blind8"))
# the sets nobody has looked at the errors of (``--errors`` leaves them out)
HELD_OUT = ("blind7", "blind8")
#: (``cvpr23_held2`` and ``icml23_held2`` were read on 2026-12-03, for --coverage:
#: their first-sight scores are in the sets' README, later ones are tuning figures)
#: ``neurips20_blind`` (issue 29): 160 abstracts of a venue no set is drawn from for tuning
HELD_OUT_CONCEPTS = ("cvpr23_held3", "icml23_held3", "neurips20_blind")
CONCEPT_SETS = DEFAULT.parent / "concepts"


def _gazetteer_name(text: str, sentence_start: bool | None) -> bool:
    """Is this text a gazetteer name of a scored type, under the ruler's case
    rules (``sentence_start`` None: whatever its case, as the resolver looks up
    an acronym's long form)?"""
    from kg.extract.gazetteer import load as load_gazetteer
    from kg.extract.ruler import surface_ok

    text = text[:-2] if text.endswith(("'s", "’s")) else text
    key = entity_key(text)
    form = load_gazetteer().lookup(key) or load_gazetteer().lookup(singular_key(key))
    return (form is not None and form.entity.type in SCORED_TYPES and (
        sentence_start is None or surface_ok(text, form, sentence_start)))


def _is_named_entity(concept_id: str, vocab: str | None) -> bool:
    """Is a concept a gazetteer entry of a scored type (LLM, Diffusion Model)?"""
    from kg.extract.concept_vocab import load
    from kg.extract.gazetteer import load as load_gazetteer

    c = load(vocab).concepts.get(concept_id)
    e = load_gazetteer().entity(c.entity) if c is not None and c.entity else None
    return e is not None and e.type in SCORED_TYPES


def old_keys(m, abstract: str, aliases: Mapping[str, str], vocab: str | None = None) -> set[str]:
    """The names the old guidelines (``GUIDELINES.md``) count in a mention, as
    scorer keys. An entity of a scored type is its own name. A concept counts
    where the old extractor would have named it: written as a gazetteer name
    under the ruler's case rules ("Transformer", "Large Language Models",
    "k-means"), or as either half of an acronym pair the abstract defines
    (``aliases``: short -> long) where a half is a gazetteer name or the long
    form's head noun names a method or model (no field or task such as "visual
    question answering (VQA)"); and a gazetteer name or defined long form inside
    a longer concept ("deep Reinforcement Learning", "offline reinforcement
    learning (RL)")."""
    if m.layer == "entity":
        return {eval_key(m.text)} if m.type in SCORED_TYPES else set()
    if m.layer == "keyword":    # a phrase the filter accepted: no name the old guidelines count
        return set()
    from kg.extract.discover import not_entities
    from kg.extract.heads import head_type

    if m.type in ("task", "metric") and head_type(m.canonical) in ("task", None) and \
            not _is_named_entity(m.key, vocab):
        # a task written as one ("visual-question answering (VQA)") is no mention there
        return set()

    start = not abstract[: m.start].rstrip() or abstract[: m.start].rstrip()[-1] in ".!?:"
    if _gazetteer_name(m.text, start):
        return {eval_key(m.text)}
    longs = {v.lower(): k for k, v in aliases.items()}
    pair = (aliases[m.text], m.text) if m.text in aliases else \
        (m.text, longs[m.text.lower()]) if m.text.lower() in longs else None
    if pair and pair[1] not in not_entities() and (
            _gazetteer_name(pair[0], None) or _gazetteer_name(pair[1], None)
            or head_type(pair[0]) in ("model", "method", "dataset")):
        return {eval_key(m.text)}
    words = re.split(r"\s+|-(?=[a-z])", m.text)
    return {eval_key(" ".join(part)) for k in range(1, len(words))
            for part in (words[k:], words[:k])
            if _gazetteer_name(" ".join(part), False) or " ".join(part).lower() in longs}


def eval_key(text: str) -> str:
    return singular_key(entity_key(strip_variant(text.strip())))


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def add(self, got: set, gold: set) -> None:
        self.tp += len(got & gold)
        self.fp += len(got - gold)
        self.fn += len(gold - got)


def load(path: Path = DEFAULT) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip()]


def evaluate(rows: list[dict], errors: list | None = None,
             vocab: str | None = None, keywords: bool = False) -> dict[str, dict[str, Score]]:
    """Scores per split (``dev``, ``test``, ``all``) and measure."""
    from kg.extract import extract_texts

    exs = extract_texts([r["abstract"] for r in rows], [r["id"] for r in rows], concepts=vocab,
                        keywords=keywords)
    out: dict[str, dict[str, Score]] = {}
    for r, ex in zip(rows, exs, strict=True):
        shorts = {a.short: a.long for a in ex.aliases}
        got_m = {k for m in ex.mentions for k in old_keys(m, ex.abstract, shorts, vocab)}
        gold_m = {eval_key(m["text"]) for m in r["mentions"]}
        got_p = {eval_key(m.text) for m in ex.mentions if m.proposed}
        gold_p = {eval_key(p) for p in r["proposed"]}
        got_a = {(a.long.lower(), a.short) for a in ex.aliases}
        gold_a = {(a["long"].lower(), a["short"]) for a in r["acronyms"]}
        for split in (r["split"], "all"):
            s = out.setdefault(split, {"mentions": Score(), "proposed": Score(),
                                       "acronyms": Score()})
            s["mentions"].add(got_m, gold_m)
            s["proposed"].add(got_p, gold_p)
            s["acronyms"].add(got_a, gold_a)
        if errors is not None and (got_m ^ gold_m or gold_p - got_p):
            errors.append((r["id"], r["split"], sorted(got_m - gold_m), sorted(gold_m - got_m),
                           sorted(gold_p - got_p)))
    return out


def report(scores: dict[str, dict[str, Score]]) -> str:
    lines = ["split  n_mentions  mention_P  mention_R  proposed_P  proposed_R  acronym_R"]
    for split in sorted(scores, key=lambda k: (k == "all", k)):
        s = scores[split]
        m = s["mentions"]
        lines.append(f"{split:<5}  {m.tp + m.fn:>10}  {m.precision:>9.3f}  {m.recall:>9.3f}  "
                     f"{s['proposed'].precision:>10.3f}  {s['proposed'].recall:>10.3f}  "
                     f"{s['acronyms'].recall:>9.3f}")
    return "\n".join(lines)


# ------------------------------------------------------------ concept sets


def fold(text: str) -> str:
    """Names compared folded: case, separators and a plural s."""
    return singular_key(entity_key(text))


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s\-‐–]+", text.strip()) if w]


def near(text: str, listed: Collection[str]) -> bool:
    """Is a mention text a listed name, or one leading or trailing word off one?

    >>> near("the LLaMA-2 model", ["LLaMA-2 model"]), near("graph neural", ["graph networks"])
    (True, False)
    """
    folded = {fold(x) for x in listed}
    if fold(text) in folded:
        return True
    w = _words(text)
    shorter = {fold(" ".join(w[1:])), fold(" ".join(w[:-1]))} if len(w) > 1 else set()
    if shorter & folded:
        return True
    return any(fold(" ".join(lw[1:])) == fold(text) or fold(" ".join(lw[:-1])) == fold(text)
               for lw in map(_words, listed) if len(lw) > 1)


def _found(item: str, got: set[str], pairs: list[tuple[str, str]]) -> bool:
    """Did kg find a listed name: its text, or the other half of a pair the
    abstract defines (a concept under its acronym or long form)?"""
    k = fold(item)
    if k in got:
        return True
    return any((fold(a) == k and fold(b) in got) or (fold(b) == k and fold(a) in got)
               for a, b in pairs)


CONCEPT_MEASURES = ("named", "concepts", "precision", "proposed", "acronyms")


def evaluate_concepts(rows: list[dict], vocab: str | None = None,
                      errors: list | None = None, keywords: bool = False) -> dict[str, Score]:
    """The scores of one concept set, by measure: recall of ``named`` and
    ``concepts``; ``precision`` of kg's distinct mention texts; ``proposed``
    and ``acronyms`` as :func:`evaluate` counts them."""
    from kg.extract import extract_texts

    exs = extract_texts([r["abstract"] for r in rows], [r["id"] for r in rows], concepts=vocab,
                        keywords=keywords)
    out = {m: Score() for m in CONCEPT_MEASURES}
    for r, ex in zip(rows, exs, strict=True):
        got = {fold(t) for m in ex.mentions for t in (m.text, m.canonical)}
        pairs = [tuple(p) for p in r["aliases"]] + [(a.long, a.short) for a in ex.aliases]
        missed: dict[str, list[str]] = {"named": [], "concepts": []}
        for measure in ("named", "concepts"):
            for item in dict.fromkeys(x["text"] for x in r[measure]):
                hit = _found(item, got, pairs)
                out[measure].tp += hit
                out[measure].fn += not hit
                if not hit:
                    missed[measure].append(item)
        listed = [x["text"] for x in r["named"] + r["concepts"]] + list(r["proposed"]) + [
            h for p in r["aliases"] for h in p]
        texts = {fold(m.text): m.text for m in ex.mentions}
        wrong = sorted(t for t in texts.values() if not near(t, listed))
        out["precision"].tp += len(texts) - len(wrong)
        out["precision"].fp += len(wrong)
        out["proposed"].add({eval_key(m.text) for m in ex.mentions if m.proposed},
                            {eval_key(p) for p in r["proposed"]})
        out["acronyms"].add({(a.long.lower(), a.short) for a in ex.aliases},
                            {(p[0].lower(), p[1]) for p in r["aliases"]})
        if errors is not None and (missed["named"] or missed["concepts"] or wrong):
            errors.append((r["id"], wrong, missed["named"], missed["concepts"]))
    return out


def concept_report(scores: dict[str, dict[str, Score]], aggregate: bool = False) -> str:
    """One row a concept set (and their total)."""
    lines = ["set                 n_named  named_R  n_concepts  concept_R  precision  "
             "proposed_P  proposed_R  acronym_R"]
    total = {m: Score() for m in CONCEPT_MEASURES}
    for s in scores.values():
        for m in CONCEPT_MEASURES:
            total[m].tp += s[m].tp
            total[m].fp += s[m].fp
            total[m].fn += s[m].fn
    rows = ([] if aggregate else list(scores.items())) + [("all", total)]
    for name, s in rows:
        n, c = s["named"], s["concepts"]
        lines.append(f"{name:<18}  {n.tp + n.fn:>7}  {n.recall:>7.3f}  {c.tp + c.fn:>10}  "
                     f"{c.recall:>9.3f}  {s['precision'].precision:>9.3f}  "
                     f"{s['proposed'].precision:>10.3f}  {s['proposed'].recall:>10.3f}  "
                     f"{s['acronyms'].recall:>9.3f}")
    return "\n".join(lines)


def is_concept_set(rows: list[dict]) -> bool:
    return bool(rows) and "concepts" in rows[0] and "named" in rows[0]


_TITLE_NAME = re.compile(r"^([^:]{2,40}):\s")


def title_names(truth_rows: list[dict], held_out: Collection[str] = frozenset(),
                misses: list | None = None) -> tuple[int, int]:
    """A yardstick for proposed names on a whole corpus with titles: a title
    "Name: what it does" names the paper's own contribution, and where that name
    is in the clean abstract the extractor should propose it. Returns (names in
    their abstracts, proposed); abstracts whose id (``icml-INDEX``) is in
    ``held_out`` are left out. Generic leads ("Position:", "Towards ...") are no
    names; lower-case coinages are rarely in this form, so this measures the
    capitalised names only.
    """
    from kg.extract import extract_texts
    from kg.extract.cleanup import clean

    rows = []
    for r in truth_rows:
        m = _TITLE_NAME.match(r.get("title") or "")
        if not m or not r.get("abstract") or f"icml-{r.get('index')}" in held_out:
            continue
        name = m.group(1).strip()
        if len(name.split()) > 4 or name.lower().startswith(("position", "towards", "on ", "beyond")):
            continue
        if name in clean(r["abstract"]):
            rows.append((r, name))
    found = 0
    for (r, name), ex in zip(rows, extract_texts([r["abstract"] for r, _ in rows]), strict=True):
        if eval_key(name) in {eval_key(m.text) for m in ex.mentions if m.proposed}:
            found += 1
        elif misses is not None:
            misses.append((r.get("index"), name))
    return len(rows), found


COVERAGE = ("kg", "open", "keywords", "none")


def coverage(missed: list[str], sources: Path, vocab: str | None = None) -> dict[str, list[str]]:
    """Where a vocabulary could have had each missed concept, folded as scored:
    ``kg`` (kg's concept files, or those of ``vocab``: the matcher missed it),
    ``open`` (a name or alias in the open vocabularies of ``sources``),
    ``keywords`` (only among the author keywords there), ``none``.

    >>> import tempfile; d = Path(tempfile.mkdtemp())
    >>> _ = (d / "x.jsonl").write_text('{"name": "Poster Generation", "aliases": []}\\n')
    >>> _ = (d / "author_keywords_2019_2023.tsv").write_text("keyword\\tpapers\\ngraphic design\\t4\\n")
    >>> c = coverage(["diffusion models", "poster generations", "graphic design",
    ...               "hidden positives"], d)
    >>> c["kg"], c["open"], c["keywords"], c["none"]
    (['diffusion models'], ['poster generations'], ['graphic design'], ['hidden positives'])
    """
    from kg.extract.concept_vocab import load as load_concepts

    ours = {fold(n) for c in load_concepts(vocab).concepts.values()
            for n in (c.label, *c.forms, *c.acronyms)}
    open_ = {fold(n) for p in sorted(sources.glob("*.jsonl")) for r in load(p)
             for n in (r["name"], *r.get("aliases", ()))}
    keywords = {fold(line.split("\t")[0]) for line in
                (sources / "author_keywords_2019_2023.tsv").read_text("utf-8").splitlines()[1:]}
    out: dict[str, list[str]] = {c: [] for c in COVERAGE}
    for item in missed:
        k = fold(item)
        out["kg" if k in ours else "open" if k in open_ else
            "keywords" if k in keywords else "none"].append(item)
    return out


def held_out(name: str) -> bool:
    """Is a set (by its file's stem) one whose errors nobody may read?

    >>> held_out("blind7"), held_out("icml23_held3_gold"), held_out("cvpr23_dev")
    (True, True, False)
    """
    return name in HELD_OUT or name.startswith(HELD_OUT_CONCEPTS)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("devset", nargs="*", default=[str(p) for p in ALL_SETS] + [
        str(p) for p in sorted(CONCEPT_SETS.glob("*.jsonl"))
        if not p.stem.endswith(("_a", "_b"))     # (an annotator's own file: no gold)
        and not p.stem.startswith(HELD_OUT_CONCEPTS)])   # held out: scored only when named
    ap.add_argument("--errors", action="store_true", help="list each abstract's misses")
    ap.add_argument("--titles", metavar="TRUTH.jsonl",
                    help="also measure proposed names against the titles of a corpus with them "
                         "(e.g. the ICML 2024 truth file), leaving out the held-out set")
    ap.add_argument("--aggregate", action="store_true",
                    help="for the concept sets, print only the total over them")
    ap.add_argument("--vocab", metavar="DIR", help="concept files to extract with (default: kg's)")
    ap.add_argument("--keywords", action="store_true",
                    help="extract with the learned filter's keyword mentions (kg extract --keywords)")
    ap.add_argument("--coverage", metavar="SOURCES",
                    help="where the missed concepts are listed: kg's vocabulary, the open "
                         "vocabularies in SOURCES (../shared/vocab), its author keywords, none")
    args = ap.parse_args(argv)
    errors: list | None = [] if args.errors else None
    sets = {path: load(Path(path)) for path in args.devset if Path(path).exists()}
    rows = [r for rs in sets.values() if not is_concept_set(rs) for r in rs]
    if rows:
        print(report(evaluate(rows, errors, args.vocab, args.keywords)))
    for e in errors or ():
        if e[1] not in HELD_OUT:
            print(f"{e[0]} [{e[1]}] extra={e[2]} missed={e[3]} proposed_missed={e[4]}")
    concept_sets = {Path(p).stem: rs for p, rs in sets.items() if is_concept_set(rs)}
    if concept_sets:
        c_errors: list | None = [] if args.errors or args.coverage else None
        print(concept_report({name: evaluate_concepts(
            rs, args.vocab, None if held_out(name) else c_errors, args.keywords)
            for name, rs in concept_sets.items()}, args.aggregate))
        for pid, wrong, named, concepts in c_errors or () if args.errors else ():
            print(f"{pid} extra={wrong} missed={named + concepts}")
        if args.coverage:
            missed_all = [m for *_, concepts in c_errors or () for m in concepts]
            where = coverage(missed_all, Path(args.coverage), args.vocab)
            n = len(missed_all)
            print(f"concepts missed in the sets whose errors may be read: {n}; where listed: "
                  + ", ".join(f"{c} {len(v)} ({len(v) / n if n else 0:.0%})"
                              for c, v in where.items()))
    if args.titles:
        held = {r["id"] for p in ALL_SETS if p.stem in HELD_OUT for r in load(p)}
        truth = [json.loads(line) for line in Path(args.titles).read_text("utf-8").splitlines()
                 if line.strip()]
        misses: list | None = [] if args.errors else None
        n, found = title_names(truth, held, misses)
        print(f"titles 'Name: ...' whose name is in the abstract: {n}, proposed: {found} "
              f"({found / n if n else 1.0:.3f}; {' and '.join(HELD_OUT)} left out)")
        for index, name in misses or ():
            print(f"title name not proposed: icml-{index} {name}")


if __name__ == "__main__":
    main()
