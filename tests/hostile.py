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
import signal
import subprocess
import sys
import time
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


def build_case(case: str, content: str | bytes, tmp: Path, *args: str,
               name: str = "hostile.txt") -> Run:
    """``kg build -q`` on ``content`` in a child process; time and peak memory."""
    src = tmp / name
    src.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    out = tmp / "out"
    err_path = tmp / "stderr.txt"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(err_path, "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "kg.cli", "build", "-q", "-o", str(out),
                                 *args, str(src)], env=env, cwd=tmp,
                                stdout=subprocess.DEVNULL, stderr=err)
        status, usage = _wait(proc, t0 + KILL_AFTER)
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    run = Run(case=case, size=src.stat().st_size, wall=wall, rss_mb=usage.ru_maxrss / 1024,
              returncode=proc.returncode,
              stderr=err_path.read_text(encoding="utf-8", errors="replace"))
    RESULTS.append(run)
    return run


def _wait(proc: subprocess.Popen, deadline: float):
    """``os.wait4`` the child (its rusage is its own), killing it at ``deadline``."""
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            return status, usage
        if time.perf_counter() > deadline:
            proc.send_signal(signal.SIGKILL)
            _, status, usage = os.wait4(proc.pid, 0)
            return status, usage
        time.sleep(0.02)


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
