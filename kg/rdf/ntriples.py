"""The N-Triples writer: the whole graph of a build, streamed in one deterministic order.

Subjects come in sorted order (each with its predicate-object pairs sorted,
``rdf:type`` first): the shared nodes that sort before the papers, the
papers (each with the nodes minted under it) as they are mapped, the
shared nodes that sort after them, and last the ``void:Dataset``
description, which carries the triple count. No per-triple objects are
made; the text goes to pyoxigraph or a file as it is.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import IO

from kg.analysis.similar import documents, similar_papers
from kg.extract.concept_vocab import ConceptVocab
from kg.models import Build, Entity
from kg.rdf.aggregate import Aggregate
from kg.rdf.mapping import dataset_block, paper_blocks, shared_blocks
from kg.rdf.terms import block, subject_order
from kg.rdf.vocab import Minter

__all__ = ["iter_ntriples", "to_ntriples", "write_ntriples"]


def _chunks(build: Build, base: str | None = None, *,
                  entities: Mapping[str, Entity] | None = None,
                  concepts: ConceptVocab | None = None) -> Iterator[tuple[str, int]]:
    """The graph of ``build`` as chunks of N-Triples text and their triple counts, in output order.

    Parameters
    ----------
    build : kg.models.Build
        Papers and their extractions (``extractions`` may be empty: then the
        clean abstract is the abstract as written and there are no entities).
    base : str, optional
        Base IRI of minted resources (default :data:`kg.rdf.vocab.DEFAULT_BASE`).
    entities : mapping of str to kg.models.Entity, optional
        Known entities (e.g. the gazetteer), used for families, kinds and
        aliases of the entities the papers mention.
    concepts : kg.extract.concept_vocab.ConceptVocab, optional
        The concept vocabulary (default: the one kg ships, :func:`kg.extract.concept_vocab.load`).

    Yields
    ------
    tuple of (str, int)
        N-Triples lines and how many; the last chunk is the ``void:Dataset`` description,
        whose ``void:triples`` counts every triple including its own.
    """
    mint = Minter(base)
    if concepts is None:
        from kg.extract.concept_vocab import load

        concepts = load()
    agg = Aggregate(build, mint, entities, concepts)
    near = similar_papers(documents(build, concepts))
    count = 0
    # everything except the papers and the dataset, in subject order;
    # the papers stream in between
    out = shared_blocks(agg)
    out.sort(key=lambda sp: subject_order(sp[0]))
    paper_prefix = mint.paper("")
    head = [sp for sp in out if subject_order(sp[0]) < paper_prefix]
    tail = [sp for sp in out if subject_order(sp[0]) >= paper_prefix]
    for s, po in head:
        count += len(po)
        yield block(s, po), len(po)
    extractions = build.extractions
    for paper in sorted(build.corpus.papers, key=lambda p: mint.paper(p.id)):
        text, n = paper_blocks(paper, extractions.get(paper.id), agg, near.get(paper.id, ()))
        count += n
        yield text, n
    for s, po in tail:
        count += len(po)
        yield block(s, po), len(po)
    s, po = dataset_block(agg, count)
    yield block(s, po), len(po)


def iter_ntriples(build: Build, base: str | None = None, *,
                  entities: Mapping[str, Entity] | None = None,
                  concepts: ConceptVocab | None = None) -> Iterator[str]:
    """The graph of ``build`` as chunks of N-Triples text, in output order.

    The parameters are :func:`_chunks`'s; the last chunk is the
    ``void:Dataset`` description, whose ``void:triples`` counts every triple
    including its own.
    """
    for text, _ in _chunks(build, base, entities=entities, concepts=concepts):
        yield text


def to_ntriples(build: Build, base: str | None = None, *,
                entities: Mapping[str, Entity] | None = None,
                concepts: ConceptVocab | None = None) -> bytes:
    """The graph of ``build`` as N-Triples (UTF-8 bytes), deterministic."""
    return "".join(iter_ntriples(build, base, entities=entities, concepts=concepts)
                   ).encode("utf-8")


def write_ntriples(build: Build, fh: IO[bytes], base: str | None = None, *,
                   entities: Mapping[str, Entity] | None = None,
                   concepts: ConceptVocab | None = None) -> int:
    """Stream the graph of ``build`` as N-Triples into ``fh``; return the triple count."""
    n = 0
    buf: list[str] = []
    size = 0
    for chunk, k in _chunks(build, base, entities=entities, concepts=concepts):
        n += k
        buf.append(chunk)
        size += len(chunk)
        if size > 1 << 22:
            fh.write("".join(buf).encode("utf-8"))
            buf, size = [], 0
    fh.write("".join(buf).encode("utf-8"))
    return n
