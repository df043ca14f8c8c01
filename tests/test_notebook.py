"""notebooks/explore.ipynb runs from top to bottom (so it cannot rot), and leaves nothing behind.

It runs twice here, offline, in a kernel whose temporary folder is the test's
own: once against an existing build named by ``KG_BUILD`` (which it must not
change), once with no build at all from a ``notebooks/`` folder of its own
(it builds the sample into the ``output/`` beside it, and a second run reads
that build instead of building again). Each run is checked for what it
printed and showed, and for the files it left: none in the temporary folder,
the working folder, the build it read or the repository.
"""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "explore.ipynb"
# not the repository's own files: what other tests, the interpreter and the linters write
_SKIPPED = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache",
            ".ruff_cache", ".cache", "kg.egg-info"}


def run_notebook(cwd: Path, tmp: Path, kg_build: Path | None) -> nbformat.NotebookNode:
    """The notebook executed in ``cwd`` with ``TMPDIR=tmp`` (and ``KG_BUILD`` if given)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    env = {k: v for k, v in os.environ.items() if k != "KG_BUILD"}
    env.update(TMPDIR=str(tmp), PYTHONPATH=str(ROOT))
    if kg_build is not None:
        env["KG_BUILD"] = str(kg_build)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute(env=env)
    return nb


def printed(nb: nbformat.NotebookNode) -> str:
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.get("outputs", []) if o.get("output_type") == "stream")


def check_outputs(nb: nbformat.NotebookNode) -> str:
    """What every run shows: the four questions' answers, the plots, the interactive view."""
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
    text = printed(nb)
    assert "39 papers" in text and "named queries;" in text
    assert "# papers about 'large language model':" in text
    assert text.count("# track comparison: ") == 2 and "shared: " in text
    assert "# papers similar to " in text and "| similar |" in text
    assert "# co-authors of " in text and "coauthor pairs in" in text
    assert "ego network of" in text
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 4
    # the interactive view: one iframe whose srcdoc is the escaped, self-contained page
    frames = [o["data"]["text/html"] for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if "text/html" in o.get("data", {})]
    assert len(frames) == 1
    frame = "".join(frames[0])
    assert frame.startswith('<iframe srcdoc="') and "vis.Network" in frame
    assert "<script" not in frame and "&lt;script" in frame
    stderr = [o for c in nb.cells for o in c.get("outputs", [])
              if o.get("output_type") == "stream" and o.get("name") == "stderr"]
    assert stderr == []
    return text


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder``: its size and modification time."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


def repository_files() -> set[str]:
    """Every file of the repository's tree (the virtual environment, caches and output/ aside)."""
    out = set()
    for folder, dirs, names in os.walk(ROOT):
        rel = Path(folder).relative_to(ROOT)
        dirs[:] = [d for d in dirs if d not in _SKIPPED and (rel.parts or d != "output")]
        out.update((rel / n).as_posix() for n in names)
    return out


def test_notebook_reads_an_existing_build_and_leaves_nothing(sample_build_dir, tmp_path):
    sample_build = sample_build_dir   # the session's build of the sample (conftest.py)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    before_build, before_repo = files_of(sample_build), repository_files()
    before_notebooks = files_of(NOTEBOOK.parent)
    nb = run_notebook(NOTEBOOK.parent, tmp, sample_build)
    text = check_outputs(nb)
    assert str(sample_build) in text and "building the bundled sample" not in text
    assert list(tmp.iterdir()) == []
    assert files_of(sample_build) == before_build   # read, never written (the store too)
    assert files_of(NOTEBOOK.parent) == before_notebooks
    assert repository_files() == before_repo


def test_notebook_builds_the_sample_once_into_output(tmp_path):
    tmp, cwd = tmp_path / "tmp", tmp_path / "notebooks"
    tmp.mkdir()
    cwd.mkdir()
    before_repo = repository_files()
    text = check_outputs(run_notebook(cwd, tmp, None))
    assert "building the bundled sample there (once)" in text
    output = tmp_path / "output"
    assert (output / "store").is_dir() and (output / "concepts.html").is_file()
    built = files_of(output)
    # again: the build is read, not made again
    text = check_outputs(run_notebook(cwd, tmp, None))
    assert "building the bundled sample" not in text and str(output) in text
    assert files_of(output) == built
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notebooks", "output", "tmp"]
    assert list(tmp.iterdir()) == [] and list(cwd.iterdir()) == []
    assert repository_files() == before_repo


def test_notebook_refuses_a_kg_build_that_is_not_one(tmp_path):
    """KG_BUILD naming a folder without a build is an error, never a build made there."""
    tmp, empty = tmp_path / "tmp", tmp_path / "empty"
    tmp.mkdir()
    empty.mkdir()
    with pytest.raises(Exception, match="KgError"):
        run_notebook(tmp_path, tmp, empty)
    assert list(empty.iterdir()) == [] and list(tmp.iterdir()) == []
