"""A remote SPARQL 1.1 endpoint behind the store API: :class:`RemoteStore`.

:class:`RemoteStore` offers what :class:`kg.store.embedded.EmbeddedStore` offers
(``query(sparql, bindings)``, ``count()``, ``close()``) over any SPARQL 1.1
endpoint (Virtuoso, Fuseki, QLever, Oxigraph server, ...), speaking the SPARQL
1.1 Protocol (HTTP POST through :class:`kg.store.http.HttpClient`) and reading
SPARQL JSON results into the same :class:`kg.store.sparql.QueryResult`, so ``kg
query`` prints the same text whatever the store.

Parameters are never pasted into the query text as strings. SPARQL 1.1 has
no protocol for bindings, so each bound variable gets a ``VALUES`` clause at
the start of every group graph pattern (:func:`kg.store.sparql_text.with_bindings`),
with the value written as an RDF term (escaped literal, validated IRI). That
gives the engine-side substitution of the embedded store the same meaning:
the variable is bound everywhere.

Credentials come from arguments or ``KG_SPARQL_USER`` / ``KG_SPARQL_PASSWORD``.
"""
from __future__ import annotations

import os
import time
import urllib.parse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from kg.errors import QueryError, StoreError
from kg.store.http import (
    MAX_RESPONSE,
    HttpClient,
    HttpRefused,
    Timeouts,
    check_endpoint,
    public_url,
)
from kg.store.registry import newest, version_lookup
from kg.store.sparql import QueryResult, from_oxigraph
from kg.store.sparql_text import check_parameters, sparql_term, with_bindings
from kg.util.safetext import one_line

if TYPE_CHECKING:
    import pyoxigraph as ox

__all__ = ["QUERY_TIMEOUT", "RemoteStore", "graph_node", "graph_store_candidates"]

QUERY_TIMEOUT = 120.0  # seconds a query may take in all (kg query --timeout)
_ACCEPT = ("application/sparql-results+json, application/n-triples;q=0.9, "
           "text/turtle;q=0.8, application/rdf+xml;q=0.5")


def _credentials(user: str | None, password: str | None) -> tuple[str | None, str | None]:
    user = user if user is not None else os.environ.get("KG_SPARQL_USER") or None
    password = password if password is not None else os.environ.get("KG_SPARQL_PASSWORD")
    return user, password


