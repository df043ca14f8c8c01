"""Agreement between the two annotators of each concept dev set (A as reference).

Items are compared as the scorer compares them (``tests.devset_eval.eval_key``:
case, separators and a plural s folded). Prints F1 per field and set.

Run: PYTHONPATH=. .venv/bin/python tests/data/devset/concepts/agreement.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from tests.devset_eval import eval_key  # noqa: E402

FIELDS = ("named", "concepts", "proposed", "aliases")


def items(row: dict, field: str) -> set:
    if field in ("named", "concepts"):
        return {eval_key(x["text"]) for x in row[field]}
    if field == "proposed":
        return {eval_key(x) for x in row[field]}
    return {(eval_key(a), eval_key(b)) for a, b in row[field]}


def f1(a_rows: list[dict], b_rows: list[dict], field: str) -> float:
    tp = fa = fb = 0
    for a, b in zip(a_rows, b_rows, strict=True):
        assert a["id"] == b["id"]
        x, y = items(a, field), items(b, field)
        tp += len(x & y)
        fa += len(x - y)
        fb += len(y - x)
    return 2 * tp / (2 * tp + fa + fb) if tp + fa + fb else 1.0


def main() -> None:
    print("set          " + "  ".join(f"{f:>9}" for f in FIELDS))
    for a_path in sorted(HERE.glob("*_a.jsonl")):
        b_path = a_path.with_name(a_path.name.replace("_a.jsonl", "_b.jsonl"))
        load = lambda p: [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x]  # noqa: E731
        a_rows, b_rows = load(a_path), load(b_path)
        name = a_path.name.removesuffix("_a.jsonl")
        print(f"{name:<12} " + "  ".join(f"{f1(a_rows, b_rows, f):>9.3f}" for f in FIELDS))


if __name__ == "__main__":
    main()
