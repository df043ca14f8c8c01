"""What the papers are about, per track: the content tables of the report.

:func:`content_tables` counts, from a build's papers and extractions, the
papers and authors of each track, the most mentioned entities of each type,
the names papers propose in each track and how many papers of each track
mention each of the most mentioned entities, and the concepts (:mod:`kg.extract.concept_vocab`)
most papers mention, overall and per track. Its result is the JSON of
:class:`kg.report.data.ContentTables` (``report.json``'s ``content``). Every
list is sorted (most first, then by name), so the output is deterministic.

An entity is counted once per paper, by its identity key (as
:func:`kg.analysis.extraction_summary` does); a proposed name once per paper,
by its canonical spelling; an author once per track, by
:func:`kg.identity.person_key`. A concept mention (``layer == "concept"``)
counts for its concept, not as an entity, and so does a mention of a
gazetteer entry that is a concept (``LLM`` is the concept large language
model), as in the RDF graph; a paper counts for the concepts it names, not
for their broader ones.

Examples
--------
>>> from kg.models import Corpus, Extraction, Mention, Paper, Track
>>> t = Track("Theory")
>>> p = Paper("1", ("A", "B"), "We propose Foo on MNIST.", track=t)
>>> ms = (Mention("Foo", "Foo", "method", 11, 14, proposed=True, key="foo"),
...       Mention("MNIST", "MNIST", "dataset", 18, 23, key="mnist"))
>>> c = content_tables(Build(Corpus((p,)), {"1": Extraction("1", p.abstract, ms)}))
>>> c["tracks"], c["proposed_by_track"][0]["names"]
([{'track': 'Theory', 'papers': 1, 'authors': 2}], [['Foo', 1]])
>>> c["track_entities"]["entities"], c["track_entities"]["rows"]
([['Foo', 'method'], ['MNIST', 'dataset']], [{'track': 'Theory', 'papers': [1, 1]}])
>>> q = Paper("2", ("C",), "LLMs and quantization.", track=t)
>>> ms = (Mention("LLMs", "LLM", "model", 0, 4, key="llm"),
...       Mention("quantization", "quantization", "method", 9, 21, key="quantization",
...               layer="concept"))
>>> c = content_tables(Build(Corpus((q,)), {"2": Extraction("2", q.abstract, ms)}))
>>> c["top_concepts"], c["concepts_by_track"], c["entities_by_type"]
([['large language model', 'model_class', 1], ['quantization', 'method', 1]], [{'track': 'Theory', 'concepts': [['large language model', 1], ['quantization', 1]]}], {})
"""
from __future__ import annotations

from collections import Counter, defaultdict

from kg.extract.concept_vocab import ConceptVocab
from kg.identity import entity_key, person_key
from kg.models import Build, JsonObject, Mention

__all__ = ["content_tables", "TOP_BY_TYPE", "TOP_CONCEPTS", "TOP_PROPOSED", "TRACK_CONCEPTS",
           "TRACK_ENTITIES"]

TOP_BY_TYPE = 10     # entities listed per type
TOP_PROPOSED = 10    # proposed names listed per track
TRACK_ENTITIES = 8   # entities (columns) of the track x entity table
TOP_CONCEPTS = 15    # concepts listed overall
TRACK_CONCEPTS = 8   # concepts listed per track


def _concept_of(vocab: ConceptVocab, by_entity: dict[str, str], m: Mention
                ) -> tuple[str, str, str] | None:
    """``(id, label, type)`` of the concept a mention names, or ``None`` for an entity."""
    cid = m.key if m.layer == "concept" else by_entity.get(m.identity_key)
    if cid is None:
        return None
    c = vocab.concepts.get(cid)
    return (cid, c.label, c.type) if c is not None else (cid, m.canonical, m.type)


def _ranked(counts: Counter[str], top: int) -> list[list[str | int]]:
    """``[name, count]`` pairs, most first, then by name; at most ``top``."""
    return [[k, n] for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]


