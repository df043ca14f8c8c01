"""Text-span helpers of the proposal passes: where a sentence starts, whether a
word stands whole, and a matched span cut into a name and its acronym.
"""
from __future__ import annotations

import re

_ACR_AT_END = re.compile(r"\(([^()]+)\)$")


def sentence_start(text: str, pos: int) -> int:
    """Where the sentence holding ``pos`` starts."""
    i = text.rfind(". ", 0, pos)
    return 0 if i < 0 else i + 2


def word_in(word: str, text: str) -> bool:
    """Is ``word`` in ``text`` as a whole word (not inside "X-based", "XNet")?"""
    i = text.find(word)
    while i >= 0:
        before = text[i - 1: i] if i else ""
        after = text[i + len(word): i + len(word) + 1]
        if not (before and (before.isalnum() or before in "-_")) and not (
                after and (after.isalnum() or after in "-_")):
            return True
        i = text.find(word, i + 1)
    return False


def pieces(text: str, s: int, e: int) -> list[tuple[str, int, int]]:
    chunk = text[s:e]
    am = _ACR_AT_END.search(chunk)
    if am:
        a_start = s + am.start(1)
        long = text[s: s + am.start()].rstrip()
        return [(long, s, s + len(long)), (am.group(1), a_start, a_start + len(am.group(1)))]
    name = chunk.rstrip(".,;:'\"”’")
    return [(name, s, s + len(name))]
