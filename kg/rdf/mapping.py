"""The triple mapping: which triples describe a paper, a person, an entity, a track, ...

Each function returns the ``"predicate object"`` pairs of one subject (or,
for a paper, the finished lines of every subject that hangs off it) in
N-Triples form; :mod:`kg.rdf.ntriples` orders and streams them. The
vocabulary's terms come from :mod:`kg.rdf.terms`, the IRIs from the
aggregate's :class:`kg.rdf.vocab.Minter`. What each node holds is listed in
:mod:`kg.rdf`.
"""
from __future__ import annotations

from collections.abc import Sequence

from kg import __version__
from kg.analysis.similar import Neighbour
from kg.extract.labels import paper_label
from kg.identity import entity_key, name_key, search_key
from kg.models import Extraction, Paper
from kg.rdf.aggregate import Aggregate, ConceptInfo, EntityInfo, TrackInfo
from kg.rdf.terms import (
    block,
    boolean,
    dcterms,
    decimal,
    integer,
    iri,
    kgo,
    lit,
    oa,
    prov,
    rdf,
    rdfs,
    schema,
    skos,
    void,
)
from kg.rdf.vocab import CONCEPT_CLASSES, ENTITY_CLASSES, PREFIXES

__all__ = ["concept_block", "dataset_block", "entity_block", "paper_blocks", "shared_blocks"]

Pairs = list[str]
Subject = tuple[str, Pairs]  # (subject, its "predicate object" pairs), N-Triples form

_ENTITY_CLASS = {t: iri(c) for t, c in ENTITY_CLASSES.items()}
_CONCEPT_CLASS = {t: iri(c) for t, c in CONCEPT_CLASSES.items()}
#: namespaces that a dataset lists as ``void:vocabulary`` (all but the RDF basics)
_VOCABULARIES = [iri(ns) for p, ns in PREFIXES.items() if p not in ("rdf", "rdfs", "xsd")]


def paper_blocks(paper: Paper, ex: Extraction | None, agg: Aggregate,
                 near: Sequence[Neighbour] = ()) -> tuple[str, int]:
    """Every triple whose subject hangs off one paper, sorted by subject.

    Parameters
    ----------
    paper : kg.models.Paper
    ex : kg.models.Extraction or None
        Its extraction; without one the clean abstract is the abstract as
        written and there are no mentions.
    agg : Aggregate
        The shared nodes (the IRIs of people, files and entities).
    near : sequence of kg.analysis.similar.Neighbour
        Its nearest papers, best first (:func:`kg.analysis.similar.similar_papers`).

    Returns
    -------
    tuple of (str, int)
        The N-Triples lines, and how many there are.
    """
    m = agg.mint
    pid = paper.id
    a = rdf.type
    s_paper = iri(m.paper(pid))
    clean = ex.abstract if ex is not None else paper.abstract
    po = [
        f"{a} {schema.ScholarlyArticle}",
        f"{rdfs.label} {lit(paper_label(paper, ex))}",
        f"{dcterms.identifier} {lit(pid)}",
        f"{schema.abstract} {lit(clean)}",
        f"{kgo.rawAbstract} {lit(paper.abstract)}",
        f"{kgo.authorListTruncated} {boolean(paper.authors_truncated)}",
        f"{kgo.authorsShown} {integer(len(paper.authors))}",
    ]
    if paper.authors:
        po.append(f"{kgo.firstAuthorship} {iri(m.authorship(pid, 1))}")
    if paper.title:
        po.append(f"{schema.name} {lit(paper.title)}")
    if paper.track is not None:
        po.append(f"{dcterms.subject} {iri(m.track(paper.track.area, paper.track.subarea))}")
    # the nodes minted under the paper: (IRI, finished lines); their pairs are
    # written in block()'s order (rdf:type, then sorted) without sorting them
    nodes: list[tuple[str, str]] = []
    seen_people: set[str] = set()
    for pos, name in enumerate(paper.authors, start=1):
        person = iri(agg.person_iri[name])
        if person not in seen_people:
            seen_people.add(person)
            po.append(f"{schema.author} {person}")
        raw = m.authorship(pid, pos)
        s = f"<{raw}> "
        po.append(f"{kgo.authorship} {s[:-1]}")
        nodes.append((raw, f"{s}{a} {kgo.Authorship} .\n{s}{kgo.author} {person} .\n"
                           f"{s}{kgo.nameAsWritten} {lit(name)} .\n"
                           f"{s}{kgo.position} {integer(pos)} .\n"))
    seen_files: set[str] = set()
    for n, src in enumerate(paper.sources, start=1):
        f = iri(agg.source_iri[src.file])
        if f not in seen_files:
            seen_files.add(f)
            po.append(f"{prov.wasDerivedFrom} {f}")
        raw = m.derivation(pid, n)
        s = f"<{raw}> "
        po.append(f"{prov.qualifiedDerivation} {s[:-1]}")
        nodes.append((raw, f"{s}{a} {prov.Derivation} .\n{s}{prov.entity} {f} .\n"
                           f"{s}{kgo.line} {integer(src.line)} .\n"))
    count = 4 * len(paper.authors) + 3 * len(paper.sources)
    if ex is not None and ex.mentions:
        count += _mention_blocks(pid, s_paper, ex, agg, po, nodes)
    if near:
        count += _similar_blocks(pid, near, agg, po, nodes)
    count += len(po)
    nodes.append((s_paper[1:-1], block(s_paper, po)))
    nodes.sort()
    return "".join(text for _, text in nodes), count


