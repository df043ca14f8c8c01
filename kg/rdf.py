"""Build -> RDF: the knowledge graph as N-Triples, Turtle, JSON-LD or an rdflib Graph.

The mapping follows the vocabulary table of DESIGN.md (see :mod:`kg.vocab`
for the IRIs and the design decisions). It is written for big corpora: the
triples are produced as N-Triples text in one pass (no per-triple objects),
streamed in a fixed order, and handed to pyoxigraph in bulk; an
:class:`rdflib.Graph` is made only when a user asks for one
(:func:`to_graph`, :func:`kg.load_graph`).

Output is deterministic: subjects are written in sorted order (each with its
predicate-object pairs sorted), except the ``void:Dataset`` description,
which comes last because it carries the triple count. No timestamps.

What the graph holds, per paper::

    paper  a schema:ScholarlyArticle ; rdfs:label ; dcterms:identifier ;
           schema:name (title, if any) ; schema:abstract (clean) ;
           kgo:rawAbstract (as written) ; kgo:authorListTruncated ;
           kgo:authorsShown ; kgo:firstAuthorship (the authorship of position 1) ;
           dcterms:subject track ; schema:author person ;
           kgo:authorship [kgo:position, kgo:author, kgo:nameAsWritten] ;
           schema:mentions entity ; kgo:proposes entity ;
           prov:wasDerivedFrom file ; prov:qualifiedDerivation [prov:entity file ; kgo:line]
    annotation a oa:Annotation ; oa:hasBody entity ;
           oa:hasTarget [oa:hasSource paper ;
                         oa:hasSelector [oa:start, oa:end], [oa:exact]]

and, shared between papers::

    person a schema:Person ; schema:name (the first spelling met) ; kgo:nameKey ;
           kgo:paperCount ; kgo:trackCount
    track  a skos:Concept, kgo:Track ; skos:prefLabel ; rdfs:label ;
           skos:notation (the line as written) ; skos:broader area | skos:topConceptOf ;
           kgo:paperCount ; kgo:authorCount (an area counts its subareas too)
    entity a skos:Concept, kgo:Model|Method|Dataset|Task|Metric|Other ;
           skos:prefLabel ; skos:altLabel (variants, acronym long forms) ;
           skos:hiddenLabel (search keys) ; kgo:family ; kgo:kind ;
           kgo:paperCount ; kgo:mentionCount
    collaboration a kgo:Collaboration ; rdfs:label "A — B" (names in order) ;
           kgo:member person, person ; kgo:jointPapers
           (only pairs of people with two or more joint papers; a paper
           with more than kg.teams.MAX_LINKED_TEAM authors makes no pairs)
    acronym a kgo:Acronym ; kgo:short ; kgo:long ; kgo:definedIn paper ; kgo:denotes entity
    dataset a void:Dataset ; void:triples ; prov:wasGeneratedBy activity

The counts are statistics of the graph itself (like OpenAlex's
``works_count``), computed here in one pass so that the query library's
"most ..." questions read one value per node instead of aggregating
hundreds of thousands of rows at query time.

Every node has an IRI from :class:`kg.vocab.Minter` (no blank nodes).
Without an :class:`~kg.models.Extraction` a paper's clean abstract is its
abstract as written and it has no mentions.

Examples
--------
>>> from kg.models import Build, Corpus, Paper
>>> p = Paper(id="00000000000000aa", authors=("Ada Lovelace", "Alan Turing"),
...           abstract="We study engines.")
>>> data = to_ntriples(Build(Corpus(papers=(p,))))
>>> b'<https://schema.org/name> "Ada Lovelace"' in data
True
>>> paper_label(p)
'Lovelace et al. — We study engines.'
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Mapping

from kg import __version__
from kg.models import ENTITY_TYPES, Build, Entity, Extraction, Paper
from kg.teams import links_pairs
from kg.vocab import (
    DCTERMS, ENTITY_CLASSES, KGO, OA, PREFIXES, PROV, RDF, RDFS, SCHEMA, SKOS, VOID, XSD,
    Minter, entity_key,
)

if TYPE_CHECKING:  # pragma: no cover
    import rdflib

__all__ = [
    "iter_ntriples", "name_key", "ntriples_to_rdflib", "paper_label", "search_key",
    "to_graph",
    "to_jsonld", "to_ntriples", "to_turtle", "write_ntriples",
]


# ------------------------------------------------------------ term writing

def _i(term) -> str:
    return f"<{term}>"


_A = _i(RDF.type)
_LABEL = _i(RDFS.label)
_INT = _i(XSD.integer)
_BOOL_T = f'"true"^^{_i(XSD.boolean)}'
_BOOL_F = f'"false"^^{_i(XSD.boolean)}'

_P = {  # predicate and class IRIs in N-Triples form, by a short name
    "Article": _i(SCHEMA.ScholarlyArticle), "Person": _i(SCHEMA.Person),
    "name": _i(SCHEMA.name), "abstract": _i(SCHEMA.abstract), "author": _i(SCHEMA.author),
    "mentions": _i(SCHEMA.mentions),
    "identifier": _i(DCTERMS.identifier), "subject": _i(DCTERMS.subject),
    "title": _i(DCTERMS.title), "dsource": _i(DCTERMS.source),
    "Authorship": _i(KGO.Authorship), "authorship": _i(KGO.authorship),
    "position": _i(KGO.position), "kauthor": _i(KGO.author),
    "nameAsWritten": _i(KGO.nameAsWritten), "truncated": _i(KGO.authorListTruncated),
    "raw": _i(KGO.rawAbstract), "proposes": _i(KGO.proposes), "family": _i(KGO.family),
    "kind": _i(KGO.kind), "line": _i(KGO.line), "Track": _i(KGO.Track),
    "Acronym": _i(KGO.Acronym), "short": _i(KGO.short), "long": _i(KGO.long),
    "definedIn": _i(KGO.definedIn), "denotes": _i(KGO.denotes),
    "Collaboration": _i(KGO.Collaboration), "member": _i(KGO.member),
    "jointPapers": _i(KGO.jointPapers),
    "paperCount": _i(KGO.paperCount), "mentionCount": _i(KGO.mentionCount),
    "authorCount": _i(KGO.authorCount), "trackCount": _i(KGO.trackCount),
    "nameKey": _i(KGO.nameKey), "authorsShown": _i(KGO.authorsShown),
    "firstAuthorship": _i(KGO.firstAuthorship),
    "Concept": _i(SKOS.Concept), "Scheme": _i(SKOS.ConceptScheme),
    "prefLabel": _i(SKOS.prefLabel), "altLabel": _i(SKOS.altLabel),
    "hiddenLabel": _i(SKOS.hiddenLabel),
    "broader": _i(SKOS.broader), "inScheme": _i(SKOS.inScheme),
    "topConceptOf": _i(SKOS.topConceptOf), "notation": _i(SKOS.notation),
    "derivedFrom": _i(PROV.wasDerivedFrom), "qualDerivation": _i(PROV.qualifiedDerivation),
    "Derivation": _i(PROV.Derivation), "pentity": _i(PROV.entity), "Entity": _i(PROV.Entity),
    "Activity": _i(PROV.Activity), "generatedBy": _i(PROV.wasGeneratedBy), "used": _i(PROV.used),
    "Annotation": _i(OA.Annotation), "SpecificResource": _i(OA.SpecificResource),
    "PosSel": _i(OA.TextPositionSelector), "QuoteSel": _i(OA.TextQuoteSelector),
    "hasBody": _i(OA.hasBody), "hasTarget": _i(OA.hasTarget), "hasSource": _i(OA.hasSource),
    "hasSelector": _i(OA.hasSelector), "start": _i(OA.start), "end": _i(OA.end),
    "exact": _i(OA.exact),
    "Dataset": _i(VOID.Dataset), "triples": _i(VOID.triples), "uriSpace": _i(VOID.uriSpace),
    "vocabulary": _i(VOID.vocabulary),
}
_ENTITY_CLASS = {t: _i(c) for t, c in ENTITY_CLASSES.items()}

_ESCAPES = {i: f"\\u{i:04X}" for i in (*range(0x20), 0x7F)}
_ESCAPES.update({ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r",
                 ord("\t"): "\\t"})


def _lit(text: str) -> str:
    """An xsd:string literal in N-Triples syntax (canonical escapes)."""
    return f'"{text.translate(_ESCAPES)}"'


def _int(n: int) -> str:
    return f'"{int(n)}"^^{_INT}'


# ---------------------------------------------------------------- labels

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def _surname(name: str) -> str:
    parts = name.strip().split()
    return parts[-1].strip(",;") if parts else name.strip()


def _short_text(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def paper_label(paper: Paper, extraction: Extraction | None = None) -> str:
    """A readable ``rdfs:label`` for a paper.

    Its title when it has one; otherwise what it proposes and its first
    author (``ToMoE — Gao et al.``); with nothing proposed, the first author
    and the start of the abstract (``He et al. — Learning rate ...``); with no
    authors either, the start of the abstract.

    >>> p = Paper(id="x", authors=("Shangqian Gao", "Ting Hua"), abstract="We propose ToMoE.")
    >>> from kg.models import Mention
    >>> ex = Extraction("x", "We propose ToMoE.", (Mention("ToMoE", "ToMoE", "method", 11, 16, True),))
    >>> paper_label(p, ex)
    'ToMoE — Gao et al.'
    """
    if paper.title:
        return " ".join(paper.title.split())
    author = ""
    if paper.authors:
        many = len(paper.authors) > 1 or paper.authors_truncated
        author = _surname(paper.authors[0]) + (" et al." if many else "")
    proposed = extraction.proposed if extraction is not None else ()
    if proposed:
        return f"{proposed[0]} — {author}" if author else proposed[0]
    abstract = extraction.abstract if extraction is not None else paper.abstract
    short = _short_text(abstract)
    if author and short:
        return f"{author} — {short}"
    return author or short or paper.id


# ------------------------------------------------------- the aggregation

@dataclass
class _EntityInfo:
    key: str
    canonicals: Counter
    types: Counter
    variants: set
    family: str | None = None
    kind: str | None = None

    def canonical(self) -> str:
        # most frequent spelling; ties broken by the smallest string
        return min(self.canonicals.items(), key=lambda kv: (-kv[1], kv[0]))[0]

    def type(self) -> str:
        order = {t: i for i, t in enumerate(ENTITY_TYPES)}
        return min(self.types.items(), key=lambda kv: (-kv[1], order.get(kv[0], 99), kv[0]))[0]


class _Aggregate:
    """What is shared across papers: people, tracks, entities, acronyms, files."""

    def __init__(self, build: Build, mint: Minter, entities: Mapping[str, Entity] | None):
        self.mint = mint
        self.people: dict[str, str] = {}  # person IRI -> the first name as written
        self.person_iri: dict[str, str] = {}  # name as written -> IRI
        self.tracks: dict[str, dict] = {}  # track IRI -> info
        self.entities: dict[str, _EntityInfo] = {}
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
                    self.sources.setdefault(iri, re.split(r"[\\/]", src.file)[-1] or src.file)
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

    def _entity(self, key: str, canonical: str, type_: str) -> _EntityInfo:
        info = self.entities.get(key)
        if info is None:
            info = self.entities[key] = _EntityInfo(key, Counter(), Counter(), set())
        info.canonicals[canonical] += 1
        info.types[type_ if type_ in ENTITY_CLASSES else "other"] += 1
        return info

    def _extraction(self, paper: Paper, ex: Extraction) -> None:
        by_key: dict[str, str] = {}
        counted: set[str] = set()
        for m in ex.mentions:
            key = m.key or entity_key(m.canonical)
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
            key = by_key.get(entity_key(al.short)) or by_key.get(entity_key(al.long))
            if key is not None:
                acr["denotes"].add(key)
                self.entities[key].variants.update((al.short, al.long))


# ------------------------------------------------------------ the writer

def _subject_order(s: str) -> str:
    return s[1:-1]  # the IRI: a resource sorts before the ones minted under it


def _block(subject: str, pos: list[str]) -> str:
    """The lines of one subject: its rdf:type lines first, then the rest, each sorted.

    Callers put the rdf:type pairs at the front of ``pos``.
    """
    if not pos:
        return ""
    n = 0
    while n < len(pos) and pos[n].startswith(_A):
        n += 1
    head, tail = sorted(pos[:n]), sorted(pos[n:])
    return f"{subject} " + f" .\n{subject} ".join(head + tail) + " .\n"


def _paper_blocks(paper: Paper, ex: Extraction | None, agg: _Aggregate) -> tuple[str, int]:
    """Every triple whose subject hangs off one paper, sorted by subject."""
    m = agg.mint
    pid = paper.id
    P = _P
    s_paper = f"<{m.paper(pid)}>"
    clean = ex.abstract if ex is not None else paper.abstract
    po = [
        f"{_A} {P['Article']}",
        f"{_LABEL} {_lit(paper_label(paper, ex))}",
        f"{P['identifier']} {_lit(pid)}",
        f"{P['abstract']} {_lit(clean)}",
        f"{P['raw']} {_lit(paper.abstract)}",
        f"{P['truncated']} {_BOOL_T if paper.authors_truncated else _BOOL_F}",
        f"{P['authorsShown']} {_int(len(paper.authors))}",
    ]
    if paper.authors:
        po.append(f"{P['firstAuthorship']} <{m.authorship(pid, 1)}>")
    if paper.title:
        po.append(f"{P['name']} {_lit(paper.title)}")
    if paper.track is not None:
        po.append(f"{P['subject']} <{m.track(paper.track.area, paper.track.subarea)}>")
    blocks: dict[str, list[str]] = {s_paper: po}
    seen_people: set[str] = set()
    for pos, name in enumerate(paper.authors, start=1):
        person = agg.person_iri[name]
        if person not in seen_people:
            seen_people.add(person)
            po.append(f"{P['author']} <{person}>")
        a = f"<{m.authorship(pid, pos)}>"
        po.append(f"{P['authorship']} {a}")
        blocks[a] = [f"{_A} {P['Authorship']}", f"{P['position']} {_int(pos)}",
                     f"{P['kauthor']} <{person}>", f"{P['nameAsWritten']} {_lit(name)}"]
    seen_files: set[str] = set()
    for n, src in enumerate(paper.sources, start=1):
        f = agg.source_iri[src.file]
        if f not in seen_files:
            seen_files.add(f)
            po.append(f"{P['derivedFrom']} <{f}>")
        d = f"<{m.derivation(pid, n)}>"
        po.append(f"{P['qualDerivation']} {d}")
        blocks[d] = [f"{_A} {P['Derivation']}", f"{P['pentity']} <{f}>",
                     f"{P['line']} {_int(src.line)}"]
    if ex is not None and ex.mentions:
        mentioned: set[str] = set()
        proposed: set[str] = set()
        for n, men in enumerate(ex.mentions, start=1):
            e = f"<{agg.entity_iri[men.key or entity_key(men.canonical)]}>"
            mentioned.add(e)
            if men.proposed:
                proposed.add(e)
            ann = m.annotation(pid, n)
            t = f"<{m.target(ann)}>"
            ps = f"<{m.position_selector(ann)}>"
            qs = f"<{m.quote_selector(ann)}>"
            blocks[f"<{ann}>"] = [f"{_A} {P['Annotation']}", f"{P['hasBody']} {e}",
                                  f"{P['hasTarget']} {t}"]
            blocks[t] = [f"{_A} {P['SpecificResource']}", f"{P['hasSource']} {s_paper}",
                         f"{P['hasSelector']} {ps}", f"{P['hasSelector']} {qs}"]
            blocks[ps] = [f"{_A} {P['PosSel']}", f"{P['start']} {_int(men.start)}",
                          f"{P['end']} {_int(men.end)}"]
            blocks[qs] = [f"{_A} {P['QuoteSel']}", f"{P['exact']} {_lit(men.text)}"]
        po.extend(f"{P['mentions']} {e}" for e in mentioned)
        po.extend(f"{P['proposes']} {e}" for e in proposed)
    count = sum(len(v) for v in blocks.values())
    return "".join(_block(s, blocks[s]) for s in sorted(blocks, key=_subject_order)), count


_SEARCH_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_./·]+")


def search_key(name: str) -> str:
    """What ``skos:hiddenLabel`` holds: the name in lower case without separators.

    A query parameter of type ``entity-name`` is bound to this key of the
    user's text (:mod:`kg.queries`), so an entity is found by any of its
    names with one index lookup.

    >>> search_key("Llama 2") == search_key("LLaMA-2") == "llama2"
    True
    """
    return _SEARCH_SEPARATORS.sub("", name).lower()


def name_key(name: str) -> str:
    """What ``kgo:nameKey`` holds: the name in lower case, spaces collapsed.

    A query parameter of type ``person-name`` is bound to this key of the
    user's text (:mod:`kg.queries`), so a person is found with one index
    lookup.

    >>> name_key("  Zoë   SMITH ")
    'zoë smith'
    """
    return " ".join(unicodedata.normalize("NFKC", name).split()).lower()


def _entity_block(info: _EntityInfo, agg: _Aggregate, scheme: str) -> list[str]:
    pref = info.canonical()
    po = [f"{_A} {_P['Concept']}", f"{_A} {_ENTITY_CLASS[info.type()]}",
          f"{_P['prefLabel']} {_lit(pref)}", f"{_P['inScheme']} {scheme}"]
    alts = {v for v in info.variants if v and v != pref} | {
        c for c in info.canonicals if c != pref}
    po.extend(f"{_P['altLabel']} {_lit(v)}" for v in alts)
    # the search key of every name (lower case, no separators) as a hidden
    # label, so "LLaMA-2", "Llama 2" and "llama2" all find the entity
    keys = {search_key(n) for n in (pref, *alts)} - {""}
    po.extend(f"{_P['hiddenLabel']} {_lit(k)}" for k in keys)
    if info.family:
        fkey = entity_key(info.family)
        if fkey != info.key and fkey in agg.entity_iri:
            po.append(f"{_P['family']} <{agg.entity_iri[fkey]}>")
    if info.kind:
        po.append(f"{_P['kind']} {_lit(info.kind)}")
    po.append(f"{_P['paperCount']} {_int(agg.entity_papers[info.key])}")
    po.append(f"{_P['mentionCount']} {_int(agg.entity_mentions[info.key])}")
    return po


def iter_ntriples(build: Build, base: str | None = None, *,
                  entities: Mapping[str, Entity] | None = None) -> Iterator[str]:
    """The graph of ``build`` as chunks of N-Triples text, in output order.

    Parameters
    ----------
    build : kg.models.Build
        Papers and their extractions (``extractions`` may be empty: then the
        clean abstract is the abstract as written and there are no entities).
    base : str, optional
        Base IRI of minted resources (default :data:`kg.vocab.DEFAULT_BASE`).
    entities : mapping of str to kg.models.Entity, optional
        Known entities (e.g. the gazetteer), used for families, kinds and
        aliases of the entities the papers mention.

    Yields
    ------
    str
        N-Triples lines; the last chunk is the ``void:Dataset`` description,
        whose ``void:triples`` counts every triple including its own.
    """
    mint = Minter(base)
    agg = _Aggregate(build, mint, entities)
    count = 0
    P = _P
    ent_scheme = f"<{mint.scheme('entities')}>"
    trk_scheme = f"<{mint.scheme('tracks')}>"
    out: list[tuple[str, list[str]]] = []  # (subject, pos) of the small groups

    for iri, acr in agg.acronyms.items():
        po = [f"{_A} {P['Acronym']}", f"{P['short']} {_lit(acr['short'])}",
              f"{P['long']} {_lit(acr['long'])}"]
        po += [f"{P['definedIn']} <{mint.paper(pid)}>" for pid in acr["papers"]]
        po += [f"{P['denotes']} <{agg.entity_iri[k]}>" for k in acr["denotes"]]
        out.append((f"<{iri}>", po))
    activity = f"<{mint.activity()}>"
    out.append((activity, [f"{_A} {P['Activity']}", f"{_LABEL} {_lit(f'kg {__version__} build')}"]
                + [f"{P['used']} <{f}>" for f in agg.sources]))
    for key, info in agg.entities.items():
        out.append((f"<{agg.entity_iri[key]}>", _entity_block(info, agg, ent_scheme)))
    for iri, name in agg.people.items():
        out.append((f"<{iri}>", [
            f"{_A} {P['Person']}", f"{P['name']} {_lit(name)}",
            f"{P['nameKey']} {_lit(name_key(name))}",
            f"{P['paperCount']} {_int(agg.person_papers[iri])}",
            f"{P['trackCount']} {_int(len(agg.person_tracks.get(iri, ())))}"]))
    for (a, b), n in agg.pairs.items():
        pa, pb = agg.person_list[a], agg.person_list[b]
        na, nb = sorted((agg.people[pa], agg.people[pb]))
        iri = mint.collaboration(na, nb)
        out.append((f"<{iri}>", [f"{_A} {P['Collaboration']}", f"{_LABEL} {_lit(f'{na} — {nb}')}",
                                 f"{P['member']} <{pa}>", f"{P['member']} <{pb}>",
                                 f"{P['jointPapers']} {_int(n)}"]))
    if agg.entities:
        out.append((ent_scheme, [f"{_A} {P['Scheme']}", f"{P['prefLabel']} {_lit('Entities')}"]))
    if agg.tracks:
        out.append((trk_scheme, [f"{_A} {P['Scheme']}", f"{P['prefLabel']} {_lit('Tracks')}"]))
    for iri, name in agg.sources.items():
        out.append((f"<{iri}>", [f"{_A} {P['Entity']}", f"{P['name']} {_lit(name)}"]))
    for iri, t in agg.tracks.items():
        po = [f"{_A} {P['Concept']}", f"{_A} {P['Track']}", f"{P['prefLabel']} {_lit(t['pref'])}",
              f"{_LABEL} {_lit(t['label'])}", f"{P['inScheme']} {trk_scheme}"]
        po += [f"{P['notation']} {_lit(n)}" for n in t["notation"]]
        po.append(f"{P['broader']} <{t['broader']}>" if t["broader"]
                  else f"{P['topConceptOf']} {trk_scheme}")
        po.append(f"{P['paperCount']} {_int(agg.track_papers[iri])}")
        po.append(f"{P['authorCount']} {_int(len(agg.track_people.get(iri, ())))}")
        out.append((f"<{iri}>", po))

    # everything except the dataset, in subject order; papers stream in between
    out.sort(key=lambda sp: _subject_order(sp[0]))
    paper_prefix = mint.paper("")
    head = [sp for sp in out if _subject_order(sp[0]) < paper_prefix]
    tail = [sp for sp in out if _subject_order(sp[0]) >= paper_prefix]
    for s, po in head:
        count += len(po)
        yield _block(s, po)
    extractions = build.extractions
    for paper in sorted(build.corpus.papers, key=lambda p: mint.paper(p.id)):
        text, n = _paper_blocks(paper, extractions.get(paper.id), agg)
        count += n
        yield text

    for s, po in tail:
        count += len(po)
        yield _block(s, po)

    # the dataset description, last: it carries the count
    ds = f"<{mint.dataset()}>"
    po = [f"{_A} {P['Dataset']}",
          f"{P['title']} {_lit('Knowledge graph of research-paper listings')}",
          f"{P['uriSpace']} {_lit(mint.base)}", f"{P['generatedBy']} {activity}"]
    po += [f"{P['vocabulary']} <{ns}>" for p, ns in PREFIXES.items()
           if p not in ("rdf", "rdfs", "xsd")]
    po += [f"{P['dsource']} <{f}>" for f in agg.sources]
    count += len(po) + 1  # + the void:triples triple itself
    po.append(f"{P['triples']} {_int(count)}")
    yield _block(ds, po)


def to_ntriples(build: Build, base: str | None = None, *,
                entities: Mapping[str, Entity] | None = None) -> bytes:
    """The graph of ``build`` as N-Triples (UTF-8 bytes), deterministic."""
    return "".join(iter_ntriples(build, base, entities=entities)).encode("utf-8")


def write_ntriples(build: Build, fh: IO[bytes], base: str | None = None, *,
                   entities: Mapping[str, Entity] | None = None) -> int:
    """Stream the graph of ``build`` as N-Triples into ``fh``; return the triple count."""
    n = 0
    buf: list[str] = []
    size = 0
    for chunk in iter_ntriples(build, base, entities=entities):
        n += chunk.count("\n")
        buf.append(chunk)
        size += len(chunk)
        if size > 1 << 22:
            fh.write("".join(buf).encode("utf-8"))
            buf, size = [], 0
    fh.write("".join(buf).encode("utf-8"))
    return n


# --------------------------------------------------------- other formats

def _parse(source: bytes | str | Path):
    import pyoxigraph as ox

    if isinstance(source, (bytes, str)) and not isinstance(source, Path):
        return ox.parse(source, ox.RdfFormat.N_TRIPLES)
    return ox.parse(path=str(source), format=ox.RdfFormat.N_TRIPLES)


_PREFIX_HEADER = "".join(f"@prefix {p}: <{ns}> .\n" for p, ns in PREFIXES.items()).encode()


class _HeaderFixer:
    """Replace the serialiser's ``@prefix`` lines by :data:`_PREFIX_HEADER`.

    pyoxigraph writes the prefixes in the order of an internal map; this keeps
    the header in one fixed order so the file is byte-identical across runs.
    """

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh
        self.head = b""
        self.done = False

    def write(self, data: bytes) -> int:
        if self.done:
            return self.fh.write(data)
        self.head += bytes(data)
        lines = self.head.split(b"\n")
        n = 0
        while n < len(lines) - 1 and lines[n].startswith(b"@prefix "):
            n += 1
        if n < len(lines) - 1 or n >= len(PREFIXES):
            self.done = True
            self.fh.write(_PREFIX_HEADER + b"\n".join(lines[n:]))
        return len(data)

    def flush(self) -> None:
        if not self.done:
            self.done = True
            self.fh.write(self.head)
        self.fh.flush()


def to_turtle(ntriples: bytes | Path, output: IO[bytes] | Path | None = None) -> bytes | None:
    """N-Triples (bytes, or a file) -> Turtle with the kg prefixes, in the same order.

    Returns the bytes when ``output`` is ``None``; otherwise writes there.
    """
    import io

    import pyoxigraph as ox

    if output is None:
        buf = io.BytesIO()
        to_turtle(ntriples, buf)
        return buf.getvalue()
    if isinstance(output, Path):
        with open(output, "wb") as fh:
            return to_turtle(ntriples, fh)
    fixer = _HeaderFixer(output)
    ox.serialize(_parse(ntriples), fixer, ox.RdfFormat.TURTLE, prefixes=PREFIXES)
    fixer.flush()
    return None


def to_jsonld(ntriples: bytes | Path, output: IO[bytes] | Path | None = None) -> bytes | None:
    """N-Triples (bytes, or a file) -> JSON-LD (expanded form), in the same order.

    Returns the bytes when ``output`` is ``None``; otherwise writes there.
    """
    import pyoxigraph as ox

    out = str(output) if isinstance(output, Path) else output
    return ox.serialize(_parse(ntriples), out, ox.RdfFormat.JSON_LD)


def ox_to_rdflib(term):
    """A pyoxigraph term as the equal rdflib term."""
    import pyoxigraph as ox
    from rdflib import BNode, Literal, URIRef

    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        dt = term.datatype.value
        if dt == _XSD_STRING:
            return Literal(term.value)
        return Literal(term.value, datatype=URIRef(dt))
    raise TypeError(f"cannot convert {term!r} to rdflib")


_XSD_STRING = str(XSD.string)


def ntriples_to_rdflib(source: bytes | Path | Iterable, graph: rdflib.Graph | None = None
                       ) -> rdflib.Graph:
    """Load N-Triples (bytes or a file), or pyoxigraph triples/quads, into an rdflib Graph.

    Parsing is done by pyoxigraph, which is much faster than rdflib's
    parsers; the terms are converted once each (IRIs are shared).
    """
    import pyoxigraph as ox
    from rdflib import Graph

    g = graph if graph is not None else Graph()
    for prefix, ns in PREFIXES.items():
        g.bind(prefix, ns, replace=True)
    items = _parse(source) if isinstance(source, (bytes, str, Path)) else source
    cache: dict = {}

    def conv(t):
        if isinstance(t, ox.Literal):
            return ox_to_rdflib(t)
        r = cache.get(t)
        if r is None:
            r = cache[t] = ox_to_rdflib(t)
        return r

    ctx = g
    batch = []
    for q in items:
        batch.append((conv(q.subject), conv(q.predicate), conv(q.object), ctx))
        if len(batch) >= 100_000:
            g.addN(batch)
            batch = []
    g.addN(batch)
    return g


def to_graph(build: Build, base: str | None = None, *,
             entities: Mapping[str, Entity] | None = None) -> rdflib.Graph:
    """The graph of ``build`` as an :class:`rdflib.Graph` (prefixes bound)."""
    return ntriples_to_rdflib(to_ntriples(build, base, entities=entities))
