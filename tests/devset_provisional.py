"""Provisional concept dev gold from two annotators' files, until the
adjudicated sets exist (a development tool, not part of the ``kg`` package).

    python tests/devset_provisional.py INPUT.txt A.jsonl B.jsonl -o OUT.jsonl [--agreed]

``INPUT.txt`` holds the abstracts under ``## n=N id=ID`` headers; ``A`` and
``B`` are the two annotators' lines (``n``, ``id``, ``named``, ``concepts``,
``proposed``, ``aliases``, per ``../shared/annotation/concepts.md``). Writes
the gold format ``tests/devset_eval.py`` scores (``id``, ``split``,
``abstract``, ``named``, ``concepts``, ``proposed``, ``aliases``): by default
the union of A and B (an item both list, folded for case, separators and a
plural s, once, with A's surface form and type), with ``--agreed`` what both
list. Only dev halves go through this: never a held-aside file.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from kg.extract.normalise import entity_key, singular_key

_HEADER = re.compile(r"^## n=(\d+) id=(\S+)\s*$", re.MULTILINE)


def fold(text: str) -> str:
    """The scorer's comparison key: case, separators and a plural s folded.

    >>> fold("Diffusion-Models") == fold("diffusion model")
    True
    """
    return singular_key(entity_key(text))


def read_input(text: str) -> dict[str, str]:
    """Abstracts by id from the ``## n=N id=ID`` input format.

    >>> read_input("## n=1 id=a-1\\nWe study RL.\\n\\n## n=2 id=a-2\\nMore.\\n")
    {'a-1': 'We study RL.', 'a-2': 'More.'}
    """
    heads = list(_HEADER.finditer(text))
    return {h.group(2): text[h.end(): heads[k + 1].start() if k + 1 < len(heads) else len(text)]
            .strip() for k, h in enumerate(heads)}


def _combine(a: list, b: list, key, agreed: bool) -> list:
    """A's items then B's, each key once; with ``agreed`` only A's that B has too."""
    kb = {key(x) for x in b}
    seen: set = set()
    out = []
    for x in (a if agreed else [*a, *b]):
        k = key(x)
        if k in seen or (agreed and k not in kb):
            continue
        seen.add(k)
        out.append(x)
    return out


def provisional(abstracts: dict[str, str], a_rows: list[dict], b_rows: list[dict],
                agreed: bool = False, split: str = "dev") -> list[dict]:
    """Gold rows, in A's order, from the union (or ``agreed``: the intersection)."""
    by_id = {r["id"]: r for r in b_rows}
    out = []
    for ra in a_rows:
        rb = by_id.get(ra["id"])
        if rb is None:
            continue
        item = lambda x: fold(x["text"])  # noqa: E731
        out.append({
            "id": ra["id"], "split": split, "abstract": abstracts[ra["id"]],
            "named": _combine(ra["named"], rb["named"], item, agreed),
            "concepts": _combine(ra["concepts"], rb["concepts"], item, agreed),
            "proposed": _combine(ra["proposed"], rb["proposed"], fold, agreed),
            "aliases": _combine(ra["aliases"], rb["aliases"],
                                lambda p: (p[0].lower(), p[1]), agreed),
        })
    return out


def _jsonl(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip()]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--agreed", action="store_true", help="what both list, not the union")
    args = ap.parse_args(argv)
    if "_held" in args.input + args.a + args.b:
        ap.error("held-aside files are scored once by the adjudicated gold, never used here")
    rows = provisional(read_input(Path(args.input).read_text(encoding="utf-8")),
                       _jsonl(args.a), _jsonl(args.b), args.agreed)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                 encoding="utf-8")
    print(f"{args.output}: {len(rows)} abstracts")


if __name__ == "__main__":
    main()
