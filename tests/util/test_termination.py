"""kg.util.termination: a SIGTERM that a finaliser swallowed still ends a build before it publishes."""
from __future__ import annotations

import contextlib

import pytest

from kg.build.pipeline import build
from kg.util import termination


@pytest.fixture(autouse=True)
def _clean():
    termination.reset()
    yield
    termination.reset()


def test_check_raises_only_after_a_sigterm():
    termination.check()
    with pytest.raises(termination.Terminated):
        termination.on_sigterm(15, None)
    with pytest.raises(termination.Terminated):
        termination.check()
    termination.reset()
    termination.check()


def test_swallowed_sigterm_leaves_previous_output(tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(None, out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
              if p.is_file() and "store" not in p.parts}

    import kg.build.folder as bf

    real_seal = bf.seal

    def seal_then_signal(folder):   # the handler ran, its exception was lost in a finaliser
        real_seal(folder)
        with contextlib.suppress(termination.Terminated):
            termination.on_sigterm(15, None)

    monkeypatch.setattr(bf, "seal", seal_then_signal)
    with pytest.raises(termination.Terminated):
        build(None, out)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
             if p.is_file() and "store" not in p.parts}
    assert after == before
    assert not [p for p in out.iterdir() if p.name.startswith(".kg-staging")]


def test_dropped_terminated_prints_nothing_other_errors_do(capsys):
    import sys

    class Dies:
        def __init__(self, exc):
            self.exc = exc

        def __del__(self):
            raise self.exc

    before, sys.unraisablehook = sys.unraisablehook, termination.unraisable
    try:
        Dies(termination.Terminated())
        Dies(ValueError("kept"))
    finally:
        sys.unraisablehook = before
    err = capsys.readouterr().err
    assert "Terminated" not in err
    assert "ValueError: kept" in err
