"""Typed values passed between the stages of kg (frozen dataclasses).

Every stage is a pure function from some of these to others; only
:mod:`kg.pipeline` and :mod:`kg.cli` touch the file system.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ENTITY_TYPES = ("model", "method", "dataset", "task", "metric", "other")


@dataclass(frozen=True, slots=True)
class Source:
    """Where an entry was read: the listing file (as given) and its 1-based line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Track:
    """A track as listed: ``Area · Subarea`` or an area alone.

    ``line`` is the track line as written (stripped of surrounding space).
    """

    area: str
    subarea: str | None = None
    line: str = ""

    @property
    def label(self) -> str:
        return f"{self.area} · {self.subarea}" if self.subarea else self.area


@dataclass(frozen=True, slots=True)
class Author:
    """One author of one paper: the name as written and its 1-based position."""

    name: str
    position: int


@dataclass(frozen=True, slots=True)
class Paper:
    """One unique paper.

    ``id`` is content-addressed from the normalised abstract (see
    :func:`kg.identity.paper_id`), so duplicates merge and ids are stable.
    ``authors`` keeps the order and spelling of the listing; ``sources`` every
    place the paper was listed, in reading order.
    """

    id: str
    authors: tuple[str, ...]
    abstract: str
    authors_truncated: bool = False
    track: Track | None = None
    title: str | None = None
    sources: tuple[Source, ...] = ()

    @property
    def ordered_authors(self) -> tuple[Author, ...]:
        return tuple(Author(n, i) for i, n in enumerate(self.authors, start=1))


@dataclass(frozen=True, slots=True)
class ParseWarning:
    """Something in an input that was skipped or repaired, with its place."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class Corpus:
    """The unique papers of one or more listings, in order of first appearance.

    ``entries`` counts the entries read (before merging duplicates);
    ``merged`` how many of those were duplicates folded into an earlier paper;
    ``skipped`` how many could not be read (each has a warning).
    ``entries == len(papers) + merged`` always holds.
    """

    papers: tuple[Paper, ...]
    entries: int = 0
    merged: int = 0
    skipped: int = 0
    warnings: tuple[ParseWarning, ...] = ()
    files: tuple[str, ...] = ()

    @property
    def tracks(self) -> tuple[Track, ...]:
        seen: dict[tuple[str, str | None], Track] = {}
        for p in self.papers:
            if p.track is not None:
                seen.setdefault((p.track.area, p.track.subarea), p.track)
        return tuple(seen.values())

    @property
    def authors(self) -> tuple[str, ...]:
        """Distinct author names as written, in order of first appearance."""
        return tuple(dict.fromkeys(a for p in self.papers for a in p.authors))


# ---------------------------------------------------------------- mentions


@dataclass(frozen=True, slots=True)
class Entity:
    """A known or discovered thing papers mention (model, method, dataset, ...).

    ``canonical`` is its one name after normalisation; ``key`` the
    normalised identity key (:func:`kg.identity.entity_key`); ``family`` the
    canonical name of its family (``LLaMA`` for ``LLaMA-3``) or ``None``.
    """

    canonical: str
    type: str
    key: str
    family: str | None = None
    aliases: tuple[str, ...] = ()
    source: str | None = None
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Mention:
    """One occurrence of an entity in a clean abstract.

    ``clean_abstract[start:end] == text``.
    """

    text: str
    canonical: str
    type: str
    start: int
    end: int
    proposed: bool = False
    key: str = ""
    family: str | None = None


@dataclass(frozen=True, slots=True)
class Alias:
    """An acronym and its long form, as defined in one abstract."""

    long: str
    short: str


@dataclass(frozen=True, slots=True)
class Extraction:
    """What the extractor found in one paper's clean abstract."""

    paper_id: str
    abstract: str
    mentions: tuple[Mention, ...] = ()
    aliases: tuple[Alias, ...] = ()

    @property
    def proposed(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.canonical for m in self.mentions if m.proposed))


@dataclass(frozen=True)
class Build:
    """A corpus with its extractions, keyed by paper id; input to rdf and graph."""

    corpus: Corpus
    extractions: dict[str, Extraction] = field(default_factory=dict)
