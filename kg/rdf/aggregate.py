"""What is shared across papers, gathered in one pass: people, tracks, entities, statistics.

:class:`Aggregate` reads a :class:`~kg.models.Build` once and holds the
nodes that papers share (people, tracks, entities, concepts, acronym
definitions, listing files) with their IRIs, and the counts the graph states
about them (``kgo:paperCount``, ``kgo:mentionCount``, ``kgo:authorCount``,
``kgo:trackCount``, ``kgo:jointPapers``). Entities mentioned under one key
are merged here: their most frequent spelling and type win, their variants
and the gazetteer's aliases become alternative labels.

Concepts (:mod:`kg.extract.concept_vocab`) come from concept mentions (``layer ==
"concept"``), from entity mentions of a gazetteer entry that is a concept
(its ``entity`` field: counted as the concept, under the entity's IRI), and
from the concepts named entities fall under (``kgo:instanceOf``); every
ancestor of those is written too, so the hierarchy can be walked, but not
the rest of the vocabulary.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from kg.extract.concept_vocab import CONCEPT_TYPES, Concept, ConceptVocab
from kg.identity import entity_key
from kg.models import ENTITY_TYPES, Build, Entity, Extraction, Links, Paper, Track
from kg.rdf.vocab import ENTITY_CLASSES, Minter, source_name
from kg.util.teams import links_pairs

__all__ = ["Aggregate", "ConceptInfo", "EntityInfo"]

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
    canonicals: Counter[str]
    types: Counter[str]
    variants: set[str]
    family: str | None = None
    kind: str | None = None

    def canonical(self) -> str:
        """The most frequent spelling; ties broken by the smallest string."""
        best: str = min(self.canonicals.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        return best

    def type(self) -> str:
        """The most frequent type; ties broken by the order of :data:`kg.models.ENTITY_TYPES`."""
        order = _TYPE_ORDER
        best: str = min(self.types.items(),
                        key=lambda kv: (-kv[1], order.get(kv[0], 99), kv[0]))[0]
        return best


@dataclass
class ConceptInfo:
    """One concept the graph holds: its vocabulary record and the names papers gave it.

    ``concept`` is the vocabulary's record (for a concept mention whose id
    the vocabulary does not know, one made from the mention: no hierarchy);
    ``variants`` the other names it was written with (mention texts, and for
    a concept that is a gazetteer entry, that entry's name and aliases).
    """

    concept: Concept
    variants: set[str]


class TrackInfo(TypedDict):
    """A track of the graph: its label, the name it is shown by, the area it is a
    subarea of (IRI) and the track lines it was written as."""

    label: str
    pref: str
    broader: str | None
    notation: set[str]


class AcronymInfo(TypedDict):
    """An acronym pair: its short and long form, the papers that define it and what it
    denotes (``(is a concept, concept id or entity key)``)."""

    short: str
    long: str
    papers: set[str]
    denotes: set[tuple[bool, str]]


class Aggregate:
    """What is shared across papers: people, tracks, entities, acronyms, files.

    Parameters
    ----------
    build : kg.models.Build
        Papers and their extractions.
    mint : kg.rdf.vocab.Minter
        Mints every IRI held here.
    entities : mapping of str to kg.models.Entity, optional
        Known entities: families, kinds and aliases of the entities the papers
        mention; families not mentioned become entities (default: those of
        ``build.links``, which extraction resolved from the gazetteer).
    concepts : kg.extract.concept_vocab.ConceptVocab, optional
        The concept vocabulary (default: none; :func:`kg.rdf.iter_ntriples`
        passes the one kg ships).
    """

    def __init__(self, build: Build, mint: Minter, entities: Mapping[str, Entity] | None,
                 concepts: ConceptVocab | None = None):
        self.mint = mint
        self.vocab = concepts
        links = build.links or Links()
        # what extraction resolved: the concept a name's head words name, and the
        # concept a mention text names whole (kg.extract.links)
        self._heads = dict(links.heads)
        self._named = dict(links.named)
        self.concepts: dict[str, ConceptInfo] = {}  # concept id -> info
        self.concept_iri: dict[str, str] = {}
        self.concept_papers: Counter[str] = Counter()
        self.concept_mentions: Counter[str] = Counter()
        self.entity_concepts: dict[str, tuple[str, ...]] = {}  # entity key -> kgo:instanceOf
        # entity key of a gazetteer entry that is a concept -> the concept's id
        self.entity_is_concept: dict[str, str] = {} if concepts is None else {
            entity_key(c.entity): c.id for c in concepts.concepts.values() if c.entity}
        self.people: dict[str, str] = {}  # person IRI -> the first name as written
        self.person_iri: dict[str, str] = {}  # name as written -> IRI
        self.tracks: dict[str, TrackInfo] = {}  # track IRI -> info
        self.entities: dict[str, EntityInfo] = {}
        self.acronyms: dict[str, AcronymInfo] = {}  # acronym IRI -> info
        self.sources: dict[str, str] = {}  # source IRI -> file name
        self.source_iri: dict[str, str] = {}
        self.entity_iri: dict[str, str] = {}
        # statistics: papers per person / entity / track, tracks per person,
        # authors per track, mentions per entity, joint papers per pair of people
        self.person_papers: Counter[str] = Counter()
        self.person_tracks: dict[str, set[str]] = {}
        self.entity_papers: Counter[str] = Counter()
        self.entity_mentions: Counter[str] = Counter()
        self.track_papers: Counter[str] = Counter()
        self.track_people: dict[str, set[str]] = {}
        # (person index, person index) -> joint papers
        self.pairs: Counter[tuple[int, int]] = Counter()
        index: dict[str, int] = {}
        self._keys: dict[str, str] = {}  # a name -> entity_key(name), for names met again
        known = {e.key or entity_key(e.canonical): e
                 for e in (entities.values() if entities is not None else links.entities)}

        for paper in build.corpus.papers:
            self._add_paper(paper, build.extractions.get(paper.id), index)
        self.person_list = list(index)  # person index -> IRI
        self.pairs = Counter({k: v for k, v in self.pairs.items() if v >= 2})
        self._complete_entities(known)
        for key in self.entities:
            self.entity_iri[key] = mint.entity(key)
        self._link_concepts(known)

    def _add_paper(self, paper: Paper, ex: Extraction | None, index: dict[str, int]) -> None:
        """Count one paper: its people (and pairs of them), track, sources and mentions."""
        mint = self.mint
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
        if ex is not None:
            self._extraction(paper, ex)

    def _complete_entities(self, known: Mapping[str, Entity]) -> None:
        """The gazetteer's family, kind and aliases of every entity; families that are
        not themselves mentioned become entities too."""
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
                if fkey in self.entity_is_concept:  # the family root is a concept
                    self._concept(self.entity_is_concept[fkey])
                elif fkey and fkey != info.key and fkey not in self.entities:
                    meta = known.get(fkey)
                    fam = self._entity(fkey, meta.canonical if meta else info.family,
                                       meta.type if meta else info.type())
                    if meta is not None:
                        fam.family = meta.family
                        fam.kind = getattr(meta, "kind", None)

    def thing_label(self, thing: str) -> str:
        """The label of a thing as :func:`kg.analysis.similar.documents` names it
        (``c:ID`` a concept, ``e:KEY`` an entity)."""
        kind, key = thing[:2], thing[2:]
        if kind == "c:" and key in self.concepts:
            return self.concepts[key].concept.label
        info = self.entities.get(key)
        return info.canonical() if info is not None else key

    def _concept(self, cid: str, label: str | None = None, type_: str | None = None
                 ) -> ConceptInfo:
        """The info of concept ``cid``, made on first use (from the mention if unknown)."""
        info = self.concepts.get(cid)
        if info is None:
            c = self.vocab.concepts.get(cid) if self.vocab is not None else None
            if c is None:
                c = Concept(id=cid, label=label or cid,
                            type=type_ if type_ in CONCEPT_TYPES else "method")
            info = self.concepts[cid] = ConceptInfo(c, set())
        return info

    def _names_another(self, text: str, cid: str) -> bool:
        """Is a mention text a name of another concept of the vocabulary (a bare
        "quantization" the abstract meant as vector quantization)? Then it is no
        label of this one: the concept's search keys stay its own."""
        if self.vocab is None:
            return False
        other = self._named.get(text)
        return other is not None and other != cid

    def _link_concepts(self, known: Mapping[str, Entity]) -> None:
        """The concepts entities fall under; every ancestor; the concepts' IRIs."""
        vocab = self.vocab
        if vocab is not None:
            for key, info in self.entities.items():
                cids = self._entity_concepts(vocab, key, info, known)
                if cids:
                    self.entity_concepts[key] = cids
                    for cid in cids:
                        self._concept(cid)
            for cid in list(self.concepts):
                if cid in vocab.concepts:
                    for up in vocab.ancestors(cid):
                        self._concept(up)
        for cid, cinfo in self.concepts.items():
            self.concept_iri[cid] = self.mint.concept(cid, cinfo.concept.entity)
        for key, cid in self.entity_is_concept.items():
            if cid in self.concept_iri:
                self.entity_iri[key] = self.concept_iri[cid]

    def _entity_concepts(self, vocab: ConceptVocab, key: str, info: EntityInfo,
                         known: Mapping[str, Entity]) -> tuple[str, ...]:
        """The concepts an entity falls under: its own links, else its family root's
        concepts (ViT-B/16 under the vision transformer that ViT is), else its kind's,
        else the concept its name ends in."""
        cids = vocab.entity_links.get(key, ())
        if not cids and info.family:
            fkey = entity_key(info.family)
            if fkey in self.entity_is_concept:
                cids = (self.entity_is_concept[fkey],)
            elif fkey != key:
                fam = self.entities.get(fkey)
                kind = fam.kind if fam is not None else getattr(known.get(fkey), "kind", None)
                cids = vocab.concepts_of_entity(fkey, kind)
        if not cids:
            cids = vocab.concepts_of_entity(key, info.kind)
        if not cids:    # a name that says what it is ("... Contrastive Learning")
            names = [info.canonical(), *sorted(set(info.canonicals) | info.variants)]
            cid = next(filter(None, (self._heads.get(n) for n in names)), None)
            cids = (cid,) if cid is not None else ()
        return tuple(cids)

    def _track(self, track: Track) -> str:
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

    def _key(self, name: str) -> str:
        """:func:`kg.identity.entity_key` of ``name``, computed once per name."""
        key = self._keys.get(name)
        if key is None:
            key = self._keys[name] = entity_key(name)
        return key

    def _extraction(self, paper: Paper, ex: Extraction) -> None:
        # the key of a name -> (is a concept, its concept id or entity key)
        by_key: dict[str, tuple[bool, str]] = {}
        counted: set[str] = set()
        concepts: set[str] = set()
        for m in ex.mentions:
            key = m.identity_key
            cid = key if m.layer == "concept" else self.entity_is_concept.get(key)
            if cid is not None:  # a concept, or a gazetteer entry that is one
                self.concept_mentions[cid] += 1
                if cid not in concepts:
                    concepts.add(cid)
                    self.concept_papers[cid] += 1
                cinfo = self._concept(cid, m.canonical, m.type)
                if not self._names_another(m.text, cid):
                    cinfo.variants.add(m.text)
                if m.layer != "concept":
                    cinfo.variants.add(m.canonical)
                    by_key.setdefault(key, (True, cid))
                by_key.setdefault(self._key(m.text), (True, cid))
                continue
            self.entity_mentions[key] += 1
            if key not in counted:
                counted.add(key)
                self.entity_papers[key] += 1
            info = self._entity(key, m.canonical, m.type)
            if m.text:
                info.variants.add(m.text)
            if m.family and not info.family:
                info.family = m.family
            by_key.setdefault(self._key(m.text), (False, key))
            by_key.setdefault(key, (False, key))
        for al in ex.aliases:
            iri = self.mint.acronym(al.short, al.long)
            acr = self.acronyms.setdefault(iri, {"short": al.short, "long": al.long,
                                                 "papers": set(), "denotes": set()})
            acr["papers"].add(paper.id)
            denoted = by_key.get(self._key(al.short)) or by_key.get(self._key(al.long))
            if denoted is not None:
                acr["denotes"].add(denoted)
                is_concept, k = denoted
                target = self.concepts[k] if is_concept else self.entities[k]
                target.variants.update((al.short, al.long))
