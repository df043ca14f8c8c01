"""SPARQL stores behind one small API, and :func:`load_graph` for rdflib users.

:class:`EmbeddedStore` wraps pyoxigraph (the Oxigraph engine, RocksDB on
disk): ``kg build`` bulk-loads the graph into ``output/store/`` and ``kg
query`` opens it read-only, so nothing is parsed again. Any other store
(issue 7 adds remote SPARQL endpoints) implements :class:`SparqlStore`:

* ``query(sparql, bindings)`` -> :class:`QueryResult`, with ``bindings``
  (variable name -> RDF term) substituted by the engine itself, never
  pasted into the query text;
* ``count()`` -> the number of triples;
* ``close()`` (stores are also context managers).

Result terms are pyoxigraph terms (:class:`pyoxigraph.NamedNode`,
:class:`~pyoxigraph.Literal`, :class:`~pyoxigraph.BlankNode`), whatever the
store; a remote store can make them with :func:`pyoxigraph.parse_query_results`.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Literal as TLiteral, Mapping, Protocol

from kg.errors import QueryError, StoreError
from kg.fsio import fresh_dir

if TYPE_CHECKING:  # pragma: no cover
    import pyoxigraph
    import rdflib

__all__ = ["EmbeddedStore", "QueryResult", "SparqlStore", "StoreBuilder", "load_graph", "open_store",
           "to_term"]

STORE_DIR = "store"


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

    def column(self, name: str) -> list:
        i = self.variables.index(name)
        return [r[i] for r in self.rows]

    def values(self) -> list[tuple]:
        """Rows as plain Python values (lexical forms of literals, IRIs as str)."""
        return [tuple(None if t is None else t.value for t in r) for r in self.rows]


class SparqlStore(Protocol):
    """What every kg store offers (embedded now, remote endpoints later)."""

    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> QueryResult: ...

    def count(self) -> int: ...

    def close(self) -> None: ...


# ------------------------------------------------------------------ terms

def to_term(value: Any):
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


def _named_node(iri: str):
    import pyoxigraph as ox

    try:
        return ox.NamedNode(iri)
    except ValueError:
        raise QueryError(f"not a valid IRI: {iri!r}") from None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


def _materialise(result) -> QueryResult:
    import pyoxigraph as ox

    if isinstance(result, ox.QueryBoolean):
        return QueryResult("ask", boolean=bool(result))
    if isinstance(result, ox.QuerySolutions):
        names = tuple(v.value for v in result.variables)
        return QueryResult("select", variables=names,
                           rows=tuple(tuple(sol[i] for i in range(len(names))) for sol in result))
    return QueryResult("graph", triples=tuple(result))


def run_query(store, sparql: str, bindings: Mapping[str, Any] | None = None) -> QueryResult:
    """Run ``sparql`` on a pyoxigraph ``Store`` with ``bindings`` substituted by the engine."""
    import pyoxigraph as ox

    subs = {ox.Variable(k): to_term(v) for k, v in (bindings or {}).items()}
    try:
        return _materialise(store.query(sparql, substitutions=subs or None))
    except SyntaxError as exc:
        raise QueryError(f"SPARQL syntax error: {_one_line(exc)}") from None
    except RuntimeError as exc:
        msg = _one_line(exc)
        if "projection" in msg:
            raise QueryError(f"parameter not used by the query: {msg}") from None
        if "read-write" in msg or "Transaction" in msg:
            raise QueryError("the store is read-only: updates are not allowed") from None
        raise QueryError(f"query failed: {msg}") from None
    except OSError as exc:
        raise StoreError(f"store read failed: {_one_line(exc)}") from None


# ------------------------------------------------------------------ SERVICE

_LEX = re.compile(
    r"(?P<comment>#[^\n]*)"
    r'|(?P<string>"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"' r"|'(?:[^'\\\n\r]|\\.)*')"
    r'|(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)'
    r"|(?P<var>[?$][\w\u00B7\u0300-\u036F\u203F-\u2040]*)"
    r"|(?P<lang>@[A-Za-z0-9-]*)"
    r"|(?P<number>\d+\.\d*[eE][+-]?\d+|\.\d+[eE][+-]?\d+|\d+[eE][+-]?\d+|\d*\.\d+|\d+)"
    r"|(?P<name>(?:[^\W\d]|_|:)[\w.\-:%\\\u00B7\u0300-\u036F\u203F-\u2040]*)",
    re.S)


def uses_service(sparql: str) -> bool:
    """Whether ``sparql`` has a ``SERVICE`` clause (a request to another server).

    A lexical check that skips strings, IRIs, comments, variables, language
    tags and prefixed names, so ``"SERVICE"``, ``<urn:SERVICE>``, ``?service``
    and ``ex:service`` are not taken for the keyword. A backslash outside
    strings and IRIs (``\\u0053ERVICE``) counts as a ``SERVICE`` too: the
    check errs on the side of refusing.

    >>> uses_service('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }')
    True
    >>> uses_service('SELECT * WHERE { ?s ?p 1.service<http://x/> { } }')
    True
    >>> uses_service('SELECT ?service WHERE { ?service ex:SERVICE "SERVICE" } # SERVICE')
    False
    """
    i, n = 0, len(sparql)
    while i < n:
        m = _LEX.match(sparql, i)
        if m is None:
            if sparql[i] == "\\":
                return True
            i += 1
            continue
        if m.lastgroup == "name":
            word = m.group().rstrip(".")
            if ":" not in word and (re.match(r"SERVICE(?![\w:])", word, re.I) or "\\" in word):
                return True
            i += len(word)
            continue
        i = m.end()
    return False


def refuse_service(sparql: str) -> None:
    """Raise :class:`QueryError` when ``sparql`` would make the store fetch another server."""
    if uses_service(sparql):
        raise QueryError("the query has a SERVICE clause, which would make kg fetch another "
                         "server; the embedded store runs it only with --allow-service")


# --------------------------------------------------------- the embedded store

class EmbeddedStore:
    """A pyoxigraph store persisted in a folder (or in memory when ``path`` is None).

    Parameters
    ----------
    path : str or Path, optional
        The store folder, as written by :meth:`create` (``output/store``).
        ``None`` makes an empty in-memory store (tests, small graphs).
    read_only : bool
        Open without write access (default), so several readers can share a
        folder and a query can never change it.
    allow_service : bool
        Run queries with a ``SERVICE`` clause (pyoxigraph would send them to
        any URL in the query); refused with a :class:`QueryError` by default.

    Raises
    ------
    kg.errors.StoreError
        If there is no store at ``path`` or it cannot be opened.
    """

    def __init__(self, path: str | Path | None = None, *, read_only: bool = True,
                 allow_service: bool = False) -> None:
        import pyoxigraph as ox

        self.allow_service = allow_service
        self.path = Path(path) if path is not None else None
        self.read_only = read_only and path is not None
        try:
            if path is None:
                self._store = ox.Store()
            elif read_only:
                if not (self.path / "CURRENT").is_file():
                    raise StoreError(f"{self.path}: no store here (run 'kg build' first)")
                self._store = ox.Store.read_only(str(self.path))
            else:
                self._store = ox.Store(str(self.path))
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the store: {_one_line(exc)}") from None

    # -- building
    @classmethod
    def create(cls, path: str | Path, ntriples: bytes | str | Path, *,
               optimize: bool = False, lenient: bool = False) -> "EmbeddedStore":
        """Bulk-load N-Triples (bytes, or a file) into a new store at ``path``.

        The store is written to a temporary folder beside ``path`` and renamed
        over it when complete, so an interrupted build never leaves half a
        store behind (see :class:`StoreBuilder`). ``optimize`` compacts it
        afterwards (queries on a compacted store read fewer files and run
        about twice as fast). Returns the new store opened read-only.
        """
        with StoreBuilder(path) as builder:
            builder.store.load_ntriples(ntriples, lenient=lenient)
            if optimize:
                builder.store.optimize()
            return builder.commit()

    @classmethod
    def memory(cls, ntriples: bytes | str | Path = b"") -> "EmbeddedStore":
        """An in-memory store holding ``ntriples``."""
        store = cls(None)
        if ntriples:
            store.load_ntriples(ntriples)
        return store

    def load_ntriples(self, ntriples: bytes | str | Path, *, lenient: bool = False) -> None:
        """Add N-Triples (bytes, or a file path) in bulk.

        ``lenient`` skips the parser's checks of IRIs (for text whose IRIs are
        known to be valid, such as :mod:`kg.rdf`'s, which mints every one).
        """
        import pyoxigraph as ox

        if self.read_only:
            raise StoreError(f"{self.path}: the store is open read-only")
        try:
            if isinstance(ntriples, Path):
                self._store.bulk_load(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES,
                                      lenient=lenient)
            else:
                self._store.bulk_load(ntriples, ox.RdfFormat.N_TRIPLES, lenient=lenient)
            self._store.flush()
        except SyntaxError as exc:
            raise StoreError(f"invalid N-Triples: {_one_line(exc)}") from None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot write the store: {_one_line(exc)}") from None

    def optimize(self) -> None:
        """Compact the store's files (after a bulk load)."""
        try:
            self._store.optimize()
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot optimize the store: {_one_line(exc)}") from None

    # -- the SparqlStore API
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> QueryResult:
        """Run a SPARQL query; ``bindings`` maps variable names to RDF terms (see :func:`to_term`).

        A query with a ``SERVICE`` clause is refused unless :attr:`allow_service`.
        """
        if not self.allow_service:
            refuse_service(sparql)
        return run_query(self._store, sparql, bindings)

    def count(self) -> int:
        return len(self._store)

    def close(self) -> None:
        st = getattr(self, "_store", None)
        if st is not None:
            if not self.read_only and self.path is not None:
                st.flush()
            self._store = None
            del st

    def __enter__(self) -> "EmbeddedStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- for exporters
    def triples(self) -> Iterator:
        """Every triple of the default graph (pyoxigraph quads)."""
        yield from self._store

    def dump_ntriples(self) -> bytes:
        import pyoxigraph as ox

        return self._store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())

    @property
    def oxigraph(self) -> "pyoxigraph.Store":
        """The underlying :class:`pyoxigraph.Store` (for callers who need more)."""
        return self._store


