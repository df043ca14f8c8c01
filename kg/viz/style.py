"""How the views look: colours and shapes of node groups, short labels, tooltips.

Tooltips are plain text (vis-network 9 puts a string ``title`` into the
popup with ``innerText``, and the page's own panels use ``textContent``), so
nothing here escapes HTML: the page never parses these strings as markup.

Examples
--------
>>> short_label("Reinforcement Learning from Human Feedback", 24)
'Reinforcement Learning…'
>>> first_sentences("One idea. Two ideas! Three ideas? Four.", 2)
'One idea. Two ideas!'
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kg.extract.labels import SENTENCE_BREAK

__all__ = ["Group", "KIND_GROUPS", "COMMUNITY_COLOURS", "OTHER_COLOUR", "RELATIONS",
           "short_label", "track_labels", "count_noun", "first_sentences",
           "join_limited"]


@dataclass(frozen=True)
class Group:
    """A legend entry: one kind of node with its colour and vis-network shape
    (``shown=False``: hidden until its box is ticked)."""

    name: str
    label: str
    colour: str
    shape: str = "dot"
    shown: bool = True


# Okabe-Ito colours (distinguishable with the common colour-vision deficiencies)
KIND_GROUPS: dict[str, Group] = {g.name: g for g in (
    Group("paper", "paper", "#0072B2", "square"),
    Group("person", "person", "#E69F00", "dot"),
    Group("track", "track", "#009E73", "diamond"),
    Group("model", "model", "#CC79A7", "triangle"),
    Group("method", "method", "#D55E00", "triangle"),
    Group("dataset", "dataset", "#56B4E9", "triangle"),
    Group("task", "task", "#B8A30B", "triangle"),
    Group("metric", "metric", "#8C6D31", "triangle"),
    Group("other", "other entity", "#7F7F7F", "triangle"),
    Group("concept", "concept", "#117733", "dot"),
)}

# communities 0-9 (largest first) get their own colour; the rest share grey
COMMUNITY_COLOURS = ("#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F",
                     "#EDC948", "#B07AA1", "#FF9DA7", "#9C755F", "#2F4B7C")
OTHER_COLOUR = "#B0B0B0"

# edge relation -> (colour, label shown in the edge tooltip, dashed)
RELATIONS: dict[str, tuple[str, str, bool]] = {
    "author": ("#C8C8C8", "author of", False),
    "subject": ("#7FC8B0", "in track", False),
    "broader": ("#009E73", "subarea of", True),
    "mentions": ("#E3B8D3", "mentions", False),
    "proposes": ("#B0457F", "proposes", False),
    "coauthor": ("#B8B8B8", "joint papers", False),
    "comention": ("#C9C0D8", "papers mentioning both", False),
    "association": ("#C9C0D8", "papers mentioning both", False),
}

_PLURAL = {"person": "people", "entity": "entities", "community": "communities"}


def count_noun(count: int, noun: str) -> str:
    """``1 paper``, ``2 papers``, ``3 people``.

    >>> count_noun(1, "paper"), count_noun(2, "person")
    ('1 paper', '2 people')
    """
    return f"{count:,} {noun if count == 1 else _PLURAL.get(noun, noun + 's')}"


def short_label(text: str, width: int = 24) -> str:
    """``text`` on one line, cut at a word boundary to at most ``width`` characters.

    Examples
    --------
    >>> short_label("  Large   Language\\nModels ")
    'Large Language Models'
    >>> short_label("Supercalifragilisticexpialidocious", 10)
    'Supercali…'
    """
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space >= width // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:·-") + "…"


def track_labels(labels: Iterable[str]) -> dict[str, str]:
    """The node label of each track label (``Area · Subarea`` or ``Area``).

    A subarea goes by its own name, unless that name is ambiguous among
    ``labels`` (another area has a subarea of that name, like "Everything
    Else", or an area is called so): then by ``Area · Subarea``, the area cut
    short if need be. An area goes by its name.

    Examples
    --------
    >>> labels = track_labels(["Applications · Everything Else", "Deep Learning",
    ...                        "Deep Learning · Everything Else", "Deep Learning · Robustness",
    ...                        "General Machine Learning · Everything Else"])
    >>> [labels[k] for k in sorted(labels)]  # doctest: +NORMALIZE_WHITESPACE
    ['Applications · Everything Else', 'Deep Learning', 'Deep Learning · Everything Else',
     'Robustness', 'General Machine… · Everything Else']
    """
    labels = sorted(set(labels))
    parts = {t: t.partition(" · ") for t in labels}
    areas = {area for area, _, sub in parts.values() if not sub}
    areas_of: dict[str, set[str]] = {}
    for area, _, sub in parts.values():
        if sub:
            areas_of.setdefault(sub, set()).add(area)
    out = {}
    for t, (area, _, sub) in parts.items():
        if not sub:
            out[t] = short_label(area)
        elif len(areas_of[sub]) > 1 or sub in areas:
            out[t] = f"{short_label(area, 16)} · {short_label(sub)}"
        else:
            out[t] = short_label(sub)
    return out


def first_sentences(text: str, n: int = 2, limit: int = 320) -> str:
    """The first ``n`` sentences of ``text``, at most ``limit`` characters.

    Examples
    --------
    >>> first_sentences("A short one. " + "word " * 100, 3, 40)
    'A short one. word word word word word…'
    """
    text = " ".join(text.split())
    parts = SENTENCE_BREAK.split(text, maxsplit=n)
    head = " ".join(parts[:n])
    return short_label(head, limit) if len(head) > limit else head


def join_limited(items: Sequence[str], limit: int = 8, sep: str = ", ") -> str:
    """Join at most ``limit`` items, saying how many more there are.

    Examples
    --------
    >>> join_limited(["a", "b", "c"], 2)
    'a, b (+1 more)'
    """
    items = list(items)
    head = sep.join(items[:limit])
    return head + (f" (+{len(items) - limit} more)" if len(items) > limit else "")
