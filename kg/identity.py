"""Identity keys: what makes two papers, people or entities the same.

Every key kg computes from text is defined here, once; other modules import
(and some re-export) these. Keys are pure functions of text, so identifiers
are stable across runs and machines. Homonyms are not split: two people
written the same way are one.

==========================  ==================================================
:func:`normalise_text`      NFKC, case-folded, whitespace collapsed (the base
                            of the paper, person and track keys)
:func:`paper_id`            a paper: the hash of its normalised abstract
:func:`person_key`          a person: the normalised name as written
:func:`name_key`            ``kgo:nameKey`` and the ``person-name`` query
                            parameter (lower-cased, not case-folded)
:func:`fold_name`           a person key without diacritics or punctuation
                            (to find spelling variants, never to merge)
:func:`compact`             a name without separators (case kept)
:func:`entity_key`          an entity: case- and separator-insensitive
:func:`singular_key`        an entity key with a plural ending dropped
:func:`search_key`          ``skos:hiddenLabel`` and the ``entity-name`` query
                            parameter (lower-cased, not normalised)
==========================  ==================================================

The two query keys differ from the identity keys on purpose, and only
outside ASCII: they are what the graph has always held, so stores built
earlier still answer.

Examples
--------
>>> paper_id("Hello  world.") == paper_id("hello world.")
True
>>> person_key("  Zoë   Smith ")
'zoë smith'
>>> entity_key("LLaMA-2") == entity_key("Llama 2") == entity_key("llama-2")
True
>>> person_key("Strauß"), name_key("Strauß"), entity_key("Straße"), search_key("Straße")
('strauss', 'strauß', 'strasse', 'straße')
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

__all__ = ["compact", "entity_key", "fold_name", "name_key", "normalise_text", "own_key", "paper_id",
           "person_key", "search_key", "singular_key"]

# ------------------------------------------------------------ papers, people


def normalise_text(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed and stripped.

    >>> normalise_text("  Ａda\\tLOVELACE ")
    'ada lovelace'
    """
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


def name_key(name: str) -> str:
    """What ``kgo:nameKey`` holds: the name in lower case, spaces collapsed.

    A query parameter of type ``person-name`` is bound to this key of the
    user's text (:mod:`kg.queries`), so a person is found with one index
    lookup. Unlike :func:`person_key` it lower-cases instead of
    case-folding (``ß`` stays ``ß``).

    >>> name_key("  Zoë   SMITH ")
    'zoë smith'
    """
    return " ".join(unicodedata.normalize("NFKC", name).split()).lower()


_FOLD = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i"})
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def fold_name(key: str) -> str:
    """A person key without diacritics, punctuation or spaces.

    Two person keys that fold alike may be one person written two ways; kg
    reports them (:mod:`kg.analysis.caveats`) and never merges them.

    Examples
    --------
    >>> fold_name("michał bortkiewicz") == fold_name("Michal Bortkiewicz".casefold())
    True
    >>> fold_name("jean-luc o'neil")
    'jeanluconeil'
    """
    text = key.casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_FOLD))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NON_ALNUM.sub("", text)


# ------------------------------------------------------------------ entities

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_./·]+")


def compact(text: str) -> str:
    """The text with separators (space, hyphen, dot, underscore, slash) removed.

    >>> compact("LLaMA-2 7B")
    'LLaMA27B'
    """
    return _SEPARATORS.sub("", unicodedata.normalize("NFKC", text))


def entity_key(text: str) -> str:
    """The identity of an entity: its name, case- and separator-insensitive.

    The extractor keys every mention with it (``Mention.key``), except a
    paper's own entity whose name folds to a known entity's key (the
    extractor's ``own_key``); the graph keys names that come without a key
    (families) with it.

    >>> entity_key("LLaMA-2") == entity_key("Llama 2") == entity_key("LLaMA2") == "llama2"
    True
    """
    return compact(text).casefold()


def singular_key(key: str) -> str:
    """A key with a plural ``s``/``es`` dropped (``llms`` -> ``llm``).

    >>> singular_key(entity_key("LLMs")), singular_key("ontologies"), singular_key("loss")
    ('llm', 'ontology', 'loss')
    """
    if key.endswith("ies") and len(key) > 4:
        return key[:-3] + "y"
    if key.endswith("s") and not key.endswith("ss") and len(key) > 2:
        return key[:-1]
    return key


def search_key(name: str) -> str:
    """What ``skos:hiddenLabel`` holds: the name in lower case without separators.

    A query parameter of type ``entity-name`` is bound to this key of the
    user's text (:mod:`kg.queries`), so an entity is found by any of its
    names with one index lookup. It equals :func:`entity_key` on ASCII names.

    >>> search_key("Llama 2") == search_key("LLaMA-2") == "llama2"
    True
    """
    return _SEPARATORS.sub("", name).lower()


def own_key(key: str) -> str:
    """The key of a paper's own entity whose name folds to a gazetteer entry's key
    without being that entry (the paper's "Maestro", the MAESTRO dataset).

    >>> own_key("maestro")
    'maestro-own'
    """
    return key + "-own"
