"""Compare two ``kg build`` output folders file by file, or build one input with two kg's.

    .venv/bin/python bench/compare_builds.py OLD_DIR NEW_DIR
    .venv/bin/python bench/compare_builds.py --before /tmp/kg-before --after . [LISTING ...]

The first form compares two folders: one line per output (same / differs /
only in one), leaving out the embedded store (the engine's own database
files) and kg's bookkeeping (lock, manifest), and exits 1 if any output
differs. Used to show that a refactoring leaves every output byte-identical.

The second form makes the two folders itself: it runs ``kg build`` on the
same input (the listing files given, or the bundled sample when none is) with
two installations of kg, one after the other, each into a fresh folder, and
prints a table (file, identical?) and the two build times side by side. An
installation is a ``kg`` executable, a virtual environment (its ``bin/kg``) or
a checkout holding one in ``.venv/``. The store is compared by its triples
(every quad, sorted) rather than its database files. Each side first builds
the bundled sample once, untimed, so that neither pays for making its
start-up cache (``kg/.cache``) in the timed build. With ``--repeat N`` each side
builds N times, the two alternating (before, after, before, ...), and the table
gives each side's fastest time and all of them: the machine's other work slows
the wall clock, not the outputs. Exits 1 if anything differs.
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP_TOP = {"store", ".kg-lock", ".kg-manifest.json"}
STORE = "store"


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


def store_quads(folder: Path) -> tuple[int, str] | None:
    """(number of quads, SHA-256 of the sorted N-Quads) of the build's store, or None."""
    path = folder / STORE
    if not path.is_dir():
        return None
    import pyoxigraph as ox

    store = ox.Store.read_only(str(path))
    lines = sorted(str(q) for q in store)
    return len(lines), hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def kg_executable(where: Path) -> Path:
    """The ``kg`` of an executable, a venv or a checkout with ``.venv/``."""
    for candidate in (where, where / "bin" / "kg", where / ".venv" / "bin" / "kg"):
        if candidate.is_file():
            return candidate
    raise SystemExit(f"compare_builds: no kg executable at {where} (nor bin/kg, .venv/bin/kg)")


def package_of(kg: Path) -> str:
    """Where the ``kg`` package that ``kg`` runs lives (its interpreter's import of it)."""
    python = kg.parent / "python"
    done = subprocess.run([str(python), "-c", "import kg; print(kg.__path__[0])"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir())
    return done.stdout.strip() or f"? ({done.stderr.strip().splitlines()[-1:]})"


def build(kg: Path, inputs: list[Path], out: Path, extra: list[str]) -> float:
    """Run ``kg build INPUTS -o OUT``; its wall-clock time in seconds."""
    argv = [str(kg), "build", *map(str, inputs), "-o", str(out), "-q", *extra]
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"compare_builds: {' '.join(argv)} failed:\n{done.stderr}")
    return took


def compare_builds(before: Path, after: Path, inputs: list[Path], extra: list[str],
                   warm: bool = True, repeat: int = 1
                   ) -> tuple[list[tuple[str, str]], list[float], list[float]]:
    """Build ``inputs`` with both kg's: (rows of (file, verdict), times before, times after)."""
    kg_before, kg_after = kg_executable(before), kg_executable(after)
    with tempfile.TemporaryDirectory(prefix="kg-compare-") as d:
        work = Path(d)
        if warm:
            for name, kg in (("warm-before", kg_before), ("warm-after", kg_after)):
                build(kg, [], work / name, [])
        t_before, t_after = [], []
        for i in range(repeat):
            suffix = f"-{i}" if i else ""
            t_before.append(build(kg_before, inputs, work / f"before{suffix}", extra))
            t_after.append(build(kg_after, inputs, work / f"after{suffix}", extra))
        rows = compare(work / "before", work / "after")
        qa, qb = store_quads(work / "before"), store_quads(work / "after")
        if qa is not None or qb is not None:
            verdict = "same" if qa == qb else "DIFFERS"
            count = f" ({qa[0]:,} quads)" if qa else ""
            rows.append((f"{STORE}/ (by its triples{count})", verdict))
    return rows, t_before, t_after


def table(rows: list[tuple[str, str]], t_before: list[float] | None = None,
          t_after: list[float] | None = None) -> str:
    """The rows as a Markdown table, then the build times (the fastest of each side)."""
    lines = ["| file | identical? |", "| --- | --- |"]
    lines += [f"| `{name}` | {'yes' if v == 'same' else v} |" for name, v in rows]
    same = sum(v == "same" for _, v in rows)
    lines.append(f"\n{same} of {len(rows)} outputs identical")
    if t_before and t_after:
        b, a = min(t_before), min(t_after)
        every = (f"; every run: before {', '.join(f'{x:.2f}' for x in t_before)}, "
                 f"after {', '.join(f'{x:.2f}' for x in t_after)}" if len(t_before) > 1 else "")
        lines.append(f"build time: before {b:.2f} s, after {a:.2f} s "
                     f"(after/before {a / b:.2f}){every}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path,
                    help="OLD_DIR NEW_DIR to compare; with --before/--after, the listings to build")
    ap.add_argument("--before", type=Path, help="the kg before (executable, venv or checkout)")
    ap.add_argument("--after", type=Path, help="the kg after (executable, venv or checkout)")
    ap.add_argument("--no-warm", action="store_true", help="skip the untimed warm-up builds")
    ap.add_argument("--repeat", type=int, default=1, help="builds per side, alternating")
    ap.add_argument("--kg-arg", action="append", default=[],
                    help="an extra argument for both kg builds (repeatable)")
    args = ap.parse_args()
    if args.before or args.after:
        if not (args.before and args.after):
            ap.error("--before and --after go together")
        rows, t_before, t_after = compare_builds(args.before, args.after, args.folders,
                                                 args.kg_arg, warm=not args.no_warm,
                                                 repeat=max(1, args.repeat))
        label = ", ".join(p.name for p in args.folders) or "the bundled sample"
        print(f"kg build {label}: before = {package_of(kg_executable(args.before))}, "
              f"after = {package_of(kg_executable(args.after))}\n")
        print(table(rows, t_before, t_after))
    else:
        if len(args.folders) != 2:
            ap.error("give OLD_DIR NEW_DIR, or --before and --after")
        rows = compare(*args.folders)
        for name, verdict in rows:
            print(f"{verdict:<12} {name}")
        print(f"{sum(v == 'same' for _, v in rows)} of {len(rows)} outputs byte-identical")
    return 1 if any(v != "same" for _, v in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
