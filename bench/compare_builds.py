"""Compare two ``kg build`` output folders file by file.

    .venv/bin/python bench/compare_builds.py OLD_DIR NEW_DIR

Prints one line per output (same / differs / only in one), leaving out the
embedded store (the engine's own database files) and kg's bookkeeping
(lock, manifest), and exits 1 if any output differs. Used to show that a
refactoring leaves every output byte-identical.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

SKIP_TOP = {"store", ".kg-lock", ".kg-manifest.json"}


def outputs(folder: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every output file below ``folder``."""
    found = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if p.is_file() and rel.parts[0] not in SKIP_TOP and not rel.parts[0].startswith(".kg-"):
            found[rel.as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return found


def compare(old: Path, new: Path) -> list[tuple[str, str]]:
    """(path, verdict) for every output of either folder, in path order."""
    a, b = outputs(old), outputs(new)
    rows = []
    for name in sorted(a.keys() | b.keys()):
        if name not in a:
            rows.append((name, "only in new"))
        elif name not in b:
            rows.append((name, "only in old"))
        else:
            rows.append((name, "same" if a[name] == b[name] else "DIFFERS"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    args = ap.parse_args()
    rows = compare(args.old, args.new)
    for name, verdict in rows:
        print(f"{verdict:<12} {name}")
    bad = sum(v != "same" for _, v in rows)
    print(f"{len(rows) - bad} of {len(rows)} outputs byte-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