class RemoteStore:
    """A SPARQL 1.1 endpoint with the :class:`kg.store.sparql.SparqlStore` API.

    Parameters
    ----------
    endpoint : str
        The query URL (``http://host:8890/sparql`` for Virtuoso,
        ``http://host:3030/ds/sparql`` for Fuseki, ``http://host:7878/query``
        for Oxigraph).
    update_endpoint : str, optional
        Where SPARQL Update goes; default ``KG_SPARQL_UPDATE_URL``, else the
        endpoint with a trailing ``/query`` made ``/update``, else the endpoint.
    graph_store : str, optional
        The Graph Store Protocol URL; default ``KG_SPARQL_GRAPH_STORE_URL``,
        else guessed from the endpoint (see :func:`graph_store_candidates`).
    user, password : str, optional
        Credentials (default ``KG_SPARQL_USER`` / ``KG_SPARQL_PASSWORD``).
    graph : str, optional
        Query and count only this named graph (``default-graph-uri``).
    timeout : float
        Seconds one request may take in all, retries included (connecting,
        sending, waiting and reading).
    retries : int
        Extra attempts after a transient failure, waiting ``backoff * 2**i``
        (only while the time limit leaves room).
    connect_timeout, read_timeout : float
        Seconds to wait for a connection, and for the server's next bytes
        (``None``: as long as ``timeout`` allows; a query may compute in silence).
    deadline : float, optional
        A :func:`time.monotonic` instant no request may outlast (a command's
        overall limit).

    Raises
    ------
    kg.errors.StoreError
        At once, when a URL is not a usable http(s) URL.
    """

    def __init__(self, endpoint: str, *, update_endpoint: str | None = None,
                 graph_store: str | None = None, user: str | None = None,
                 password: str | None = None, graph: str | None = None,
                 timeout: float = 120.0, retries: int = 4, backoff: float = 0.5,
                 sleep: Callable[[float], None] = time.sleep,
                 connect_timeout: float = 30.0, read_timeout: float | None = None,
                 deadline: float | None = None, max_response: int = MAX_RESPONSE) -> None:
        endpoint = check_endpoint(endpoint)
        p = urllib.parse.urlsplit(endpoint)
        if p.username is not None:  # credentials in the URL: take them, never show them
            user = user if user is not None else urllib.parse.unquote(p.username)
            password = password if password is not None else urllib.parse.unquote(p.password or "")
            endpoint = urllib.parse.urlunsplit((p.scheme, public_url(endpoint).split("/", 3)[2],
                                                p.path, p.query, ""))
        self.endpoint = endpoint
        env_update = os.environ.get("KG_SPARQL_UPDATE_URL")
        explicit_update = update_endpoint or env_update
        self.update_explicit = bool(explicit_update)
        self.update_endpoint = check_endpoint(explicit_update, "update") \
            if explicit_update else (
            endpoint[: -len("/query")] + "/update" if p.path.endswith("/query") else endpoint)
        gs = graph_store or os.environ.get("KG_SPARQL_GRAPH_STORE_URL") or None
        self.graph_store = check_endpoint(gs, "graph store") if gs else None
        if timeout <= 0:
            raise StoreError(f"the time limit must be more than 0 s (got {timeout:g})")
        user, password = _credentials(user, password)
        self.has_credentials = user is not None
        self.graph = graph
        self._plain = False  # the graph is no pushed graph with versions
        self.http = HttpClient(user, password, Timeouts(min(connect_timeout, timeout), read_timeout,
                                                    timeout),
                           retries, backoff, sleep, deadline, max_response)

    def __repr__(self) -> str:
        return f"RemoteStore({public_url(self.endpoint)!r})"

    # -- the SparqlStore API
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> QueryResult:
        """Run a query; ``bindings`` (name -> RDF term) become ``VALUES`` clauses.

        A name that is no variable of the query raises :class:`QueryError`.
        """
        check_parameters(sparql, bindings or ())
        return self._send(with_bindings(sparql, bindings), self._read_graph())

    def _read_graph(self) -> str | None:
        """The graph queries read: :attr:`graph`, or the newest version graph a
        Virtuoso push loaded it into (:mod:`kg.store.registry`). A graph no push
        registered is remembered as plain, so it costs one lookup per store."""
        if not self.graph or self._plain:
            return self.graph
        graph_node(self.graph)  # a one-line error for a graph name that is no IRI
        found = self._send(version_lookup(self.graph), None)
        version = newest(str(row[0].value) for row in found.rows if row and row[0] is not None)
        if version is None:
            self._plain = True
            return self.graph
        return version

    def _send(self, text: str, graph: str | None) -> QueryResult:
        form = {"query": text}
        if graph:
            form["default-graph-uri"] = graph
        try:
            _, ctype, body = self.http.request(
                "POST", self.endpoint, urllib.parse.urlencode(form).encode("utf-8"),
                {"Content-Type": "application/x-www-form-urlencoded", "Accept": _ACCEPT},
                "the query")
        except HttpRefused as exc:
            if exc.code == 400 or (exc.code == 500 and "refused the query (HTTP 500)" in str(exc)):
                raise QueryError(str(exc)) from None
            raise
        return _parse_results(body, ctype, public_url(self.endpoint))

    def count(self) -> int:
        """The number of triples (in :attr:`graph`, or all the endpoint's default graph)."""
        r = self.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        return int(r.rows[0][0].value)

    def graph_count(self, graph: str) -> int:
        """The number of triples in the named graph ``graph``."""
        r = self.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {sparql_term(graph_node(graph))} "
                       "{ ?s ?p ?o } }")
        return int(r.rows[0][0].value)

    def update(self, sparql_update: str, *, url: str | None = None, what: str = "the update",
               total: float | None = None, retries: int | None = None,
               read: float | None | Literal["default"] = "default") -> None:
        """Send a SPARQL Update request (to ``url``, default :attr:`update_endpoint`).

        ``total``, ``retries`` and ``read`` go to the HTTP client.
        """
        self.http.request("POST", url or self.update_endpoint,
                           urllib.parse.urlencode({"update": sparql_update}).encode("utf-8"),
                           {"Content-Type": "application/x-www-form-urlencoded",
                            "Accept": "*/*"}, what, total=total, retries=retries, read=read)

    def update_candidates(self) -> list[str]:
        """Where SPARQL Update may go, most likely first.

        The configured URL alone when one was given; else, for Virtuoso's
        ``/sparql`` with credentials, ``/sparql-auth`` first (the anonymous
        endpoint cannot write), and Fuseki's ``/update`` beside ``/sparql``.
        """
        if self.update_explicit:
            return [self.update_endpoint]
        p = urllib.parse.urlsplit(self.endpoint)
        base, _, last = p.path.rstrip("/").rpartition("/")

        def at(path: str) -> str:
            return urllib.parse.urlunsplit((p.scheme, p.netloc, path, p.query, ""))

        out = []
        if last == "sparql" and self.has_credentials:
            out.append(at(f"{base}/sparql-auth"))
        out.append(self.update_endpoint)
        if last == "sparql":
            out.append(at(f"{base}/update"))
        return list(dict.fromkeys(out))

    def close(self) -> None:
        """Nothing to release (each request is its own connection)."""

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def graph_store_candidates(endpoint: str, with_auth: bool) -> list[str]:
    """Likely Graph Store Protocol URLs for a query endpoint, most likely first.

    Virtuoso ``/sparql`` -> ``/sparql-graph-crud-auth`` (with credentials) or
    ``/sparql-graph-crud``; Fuseki ``/ds/sparql``, ``/ds/query`` -> ``/ds/data``;
    Oxigraph ``/query`` -> ``/store``.
    """
    p = urllib.parse.urlsplit(endpoint)
    base, _, last = p.path.rstrip("/").rpartition("/")

    def at(path: str) -> str:
        return urllib.parse.urlunsplit((p.scheme, p.netloc, path, "", ""))

    out: list[str] = []
    if last in ("sparql", "sparql-auth"):
        out.append(at(f"{base}/sparql-graph-crud-auth" if with_auth or last == "sparql-auth"
                      else f"{base}/sparql-graph-crud"))
    if last in ("sparql", "query", "update"):
        out.append(at(f"{base}/data"))
    if last == "query":
        out.append(at(f"{base}/store"))
    return out


