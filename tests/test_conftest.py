"""The one rule for missing test services: fail in CI, skip (saying why) elsewhere."""
from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped

from tests.conftest import unavailable


@pytest.mark.parametrize("ci", ["true", "1", "TRUE", "yes"])
def test_a_missing_service_fails_in_ci(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(Failed, match="Chromium is missing \\(CI must provide it\\)"):
        unavailable("Chromium is missing")


@pytest.mark.parametrize("ci", [None, "", "false", "0"])
def test_a_missing_service_skips_outside_ci_saying_why(monkeypatch, ci):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(Skipped, match="Chromium is missing"):
        unavailable("Chromium is missing")


def test_every_machine_bound_module_exists_and_the_suite_runs_on_every_core():
    from tests.conftest import MACHINE_BOUND, ROOT

    missing = sorted(p for p in MACHINE_BOUND if not (ROOT / p).is_file())
    assert not missing, f"MACHINE_BOUND names modules that are gone: {missing}"
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert '-n auto --dist loadgroup -m "not machine"' in make and "-q -m machine" in make