def _mention_blocks(pid: str, s_paper: str, ex: Extraction, agg: Aggregate, po: Pairs,
                    nodes: list[tuple[str, str]]) -> int:
    """Add a paper's mentions: its ``schema:mentions``/``kgo:proposes`` pairs to
    ``po``, and each mention's annotation, target and selectors (IRI, lines) to
    ``nodes``; return how many triples those nodes hold."""
    m = agg.mint
    mentioned: set[str] = set()
    proposed: set[str] = set()
    entity_iri, concept_iri = agg.entity_iri, agg.concept_iri
    # each node's lines in block()'s order: rdf:type, then the pairs sorted
    # (oa:hasBody < oa:hasTarget; #position < #quote < oa:hasSource; oa:end < oa:start)
    t_ann = f" {rdf.type} {oa.Annotation} .\n"
    t_target = f" {rdf.type} {oa.SpecificResource} .\n"
    t_pos = f" {rdf.type} {oa.TextPositionSelector} .\n"
    t_quote = f" {rdf.type} {oa.TextQuoteSelector} .\n"
    has_body, has_target, has_selector = oa.hasBody, oa.hasTarget, oa.hasSelector
    has_source = f" {oa.hasSource} {s_paper} .\n"
    end, start, exact = oa.end, oa.start, oa.exact
    for n, men in enumerate(ex.mentions, start=1):
        e = iri(concept_iri[men.key] if men.layer == "concept"
                else entity_iri[men.identity_key])
        mentioned.add(e)
        if men.proposed:
            proposed.add(e)
        ann = m.annotation(pid, n)
        sa, t = f"<{ann}>", f"<{m.target(ann)}>"
        ps, qs = f"<{m.position_selector(ann)}>", f"<{m.quote_selector(ann)}>"
        nodes.append((ann, f"{sa}{t_ann}{sa} {has_body} {e} .\n{sa} {has_target} {t} .\n"
                           f"{ps}{t_pos}{ps} {end} {integer(men.end)} .\n"
                           f"{ps} {start} {integer(men.start)} .\n"
                           f"{qs}{t_quote}{qs} {exact} {lit(men.text)} .\n"
                           f"{t}{t_target}{t} {has_selector} {ps} .\n"
                           f"{t} {has_selector} {qs} .\n{t}{has_source}"))
    po.extend(f"{schema.mentions} {e}" for e in mentioned)
    po.extend(f"{kgo.proposes} {e}" for e in proposed)
    return 12 * len(ex.mentions)


def _similar_blocks(pid: str, near: Sequence[Neighbour], agg: Aggregate, po: Pairs,
                    nodes: list[tuple[str, str]]) -> int:
    """Add a paper's nearest papers: its ``kgo:similarity`` pairs to ``po``, each
    similarity node (IRI, lines) to ``nodes``; return how many triples those nodes hold."""
    m = agg.mint
    count = 0
    for rank, n in enumerate(near, start=1):
        node = m.similarity(pid, rank)
        s = iri(node)
        po.append(f"{kgo.similarity} {s}")
        # no rdf:type nor rank (the IRI's number): the fewest triples, as every paper has
        # ten of these nodes (bench/similar_bench.py)
        pairs = [f"{kgo.similarPaper} {iri(m.paper(n.paper))}", f"{kgo.score} {decimal(n.score)}"]
        shared = [agg.thing_label(t) for t in n.things]
        if shared:
            pairs.append(f"{kgo.sharedConcepts} {lit('; '.join(shared))}")
        if n.words:
            pairs.append(f"{kgo.sharedWords} {lit(', '.join(n.words))}")
        count += len(pairs)
        nodes.append((node, block(s, pairs)))
    return count


