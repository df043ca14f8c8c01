"""Names of one thing written many ways: size and variant suffixes.

``LLaMA-2-7B-chat`` is ``LLaMA-2`` (:func:`strip_variant`); ``7B`` and
``-Instruct`` only name a variant (:func:`is_variant_token`). The identity
keys the extractor uses (:func:`~kg.identity.entity_key`,
:func:`~kg.identity.singular_key`, :func:`~kg.identity.compact`) live in :mod:`kg.identity`.

Examples
--------
>>> from kg.identity import entity_key, singular_key
>>> entity_key("LLaMA-2") == entity_key("Llama 2") == entity_key("llama-2")
True
>>> strip_variant("Qwen2.5-7B-Instruct"), strip_variant("WMT'14")
('Qwen2.5', 'WMT')
>>> singular_key(entity_key("LLMs"))
'llm'
"""
from __future__ import annotations

import re
from functools import lru_cache

from kg.identity import compact

__all__ = ["is_variant_token", "strip_variant"]

_VARIANT_SUFFIX = re.compile(
    r"(?:[-_ ]?(?:\d+(?:\.\d+)?[BMKbmk]|\d+x\d+[Bb])"
    # a word suffix needs a separator or a size before it: "gemma-7b-it", "Llama-2-7b-chat",
    # but not "Adroit", "Reddit", "Codebase"
    r"|(?:[-_ ]|(?<=\d[BMKbmk]))(?:[Ii]nstruct|[Cc]hat|[Bb]ase|hf|it|HF)"
    r"|[-_ ](?:nano|mini|small|medium|large|tiny|base|xl|XL|Base|Large|Small|Tiny|Nano|Mini|"
    r"Medium|Opus|Sonnet|Haiku|Pro|Flash|Ultra|Turbo|turbo|v\d+(?:\.\d+)*)"
    # a year after an apostrophe: "WMT'14" is WMT's 2014 edition
    r"|(?<=[A-Za-z])['’]\d\d)$")
# every suffix above has a digit or a separator in it: a name with neither has none
# (most words; the suffix pattern is tried at each of a word's characters)
_VARIANT_HINT = re.compile(r"[\d\-_ ]")


@lru_cache(maxsize=200_000)
def strip_variant(name: str) -> str:
    """Drop parameter-size and chat/instruct suffixes (``LLaMA-2-7B`` -> ``LLaMA-2``)."""
    if not _VARIANT_HINT.search(name):
        return name
    prev = None
    while prev != name:
        prev = name
        stripped = _VARIANT_SUFFIX.sub("", name)
        if stripped and len(compact(stripped)) >= 2:
            name = stripped.rstrip("-_ ")
    return name


_VARIANT_WORDS = frozenset([
    "Instruct", "Chat", "instruct", "chat", "Opus", "Sonnet", "Haiku", "Pro", "Flash", "Ultra",
    "Turbo", "turbo",
])


@lru_cache(maxsize=50_000)
def is_variant_token(text: str) -> bool:
    """A token that only names a size or variant (``7B``, ``-Instruct``, ``8x7B``)."""
    t = text.lstrip("-_")
    return bool(t) and bool(_VARIANT_SUFFIX.fullmatch(t)) and not t.isalpha() or t in _VARIANT_WORDS
