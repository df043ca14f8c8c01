"""What is shared across papers, gathered in one pass: people, tracks, entities, statistics.

:class:`Aggregate` reads a :class:`~kg.models.Build` once and holds the
nodes that papers share (people, tracks, entities, acronym definitions,
listing files) with their IRIs, and the counts the graph states about them
(``kgo:paperCount``, ``kgo:mentionCount``, ``kgo:authorCount``,
``kgo:trackCount``, ``kgo:jointPapers``). Entities mentioned under one key
are merged here: their most frequent spelling and type win, their variants
and the gazetteer's aliases become alternative labels.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from kg.identity import entity_key
from kg.models import ENTITY_TYPES, Build, Entity, Extraction, Paper
from kg.teams import links_pairs
from kg.vocab import ENTITY_CLASSES, Minter, source_name

__all__ = ["Aggregate", "EntityInfo"]

_TYPE_ORDER = {t: i for i, t in enumerate(ENTITY_TYPES)}


@dataclass
class EntityInfo:
    """One entity as the papers mention it: spellings, types and variants, counted.

    Attributes
    ----------
    key : str
        Its identity key (:func:`kg.identity.entity_key`).
    canonicals, types : collections.Counter
        Canonical spellings and entity types, by number of mentions.
    variants : set of str
        Every other name it goes by (as written, acronyms, gazetteer aliases).
    family, kind : str or None
        Its family root's name and its short category, when known.
    """

    key: str
    canonicals: Counter
    types: Counter
    variants: set
    family: str | None = None
    kind: str | None = None

    def canonical(self) -> str:
        """The most frequent spelling; ties broken by the smallest string."""
        return min(self.canonicals.items(), key=lambda kv: (-kv[1], kv[0]))[0]

    def type(self) -> str:
        """The most frequent type; ties broken by the order of :data:`kg.models.ENTITY_TYPES`."""
        order = _TYPE_ORDER
        return min(self.types.items(), key=lambda kv: (-kv[1], order.get(kv[0], 99), kv[0]))[0]


class Aggregate:
    """What is shared across papers: people, tracks, entities, acronyms, files.

    Parameters
    ----------
    build : kg.models.Build
        Papers and their extractions.
    mint : kg.vocab.Minter
        Mints every IRI held here.
    entities : mapping of str to kg.models.Entity, optional
        Known entities (the gazetteer): families, kinds and aliases of the
        entities the papers mention; families not mentioned become entities.
    """

    def __init__(self, build: Build, mint: Minter, entities: Mapping[str, Entity] | None):
        self.mint = mint
        self.people: dict[str, str] = {}  # person IRI -> the first name as written
        self.person_iri: dict[str, str] = {}  # name as written -> IRI
        self.tracks: dict[str, dict] = {}  # track IRI -> info
        self.entities: dict[str, EntityInfo] = {}
        self.acronyms: dict[str, dict] = {}
        self.sources: dict[str, str] = {}  # source IRI -> file name
        self.source_iri: dict[str, str] = {}
        self.entity_iri: dict[str, str] = {}
        # statistics: papers per person / entity / track, tracks per person,
        # authors per track, mentions per entity, joint papers per pair of people
        self.person_papers: Counter = Counter()
        self.person_tracks: dict[str, set] = {}
        self.entity_papers: Counter = Counter()
        self.entity_mentions: Counter = Counter()
        self.track_papers: Counter = Counter()
        self.track_people: dict[str, set] = {}
        self.pairs: Counter = Counter()  # (person index, person index) -> joint papers
        index: dict[str, int] = {}
        known = {e.key or entity_key(e.canonical): e for e in (entities or {}).values()}

        for paper in build.corpus.papers:
            people = []
            for name in paper.authors:
                iri = self.person_iri.get(name)
                if iri is None:
                    iri = self.person_iri[name] = mint.person(name)
                    self.people.setdefault(iri, name)
                people.append(iri)
            people = list(dict.fromkeys(people))
            self.person_papers.update(people)
            ids = sorted(index.setdefault(p, len(index)) for p in people)
            if links_pairs(len(ids)):
                self.pairs.update((a, b) for i, a in enumerate(ids) for b in ids[i + 1:])
            if paper.track is not None:
                subject = self._track(paper.track)
                for p in people:
                    self.person_tracks.setdefault(p, set()).add(subject)
                for t in (subject, self.tracks[subject]["broader"]):
                    if t is not None:
                        self.track_papers[t] += 1
                        self.track_people.setdefault(t, set()).update(people)
            for src in paper.sources:
                if src.file not in self.source_iri:
                    iri = mint.source(src.file)
                    self.source_iri[src.file] = iri
                    self.sources.setdefault(iri, source_name(src.file))
            ex = build.extractions.get(paper.id)
            if ex is not None:
                self._extraction(paper, ex)
        self.person_list = list(index)  # person index -> IRI
        self.pairs = Counter({k: v for k, v in self.pairs.items() if v >= 2})

        for info in list(self.entities.values()):
            meta = known.get(info.key)
            if meta is not None:
                info.family = info.family or meta.family
                info.kind = info.kind or getattr(meta, "kind", None)
                info.variants.update(meta.aliases)
        # families that are not themselves mentioned become entities too
        for info in list(self.entities.values()):
            if info.family:
                fkey = entity_key(info.family)
                if fkey and fkey != info.key and fkey not in self.entities:
                    meta = known.get(fkey)
                    fam = self._entity(fkey, meta.canonical if meta else info.family,
                                       meta.type if meta else info.type())
                    if meta is not None:
                        fam.family = meta.family
                        fam.kind = getattr(meta, "kind", None)
        for key in self.entities:
            self.entity_iri[key] = mint.entity(key)

    def _track(self, track) -> str:
        """Record a paper's track; return the IRI of the concept it is filed under."""
        area_iri = self.mint.track(track.area)
        area = self.tracks.setdefault(area_iri, {"label": track.area, "pref": track.area,
                                                 "broader": None, "notation": set()})
        if track.subarea:
            iri = self.mint.track(track.area, track.subarea)
            info = self.tracks.setdefault(iri, {"label": f"{track.area} · {track.subarea}",
                                                "pref": track.subarea, "broader": area_iri,
                                                "notation": set()})
        else:
            iri, info = area_iri, area
        info["notation"].add(track.line or track.label)
        return iri

    def _entity(self, key: str, canonical: str, type_: str) -> EntityInfo:
        info = self.entities.get(key)
        if info is None:
            info = self.entities[key] = EntityInfo(key, Counter(), Counter(), set())
        info.canonicals[canonical] += 1
        info.types[type_ if type_ in ENTITY_CLASSES else "other"] += 1
        return info

    def _extraction(self, paper: Paper, ex: Extraction) -> None:
        by_key: dict[str, str] = {}
        counted: set[str] = set()
        for m in ex.mentions:
            key = m.identity_key
            self.entity_mentions[key] += 1
            if key not in counted:
                counted.add(key)
                self.entity_papers[key] += 1
            info = self._entity(key, m.canonical, m.type)
            if m.text:
                info.variants.add(m.text)
            if m.family and not info.family:
                info.family = m.family
            by_key.setdefault(entity_key(m.text), key)
            by_key.setdefault(key, key)
        for al in ex.aliases:
            iri = self.mint.acronym(al.short, al.long)
            acr = self.acronyms.setdefault(iri, {"short": al.short, "long": al.long,
                                                 "papers": set(), "denotes": set()})
            acr["papers"].add(paper.id)
            denoted = by_key.get(entity_key(al.short)) or by_key.get(entity_key(al.long))
            if denoted is not None:
                acr["denotes"].add(denoted)
                self.entities[denoted].variants.update((al.short, al.long))
