"""Identity keys: what makes two papers, people or entities the same.

Keys are pure functions of text, so identifiers are stable across runs and
machines. Homonyms are not split: two people written the same way are one.

Examples
--------
>>> paper_id("Hello  world.") == paper_id("hello world.")
True
>>> person_key("  Zoë   Smith ")
'zoë smith'
"""
from __future__ import annotations

import hashlib
import unicodedata



def normalise_text(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed and stripped."""
    if text.isascii():
        if "  " in text or "\t" in text or "\n" in text or "\r" in text or "\f" in text \
                or "\v" in text or text[:1].isspace() or text[-1:].isspace():
            text = " ".join(text.split())
        return text.lower()
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def paper_id(abstract: str) -> str:
    """A 16-hex-digit id from the normalised abstract (SHA-1 prefix)."""
    return hashlib.sha1(normalise_text(abstract).encode("utf-8")).hexdigest()[:16]


def person_key(name: str) -> str:
    """The identity of a person: the normalised name as written."""
    return normalise_text(name)
