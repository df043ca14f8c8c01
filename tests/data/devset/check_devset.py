"""Sanity checks for devset.jsonl (format and groundedness, not correctness).

Run: .venv/bin/python tests/data/devset/check_devset.py
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

PATH = Path(__file__).with_name("devset.jsonl")
SHARED = Path("/work/shared")
GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ",
         "epsilon": "ε", "varepsilon": "ε", "Omega": "Ω", "omega": "ω", "theta": "θ"}
TYPES = {"model", "method", "dataset"}


def clean(text: str) -> str:
    """Readable text: LaTeX commands/braces and Markdown emphasis removed."""
    t = text.replace("``", '"').replace("''", '"')
    t = re.sub(r"\\(" + "|".join(GREEK) + r")\b", lambda m: GREEK[m.group(1)], t)
    t = re.sub(r"\\[A-Za-z]+\*?", "", t)  # \textbf, \revise, \mathbb ...
    t = re.sub(r"[{}$]", "", t)
    t = re.sub(r"\*+", "", t)  # Markdown bold/italic
    t = re.sub(r"(?<![A-Za-z0-9])_(?=\S)|(?<=\S)_(?![A-Za-z0-9])", "", t)
    t = re.sub(r"(?<=[a-z])- (?=[a-z])", "", t)  # "Assis- tant" -> "Assistant"
    return t


def source_abstracts() -> dict[str, str]:
    out = {}
    for tag, name in (("seed000", "000_bc5f1642c1ae3e85.txt"),
                      ("seed004", "004_4e94df651592292c.txt")):
        for n, line in enumerate(
                (SHARED / "seeds" / name).read_text("utf-8").split("\n"), 1):
            out[f"{tag}-{n}"] = line
    for line in (SHARED / "corpora" / "icml_2024_all.truth.jsonl").open():
        o = json.loads(line)
        out[f"icml-{o['index']}"] = o["abstract"]
    return out


def row_errors(r: dict, c: str) -> list[str]:
    """What is wrong with the mentions, proposed names and acronym pairs of one
    annotated abstract (``c``: the abstract cleaned)."""
    errors: list[str] = []
    err = errors.append
    seen = set()
    for m in r["mentions"]:
        if m["type"] not in TYPES:
            err(f"bad type {m}")
        key = m["text"].casefold()
        if key in seen:
            err(f"duplicate mention {m['text']!r}")
        seen.add(key)
        if m["text"] not in c and m["text"].casefold() not in c.casefold():
            err(f"mention not in text: {m['text']!r}")
    if len({p.casefold() for p in r["proposed"]}) != len(r["proposed"]):
        err("duplicate proposed")
    for p in r["proposed"]:
        if p not in c:
            err(f"proposed not in text: {p!r}")
    pairs = [(x["long"].casefold(), x["short"]) for x in r["acronyms"]]
    if len(set(pairs)) != len(pairs):
        err("duplicate acronym pair")
    for x in r["acronyms"]:
        if x["short"] not in c:
            err(f"short not in text: {x['short']!r}")
        if x["long"].casefold() not in c.casefold():
            err(f"long not in text: {x['long']!r}")
    return errors


def main() -> int:
    src = source_abstracts()
    icml_lines = set((SHARED / "corpora" / "icml_2024_all.txt")
                     .read_text("utf-8").split("\n"))
    rows = [json.loads(line) for line in PATH.read_text("utf-8").splitlines()]
    errors: list[str] = []
    err = errors.append
    if len(rows) != 70:
        err(f"{len(rows)} objects, expected 70")
    if len({r["id"] for r in rows}) != len(rows):
        err("duplicate ids")
    for k, r in enumerate(rows, 1):
        id_ = r["id"]
        if set(r) != {"id", "split", "abstract", "mentions", "proposed",
                      "acronyms"}:
            err(f"{id_}: keys {sorted(r)}")
        if r["split"] != ("test" if k % 3 == 0 else "dev"):
            err(f"{id_}: split {r['split']}")
        if r["abstract"] != src.get(id_):
            err(f"{id_}: abstract differs from the listing")
        if id_.startswith("icml-") and r["abstract"] not in icml_lines:
            err(f"{id_}: abstract not a line of icml_2024_all.txt")
        errors.extend(f"{id_}: {e}" for e in row_errors(r, clean(r["abstract"])))
    for e in errors:
        print("ERROR", e)

    by_split = Counter(r["split"] for r in rows)
    print(f"abstracts: {len(rows)}  (dev {by_split['dev']}, test {by_split['test']})")
    for split in ("all", "dev", "test"):
        sel = [r for r in rows if split == "all" or r["split"] == split]
        types = Counter(m["type"] for r in sel for m in r["mentions"])
        print(f"[{split}] mentions {sum(types.values())} "
              f"(model {types['model']}, method {types['method']}, "
              f"dataset {types['dataset']}); "
              f"proposed {sum(len(r['proposed']) for r in sel)} "
              f"in {sum(1 for r in sel if r['proposed'])} abstracts; "
              f"acronym pairs {sum(len(r['acronyms']) for r in sel)}; "
              f"abstracts with no mention {sum(1 for r in sel if not r['mentions'])}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
