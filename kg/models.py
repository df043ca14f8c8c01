"""Typed values passed between the stages of kg (frozen dataclasses).

Every stage is a pure function from some of these to others; only
:mod:`kg.build.pipeline` and :mod:`kg.cli` touch the file system. A value that
crosses from one stage to another through a file has its codec beside it:
``to_json`` gives the JSON object the file holds, ``from_json`` reads it
back, and ``X.from_json(x.to_json()) == x`` for every ``x`` (the papers of
``corpus.jsonl``: :class:`Paper`, :class:`Source`; the extractions of
``extractions.jsonl``: :class:`Extraction`, :class:`Mention`, :class:`Alias`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kg.identity import entity_key

#: a JSON object as :func:`json.loads` gives it
JsonObject = dict[str, Any]

ENTITY_TYPES = ("model", "method", "dataset", "task", "metric", "other")
#: characters of an abstract that extraction reads: about 50 times the longest real
#: abstract; a longer one (a whole paper pasted in, a broken export) is kept whole in
#: the graph, and its mentions are found in its first part (the parser warns)
EXTRACT_CHARS = 100_000


@dataclass(frozen=True, slots=True)
class Source:
    """Where an entry was read: the listing file (as given) and its 1-based line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> JsonObject:
        """``{"file": ..., "line": ...}``, as in a paper's ``sources``."""
        return {"file": self.file, "line": self.line}

    @classmethod
    def from_json(cls, obj: JsonObject) -> Source:
        """Inverse of :meth:`to_json`."""
        return cls(obj["file"], int(obj["line"]))


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

    def to_json(self) -> JsonObject:
        """The ``kg parse`` record of the paper (a line of ``corpus.jsonl``).

        The track is written flat: ``track`` (the line as written), ``area``
        and ``subarea``, all ``null`` for a paper without one.

        >>> p = Paper("00ab", ("Ada Lovelace",), "We study engines.", track=Track("Theory"))
        >>> Paper.from_json(p.to_json()) == p
        True
        """
        t = self.track
        return {
            "id": self.id,
            "track": t.line if t else None,
            "area": t.area if t else None,
            "subarea": t.subarea if t else None,
            "authors": list(self.authors),
            "authors_truncated": self.authors_truncated,
            "title": self.title,
            "abstract": self.abstract,
            "sources": [s.to_json() for s in self.sources],
        }

    @classmethod
    def from_json(cls, obj: JsonObject) -> Paper:
        """Inverse of :meth:`to_json` (reads ``corpus.jsonl`` back).

        Raises
        ------
        KeyError, TypeError
            When ``id``, ``authors`` or ``abstract`` is missing.
        """
        track = None
        if obj.get("area") is not None:
            track = Track(area=obj["area"], subarea=obj.get("subarea"),
                          line=obj.get("track") or "")
        return cls(
            id=obj["id"],
            authors=tuple(obj["authors"]),
            abstract=obj["abstract"],
            authors_truncated=bool(obj.get("authors_truncated")),
            track=track,
            title=obj.get("title"),
            sources=tuple(Source.from_json(s) for s in obj.get("sources", ())),
        )


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
    """One occurrence of an entity or a concept in a clean abstract.

    ``clean_abstract[start:end] == text``. ``key`` is the identity key of
    the entity (the extractor sets it; see :attr:`identity_key` for a
    mention made without one), ``family`` the canonical name of its family.
    ``layer`` is ``"entity"`` for a named artefact and ``"concept"`` for a
    concept of :mod:`kg.extract.concept_vocab`: then ``key`` is the concept's id,
    ``canonical`` its label and ``type`` its concept type; ``"keyword"`` for a
    phrase the learned filter accepted outside the vocabulary
    (:mod:`kg.extract.concept_filter`): ``key`` is its entity key, ``type`` "keyword".
    """

    text: str
    canonical: str
    type: str
    start: int
    end: int
    proposed: bool = False
    key: str = ""
    family: str | None = None
    layer: str = "entity"

    @property
    def identity_key(self) -> str:
        """The key of the entity mentioned: ``key``, or for a mention made
        without one, :func:`kg.identity.entity_key` of its canonical name.

        >>> Mention("Llama 2", "LLaMA-2", "model", 0, 7).identity_key
        'llama2'
        """
        return self.key or entity_key(self.canonical)

    def to_json(self) -> JsonObject:
        """A mention as ``extractions.jsonl`` holds it.

        >>> Mention("LLMs", "LLM", "model", 0, 4, key="llm").to_json()
        {'text': 'LLMs', 'canonical': 'LLM', 'type': 'model', 'start': 0, 'end': 4, \
'proposed': False, 'key': 'llm', 'family': None, 'layer': 'entity'}
        """
        return {"text": self.text, "canonical": self.canonical, "type": self.type,
                "start": self.start, "end": self.end, "proposed": self.proposed,
                "key": self.key, "family": self.family, "layer": self.layer}

    @classmethod
    def from_json(cls, obj: JsonObject) -> Mention:
        """Inverse of :meth:`to_json`; a field missing takes its default (files
        written before ``key`` and ``family`` were: the key of the canonical
        name, no family).

        >>> Mention.from_json({"text": "LLMs", "canonical": "LLM", "type": "model",
        ...                    "start": 0, "end": 4}).key
        'llm'
        """
        canonical: str = obj["canonical"] if "canonical" in obj else obj.get("text", "")
        text: str = obj.get("text", canonical)
        return cls(text=text, canonical=canonical,
                   type=obj.get("type", "other"), start=int(obj.get("start", 0)),
                   end=int(obj.get("end", 0)), proposed=bool(obj.get("proposed")),
                   key=obj["key"] if "key" in obj else entity_key(canonical),
                   family=obj.get("family"), layer=obj.get("layer", "entity"))


