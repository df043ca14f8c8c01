"""The shared SPARQL types: query results, the store protocol, RDF terms from Python values.

A leaf module (it imports no other kg module but :mod:`kg.errors`), so every
store, the query library and the result writers can share these types
without importing one another:

* :class:`QueryResult`, the materialised answer of a query, whatever the store;
* :class:`SparqlStore`, what every store offers (``query``, ``count``, ``close``);
* :func:`to_term`, a Python value or rdflib term as a pyoxigraph term;
* :func:`from_oxigraph`, a pyoxigraph answer as a :class:`QueryResult`.

Result terms are pyoxigraph terms (:class:`pyoxigraph.NamedNode`,
:class:`~pyoxigraph.Literal`, :class:`~pyoxigraph.BlankNode`), whatever the
store; a remote store makes them with :func:`pyoxigraph.parse_query_results`.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from typing import Literal as TLiteral

from kg.errors import QueryError

if TYPE_CHECKING:
    import pyoxigraph as ox

__all__ = ["QueryResult", "SparqlStore", "from_oxigraph", "to_term"]


@dataclass(frozen=True)
class QueryResult:
    """The answer of a SPARQL query, materialised.

    ``kind`` is ``"select"`` (``variables`` and ``rows``; an unbound cell is
    ``None``), ``"ask"`` (``boolean``) or ``"graph"`` for CONSTRUCT and
    DESCRIBE (``triples``, pyoxigraph :class:`~pyoxigraph.Triple`).
    """

    kind: TLiteral["select", "ask", "graph"]
    variables: tuple[str, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    boolean: bool | None = None
    triples: tuple[Any, ...] = ()

    def __len__(self) -> int:
        return len(self.rows) if self.kind == "select" else len(self.triples)

    def column(self, name: str) -> list[Any]:
        i = self.variables.index(name)
        return [r[i] for r in self.rows]

    def values(self) -> list[tuple[Any, ...]]:
        """Rows as plain Python values (lexical forms of literals, IRIs as str)."""
        return [tuple(None if t is None else t.value for t in r) for r in self.rows]


class SparqlStore(Protocol):
    """What every kg store offers (:class:`kg.store.embedded.EmbeddedStore`,
    :class:`kg.store.remote.RemoteStore`).

    * ``query(sparql, bindings)`` -> :class:`QueryResult`, with ``bindings``
      (variable name -> RDF term) given to the engine, never pasted into the
      query text as strings;
    * ``count()`` -> the number of triples;
    * ``close()`` (stores are also context managers).
    """

    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> QueryResult: ...

    def count(self) -> int: ...

    def close(self) -> None: ...


def to_term(value: Any) -> ox.NamedNode | ox.Literal | ox.BlankNode:
    """A Python value, rdflib term or pyoxigraph term as a pyoxigraph term.

    ``str`` -> xsd:string literal; ``bool``/``int``/``float`` -> typed
    literals; rdflib ``URIRef``/``Literal``/``BNode`` -> the same term.
    A ``str`` is never read as an IRI: wrap it in
    :class:`pyoxigraph.NamedNode` (or :class:`rdflib.URIRef`) to mean one.

    >>> to_term("a > b")
    <Literal value=a > b datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#string>>
    """
    import pyoxigraph as ox

    if isinstance(value, (ox.NamedNode, ox.Literal, ox.BlankNode)):
        return value
    rdflib = sys.modules.get("rdflib")  # rdflib terms are str subclasses: test them first
    if rdflib is not None and isinstance(value, rdflib.term.Identifier):
        if isinstance(value, rdflib.URIRef):
            return _named_node(str(value))
        if isinstance(value, rdflib.BNode):
            return ox.BlankNode(str(value))
        if isinstance(value, rdflib.Literal):
            if value.language:
                return ox.Literal(str(value), language=value.language)
            if value.datatype is not None:
                return ox.Literal(str(value), datatype=_named_node(str(value.datatype)))
            return ox.Literal(str(value))
    if isinstance(value, (bool, int, float, str)):
        return ox.Literal(value)
    raise QueryError(f"cannot use a {type(value).__name__} as an RDF term")


def _named_node(iri: str) -> ox.NamedNode:
    import pyoxigraph as ox

    try:
        return ox.NamedNode(iri)
    except ValueError:
        raise QueryError(f"not a valid IRI: {iri!r}") from None


def from_oxigraph(result: ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples
                  ) -> QueryResult:
    """A pyoxigraph query answer (solutions, boolean or triples) as a :class:`QueryResult`.

    >>> import pyoxigraph as ox
    >>> from_oxigraph(ox.Store().query("ASK { ?s ?p ?o }"))
    QueryResult(kind='ask', variables=(), rows=(), boolean=False, triples=())
    """
    import pyoxigraph as ox

    if isinstance(result, ox.QueryBoolean):
        return QueryResult("ask", boolean=bool(result))
    if isinstance(result, ox.QuerySolutions):
        names = tuple(v.value for v in result.variables)
        return QueryResult("select", variables=names,
                           rows=tuple(tuple(sol[i] for i in range(len(names))) for sol in result))
    return QueryResult("graph", triples=tuple(result))
