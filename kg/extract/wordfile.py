"""Word lists in sections, from a data file of kg (``kg/data/heads.txt``,
``kg/data/cue_nouns.txt``): ``[section]`` lines, then words separated by
white space; ``#`` starts a comment.

>>> sorted(read_sections("cue_nouns.txt"))
['and_pair', 'dataset', 'list', 'method', 'model']
"""
from __future__ import annotations

from importlib.resources import files

__all__ = ["read_sections"]


def read_sections(name: str) -> dict[str, frozenset[str]]:
    """The words of each section of ``kg/data/<name>``."""
    out: dict[str, set[str]] = {}
    section = None
    for line in (files("kg") / "data" / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = out.setdefault(line[1:-1], set())
        elif line and section is not None:
            section.update(line.split())
    return {k: frozenset(v) for k, v in out.items()}
