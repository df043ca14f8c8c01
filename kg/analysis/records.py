"""The co-authorship report as typed values (``report.json``'s ``coauthors``), and their codec.

:func:`kg.analysis.analyse` returns a :class:`CoauthorReport`; the rest of
``report.json`` and ``summary.json`` (:mod:`kg.report.data`) are records of
the same kind, built on :class:`Record`.

Frozen dataclasses, one per section, read by attribute. Each field is a key
of the JSON document, in the document's order, so :meth:`Record.to_json`
gives back exactly the dictionary the document was made of (and
:meth:`Record.from_json` reads it: a key it does not know is an error, not
dropped). Fields marked :func:`optional` are left out of the JSON when
``None``; other ``None`` values are written as ``null``.

A leaf module: it imports nothing of kg.

Examples
--------
>>> d = {"mean": 1.5, "median": 1.5, "min": 1, "max": 2, "distribution": [[1, 1], [2, 1]]}
>>> c = Counts.from_json(d)
>>> c.max, c.distribution[1]
(2, (2, 1))
>>> c.to_json() == d
True
"""
from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any, ClassVar, TypeVar, Union

__all__ = [
    "Record", "optional", "Counts", "Lotka", "Productivity", "Components", "Distances", "NetworkStats", "LargeTeams", "Homonym", "Homonyms", "Caveats", "AuthorRow", "CentralityMethod", "Centrality", "Community", "PartitionSummary", "Communities", "Pair", "StrongestPairs", "Ego", "Parameters", "CoauthorReport",
]

R = TypeVar("R", bound="Record")
Pairs = tuple[tuple[int, int], ...]    # a distribution: (value, how many), by value
Ranked = tuple[tuple[str, int], ...]   # (name, count), most first


def optional() -> Any:
    """A field left out of the JSON when it is ``None`` (default ``None``)."""
    return field(default=None, metadata={"omit_none": True})


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready Python: records to dicts, tuples to lists."""
    if isinstance(value, Record):
        return value.to_json()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _typed(hint: Any, value: Any) -> Any:
    """``value`` (from JSON) as ``hint`` says: records, tuples and mappings of them."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        arms = [a for a in typing.get_args(hint) if a is not type(None)]
        return _typed(arms[0], value) if len(arms) == 1 else value
    if isinstance(hint, type) and issubclass(hint, Record):
        return hint.from_json(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], v) for v in value)
        return tuple(_typed(a, v) for a, v in zip(args, value, strict=True))
    if origin in (dict, Mapping, typing.get_origin(Mapping[str, int])):
        _, arg = typing.get_args(hint)
        return {k: _typed(arg, v) for k, v in value.items()}
    return value


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a record class (resolved once per class)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


class Record:
    """Base of the report's dataclasses: JSON in and out, in field order."""

    # every subclass is a dataclass: this says so to the type checker (no value here)
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_json(self) -> dict[str, Any]:
        """The JSON object (a dict, keys in field order; optional ``None`` fields left out)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get("omit_none"):
                continue
            out[f.name] = _plain(value)
        return out

    @classmethod
    def from_json(cls: type[R], obj: Any) -> R:
        """Read the JSON object of this record (a record passes through as it is).

        Raises
        ------
        ValueError
            On a key the record does not have, or a missing required one.
        """
        if isinstance(obj, cls):
            return obj
        if not isinstance(obj, Mapping):
            raise ValueError(f"{cls.__name__}: expected an object, got {type(obj).__name__}")
        hints = _hints(cls)
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(obj) - names)
        if unknown:
            raise ValueError(f"{cls.__name__}: unknown key {unknown[0]!r}")
        kw = {}
        for f in fields(cls):
            if f.name in obj:
                kw[f.name] = _typed(hints[f.name], obj[f.name])
            elif not f.metadata.get("omit_none"):
                raise ValueError(f"{cls.__name__}: missing key {f.name!r}")
        return cls(**kw)

    # Code written when the report was a dict reads it by key: it gets the JSON view.
    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __contains__(self, key: str) -> bool:
        return key in self.to_json()

    def get(self, key: str, default: Any = None) -> Any:
        """The JSON view's ``key`` (for code that read the report as a dict)."""
        return self.to_json().get(key, default)


# --- the co-authorship report (kg.analysis.analyse) --------------------------

@dataclass(frozen=True)
class Counts(Record):
    """How a count is spread (papers per author, ...): ``None`` statistics when there is none."""

    mean: float | None
    median: float | None
    min: int | None
    max: int | None
    distribution: Pairs


@dataclass(frozen=True)
class Lotka(Record):
    """Lotka's law fitted to papers per author: share(k) = C / k^beta."""

    beta: float
    C: float
    r2: float
    method: str