@dataclass(frozen=True, slots=True)
class Alias:
    """An acronym and its long form, as defined in one abstract."""

    long: str
    short: str

    def to_json(self) -> JsonObject:
        """``{"long": ..., "short": ...}``, as in an extraction's ``aliases``."""
        return {"long": self.long, "short": self.short}

    @classmethod
    def from_json(cls, obj: JsonObject) -> Alias:
        """Inverse of :meth:`to_json`."""
        return cls(long=obj["long"], short=obj["short"])


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

    def to_json(self) -> JsonObject:
        """The ``kg extract`` record of one paper (a line of ``extractions.jsonl``).

        >>> ex = Extraction("00ab", "We use LLMs.",
        ...                 (Mention("LLMs", "LLM", "model", 7, 11, key="llm"),))
        >>> Extraction.from_json(ex.to_json()) == ex
        True
        """
        return {
            "id": self.paper_id,
            "abstract": self.abstract,
            "mentions": [m.to_json() for m in self.mentions],
            "aliases": [a.to_json() for a in self.aliases],
        }

    @classmethod
    def from_json(cls, obj: JsonObject) -> Extraction:
        """Inverse of :meth:`to_json` (reads ``extractions.jsonl`` back)."""
        return cls(paper_id=str(obj.get("id", "")), abstract=obj.get("abstract", ""),
                   mentions=tuple(Mention.from_json(m) for m in obj.get("mentions", ())),
                   aliases=tuple(Alias.from_json(a) for a in obj.get("aliases", ())))


@dataclass(frozen=True, slots=True)
class CorpusExtraction:
    """The extractions of a corpus's papers in corpus order (all of them:
    :func:`kg.extract.extract_corpus`; a run of them: :func:`kg.extract.extract_chunks`),
    with the CPU seconds spent cleaning and in spaCy, summed over the processes."""

    extractions: tuple[Extraction, ...]
    clean_seconds: float = 0.0
    extract_seconds: float = 0.0

    @property
    def clean_share(self) -> float:
        """The share of the CPU time spent cleaning (0 when nothing was timed).

        >>> CorpusExtraction((), 1.0, 3.0).clean_share
        0.25
        """
        return self.clean_seconds / max(self.clean_seconds + self.extract_seconds, 1e-9)


@dataclass(frozen=True)
class Links:
    """What extraction resolved about the names a build mentions, for the RDF mapping
    (:func:`kg.extract.links.resolve_links`): the known (gazetteer) entries of the
    entities mentioned and of their families; the concept each name's head words
    name ("... Contrastive Learning"); the concept each mention text names whole."""

    entities: tuple[Entity, ...] = ()
    heads: tuple[tuple[str, str], ...] = ()    #: (name, concept id), by name
    named: tuple[tuple[str, str], ...] = ()    #: (mention text, concept id), by text


@dataclass(frozen=True)
class Build:
    """A corpus with its extractions, keyed by paper id, and their :class:`Links`
    (``None``: not resolved; the RDF mapping then links by the vocabulary alone);
    input to rdf and graph."""

    corpus: Corpus
    extractions: dict[str, Extraction] = field(default_factory=dict)
    links: Links | None = None
