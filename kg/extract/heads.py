"""Head-noun typing: the type a phrase's head noun implies (``kg/data/heads.txt``).

A leaf of the extraction stage: both the proposal detector
(:mod:`kg.extract.proposals`) and the resolver (:mod:`kg.extract.resolve`)
ask what a long form names, and neither imports the other for it.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.wordfile import read_sections
from kg.identity import singular_key

__all__ = ["head_type", "heads"]


@lru_cache(maxsize=1)
def heads() -> dict[str, frozenset[str]]:
    """Head nouns by the type they imply (``kg/data/heads.txt``): ``model``,
    ``method``, ``dataset``, and ``task`` (tasks, problems and objects, no mention);
    ``head-first``: the words after which the head comes first ("X via Y")."""
    return read_sections("heads.txt")


@lru_cache(maxsize=20_000)
def head_type(long: str) -> str | None:
    """The type a long form's head noun implies: 'model', 'method', 'dataset',
    'task' (a task, problem or object: no mention), 'metric', or None (no telling).

    >>> [head_type(x) for x in ("Wasserstein gradient flow", "Image Quality Assessment",
    ...                         "neural ordinary differential equations", "dissolved oxygen")]
    ['method', 'task', 'model', None]
    """
    words = [w for w in re.split(r"[\s\-]+", long.lower().strip()) if w]
    if not words:
        return None
    # "Reasoning via Planning", "Learning by Invariant Measure": the head comes first
    head_first = heads()["head-first"]
    cut = next((i for i, w in enumerate(words) if w in head_first and i > 0), None)
    if cut is not None:
        typ = head_type(" ".join(words[:cut]))
        if typ in ("model", "method", "dataset"):
            return typ
    head = words[-1]
    h = heads()
    for w in (head, singular_key(head)):
        if w in h["task"]:
            # "neural ordinary differential equations": a neural X is a model
            return "model" if "neural" in words[:-1] else "task"
        if w in h["metric"]:
            return "metric"
        if w in h["dataset"]:
            return "dataset"
        if w in h["model"]:
            return "model"
        if w in h["method"]:
            return "method"
    if "learning" in words[:-1]:
        return "method"  # "Learning to Rank", "Learning from Demonstrations"
    return None