@dataclass(frozen=True)
class Productivity(Record):
    papers: int
    papers_without_authors: int
    single_author_papers: int
    people: int
    paper_person_links: int
    authors_per_paper: Counts
    papers_per_author: Counts
    lotka: Lotka | None


@dataclass(frozen=True)
class Components(Record):
    count: int
    sizes: Pairs
    largest: int
    largest_share: float | None
    largest_edges: int


@dataclass(frozen=True)
class Distances(Record):
    """Distances in the largest component, exact or sampled (``method`` says which)."""

    nodes: int
    mean_distance: float | None
    diameter: int
    exact: bool
    method: str
    sources: int | None


@dataclass(frozen=True)
class NetworkStats(Record):
    nodes: int
    edges: int
    isolates: int
    density: float | None
    collaborators_per_author: Counts
    components: Components
    transitivity: float
    mean_clustering: float | None
    degree_assortativity: float | None
    largest_component: Distances


@dataclass(frozen=True)
class LargeTeams(Record):
    """Papers with too many authors to link them all."""

    max_linked_team: int
    papers: int
    authorships: int
    largest: int
    pairs_not_linked: int


@dataclass(frozen=True)
class Homonym(Record):
    """A name whose ego network looks like several people, with the evidence."""

    name: str
    papers: int
    collaborators: int
    groups: int                     # co-author groups of 2 or more, the name removed
    group_sizes: tuple[int, ...]    # every group (component), largest first
    largest_share: float            # of the co-authors, in the largest group
    clustering: float               # local clustering coefficient


@dataclass(frozen=True)
class Homonyms(Record):
    """Names that may be several people (kg.analysis.caveats.homonym_suspects)."""

    rule: str
    examined: int
    flagged: int
    suspects: tuple[Homonym, ...]


@dataclass(frozen=True)
class Caveats(Record):
    """What the data cannot tell (cut author lists, identity by name)."""

    papers: int
    truncated_papers: int
    truncated_share: float | None
    authors_shown_on_truncated_papers: int
    hidden_authorships_at_least: int
    missing_coauthor_links_at_least: int
    single_author_papers: int
    papers_without_authors: int
    papers_listing_a_name_twice: int
    possible_name_variants: int
    name_variant_examples: tuple[tuple[str, ...], ...]
    identity: str
    notes: tuple[str, ...]
    large_teams: LargeTeams | None = optional()
    homonyms: Homonyms | None = optional()


@dataclass(frozen=True)
class AuthorRow(Record):
    """One author of a top list."""

    name: str
    papers: int
    collaborators: int
    strength: float
    betweenness: float
    closeness: float
    eigenvector: float
    pagerank: float
    community: int | None


@dataclass(frozen=True)
class CentralityMethod(Record):
    """How each centrality was computed."""

    betweenness: str
    closeness: str
    eigenvector: str
    pagerank: str
    degree_centrality: str
    strength: str
    exact: bool


@dataclass(frozen=True)
class Centrality(Record):
    method: CentralityMethod
    top: Mapping[str, tuple[AuthorRow, ...]]   # by measure: papers, collaborators, ...


@dataclass(frozen=True)
class Community(Record):
    """One community: its size, leading authors, tracks and entities."""

    id: int
    size: int
    papers: int
    internal_edges: int
    authors: Ranked
    tracks: Ranked
    entities: Ranked


@dataclass(frozen=True)
class PartitionSummary(Record):
    count: int
    modularity: float | None
    seed: int
    sizes: Pairs
    largest: int
    non_singleton: int
    top: tuple[Community, ...] | None = optional()


@dataclass(frozen=True)
class Communities(Record):
    method: str
    leiden: PartitionSummary
    louvain: PartitionSummary


@dataclass(frozen=True)
class Pair(Record):
    a: str
    b: str
    papers: int
    weight: float


@dataclass(frozen=True)
class StrongestPairs(Record):
    by_weight: tuple[Pair, ...]
    by_papers: tuple[Pair, ...]


@dataclass(frozen=True)
class Ego(Record):
    """The ego network of one author; ``collaborators`` as (name, joint papers, strength)."""

    name: str
    key: str
    papers: int
    degree: int
    ego_nodes: int
    ego_edges: int
    density: float
    clustering: float
    collaborators: tuple[tuple[str, int, float], ...]


@dataclass(frozen=True)
class Parameters(Record):
    seed: int
    top: int
    exact_limit: int
    samples: int


@dataclass(frozen=True)
class CoauthorReport(Record):
    """The co-authorship report (``report.json``'s ``coauthors``)."""

    parameters: Parameters
    caveats: Caveats
    productivity: Productivity
    network: NetworkStats
    centrality: Centrality
    communities: Communities
    strongest_pairs: StrongestPairs
    ego: Ego | None