def graph_node(text: str) -> ox.NamedNode:
    """A graph IRI as a pyoxigraph term; a one-line StoreError if it is not a valid IRI."""
    import pyoxigraph as ox

    try:
        return ox.NamedNode(text)
    except ValueError:
        raise StoreError(f"not a valid graph IRI: {text!r}") from None


def _parse_results(body: bytes, ctype: str, where: str) -> QueryResult:
    import pyoxigraph as ox

    mime = ctype.split(";")[0].strip().lower()
    try:
        if mime in ("application/sparql-results+json", "application/json"):
            res = ox.parse_query_results(body, format=ox.QueryResultsFormat.JSON)
        elif mime in ("application/sparql-results+xml", "application/xml"):
            res = ox.parse_query_results(body, format=ox.QueryResultsFormat.XML)
        else:
            fmt = {"application/n-triples": ox.RdfFormat.N_TRIPLES,
                   "text/plain": ox.RdfFormat.N_TRIPLES, "text/turtle": ox.RdfFormat.TURTLE,
                   "application/rdf+xml": ox.RdfFormat.RDF_XML}.get(mime)
            if fmt is None:
                raise StoreError(f"{where}: unexpected answer of type {mime or 'unknown'!r}")
            return QueryResult("graph", triples=tuple(ox.parse(body, format=fmt)))
    except SyntaxError as exc:
        raise StoreError(f"{where}: unreadable results: {one_line(str(exc))}") from None
    return from_oxigraph(res)
