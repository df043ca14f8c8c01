"""The rest of a build's report as typed values: ``summary.json`` and the whole ``report.json``.

``summary.json`` (:class:`BuildSummary`: the files and the build's counts of
:mod:`kg.analysis.counts`), the top entities, what the papers of each track
are about (:class:`ContentTables`) and the whole ``report.json``
(:class:`Report`, which holds the counts and the co-authorship report of
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
from typing import Any

from kg.analysis.counts import BuildCounts
from kg.analysis.records import CoauthorReport, Ranked, Record, optional

__all__ = [
    "SUMMARY_VERSION", "BuildSummary", "ExtractionSummary", "TrackRow", "TrackNames", "TrackCounts", "TrackEntities", "TrackConcepts", "ContentTables", "Report",
]

#: The version of ``summary.json``: 2 since the counts were renamed to say what
#: they count (:mod:`kg.analysis.counts`); the first had no ``version`` key.
SUMMARY_VERSION = 2


# --- the build's counts (summary.json) and the top entities ------------------

@dataclass(frozen=True)
class BuildSummary(Record):
    """``summary.json``: the listing files, the build's counts, the track labels.

    The counts (:class:`~kg.analysis.counts.BuildCounts`) are written flat,
    between ``files`` and ``track_labels``, so ``papers`` stays a top-level
    key as in the first version of the file (which had no ``version``).
    """

    files: tuple[str, ...]
    counts: BuildCounts
    track_labels: tuple[str, ...]
    version: int = SUMMARY_VERSION

    @property
    def papers(self) -> int:
        """The unique papers of the build."""
        return self.counts.papers

    def to_json(self) -> dict[str, Any]:
        """``{"version", "files", <every count>, "track_labels"}``."""
        return {"version": self.version, "files": list(self.files), **self.counts.to_json(),
                "track_labels": list(self.track_labels)}

    @classmethod
    def from_json(cls, obj: Any) -> BuildSummary:
        """Read :meth:`to_json`'s object back.

        Raises
        ------
        ValueError
            On anything else, a first-version summary included (it counted
            other things under other names: ``authors``, ``extraction``).
        """
        if isinstance(obj, cls):
            return obj
        if not isinstance(obj, Mapping):
            raise ValueError(f"BuildSummary: expected an object, got {type(obj).__name__}")
        if obj.get("version") != SUMMARY_VERSION:
            raise ValueError(f"summary version {obj.get('version', 1)}, not {SUMMARY_VERSION}; "
                             "rebuild to count it anew")
        rest = {k: v for k, v in obj.items() if k not in ("version", "files", "track_labels")}
        return cls(files=tuple(obj.get("files", ())), counts=BuildCounts.from_json(rest),
                   track_labels=tuple(obj.get("track_labels", ())))


@dataclass(frozen=True)
class ExtractionSummary(Record):
    """The most mentioned entities: (name, type, papers mentioning it), most first."""

    top_entities: tuple[tuple[str, str, int], ...]


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
    """``report.json``: the build's counts, the top entities, the co-authorship report.

    ``counts`` is ``summary.json``'s record (:func:`kg.analysis.counts.build_counts`).
    ``content`` (tracks and what their papers mention) came later: it is
    written after ``coauthors`` so the earlier keys keep their place.
    """

    kind: str = "kg report"
    version: int = 2
    counts: BuildCounts | None = optional()
    extraction: ExtractionSummary | None = optional()
    coauthors: CoauthorReport
    content: ContentTables | None = optional()
