"""Running ``kg build`` on a hostile input under a time and memory budget.

The timing suite (``tests/test_hostile*.py``) builds each small hostile
listing in a child process and asserts it finishes within
:data:`WALL_LIMIT` seconds of wall time and :data:`RSS_LIMIT_MB` of peak
memory. Every run is recorded in :data:`RESULTS`, which ``conftest.py``
prints at the end of the session, so each case's time and memory show up
in the test output.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WALL_LIMIT = 10.0       # seconds, the whole `kg build`
RSS_LIMIT_MB = 1024.0   # peak resident memory of the build process
KILL_AFTER = 60.0       # a run still going after this is killed and fails


@dataclass(frozen=True)
class Run:
    case: str
    size: int            # bytes of input
    wall: float          # seconds
    rss_mb: float        # peak resident set size of the build, MiB
    returncode: int
    stderr: str


RESULTS: list[Run] = []


def listing(abstract: str, authors: str = "Ada Lovelace, Alan Turing",
            track: str = "Deep Learning · Robustness") -> str:
    """A complete one-paper listing around ``abstract``."""
    return f"论文检索\n\n{track}\n\n{authors}\n\n{abstract}\n"


# Runs the build as its own child and reports the build's wall time, peak RSS
# and exit status as JSON. The build is forked from this small process, not
# from pytest: Linux carries a process's peak RSS across fork and exec, so a
# child of the test process would report at least the test process's size.
_MEASURE = r"""
import json, os, signal, sys, time
limit, argv = float(sys.argv[1]), sys.argv[2:]
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(argv[0], argv)
deadline = t0 + limit
while True:
    done, status, usage = os.wait4(pid, os.WNOHANG)
    if done:
        break
    if time.perf_counter() > deadline:
        os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        break
    time.sleep(0.01)
print(json.dumps({"wall": time.perf_counter() - t0, "rss_kb": usage.ru_maxrss,
                  "returncode": os.waitstatus_to_exitcode(status)}))
"""


def build_case(case: str, content: str | bytes, tmp: Path, *args: str,
               name: str = "hostile.txt") -> Run:
    """``kg build -q`` on ``content`` in a child process; time and peak memory."""
    import json

    src = tmp / name
    src.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    out = tmp / "out"
    err_path = tmp / "stderr.txt"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "kg.cli", "build", "-q", "-o", str(out), *args, str(src)]
    with open(err_path, "wb") as err:
        done = subprocess.run([sys.executable, "-c", _MEASURE, str(KILL_AFTER), *argv],
                              env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=err,
                              timeout=KILL_AFTER + 30)
    measured = json.loads(done.stdout.decode("utf-8").strip().splitlines()[-1])
    run = Run(case=case, size=src.stat().st_size, wall=measured["wall"],
              rss_mb=measured["rss_kb"] / 1024, returncode=measured["returncode"],
              stderr=err_path.read_text(encoding="utf-8", errors="replace"))
    RESULTS.append(run)
    return run


def assert_within_budget(run: Run) -> None:
    """The build succeeded (or refused in one line) within the time and memory budget."""
    assert run.returncode in (0, 1), f"{run.case}: exit {run.returncode}\n{run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr, f"{run.case}: traceback\n{run.stderr[-2000:]}"
    assert run.wall < WALL_LIMIT, f"{run.case}: {run.wall:.1f} s (limit {WALL_LIMIT:.0f} s)"
    assert run.rss_mb < RSS_LIMIT_MB, f"{run.case}: {run.rss_mb:.0f} MiB (limit {RSS_LIMIT_MB:.0f})"


def summary_lines() -> list[str]:
    """One line per run: case, input size, wall time, peak memory, exit status."""
    if not RESULTS:
        return []
    lines = [f"{'case':<44} {'input':>10} {'wall s':>7} {'peak MiB':>9} {'exit':>4}"]
    for r in RESULTS:
        lines.append(f"{r.case:<44} {r.size:>10,} {r.wall:>7.2f} {r.rss_mb:>9.0f} {r.returncode:>4}")
    return lines
