"""The bundled sample listings: where they are and how sources name them.

A leaf module (no kg imports), so the parser and the pipeline can both ask.
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["sample_files"]


def sample_files() -> list[Path]:
    """The bundled sample listings (the user's own seeds), in name order."""
    from importlib.resources import files

    root = files("kg") / "data" / "sample"
    return sorted((Path(str(p)) for p in root.iterdir() if p.name.endswith(".txt")),
                  key=lambda p: p.name)
