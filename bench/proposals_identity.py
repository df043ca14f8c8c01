"""Extraction before and after a change to the proposal detector, paper by paper.

    .venv/bin/python bench/proposals_identity.py --old OLD_TREE [--new NEW_TREE]

Runs kg's extraction, in a child process per source tree (``PYTHONPATH``), over
the abstracts of every dev set (``tests/data/devset/*.jsonl``) and of the
listings (ICML 2024 in full; the CVPR 2023 and ICML 2023 tuning listings when
they are there), and compares the two outputs paper by paper: the whole
extraction (mentions, types, keys, proposals, aliases) and
:func:`kg.extract.proposals.find_proposals` on the clean text without tokens
(the regex-anchored path the pipeline does not take). Prints the number of
papers that differ and exits 1 if any does. ``OLD_TREE`` is, for example, a
``git worktree add --detach /tmp/base main``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LISTINGS = (ROOT.parent / "shared" / "corpora" / "icml_2024_all.txt",
            ROOT.parent / "notes" / "annot2" / "cvpr23_tuning2.txt",
            ROOT.parent / "notes" / "annot2" / "icml23_tuning2.txt")


def _sources() -> list[tuple[str, list[str], list[str]]]:
    """(source name, ids, raw abstracts) of every dev set and listing there is."""
    out = []
    for f in sorted((ROOT / "tests" / "data" / "devset").glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line]
        out.append((f.name, [r["id"] for r in rows], [r["abstract"] for r in rows]))
    from kg.parse import read_corpus

    for f in LISTINGS:
        if f.exists() and "_held" not in f.name:
            papers = read_corpus([f]).papers
            out.append((f.name, [p.id for p in papers], [p.abstract for p in papers]))
    return out


def dump() -> None:
    """Child mode: one line per paper, ``source id digest-of-extraction digest-of-proposals``."""
    from kg.extract import extract_texts, extraction_to_json
    from kg.extract.acronyms import find_acronyms
    from kg.extract.cleanup import clean
    from kg.extract.proposals import find_proposals

    def digest(obj: object) -> str:
        return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True)
                              .encode()).hexdigest()[:16]

    for name, ids, raws in _sources():
        for ex, raw in zip(extract_texts(raws, ids), raws, strict=True):
            text = clean(raw)
            props = [(p.name, p.start, p.end, p.type)
                     for p in find_proposals(text, find_acronyms(text))]
            sys.stdout.write(f"{name}\t{ex.paper_id}\t{digest(extraction_to_json(ex))}"
                             f"\t{digest(props)}\n")


def run(tree: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """The digests of every paper with the code of ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--dump"], env=env,
                         check=True, capture_output=True, text=True, cwd=tree).stdout
    rows = {}
    for line in out.splitlines():
        source, pid, ex, props = line.split("\t")
        rows[(source, pid)] = (ex, props)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, help="source tree of the code before")
    ap.add_argument("--new", type=Path, default=ROOT, help="source tree of the code after")
    ap.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:
        dump()
        return 0
    if args.old is None:
        ap.error("--old is required")
    old, new = run(args.old.resolve()), run(args.new.resolve())
    by_source: dict[str, list[int]] = {}
    differ = []
    for key in sorted(old.keys() | new.keys()):
        counts = by_source.setdefault(key[0], [0, 0])
        counts[0] += 1
        if old.get(key) != new.get(key):
            counts[1] += 1
            differ.append(key)
    for source, (n, d) in by_source.items():
        print(f"{source:24} {n:6} papers  {d:4} differ")
    print(f"{'all':24} {len(old.keys() | new.keys()):6} papers  {len(differ):4} differ")
    for source, pid in differ[:20]:
        print(f"  differs: {source} {pid}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
