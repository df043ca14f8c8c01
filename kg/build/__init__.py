"""``kg build``: the stages in order, the output folder, a build read back, the graph stage.

The package's public names, loaded on first use (so that importing one module
of the package, such as :mod:`kg.build.folder`, loads no other):

* :func:`build` (:mod:`kg.build.pipeline`): read listings (default: the bundled
  sample) and write every output into a folder; its :class:`BuildResult`;
* :func:`load_build`, :func:`read_report`, :func:`read_summary`
  (:mod:`kg.build.read`): a build folder read back as typed values.

Library modules import from those modules, never from this one.

Examples
--------
>>> import kg.build
>>> kg.build.load_build.__module__
'kg.build.read'
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as a type checker sees them; loaded on first use
    from kg.build.pipeline import BuildResult, build
    from kg.build.read import load_build, read_report, read_summary

_HOMES = {"build": "kg.build.pipeline", "BuildResult": "kg.build.pipeline",
          "load_build": "kg.build.read", "read_report": "kg.build.read",
          "read_summary": "kg.build.read"}

__all__ = ["BuildResult", "build", "load_build", "read_report", "read_summary"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'kg.build' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