def entity_block(info: EntityInfo, agg: Aggregate, scheme: str) -> Pairs:
    """An entity: its classes, labels (preferred, alternative, search keys), family, counts."""
    pref = info.canonical()
    a = rdf.type
    po = [f"{a} {skos.Concept}", f"{a} {_ENTITY_CLASS[info.type()]}",
          f"{skos.prefLabel} {lit(pref)}", f"{rdfs.label} {lit(pref)}",
          f"{skos.inScheme} {scheme}"]
    alts = {v for v in info.variants if v and v != pref} | {
        c for c in info.canonicals if c != pref}
    po.extend(f"{skos.altLabel} {lit(v)}" for v in alts)
    # the search key of every name (lower case, no separators) as a hidden
    # label, so "LLaMA-2", "Llama 2" and "llama2" all find the entity
    keys = {search_key(n) for n in (pref, *alts)} - {""}
    po.extend(f"{skos.hiddenLabel} {lit(k)}" for k in keys)
    if info.family:
        fkey = entity_key(info.family)
        if fkey != info.key and fkey in agg.entity_iri:
            po.append(f"{kgo.family} {iri(agg.entity_iri[fkey])}")
    if info.kind:
        po.append(f"{kgo.kind} {lit(info.kind)}")
    po.extend(f"{kgo.instanceOf} {iri(agg.concept_iri[c])}"
              for c in agg.entity_concepts.get(info.key, ()))
    po.append(f"{kgo.paperCount} {integer(agg.entity_papers[info.key])}")
    po.append(f"{kgo.mentionCount} {integer(agg.entity_mentions[info.key])}")
    return po


def concept_block(info: ConceptInfo, agg: Aggregate, scheme: str) -> Pairs:
    """A concept: its classes, labels, place in the hierarchy and the scheme, source, counts.

    Its broader concepts are in the graph (the aggregate adds every
    ancestor); a concept with none is a top concept of the scheme.
    """
    c = info.concept
    a = rdf.type
    po = [f"{a} {skos.Concept}", f"{a} {kgo.Concept}", f"{a} {_CONCEPT_CLASS[c.type]}",
          f"{skos.prefLabel} {lit(c.label)}", f"{rdfs.label} {lit(c.label)}",
          f"{skos.inScheme} {scheme}",
          f"{dcterms.identifier} {lit(c.id)}", f"{dcterms.source} {lit(c.source)}"]
    folded = c.label.casefold()
    alts = {v for v in (*c.forms, *c.acronyms, *info.variants, c.entity or "")
            if v and v.casefold() != folded}
    po.extend(f"{skos.altLabel} {lit(v)}" for v in alts)
    keys = {search_key(n) for n in (c.label, c.id, *alts)} - {""}
    po.extend(f"{skos.hiddenLabel} {lit(k)}" for k in keys)
    broader = [b for b in c.broader if b in agg.concept_iri]
    po.extend(f"{skos.broader} {iri(agg.concept_iri[b])}" for b in broader)
    if not broader:
        po.append(f"{skos.topConceptOf} {scheme}")
    if c.source_id:
        po.append(f"{kgo.sourceId} {lit(c.source_id)}")
    po.append(f"{kgo.paperCount} {integer(agg.concept_papers[c.id])}")
    po.append(f"{kgo.mentionCount} {integer(agg.concept_mentions[c.id])}")
    return po


