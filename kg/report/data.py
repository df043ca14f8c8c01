"""The rest of a build's report as typed values: ``summary.json`` and the whole ``report.json``.

The build's counts (:class:`BuildSummary`), the extraction summary, what the
papers of each track are about (:class:`ContentTables`) and the whole
``report.json`` (:class:`Report`, which holds the co-authorship report of
:mod:`kg.analysis.records`). Records like those: frozen dataclasses whose
fields are the keys of the JSON document, in its order.

Examples
--------
>>> r = TrackRow.from_json({"track": "Oral", "papers": 3, "authors": 7})
>>> r.papers, r.to_json()["track"]
(3, 'Oral')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kg.analysis.records import CoauthorReport, Ranked, Record, optional

__all__ = [
    "ExtractionCounts", "BuildSummary", "ExtractionSummary", "TrackRow", "TrackNames", "TrackCounts", "TrackEntities", "TrackConcepts", "ContentTables", "Report",
]


# --- the build's counts (summary.json) and the whole report.json ------------

@dataclass(frozen=True)
class ExtractionCounts(Record):
    mentions: int
    entities: int
    mentions_by_type: Mapping[str, int]
    papers_proposing: int
    acronym_pairs: int


@dataclass(frozen=True)
class BuildSummary(Record):
    """Counts of a parsed corpus and its extractions (``summary.json``)."""

    files: tuple[str, ...]
    entries: int
    papers: int
    merged: int
    skipped: int
    warnings: int
    authors: int
    authorships: int
    truncated_author_lists: int
    papers_with_track: int
    tracks: tuple[str, ...]
    extraction: ExtractionCounts | None = optional()


@dataclass(frozen=True)
class ExtractionSummary(Record):
    """Mentions and entities found, by type, and the most mentioned entities."""

    papers_extracted: int
    papers_with_mentions: int
    mentions: int
    proposed_mentions: int
    entities: int
    entities_by_type: Mapping[str, int]
    top_entities: tuple[tuple[str, str, int], ...]   # (name, type, papers)


# --- what the papers are about, per track (kg.analysis.content) --------------

@dataclass(frozen=True)
class TrackRow(Record):
    """One track: its papers and distinct authors."""

    track: str
    papers: int
    authors: int


@dataclass(frozen=True)
class TrackNames(Record):
    """The names papers of one track propose, with how many papers propose each."""

    track: str
    papers_proposing: int
    names: Ranked


@dataclass(frozen=True)
class TrackCounts(Record):
    """One row of the track x entity table: papers mentioning each entity."""

    track: str
    papers: tuple[int, ...]


@dataclass(frozen=True)
class TrackEntities(Record):
    """Papers of each track mentioning each of the most mentioned entities."""

    entities: tuple[tuple[str, str], ...]   # (name, type): the columns of ``rows``
    rows: tuple[TrackCounts, ...]


@dataclass(frozen=True)
class TrackConcepts(Record):
    """The concepts most papers of one track mention: (label, papers)."""

    track: str
    concepts: Ranked


@dataclass(frozen=True)
class ContentTables(Record):
    """Tracks, entities by type, proposed names, tracks x entities, top concepts overall
    and per track (papers, most first; the concepts came later, so may be missing)."""

    papers_without_track: int
    tracks: tuple[TrackRow, ...]
    entities_by_type: Mapping[str, Ranked]   # by type: (name, papers)
    proposed_by_track: tuple[TrackNames, ...]
    track_entities: TrackEntities
    top_concepts: tuple[tuple[str, str, int], ...] | None = optional()  # (label, type, papers)
    concepts_by_track: tuple[TrackConcepts, ...] | None = optional()


@dataclass(frozen=True, kw_only=True)
class Report(Record):
    """``report.json``: the corpus counts, the extraction summary, the co-authorship report.

    ``content`` (tracks and what their papers mention) came later: it is
    written after ``coauthors`` so the earlier keys keep their place.
    """

    kind: str = "kg report"
    version: int = 1
    corpus: BuildSummary | None = optional()
    extraction: ExtractionSummary | None = optional()
    coauthors: CoauthorReport
    content: ContentTables | None = optional()
