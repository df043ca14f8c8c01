"""kg's one process mechanism: a stage in a forked process (:class:`Child`), a list of
items over a few (:func:`ordered_map`); errors come back, nothing outlives its parent."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kg.errors import KgError
from kg.util.child import Child, WorkerError, ordered_map


def _die_in_child(*args, **kwargs):
    os._exit(3)


def _add(a: int, b: int, receive) -> int:
    return a + b + receive()


def _raise_value_error() -> None:
    raise ValueError("not a kg error")


def test_child_returns_its_result_and_raises_its_errors():
    child = Child(_add, 1, 2, inbox=True)
    child.send(4)
    assert child.result() == 7
    with pytest.raises(ValueError, match="not a kg error") as info:
        Child(_raise_value_error).result()
    assert "in a build stage's process" in "".join(info.value.__notes__)
    with pytest.raises(WorkerError, match="exit status 3"):
        Child(_die_in_child).result()



def _square_or_fail(n: int) -> int:
    if n == 5:
        raise KgError("five")
    return n * n


def test_ordered_map_keeps_the_order_on_processes_and_raises_their_errors():
    assert list(ordered_map(_square_or_fail, range(5), workers=3)) == [0, 1, 4, 9, 16]
    assert list(ordered_map(_square_or_fail, range(5), workers=1)) == [0, 1, 4, 9, 16]
    with pytest.raises(KgError, match="five"):
        list(ordered_map(_square_or_fail, range(8), workers=2))


def _pid(_: int) -> int:
    import time

    time.sleep(0.05)
    return os.getpid()


def test_ordered_map_runs_in_other_processes_and_none_outlives_an_early_stop():
    pids = list(ordered_map(_pid, range(6), workers=2))
    assert os.getpid() not in pids and len(set(pids)) >= 1
    it = ordered_map(_pid, range(50), workers=2)
    first = next(it)
    it.close()     # the caller stops early: the workers end now
    assert first != os.getpid()
    assert not os.path.exists(f"/proc/{first}") or \
        Path(f"/proc/{first}/stat").read_text().split()[2] == "Z"


ORPHAN = """
import sys, time
from kg.util.child import Child

def wait_forever(path, receive):
    open(path, "w").write(str(__import__("os").getpid()))
    receive()

child = Child(wait_forever, sys.argv[1], inbox=True)
time.sleep(120)
"""


def test_a_stage_process_dies_with_a_killed_build(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    pid_file = tmp_path / "child.pid"
    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen([sys.executable, "-c", ORPHAN, str(pid_file)],
                              env=dict(os.environ, PYTHONPATH=str(root)))
    deadline = time.monotonic() + 60
    while not (pid_file.is_file() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(pid_file.read_text())
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=30)
    deadline = time.monotonic() + 30
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        state = Path(f"/proc/{child}/stat").read_text().split()[2] \
            if Path(f"/proc/{child}/stat").exists() else "X"
        if state == "Z":         # dead, waiting for its new parent to reap it
            break
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists() or \
        Path(f"/proc/{child}/stat").read_text().split()[2] == "Z"