def shared_blocks(agg: Aggregate) -> list[Subject]:
    """Every subject papers share, in no particular order (the caller sorts).

    Acronym definitions, the build activity, entities, concepts, people,
    collaborations, the three concept schemes, listing files and tracks.
    """
    mint = agg.mint
    a = rdf.type
    ent_scheme = iri(mint.scheme("entities"))
    trk_scheme = iri(mint.scheme("tracks"))
    con_scheme = iri(mint.scheme("concepts"))
    out: list[Subject] = []
    for s, acr in agg.acronyms.items():
        po = [f"{a} {kgo.Acronym}", f"{kgo.short} {lit(acr['short'])}",
              f"{kgo.long} {lit(acr['long'])}"]
        po += [f"{kgo.definedIn} {iri(mint.paper(pid))}" for pid in acr["papers"]]
        po += [f"{kgo.denotes} {iri(agg.concept_iri[k] if c else agg.entity_iri[k])}"
               for c, k in acr["denotes"]]
        out.append((iri(s), po))
    out.append((iri(mint.activity()),
                [f"{a} {prov.Activity}", f"{rdfs.label} {lit(f'kg {__version__} build')}"]
                + [f"{prov.used} {iri(f)}" for f in agg.sources]))
    for key, info in agg.entities.items():
        out.append((iri(agg.entity_iri[key]), entity_block(info, agg, ent_scheme)))
    for cid, cinfo in agg.concepts.items():
        out.append((iri(agg.concept_iri[cid]), concept_block(cinfo, agg, con_scheme)))
    for s, name in agg.people.items():
        out.append((iri(s), [
            f"{a} {schema.Person}", f"{schema.name} {lit(name)}", f"{rdfs.label} {lit(name)}",
            f"{kgo.nameKey} {lit(name_key(name))}",
            f"{kgo.paperCount} {integer(agg.person_papers[s])}",
            f"{kgo.trackCount} {integer(len(agg.person_tracks.get(s, ())))}"]))
    for (i, j), n in agg.pairs.items():
        pa, pb = agg.person_list[i], agg.person_list[j]
        na, nb = sorted((agg.people[pa], agg.people[pb]))
        out.append((iri(mint.collaboration(na, nb)), [
            f"{a} {kgo.Collaboration}", f"{rdfs.label} {lit(f'{na} — {nb}')}",
            f"{kgo.member} {iri(pa)}", f"{kgo.member} {iri(pb)}",
            f"{kgo.jointPapers} {integer(n)}"]))
    for scheme, label, used in ((ent_scheme, "Entities", agg.entities),
                                (trk_scheme, "Tracks", agg.tracks),
                                (con_scheme, "Concepts", agg.concepts)):
        if used:
            out.append((scheme, [f"{a} {skos.ConceptScheme}", f"{skos.prefLabel} {lit(label)}"]))
    for s, name in agg.sources.items():
        out.append((iri(s), [f"{a} {prov.Entity}", f"{schema.name} {lit(name)}"]))
    for s, t in agg.tracks.items():
        out.append((iri(s), _track_pairs(s, t, agg, trk_scheme)))
    return out


def _track_pairs(s: str, t: TrackInfo, agg: Aggregate, scheme: str) -> Pairs:
    """A track (area or subarea): its classes, labels, notations, place in the scheme, counts."""
    a = rdf.type
    po = [f"{a} {skos.Concept}", f"{a} {kgo.Track}", f"{skos.prefLabel} {lit(t['pref'])}",
          f"{rdfs.label} {lit(t['label'])}", f"{skos.inScheme} {scheme}"]
    po += [f"{skos.notation} {lit(n)}" for n in t["notation"]]
    po.append(f"{skos.broader} {iri(t['broader'])}" if t["broader"]
              else f"{skos.topConceptOf} {scheme}")
    po.append(f"{kgo.paperCount} {integer(agg.track_papers[s])}")
    po.append(f"{kgo.authorCount} {integer(len(agg.track_people.get(s, ())))}")
    return po


def dataset_block(agg: Aggregate, triples_before: int) -> Subject:
    """The ``void:Dataset`` description, which comes last: it counts every triple.

    ``triples_before`` is the number of triples written before it; the
    ``void:triples`` value adds the dataset's own, itself included.
    """
    mint = agg.mint
    po = [f"{rdf.type} {void.Dataset}",
          f"{dcterms.title} {lit('Knowledge graph of research-paper listings')}",
          f"{void.uriSpace} {lit(mint.base)}", f"{prov.wasGeneratedBy} {iri(mint.activity())}"]
    po += [f"{void.vocabulary} {ns}" for ns in _VOCABULARIES]
    po += [f"{dcterms.source} {iri(f)}" for f in agg.sources]
    count = triples_before + len(po) + 1  # + the void:triples triple itself
    po.append(f"{void.triples} {integer(count)}")
    return iri(mint.dataset()), po
