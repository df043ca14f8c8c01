"""An installed, non-editable kg (a wheel in a fresh venv) lists the named queries.

The named queries live in the top-level ``queries/`` folder and the build
(``setup.py``) copies them into the package; this builds a wheel of a copy of
the project, installs it without dependencies into a new venv that reads the
dependencies from the running interpreter's site-packages (a ``.pth`` line,
which does not run that environment's editable-install hooks), and checks that
``kg queries`` there lists every query from the installed package, not from
the source tree.

pip builds the wheel with the running interpreter's setuptools when it and
``wheel`` are there (``--no-build-isolation``, offline); otherwise in an
isolated environment with the build requirements from the package index, as
``pip install -e .`` does for ``make setup`` (cached by pip after the first run).
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.conftest import unavailable

ROOT = Path(__file__).resolve().parents[1]
PROJECT_FILES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
NETWORK_TROUBLE = ("No matching distribution", "Could not find a version", "NewConnectionError",
                   "Temporary failure in name resolution", "Network is unreachable")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(argv: list, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=timeout)


def _copy_project(dest: Path) -> Path:
    """The files a build reads, without caches or build leftovers."""
    dest.mkdir()
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    shutil.copytree(ROOT / "kg", dest / "kg", ignore=ignore)
    shutil.copytree(ROOT / "queries", dest / "queries", ignore=ignore)
    return dest


def _build_wheel(src: Path, dist: Path, cwd: Path) -> Path:
    offline = all(importlib.util.find_spec(m) for m in ("setuptools", "wheel"))
    argv = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", dist]
    argv += ["--no-build-isolation"] if offline else []
    done = _run(argv + [src], cwd)
    if done.returncode != 0 and not offline and any(t in done.stderr for t in NETWORK_TROUBLE):
        unavailable("cannot fetch the build requirements from the package index: "
                    + done.stderr.strip().splitlines()[-1])
    assert done.returncode == 0, done.stderr
    (wheel,) = dist.glob("kg-*.whl")
    return wheel


def test_an_installed_kg_finds_the_named_queries(tmp_path):
    names = [p.stem for p in sorted((ROOT / "queries").glob("*.rq"))]
    assert len(names) >= 15  # the library lives in the top-level queries/ folder
    assert not list((ROOT / "kg" / "queries").glob("*.rq"))

    wheel = _build_wheel(_copy_project(tmp_path / "src"), tmp_path / "dist", tmp_path)

    venv = tmp_path / "venv"
    done = _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path)
    assert done.returncode == 0, done.stderr
    python = venv / "bin" / "python"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   tmp_path).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib) / "kg_test_dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    done = _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
                 "--no-index", "--quiet", wheel], tmp_path)
    assert done.returncode == 0, done.stderr

    where = _run([python, "-c", "import kg.queries; print(kg.queries.folder())"], tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()) == Path(purelib) / "kg" / "queries"

    done = _run([venv / "bin" / "kg", "queries"], tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    listed = [line for line in done.stdout.splitlines() if line and not line.startswith(" ")]
    assert listed == names
    assert done.stdout.count("    columns: ") == len(names)
