"""The rdflib bridge: pyoxigraph terms and N-Triples into an :class:`rdflib.Graph`.

pyoxigraph parses (much faster than rdflib's parsers); each IRI is
converted once and shared. Used by :func:`kg.load_graph`, the store's
rdflib view and :func:`to_graph`, which maps a build straight to a Graph.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.extract.concept_vocab import ConceptVocab
from kg.models import Build, Entity
from kg.rdf.ntriples import to_ntriples
from kg.rdf.serialise import parse_ntriples
from kg.rdf.vocab import PREFIXES, XSD

if TYPE_CHECKING:  # pragma: no cover
    import pyoxigraph as ox
    import rdflib

__all__ = ["ntriples_to_rdflib", "ox_to_rdflib", "to_graph"]

_XSD_STRING = str(XSD.string)


def ox_to_rdflib(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> rdflib.term.Identifier:
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


def ntriples_to_rdflib(source: bytes | Path | Iterable[ox.Quad | ox.Triple],
                       graph: rdflib.Graph | None = None
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
    items: Iterable[Any] = (parse_ntriples(source) if isinstance(source, (bytes, str, Path))
                            else source)
    cache: dict[ox.NamedNode | ox.BlankNode, rdflib.term.Identifier] = {}

    def conv(t: ox.NamedNode | ox.BlankNode | ox.Literal) -> rdflib.term.Identifier:
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
             entities: Mapping[str, Entity] | None = None,
             concepts: ConceptVocab | None = None) -> rdflib.Graph:
    """The graph of ``build`` as an :class:`rdflib.Graph` (prefixes bound)."""
    return ntriples_to_rdflib(to_ntriples(build, base, entities=entities, concepts=concepts))
