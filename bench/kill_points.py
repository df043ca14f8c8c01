"""Kill a build at every 0.5 s, and inside publish at every rename: never a mix (issue 27).

    .venv/bin/python bench/kill_points.py [--step 0.5] [--input FILE] [--workers 2]

Builds two reference folders first: A (the bundled sample) and B (``--input``,
default ICML 2023 from ``../shared/corpora``). Then, for each kill point, an output
folder holding build A gets a build of B, SIGKILLed at 0.5 s, 1.0 s, ... until the
build finishes before its kill; then builds are killed inside ``publish`` after
each of its renames (a patched ``os.replace``), for every rename, alternating B and
A in one folder (each build first finishes the publish the last one left).
After each kill it reads the folder as a user would and classifies it:

- ``A`` / ``B``: every output listed in the manifest is byte-identical to that
  reference build's (the store compared by ``kg query dataset-summary``), and
  ``kg query`` answers;
- ``refused``: ``kg query`` refuses the folder in one line (caught mid-publish);
- ``MIX``: anything else — outputs of two builds, or a query answer that disagrees
  with the folder's files. The goal is no ``MIX`` over at least 20 points.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "corpora" / "icml_2023_all.txt"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
PUBLISH_KILLER = """import os, signal, sys
import kg.build.folder as b
n = int(sys.argv[1]); real = os.replace; seen = [0]
real_publish = b.publish
def replace(src, dst):
    seen[0] += 1
    if seen[0] > n:
        os.kill(os.getpid(), signal.SIGKILL)
    real(src, dst)
def publish(staged, folder):
    os.replace = replace
    real_publish(staged, folder)
b.publish = publish
from kg.cli import main
sys.exit(main(sys.argv[2:]))
"""


def kg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], env=ENV, cwd=ROOT,
                          capture_output=True, text=True, timeout=900)


def build_args(inputs: list[str], out: Path, workers: int) -> list[str]:
    return ["build", *inputs, "-o", str(out), "-q", "--workers", str(workers)]


def fingerprint(folder: Path) -> dict[str, bytes]:
    """The outputs the manifest lists, by name (the store by its query answer)."""
    manifest = json.loads((folder / ".kg-manifest.json").read_text(encoding="utf-8"))
    out: dict[str, bytes] = {}
    for entry in manifest["entries"]:
        path = folder / entry.rstrip("/")
        if entry == "store/":
            continue
        if path.is_dir():
            for p in sorted(path.rglob("*")):
                if p.is_file():
                    out[p.relative_to(folder).as_posix()] = p.read_bytes()
        elif path.exists():
            out[entry] = path.read_bytes()
    return out


def classify(folder: Path, refs: dict[str, tuple[dict[str, bytes], str]]) -> str:
    q = kg("query", "dataset-summary", "--from", str(folder), "--format", "csv")
    if q.returncode != 0:
        lines = q.stderr.strip().splitlines()
        return "refused" if len(lines) == 1 and "mid-publish" in lines[0] else \
            f"MIX (query failed: {q.stderr.strip()[:120]})"
    try:
        files = fingerprint(folder)
    except (OSError, ValueError) as exc:
        return f"MIX (manifest: {exc})"
    for name, (ref_files, ref_answer) in refs.items():
        if files == ref_files and q.stdout == ref_answer:
            return name
    same = {n: sum(files.get(k) == v for k, v in r.items()) for n, (r, _) in refs.items()}
    best = max(refs, key=lambda n: same[n])
    odd = sorted(k for k in set(files) | set(refs[best][0]) if files.get(k) != refs[best][0].get(k))
    return (f"MIX (files matching each build: {same}; differing from {best}: "
            f"{', '.join(odd[:5]) or 'none'}; query answer "
            f"{'same' if q.stdout == refs[best][1] else 'differs'})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--step", type=float, default=0.5)
    ap.add_argument("--input", default=str(DEFAULT_INPUT))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    inputs = {"A": [], "B": [args.input]}
    with tempfile.TemporaryDirectory() as tmp:
        refs = {}
        for name, files in inputs.items():
            ref = Path(tmp) / f"ref{name}"
            t0 = time.perf_counter()
            r = kg(*build_args(files, ref, args.workers))
            assert r.returncode == 0, r.stderr
            answer = kg("query", "dataset-summary", "--from", str(ref), "--format", "csv")
            refs[name] = (fingerprint(ref), answer.stdout)
            print(f"reference build {name}: {time.perf_counter() - t0:.1f} s", flush=True)
        out = Path(tmp) / "out"
        results: list[tuple[str, str]] = []
        k = 1
        while True:                       # kills by the clock, every --step seconds
            which = "B"
            at = k * args.step
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(Path(tmp) / "refA", out, symlinks=True)
            proc = subprocess.Popen([sys.executable, "-m", "kg.cli",
                                     *build_args(inputs[which], out, args.workers)],
                                    env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, start_new_session=True)
            try:
                proc.wait(timeout=at)
                finished = True
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)   # the build and its stage processes
                proc.wait()
                finished = False
            state = classify(out, refs)
            point = f"build {which}, {'finished before' if finished else 'killed at'} {at:.1f} s"
            results.append((point, state))
            print(f"{point:<36} -> {state}", flush=True)
            if finished:
                break
            k += 1
        renames = 0
        while True:                       # kills inside publish, after each rename
            which = "B" if renames % 2 == 0 else "A"
            r = subprocess.run([sys.executable, "-c", PUBLISH_KILLER, str(renames),
                                *build_args(inputs[which], out, args.workers)],
                               env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=900)
            state = classify(out, refs)
            point = f"build {which}, publish rename {renames}"
            if r.returncode == 0:
                point += " (publish done)"
            results.append((point, state))
            print(f"{point:<36} -> {state}", flush=True)
            if r.returncode == 0:
                break
            renames += 1
        r = kg(*build_args(inputs["A"], out, args.workers))
        final = classify(out, refs) if r.returncode == 0 else f"rebuild failed: {r.stderr}"
        print(f"{'rebuild A afterwards':<36} -> {final}")
    mixes = [p for p, s in results if s.startswith("MIX")]
    counts = {s: sum(1 for _, x in results if x == s) for s in sorted({x for _, x in results})}
    print(f"\n{len(results)} kill points: {counts}; mixes: {len(mixes)} (goal: 0 over >= 20)")


if __name__ == "__main__":
    main()
