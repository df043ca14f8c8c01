"""Shared fixtures: the bundled sample, the real corpora beside the repo."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def shared_dir() -> Path:
    """``../shared`` next to the repo (or $KG_SHARED)."""
    return Path(os.environ.get("KG_SHARED", ROOT.parent / "shared"))


def unavailable(reason: str):
    """Something a test needs is missing: fail in CI (``CI=true``), where it
    must be provided; elsewhere skip, saying why."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (CI must provide it)")
    pytest.skip(reason)


def need(path: Path) -> Path:
    """Return ``path``, or fail in CI / skip elsewhere if it is missing."""
    if not path.exists():
        unavailable(f"{path} is missing (it lies beside the repo in ../shared/)")
    return path


@pytest.fixture(scope="session")
def icml_txt() -> Path:
    return need(shared_dir() / "corpora" / "icml_2024_all.txt")


@pytest.fixture(scope="session")
def icml_truth(icml_txt) -> list[dict]:
    import json

    path = need(icml_txt.with_name("icml_2024_all.truth.jsonl"))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="session")
def icml_corpus(icml_txt):
    from kg.parse import read_corpus

    return read_corpus([icml_txt])


@pytest.fixture(scope="session")
def sample_corpus():
    from kg.parse import read_corpus
    from kg.parse.sample import sample_files

    return read_corpus(sample_files())


@pytest.fixture(scope="session")
def sample_build_dir(tmp_path_factory) -> Path:
    """The bundled sample built once for the session (``kg build``). Read-only:
    a test that writes into a build makes its own."""
    from kg.build.pipeline import build

    out = tmp_path_factory.mktemp("sample-build")
    build(None, out)
    return out


@pytest.fixture
def write(tmp_path):
    """write(name, text_or_bytes) -> Path of a file in a temporary folder."""

    def _write(name: str, content, encoding: str = "utf-8") -> Path:
        p = tmp_path / name
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_bytes(content.encode(encoding))
        return p

    return _write


#: test modules that cannot share the machine with the rest of the suite: they time
#: themselves, cap a build's memory or wall time, kill processes, or drive the browser.
#: ``make test`` runs the rest of the suite on every core (``-n auto --dist loadgroup
#: -m "not machine"``), then these alone, one after another (``-m machine``); run with
#: ``-n`` among the others they still share one xdist worker. A module that needs the
#: machine is one line here.
MACHINE_BOUND = frozenset({
    "tests/build/test_pipeline_parallel.py", "tests/build/test_folder.py", "tests/build/test_pipeline.py",
    "tests/util/test_termination.py", "tests/util/test_child.py", "tests/store/test_remote_safety.py",
    "tests/test_hostile_authors.py", "tests/test_hostile_bookkeeping.py",
    "tests/test_hostile_data.py", "tests/test_hostile_harness.py", "tests/test_hostile_text.py",
    "tests/test_hostile_shapes.py", "tests/extract/test_concept_vocab.py",
    "tests/extract/test_end_to_end.py", "tests/viz/test_browser.py",
    "tests/viz/test_browser_icml.py", "tests/report/test_html.py",
    "tests/analysis/test_counts_icml.py",
})


def pytest_collection_modifyitems(config, items):
    """Mark the :data:`MACHINE_BOUND` modules' tests ``machine`` and put them in one xdist
    group (pytest-xdist's ``loadgroup`` reads the mark after this hook: its own runs last)."""
    marks = (pytest.mark.machine, pytest.mark.xdist_group("machine"))
    for item in items:
        if item.nodeid.split("::", 1)[0] in MACHINE_BOUND:
            for mark in marks:
                item.add_marker(mark)
        elif "virtuoso" in getattr(item, "fixturenames", ()):
            # one shared server: pushes into one graph name from two workers at once race
            # (each switches the graph group to its own version), so one worker runs them
            item.add_marker(pytest.mark.xdist_group("virtuoso"))


def pytest_terminal_summary(terminalreporter):
    """The timing suite's figures: each hostile case's time and peak memory."""
    from tests.hostile import RSS_LIMIT_MB, WALL_LIMIT, summary_lines

    lines = summary_lines()
    if lines:
        terminalreporter.section(
            f"hostile inputs (budget {WALL_LIMIT:.0f} s, {RSS_LIMIT_MB:.0f} MiB each)")
        for line in lines:
            terminalreporter.write_line(line)


# Debian's Chromium, driven by Playwright (which never downloads one): one
# browser for the whole session, shared by every browser test module
CHROMIUM = Path(os.environ.get("KG_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def _missing(reason: str):
    unavailable(f"{reason}; .ci/install-browser.sh installs it")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