def content_tables(build: Build, *, top_by_type: int = TOP_BY_TYPE,
                   top_proposed: int = TOP_PROPOSED, track_entities: int = TRACK_ENTITIES,
                   top_concepts: int = TOP_CONCEPTS, track_concepts: int = TRACK_CONCEPTS,
                   concepts: ConceptVocab | None = None) -> JsonObject:
    """The content tables of a build (the JSON of :class:`kg.report.data.ContentTables`).

    ``concepts`` is the concept vocabulary (default: the one kg ships).
    """
    if concepts is None:
        from kg.extract.concept_vocab import load

        concepts = load()
    by_entity = {entity_key(c.entity): c.id for c in concepts.concepts.values() if c.entity}
    concept_papers: Counter[str] = Counter()
    concept_label: dict[str, tuple[str, str]] = {}
    concepts_in: dict[str, Counter[str]] = defaultdict(Counter)
    papers: Counter[str] = Counter()
    authors: dict[str, set[str]] = defaultdict(set)
    proposing: Counter[str] = Counter()
    proposed: dict[str, Counter[str]] = defaultdict(Counter)
    entity_papers: Counter[str] = Counter()
    label: dict[str, tuple[str, str]] = {}
    by_track: dict[str, Counter[str]] = defaultdict(Counter)
    without_track = 0
    for paper in build.corpus.papers:
        track = paper.track.label if paper.track else None
        if track is None:
            without_track += 1
        else:
            papers[track] += 1
            authors[track].update(person_key(a) for a in paper.authors)
        ex = build.extractions.get(paper.id)
        if ex is None:
            continue
        keys: dict[str, None] = {}
        cids: dict[str, None] = {}
        for m in ex.mentions:
            c = _concept_of(concepts, by_entity, m)
            if c is not None:
                concept_label.setdefault(c[0], c[1:])
                cids[c[0]] = None
                continue
            k = m.key or m.canonical.casefold()
            label.setdefault(k, (m.canonical, m.type))
            keys[k] = None
        entity_papers.update(list(keys))
        concept_papers.update(list(cids))
        if track is not None:
            by_track[track].update(list(keys))
            concepts_in[track].update(list(cids))
            names = ex.proposed
            if names:
                proposing[track] += 1
                proposed[track].update(names)
    tracks = sorted(papers, key=lambda t: (-papers[t], t))
    of_type: dict[str, Counter[str]] = defaultdict(Counter)
    for k, n in entity_papers.items():
        of_type[label[k][1]][label[k][0]] += n
    top = [k for k, _ in sorted(entity_papers.items(),
                                key=lambda kv: (-kv[1], label[kv[0]][0], kv[0]))[:track_entities]]

    def ranked_concepts(counts: Counter[str], n: int) -> list[str]:
        return [k for k, _ in sorted(counts.items(),
                                     key=lambda kv: (-kv[1], concept_label[kv[0]][0], kv[0]))[:n]]

    return {
        "papers_without_track": without_track,
        "tracks": [{"track": t, "papers": papers[t], "authors": len(authors[t])} for t in tracks],
        "entities_by_type": {ty: _ranked(c, top_by_type) for ty, c in sorted(of_type.items())},
        "proposed_by_track": [{"track": t, "papers_proposing": proposing[t],
                               "names": _ranked(proposed[t], top_proposed)}
                              for t in tracks if proposing[t]],
        "track_entities": {"entities": [list(label[k]) for k in top],
                           "rows": [{"track": t, "papers": [by_track[t][k] for k in top]}
                                    for t in tracks]},
        "top_concepts": [[*concept_label[k], concept_papers[k]]
                         for k in ranked_concepts(concept_papers, top_concepts)],
        "concepts_by_track": [
            {"track": t, "concepts": [[concept_label[k][0], concepts_in[t][k]]
                                      for k in ranked_concepts(concepts_in[t], track_concepts)]}
            for t in tracks if concepts_in[t]],
    }
