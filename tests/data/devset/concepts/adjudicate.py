"""Join two annotators' batches (``batches/NAME.a.jsonl``, ``.b.jsonl``) for an adjudicator.

    python3 tests/data/devset/concepts/adjudicate.py prep NAME     # writes NAME.disputes.json
    python3 tests/data/devset/concepts/adjudicate.py final NAME    # writes NAME.jsonl

``prep``: per abstract, what both annotators listed (kept as it is) and what only
one did, compared as the scorer compares (case, separators and a plural s folded);
an item both listed with two types is a type dispute. The adjudicator writes
``NAME.decisions.jsonl``: one ``{"id", "named", "concepts", "proposed", "aliases",
"types"}`` a line, the disputed items to keep (as they appear in the disputes file)
and ``types``: ``{"field", "text", "type"}`` for each type dispute.
``final``: the agreed items plus the decisions, in the concept sets' format
(``id``, ``split``, ``abstract``, ``named``, ``concepts``, ``proposed``, ``aliases``).
The disputes files are not kept in the tree (``prep`` makes them again, the same).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BATCHES = HERE / "batches"
FIELDS = ("named", "concepts", "proposed", "aliases")


def fold(text: str) -> str:
    """As ``tests.devset_eval.eval_key`` folds: case, separators, a plural s.

    >>> fold("Large-Language Models"), fold("LLMs")
    ('large language model', 'llm')
    """
    t = re.sub(r"[\s\-_‐–—/]+", " ", text.lower()).strip()
    return t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t


def key(field: str, item) -> str:
    if field in ("named", "concepts"):
        return fold(item["text"])
    if field == "proposed":
        return fold(item)
    return fold(item[0]) + " || " + fold(item[1])


def load(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def prep(name: str) -> None:
    inputs = load(BATCHES / f"{name}.input.jsonl")
    a_rows = {r["id"]: r for r in load(BATCHES / f"{name}.a.jsonl")}
    b_rows = {r["id"]: r for r in load(BATCHES / f"{name}.b.jsonl")}
    out = []
    for row in inputs:
        a, b = a_rows[row["id"]], b_rows[row["id"]]
        entry = {"id": row["id"], "abstract": row["abstract"], "agreed": {}, "only_a": {},
                 "only_b": {}, "type_disputes": []}
        for f in FIELDS:
            ka = {key(f, x): x for x in a.get(f, [])}
            kb = {key(f, x): x for x in b.get(f, [])}
            entry["agreed"][f] = [ka[k] for k in ka if k in kb]
            entry["only_a"][f] = [ka[k] for k in ka if k not in kb]
            entry["only_b"][f] = [kb[k] for k in kb if k not in ka]
            if f in ("named", "concepts"):
                entry["type_disputes"] += [{"field": f, "text": ka[k]["text"],
                                            "a": ka[k]["type"], "b": kb[k]["type"]}
                                           for k in ka if k in kb and ka[k]["type"] != kb[k]["type"]]
        out.append(entry)
    (BATCHES / f"{name}.disputes.json").write_text(
        json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n = sum(len(e["only_a"][f]) + len(e["only_b"][f]) for e in out for f in FIELDS)
    t = sum(len(e["type_disputes"]) for e in out)
    print(f"{name}: {len(out)} abstracts, {n} disputed items, {t} type disputes")


def final(name: str) -> None:
    disputes = json.loads((BATCHES / f"{name}.disputes.json").read_text(encoding="utf-8"))
    decisions = {r["id"]: r for r in load(BATCHES / f"{name}.decisions.jsonl")}
    split = name.rsplit("-", 1)[0]
    with (BATCHES / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
        for e in disputes:
            d = decisions[e["id"]]
            row = {"id": e["id"], "split": split, "abstract": e["abstract"]}
            for f in FIELDS:
                offered = {key(f, x) for x in e["only_a"][f] + e["only_b"][f]}
                kept = [x for x in d.get(f, []) if key(f, x) in offered]
                if len(kept) != len(d.get(f, [])):
                    raise SystemExit(f"{e['id']}: {f}: a decision keeps an item no annotator "
                                     "listed")
                items = e["agreed"][f] + kept
                if f in ("named", "concepts"):
                    types = {fold(t["text"]): t["type"] for t in d.get("types", [])
                             if t["field"] == f}
                    items = [{"text": x["text"], "type": types.get(fold(x["text"]), x["type"])}
                             for x in items]
                row[f] = items
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{name}: {len(disputes)} abstracts written to {name}.jsonl")


if __name__ == "__main__":
    {"prep": prep, "final": final}[sys.argv[1]](sys.argv[2])