class StoreBuilder:
    """A new on-disk store, written beside ``path`` and renamed over it by :meth:`commit`.

    Use it as a context manager: leaving the block without :meth:`commit`
    (an error, a failed validation) removes the new store and leaves any
    old one at ``path`` as it was. ``store`` is the new store, open for
    writing and for queries.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = fresh_dir(self.path.parent, f".{self.path.name}.tmp-")
        try:
            self.store = EmbeddedStore(self.tmp, read_only=False)
        except BaseException:
            shutil.rmtree(self.tmp, ignore_errors=True)
            raise
        self.done = False

    def commit(self) -> EmbeddedStore:
        """Close the new store, rename it to ``path`` and return it opened read-only."""
        self.store.close()
        old = None
        if self.path.exists():
            old = self.path.with_name(f".{self.path.name}.old.{os.getpid()}")
            os.replace(self.path, old)
        os.replace(self.tmp, self.path)
        self.done = True
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return EmbeddedStore(self.path)

    def abort(self) -> None:
        if not self.done:
            self.store.close()
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.done = True

    def __enter__(self) -> "StoreBuilder":
        return self

    def __exit__(self, *exc) -> None:
        self.abort()


def open_store(store: str | Path | None = None, endpoint: str | None = None,
               from_dir: str | Path = "output", *, user: str | None = None,
               password: str | None = None, timeout: float | None = None,
               allow_service: bool = False) -> SparqlStore:
    """The store a command reads: ``--store DIR``, ``--endpoint URL`` or ``<from_dir>/store``.

    ``user``, ``password`` and ``timeout`` (seconds for everything the store
    does from now on, default :data:`kg.remote.QUERY_TIMEOUT`) are for an
    endpoint; ``allow_service`` lets the embedded store run ``SERVICE`` clauses.
    """
    if endpoint:
        import time

        from kg.remote import QUERY_TIMEOUT, RemoteStore

        limit = QUERY_TIMEOUT if timeout is None else timeout
        return RemoteStore(endpoint, user=user, password=password, timeout=limit,
                           deadline=time.monotonic() + limit)
    return EmbeddedStore(Path(store) if store else Path(from_dir) / STORE_DIR,
                         allow_service=allow_service)


# --------------------------------------------------------------- load_graph

_SUFFIX_FORMATS = {".ttl": "turtle", ".nt": "nt", ".jsonld": "json-ld", ".json": "json-ld"}


def load_graph(path: str | Path = "output") -> "rdflib.Graph":
    """The graph of a build as an :class:`rdflib.Graph`, with the kg prefixes bound.

    Parameters
    ----------
    path : str or Path
        A build folder (reads its ``graph.nt`` or ``graph.ttl``, else its
        ``store/``), a store folder, or a ``.ttl``, ``.nt`` or ``.jsonld`` file.

    Raises
    ------
    kg.errors.StoreError
        If there is no graph at ``path``.

    Examples
    --------
    >>> import kg
    >>> g = kg.load_graph("output")  # doctest: +SKIP
    >>> len(g)  # doctest: +SKIP
    """
    import pyoxigraph as ox

    from kg.rdf import ntriples_to_rdflib

    p = Path(path)
    if p.is_dir():
        for name in ("graph.nt", "graph.ttl"):
            if (p / name).is_file():
                return load_graph(p / name)
        store_dir = p / STORE_DIR if (p / STORE_DIR / "CURRENT").is_file() else p
        with EmbeddedStore(store_dir) as st:
            return ntriples_to_rdflib(st.triples())
    if not p.is_file():
        raise StoreError(f"{p}: no graph here (run 'kg build' first)")
    fmt = _SUFFIX_FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise StoreError(f"{p}: unknown RDF file type (expected .ttl, .nt or .jsonld)")
    if fmt == "json-ld":
        import rdflib

        from kg.vocab import PREFIXES

        g = rdflib.Graph()
        for prefix, ns in PREFIXES.items():
            g.bind(prefix, ns, replace=True)
        try:
            return g.parse(str(p), format="json-ld")
        except Exception as exc:  # rdflib raises many kinds
            raise StoreError(f"{p}: cannot read JSON-LD: {_one_line(exc)}") from None
    rdf_format = ox.RdfFormat.TURTLE if fmt == "turtle" else ox.RdfFormat.N_TRIPLES
    try:
        return ntriples_to_rdflib(ox.parse(path=str(p), format=rdf_format))
    except SyntaxError as exc:
        raise StoreError(f"{p}: {_one_line(exc)}") from None
