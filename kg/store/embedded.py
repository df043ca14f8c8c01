"""The embedded store: a pyoxigraph (Oxigraph, RocksDB on disk) store in a build folder.

``kg build`` bulk-loads the graph into ``output/store/`` through a
:class:`StoreBuilder` (written beside the old store and renamed over it, so
an interrupted build never leaves half a store), and ``kg query`` opens it
read-only with :class:`EmbeddedStore`, so nothing is parsed again. It offers
the :class:`kg.store.sparql.SparqlStore` API: parameters are substituted by the
engine itself, never pasted into the query text.
"""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import QueryError, StoreError
from kg.store.sparql import QueryResult, from_oxigraph, to_term
from kg.store.sparql_text import check_parameters, uses_service, with_bindings
from kg.util.fsio import fresh_dir

if TYPE_CHECKING:  # pragma: no cover
    import pyoxigraph

__all__ = ["EmbeddedStore", "StoreBuilder", "refuse_service", "run_query"]



def error_text(exc: BaseException) -> str:
    """An exception's message on one line (its type name when it has none).

    >>> error_text(ValueError("bad\\n  thing"))
    'bad thing'
    """
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


_UNPROJECTED = re.compile(r"variable [?$](\w+) in its \w* ?projection")


def run_query(store: pyoxigraph.Store, sparql: str, bindings: Mapping[str, Any] | None = None
              ) -> QueryResult:
    """Run ``sparql`` on a pyoxigraph ``Store`` with ``bindings`` given to the engine.

    A projected variable is substituted by the engine; one the query uses
    without projecting it (which the engine's substitution refuses) is bound
    by a ``VALUES`` clause instead (:func:`kg.store.sparql_text.with_bindings`),
    which means the same: the variable has that value everywhere. A name
    that is no variable of the query raises :class:`QueryError`.
    """
    import pyoxigraph as ox

    terms = {k: to_term(v) for k, v in (bindings or {}).items()}
    check_parameters(sparql, terms)
    inline: dict[str, Any] = {}
    while True:
        subs: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {
            ox.Variable(k): t for k, t in terms.items() if k not in inline}
        text = with_bindings(sparql, inline) if inline else sparql
        try:
            return from_oxigraph(store.query(text, substitutions=subs or None))
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {error_text(exc)}") from None
        except RuntimeError as exc:
            msg = error_text(exc)
            m = _UNPROJECTED.search(msg)
            if m and m[1] in terms and m[1] not in inline:
                inline[m[1]] = terms[m[1]]
                continue
            if "projection" in msg:
                raise QueryError(f"parameter not used by the query: {msg}") from None
            if "read-write" in msg or "Transaction" in msg:
                raise QueryError("the store is read-only: updates are not allowed") from None
            raise QueryError(f"query failed: {msg}") from None
        except OSError as exc:
            raise StoreError(f"store read failed: {error_text(exc)}") from None


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
            if self.path is None:
                self._store = ox.Store()
            elif read_only:
                if not (self.path / "CURRENT").is_file():
                    raise StoreError(f"{self.path}: no store here (run 'kg build' first)")
                self._store = ox.Store.read_only(str(self.path))
            else:
                self._store = ox.Store(str(self.path))
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the store: {error_text(exc)}") from None

    # -- building
    @classmethod
    def create(cls, path: str | Path, ntriples: bytes | str | Path, *,
               optimize: bool = False, lenient: bool = False) -> EmbeddedStore:
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
    def memory(cls, ntriples: bytes | str | Path = b"") -> EmbeddedStore:
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
            raise StoreError(f"invalid N-Triples: {error_text(exc)}") from None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot write the store: {error_text(exc)}") from None

    def optimize(self) -> None:
        """Compact the store's files (after a bulk load)."""
        try:
            self._store.optimize()
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot optimize the store: {error_text(exc)}") from None

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
            del self._store, st

    def __enter__(self) -> EmbeddedStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- for exporters
    def triples(self) -> Iterator[pyoxigraph.Quad]:
        """Every triple of the default graph (pyoxigraph quads)."""
        yield from self._store

    def dump_ntriples(self) -> bytes:
        import pyoxigraph as ox

        data = self._store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
        if data is None:  # pyoxigraph returns None only when it wrote to an output
            raise StoreError("pyoxigraph gave no N-Triples")
        return data

    @property
    def oxigraph(self) -> pyoxigraph.Store:
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

    def __enter__(self) -> StoreBuilder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abort()
