"""The type a proposed name gets: model, method or dataset from the nearest cue
noun after it (or in its cue), the head noun of a coined phrase
(:mod:`kg.extract.heads`), or ``other`` for a notion.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.discover import DATASET_CUES, METHOD_CUES, MODEL_CUES
from kg.extract.heads import head_type

_ALPHA = re.compile(r"[A-Za-z]+")


@lru_cache(maxsize=1)
def cue_types() -> dict[str, str]:
    """Cue noun -> the type it implies (as :func:`kg.extract.discover.cue_type`)."""
    out = {w: "method" for w in METHOD_CUES}
    out.update({w: "model" for w in MODEL_CUES})
    out.update({w: "dataset" for w in DATASET_CUES})
    return out


def type_after(text: str, end: int, before: str) -> str:
    """The type the nearest noun after the name (or in the cue) implies."""
    cues = cue_types()
    for m in _ALPHA.finditer(text, end, end + 80):
        t = cues.get(m.group(0))
        if t is not None:
            return t
    for m in _ALPHA.finditer(before):
        t = cues.get(m.group(0))
        if t is not None:
            return t
    return "method"


def coined_type(text: str, s: int, e: int, end: int, notion_before: re.Pattern[str]) -> str:
    """The type of a name the author set apart after a cue: its head noun's; a
    notion or a lower-case phrase with no telling head is no model, method or
    dataset ("the notion of a *universal critic*", "the “weights component”");
    ``notion_before`` tells the words of a notion before it (the lexicon's guards)."""
    name = text[s:e]
    if notion_before.search(text[max(0, s - 30): s].rstrip("“‘\"'`")):
        return "other"
    typ = head_type(name)
    if typ in ("model", "method", "dataset"):
        return typ
    if typ is not None or name.lower() == name:
        return "other"
    return type_after(text, end, "")


@lru_cache(maxsize=4096)
def names_a_thing(long: str) -> bool:
    """Does a long form's head noun name a model, method or dataset ("IoU-based
    Optimal Matching"), not an object ("Cumulative Density Function")?"""
    return head_type(long) in ("model", "method", "dataset")
