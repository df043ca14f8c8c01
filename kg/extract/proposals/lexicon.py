"""The proposal detector's lexicon: every word list its patterns, anchors,
gates and guards are built from, read from ``kg/data/proposals/lexicon.toml``
(or any file of that shape), and the helpers that turn a list into a regex
alternation.

Examples
--------
>>> lex = load_lexicon()
>>> "called" in lex["naming.participles"]
True
>>> alt(("we call it", "e.g", "leverag*"))
'we call it|e\\\\.g|leverag\\\\w*'
>>> cased(("we", "this paper"))
'[Ww]e|[Tt]his paper'
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from kg.errors import KgError

__all__ = ["Lexicon", "LexiconError", "alt", "cased", "load_lexicon", "with_words"]

_PLAIN = re.compile(r"[\w\- ]+")


class LexiconError(KgError):
    """A lexicon file that cannot be read or lacks a list."""


@dataclass(frozen=True)
class Lexicon:
    """Word lists by ``section.key`` (in file order), and where they came from."""

    lists: Mapping[str, tuple[str, ...]]
    source: str = "lexicon"

    def __getitem__(self, key: str) -> tuple[str, ...]:
        try:
            return self.lists[key]
        except KeyError:
            raise LexiconError(f"{self.source}: no word list {key!r}") from None

    def words(self, *keys: str) -> frozenset[str]:
        """The words of the lists ``keys``, as a set."""
        return frozenset(w for k in keys for w in self[k])


def _parse(data: bytes, source: str) -> Lexicon:
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise LexiconError(f"{source}: {e}") from None
    lists: dict[str, tuple[str, ...]] = {}
    for section, table in doc.items():
        if not isinstance(table, dict):
            raise LexiconError(f"{source}: {section!r} is not a [section] of word lists")
        for key, words in table.items():
            if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() == w and w
                                                      for w in words):
                raise LexiconError(f"{source}: {section}.{key} is not a list of words")
            if len(set(words)) != len(words):
                raise LexiconError(f"{source}: {section}.{key} holds a word twice")
            lists[f"{section}.{key}"] = tuple(words)
    return Lexicon(lists, source)


def load_lexicon(path: str | Path | None = None) -> Lexicon:
    """The lexicon in ``path`` (default: kg's own, read once)."""
    if path is None:
        return _default()
    p = Path(path)
    try:
        return _parse(p.read_bytes(), str(p))
    except OSError as e:
        raise LexiconError(f"{p}: {e.strerror or e}") from None


@lru_cache(maxsize=1)
def _default() -> Lexicon:
    res = files("kg") / "data" / "proposals" / "lexicon.toml"
    return _parse(res.read_bytes(), "kg/data/proposals/lexicon.toml")


def with_words(lex: Lexicon, key: str, *words: str) -> Lexicon:
    """A copy of ``lex`` with ``words`` added at the end of the list ``key``.

    >>> with_words(load_lexicon(), "naming.participles", "christened")["naming.participles"][-1]
    'christened'
    """
    lists = dict(lex.lists)
    lists[key] = lex[key] + tuple(w for w in words if w not in lex[key])
    return Lexicon(lists, lex.source)


def _word(w: str) -> str:
    if w.endswith("*"):
        return _word(w[:-1]) + r"\w*"
    return w if _PLAIN.fullmatch(w) else re.escape(w)


def alt(words: Iterable[str]) -> str:
    """A regex alternation of literal words, in order; ``word*`` matches any
    word that starts with ``word``."""
    return "|".join(_word(w) for w in words)


def cased(words: Iterable[str]) -> str:
    """An alternation in which each word may also start with a capital."""
    return "|".join(f"[{w[0].upper()}{w[0]}]{_word(w[1:])}" for w in words)
