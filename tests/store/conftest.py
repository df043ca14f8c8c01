"""The store tests' shared server: a throw-away Virtuoso Open-Source on loopback.

``.ci/start-virtuoso.sh`` starts it (installing Debian's package where
missing) with Virtuoso's default transaction limits, and it is stopped after
the session. Outside CI a machine that cannot run Virtuoso skips the tests
that need it, with the reason; in CI (``CI=true``) that is a failure.
"""
from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import unavailable

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "start-virtuoso.sh"
USER, PASSWORD = "dba", "dba"


@dataclass(frozen=True)
class VirtuosoServer:
    """A running test server."""

    url: str       #: its anonymous SPARQL endpoint (``.../sparql``)
    folder: Path   #: its database folder, which its DirsAllowed includes


@pytest.fixture(scope="session")
def virtuoso_server():
    """A throw-away Virtuoso on loopback."""
    folder = tempfile.mkdtemp(prefix="kg-virtuoso.")
    try:
        proc = subprocess.run(["bash", str(SCRIPT), folder], capture_output=True, text=True,
                              timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        proc = None
        why = f"cannot run {SCRIPT.name}: {exc}"
    if proc is None or proc.returncode != 0:
        why = why if proc is None else (proc.stderr.strip().splitlines() or ["no output"])[-1]
        subprocess.run(["bash", str(SCRIPT), "--stop", folder], capture_output=True)
        unavailable(f"Virtuoso could not be started: {why}")
    yield VirtuosoServer(proc.stdout.strip().splitlines()[-1], Path(folder))
    subprocess.run(["bash", str(SCRIPT), "--stop", folder], capture_output=True, timeout=60)
    subprocess.run(["rm", "-rf", folder], capture_output=True)


@pytest.fixture(scope="session")
def virtuoso(virtuoso_server):
    """The query URL of the throw-away Virtuoso."""
    return virtuoso_server.url
