"""Build step: the named queries of the top-level ``queries/`` folder ship inside the package.

The project's metadata and package list are in ``pyproject.toml``; this file
only adds one step to ``build_py``: every ``queries/*.rq`` is copied to
``kg/queries/`` in the build, so an installed (non-editable) ``kg`` finds
them beside :mod:`kg.queries`, where :func:`kg.queries.folder` looks first.
A source checkout or an editable install reads ``queries/`` itself.
"""
from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

QUERIES = Path(__file__).resolve().parent / "queries"


class BuildPyWithQueries(build_py):
    """``build_py`` that also copies ``queries/*.rq`` into the built ``kg/queries/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads queries/ in place
        target = Path(self.build_lib) / "kg" / "queries"
        self.mkpath(str(target))
        for path in sorted(QUERIES.glob("*.rq")):
            self.copy_file(str(path), str(target / path.name))


setup(cmdclass={"build_py": BuildPyWithQueries})
