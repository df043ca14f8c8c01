"""The people file (``--people FILE``): names to merge into one person, names to leave out.

People are identified by their name as written (:func:`kg.identity.person_key`),
so one person written two ways is two nodes and an author list may hold a
name that is no person. A people file, written by the user, says otherwise;
it is applied right after parsing, so every output (graph, RDF, report,
views) sees the corrected author lists. One rule a line::

    # a comment; blank lines are skipped
    merge: Yang Liu = Liu Yang = Y. Liu    # not a comment: '#' is part of a name
    exclude: Anonymous

``merge: A = B = ...`` writes every listed name (matched as kg matches
names: case and spacing do not count) as the first one; ``exclude: NAME``
removes the name from every author list (the papers stay). A name listed
twice on one paper after merging counts once. A line that is none of these,
a merge of fewer than two different names, a name merged into two people,
or a name both merged and excluded is an error naming ``FILE:LINE``.

Examples
--------
>>> from kg.models import Corpus, Paper
>>> rules = parse_people("merge: Yang Liu = Y. Liu\\nexclude: Anonymous\\n")
>>> c = Corpus((Paper("1", ("Y. Liu", "Anonymous", "yang  liu", "Bo"), "x"),))
>>> apply_people(c, rules).papers[0].authors
('Yang Liu', 'Bo')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from kg.errors import ParseError
from kg.identity import person_key
from kg.models import Corpus, Paper

__all__ = ["PeopleRules", "parse_people", "read_people", "apply_people"]


@dataclass(frozen=True)
class PeopleRules:
    """A parsed people file: ``merges`` maps a person key to the name it is written as;
    ``excludes`` holds the person keys to leave out."""

    merges: Mapping[str, str]
    excludes: frozenset[str]

    def __bool__(self) -> bool:
        return bool(self.merges or self.excludes)


def parse_people(text: str, file: str = "<people>") -> PeopleRules:
    """Read the rules of a people file (see the module's docstring).

    Raises
    ------
    kg.errors.ParseError
        On the first bad line, naming ``file`` and the line.
    """
    merges: dict[str, str] = {}
    merged_at: dict[str, int] = {}
    excludes: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        rule, colon, rest = line.partition(":")
        rule = rule.strip().casefold()
        if not colon or rule not in ("merge", "exclude"):
            raise ParseError(file, number, f"expected 'merge: NAME = NAME' or 'exclude: NAME', "
                                           f"got {line[:60]!r}")
        if rule == "exclude":
            key = person_key(rest)
            if not key:
                raise ParseError(file, number, "exclude: needs a name")
            if key in merged_at:
                raise ParseError(file, number, f"{rest.strip()!r} is merged on line "
                                               f"{merged_at[key]}; it cannot be excluded too")
            excludes.setdefault(key, number)
            continue
        names = [n.strip() for n in rest.split("=")]
        if any(not person_key(n) for n in names):
            raise ParseError(file, number, "merge: a name is empty (write 'merge: A = B')")
        keys = list(dict.fromkeys(person_key(n) for n in names))
        if len(keys) < 2:
            raise ParseError(file, number, "merge: needs two different names (write 'merge: A = B')")
        target = names[0]
        for key, name in zip(keys, names, strict=True):
            if key in excludes:
                raise ParseError(file, number, f"{name!r} is excluded on line {excludes[key]}; "
                                               "it cannot be merged too")
            if key in merges and person_key(merges[key]) != person_key(target):
                raise ParseError(file, number, f"{name!r} is already merged into "
                                               f"{merges[key]!r} on line {merged_at[key]}")
        target = next((merges[k] for k in keys if k in merges), target)  # one spelling each
        for key in keys:
            merges.setdefault(key, target)
            merged_at.setdefault(key, number)
    return PeopleRules(merges=merges, excludes=frozenset(excludes))


def read_people(path: str | Path) -> PeopleRules:
    """:func:`parse_people` of a file (UTF-8, or UTF-16 with its byte-order mark, as the
    listings); a file that cannot be read is a one-line error."""
    from kg.parse.decode import decode

    try:
        decoded = decode(Path(path).read_bytes(), str(path))
    except FileNotFoundError:
        raise ParseError(str(path), None, "people file not found") from None
    except IsADirectoryError:
        raise ParseError(str(path), None, "is a directory, not a people file") from None
    except OSError as exc:
        raise ParseError(str(path), None, f"cannot read the people file ({exc.strerror})") from None
    if decoded.warnings:   # a name with a broken byte would merge or exclude the wrong person
        raise ParseError(str(path), None, "not UTF-8 or UTF-16 text "
                         f"({decoded.warnings[0].message})")
    return parse_people(decoded.text, str(path))


def _authors(paper: Paper, rules: PeopleRules) -> tuple[str, ...]:
    """The paper's authors after the rules; a merged person listed twice is kept once
    (other names listed twice stay as listed)."""
    out: list[str] = []
    merged: set[str] = set()  # every name of a merge (its first one too) is in rules.merges
    for name in paper.authors:
        key = person_key(name)
        if key in rules.excludes:
            continue
        if key in rules.merges:
            name = rules.merges[key]
            if name in merged:
                continue
            merged.add(name)
        out.append(name)
    return tuple(out)


def apply_people(corpus: Corpus, rules: PeopleRules) -> Corpus:
    """``corpus`` with each author list merged and filtered by ``rules`` (a new corpus)."""
    if not rules:
        return corpus
    papers = []
    for p in corpus.papers:
        authors = _authors(p, rules)
        papers.append(p if authors == p.authors else replace(p, authors=authors))
    return replace(corpus, papers=tuple(papers))
