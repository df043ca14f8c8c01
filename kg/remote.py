"""Remote SPARQL 1.1 endpoints behind the store API, and ``kg push``.

:class:`RemoteStore` offers what :class:`kg.store.EmbeddedStore` offers
(``query(sparql, bindings)``, ``count()``, ``close()``) over any SPARQL 1.1
endpoint (Virtuoso, Fuseki, QLever, Oxigraph server, ...), speaking the SPARQL
1.1 Protocol (HTTP POST) and reading SPARQL JSON results into the same
:class:`kg.store.QueryResult`, so ``kg query`` prints the same text whatever
the store.

Parameters are never pasted into the query text as strings. SPARQL 1.1 has
no protocol for bindings, so each bound variable gets a ``VALUES`` clause at
the start of every group graph pattern, with the value written as an RDF
term (escaped literal, validated IRI). That gives the engine-side substitution
of the embedded store the same meaning: the variable is bound everywhere.

:func:`push` loads a build's graph into a named graph: by the SPARQL 1.1
Graph Store HTTP Protocol where the server offers it (the first batch is a
``PUT``, which replaces the graph; later batches are ``POST``), otherwise by
SPARQL Update (``CLEAR SILENT GRAPH`` then ``INSERT DATA`` in batches). Both
replace the graph, so pushing twice leaves the same triples.

Credentials come from arguments or ``KG_SPARQL_USER`` / ``KG_SPARQL_PASSWORD``
and are sent by HTTP Basic or Digest auth, whichever the server asks for;
they never appear in messages. Transient failures (connection refused or
reset, timeouts, HTTP 5xx other than 501) are retried with exponential
backoff; a refusal becomes a one-line :class:`kg.errors.StoreError`.
"""
from __future__ import annotations

import http.client
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from kg.errors import QueryError, StoreError
from kg.store import QueryResult, to_term

__all__ = ["RemoteStore", "push", "run_query_remote", "sparql_term", "with_bindings",
           "graph_store_candidates", "DEFAULT_GRAPH"]

DEFAULT_GRAPH = "https://w3id.org/paper-kg/graph"
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_ACCEPT = ("application/sparql-results+json, application/n-triples;q=0.9, "
           "text/turtle;q=0.8, application/rdf+xml;q=0.5")
_USER_AGENT = "kg (https://w3id.org/paper-kg)"


# ------------------------------------------------------------------ terms

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t",
            "\b": "\\b", "\f": "\\f"}


def sparql_term(value: Any) -> str:
    """An RDF term (or Python value, see :func:`kg.store.to_term`) in SPARQL syntax.

    Literals are quoted with every quote, backslash and control character
    escaped, so the text can only ever be one term; IRIs are validated by
    pyoxigraph (no ``>``, spaces or quotes can be in one).

    >>> sparql_term('x" } ; DROP ALL ; #')
    '"x\\\\" } ; DROP ALL ; #"'
    >>> sparql_term(3)
    '"3"^^<http://www.w3.org/2001/XMLSchema#integer>'
    """
    import pyoxigraph as ox

    term = to_term(value)
    if isinstance(term, ox.NamedNode):
        return f"<{term.value}>"
    if isinstance(term, ox.BlankNode):
        raise QueryError("a blank node cannot be a parameter value")
    text = "".join(_ESCAPES.get(c, c if ord(c) >= 0x20 and c != "\x7f" else f"\\u{ord(c):04X}")
                   for c in term.value)
    lit = f'"{text}"'
    if term.language:
        return f"{lit}@{term.language}"
    if term.datatype.value == _XSD_STRING:  # RDF 1.1: the same term; servers agree on this form
        return lit
    return f"{lit}^^<{term.datatype.value}>"


_IRI = re.compile(r'<[^<>"{}|^`\\\x00-\x20]*>')
_STRING = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
                     r'|"(?:[^"\\\n\r]|\\.)*"|\'(?:[^\'\\\n\r]|\\.)*\'', re.S)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def with_bindings(sparql: str, bindings: Mapping[str, Any] | None) -> str:
    """``sparql`` with ``bindings`` as a ``VALUES`` clause opening every group pattern.

    Strings, IRIs and comments of the query are skipped, as are ``VALUES``
    data blocks and ``CONSTRUCT`` templates. The values are written by
    :func:`sparql_term`; a variable name must be a plain SPARQL name.

    >>> with_bindings('SELECT ?a WHERE { ?s ?p ?a }', {"a": "x"})
    'SELECT ?a WHERE { VALUES (?a) { ("x") } ?s ?p ?a }'
    """
    if not bindings:
        return sparql
    names = list(bindings)
    for n in names:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n):
            raise QueryError(f"not a parameter name: {n!r}")
    clause = (" VALUES (" + " ".join(f"?{n}" for n in names) + ") { ("
              + " ".join(sparql_term(bindings[n]) for n in names) + ") }")
    out: list[str] = []
    i, n = 0, len(sparql)
    skip_next_brace = False
    while i < n:
        c = sparql[i]
        if c == "#":
            j = sparql.find("\n", i)
            j = n if j < 0 else j
            out.append(sparql[i:j])
            i = j
            continue
        if c in "\"'":
            m = _STRING.match(sparql, i)
            if m:
                out.append(m.group())
                i = m.end()
                continue
        if c == "<":
            m = _IRI.match(sparql, i)
            if m:
                out.append(m.group())
                i = m.end()
                continue
        if c in "?$":
            m = _WORD.match(sparql, i + 1)
            if m:
                out.append(sparql[i:m.end()])
                i = m.end()
                continue
        if c.isalpha():
            m = _WORD.match(sparql, i)
            word = m.group()
            if word.upper() in ("VALUES", "CONSTRUCT") and (i == 0 or not sparql[i - 1] in ":"):
                skip_next_brace = True
            out.append(word)
            i = m.end()
            continue
        out.append(c)
        i += 1
        if c == "{":
            if skip_next_brace:  # a VALUES data block or a CONSTRUCT template: copy to its end
                skip_next_brace = False
                j = i
                while j < n and sparql[j] != "}":
                    m = _STRING.match(sparql, j) if sparql[j] in "\"'" else None
                    if m:
                        j = m.end()
                        continue
                    m = _IRI.match(sparql, j) if sparql[j] == "<" else None
                    j = m.end() if m else j + 1
                out.append(sparql[i:j])
                i = j
            elif not _SUBQUERY_AHEAD.match(sparql, i):
                # a group that holds a subquery holds nothing else; the
                # subquery's own WHERE group gets the clause instead
                out.append(clause)
    return "".join(out)


_SUBQUERY_AHEAD = re.compile(r"\s*(?:#[^\n]*\n\s*)*SELECT\b", re.I)


# ------------------------------------------------------------------ HTTP

def _one_line(text: str, limit: int = 200) -> str:
    text = re.sub(r"<[^>]*>", " ", text)  # servers answer errors in HTML too
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _public_url(url: str) -> str:
    """``url`` without user info or query string (never show credentials)."""
    p = urllib.parse.urlsplit(url)
    host = p.hostname or ""
    if p.port:
        host = f"{host}:{p.port}"
    return urllib.parse.urlunsplit((p.scheme, host, p.path, "", ""))


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, urllib.error.HTTPError):
        return exc.code in (500, 502, 503, 504, 429)
    if isinstance(exc, urllib.error.URLError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    return isinstance(exc, (ConnectionError, socket.timeout, TimeoutError,
                            http.client.RemoteDisconnected, http.client.IncompleteRead))


def _not_transient_500(body: str) -> bool:
    """A 500 that is really the server rejecting the request (Virtuoso answers syntax errors so)."""
    return bool(re.search(r"\b(37000|42000|22023|SP0\d\d|syntax|parse error)", body, re.I))


class _Http:
    """One endpoint family's HTTP client: auth, retries, error translation."""

    def __init__(self, user: str | None, password: str | None, timeout: float,
                 retries: int, backoff: float, sleep: Callable[[float], None] = time.sleep):
        handlers: list = []
        if user is not None:
            mgr = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            self._mgr = mgr
            handlers = [urllib.request.HTTPDigestAuthHandler(mgr),
                        urllib.request.HTTPBasicAuthHandler(mgr)]
        self._user, self._password = user, password
        self._opener = urllib.request.build_opener(*handlers)
        self.timeout, self.retries, self.backoff, self._sleep = timeout, retries, backoff, sleep

    def request(self, method: str, url: str, body: bytes | None, headers: Mapping[str, str],
                what: str) -> tuple[int, str, bytes]:
        """Send, retrying transient failures; returns (status, content type, body)."""
        if self._user is not None:
            self._mgr.add_password(None, url, self._user, self._password or "")
        where = _public_url(url)
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(url, data=body, method=method,
                                         headers={"User-Agent": _USER_AGENT, **headers})
            try:
                with self._opener.open(req, timeout=self.timeout) as resp:
                    return resp.status, resp.headers.get("Content-Type", ""), resp.read()
            except urllib.error.HTTPError as exc:
                text = _read_error(exc)
                if (_transient(exc) and attempt < self.retries
                        and not (exc.code == 500 and _not_transient_500(text))):
                    self._sleep(self.backoff * 2 ** attempt)
                    continue
                raise _HttpRefused(exc.code, where, what, text) from None
            except ValueError:  # urllib: the auth handlers gave up on the server's challenge
                raise _HttpRefused(401, where, what, "") from None
            except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
                if _transient(exc) and attempt < self.retries:
                    self._sleep(self.backoff * 2 ** attempt)
                    continue
                reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
                raise StoreError(f"{where}: cannot reach the server "
                                 f"({_one_line(str(reason)) or type(reason).__name__})") from None
        raise AssertionError("unreachable")  # pragma: no cover


def _read_error(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read().decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - the body is only for the message
        return ""


class _HttpRefused(StoreError):
    """The server answered with an error status (kept apart so push can fall back)."""

    def __init__(self, code: int, where: str, what: str, text: str) -> None:
        self.code = code
        msg = _one_line(text)
        if code in (401, 403):
            head = f"{where}: the server refused {what} ({code}: wrong or missing credentials; " \
                   "give --user/--password or KG_SPARQL_USER/KG_SPARQL_PASSWORD)"
        else:
            head = f"{where}: the server refused {what} (HTTP {code})"
        super().__init__(f"{head}: {msg}" if msg and code not in (401, 403) else head)


# ------------------------------------------------------------------ the store

def _credentials(user: str | None, password: str | None) -> tuple[str | None, str | None]:
    user = user if user is not None else os.environ.get("KG_SPARQL_USER") or None
    password = password if password is not None else os.environ.get("KG_SPARQL_PASSWORD")
    return user, password


class RemoteStore:
    """A SPARQL 1.1 endpoint with the :class:`kg.store.SparqlStore` API.

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
        Seconds per HTTP request.
    retries : int
        Extra attempts after a transient failure, waiting ``backoff * 2**i``.
    """

    def __init__(self, endpoint: str, *, update_endpoint: str | None = None,
                 graph_store: str | None = None, user: str | None = None,
                 password: str | None = None, graph: str | None = None,
                 timeout: float = 120.0, retries: int = 4, backoff: float = 0.5,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        p = urllib.parse.urlsplit(endpoint)
        if p.scheme not in ("http", "https") or not p.hostname:
            raise StoreError(f"not an http(s) SPARQL endpoint URL: {_public_url(endpoint)!r}")
        if p.username is not None:  # credentials in the URL: take them, never show them
            user = user if user is not None else urllib.parse.unquote(p.username)
            password = password if password is not None else urllib.parse.unquote(p.password or "")
            endpoint = urllib.parse.urlunsplit((p.scheme, _public_url(endpoint).split("/", 3)[2],
                                                p.path, p.query, ""))
        self.endpoint = endpoint
        env_update = os.environ.get("KG_SPARQL_UPDATE_URL")
        self.update_endpoint = update_endpoint or env_update or (
            endpoint[: -len("/query")] + "/update" if p.path.endswith("/query") else endpoint)
        self.graph_store = graph_store or os.environ.get("KG_SPARQL_GRAPH_STORE_URL") or None
        user, password = _credentials(user, password)
        self.has_credentials = user is not None
        self.graph = graph
        self._http = _Http(user, password, timeout, retries, backoff, sleep)

    def __repr__(self) -> str:
        return f"RemoteStore({_public_url(self.endpoint)!r})"

    # -- the SparqlStore API
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> QueryResult:
        """Run a query; ``bindings`` (name -> RDF term) become ``VALUES`` clauses."""
        text = with_bindings(sparql, bindings)
        form = {"query": text}
        if self.graph:
            form["default-graph-uri"] = self.graph
        try:
            _, ctype, body = self._http.request(
                "POST", self.endpoint, urllib.parse.urlencode(form).encode("utf-8"),
                {"Content-Type": "application/x-www-form-urlencoded", "Accept": _ACCEPT},
                "the query")
        except _HttpRefused as exc:
            if exc.code == 400 or (exc.code == 500 and "refused the query (HTTP 500)" in str(exc)):
                raise QueryError(str(exc)) from None
            raise
        return _parse_results(body, ctype, _public_url(self.endpoint))

    def count(self) -> int:
        """The number of triples (in :attr:`graph`, or all the endpoint's default graph)."""
        r = self.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        return int(r.rows[0][0].value)

    def graph_count(self, graph: str) -> int:
        """The number of triples in the named graph ``graph``."""
        r = self.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {sparql_term(_iri(graph))} "
                       "{ ?s ?p ?o } }")
        return int(r.rows[0][0].value)

    def update(self, sparql_update: str) -> None:
        """Send a SPARQL Update request."""
        self._http.request("POST", self.update_endpoint,
                           urllib.parse.urlencode({"update": sparql_update}).encode("utf-8"),
                           {"Content-Type": "application/x-www-form-urlencoded",
                            "Accept": "*/*"}, "the update")

    def close(self) -> None:
        """Nothing to release (each request is its own connection)."""

    def __enter__(self) -> "RemoteStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _iri(text: str):
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
        raise StoreError(f"{where}: unreadable results: {_one_line(str(exc))}") from None
    if isinstance(res, ox.QueryBoolean):
        return QueryResult("ask", boolean=bool(res))
    names = tuple(v.value for v in res.variables)
    return QueryResult("select", variables=names,
                       rows=tuple(tuple(sol[i] for i in range(len(names))) for sol in res))


def run_query_remote(endpoint: str, name_or_sparql: str, params: Mapping[str, Any] | None = None,
                     fmt: str = "table", user: str | None = None,
                     password: str | None = None) -> str:
    """``kg query --endpoint URL``: run a named query, ``.rq`` file or SPARQL text remotely.

    Returns the text ``kg query`` prints, in ``fmt`` (as for the embedded store).
    """
    from kg import queries
    from kg.results import format_result

    query = queries.resolve(name_or_sparql)
    queries.bind(query, params)  # a bad parameter fails before any request
    with RemoteStore(endpoint, user=user, password=password) as store:
        return format_result(queries.run(store, query, params), fmt)


# ------------------------------------------------------------------ push

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


def _graph_source(path: str | Path) -> Path:
    p = Path(path)
    if p.is_dir():
        for name in ("graph.nt", "graph.ttl"):
            if (p / name).is_file():
                return p / name
        if (p / "store" / "CURRENT").is_file():
            return p / "store"
        if (p / "CURRENT").is_file():
            return p
        raise StoreError(f"{p}: no graph here (run 'kg build' first)")
    if not p.is_file():
        raise StoreError(f"{p}: no graph here (run 'kg build' first)")
    return p


def _ntriples_lines(source: Path) -> Iterator[tuple[str, bool]]:
    """N-Triples lines of a graph file or store, each with 'has a blank node'."""
    import pyoxigraph as ox

    if source.is_dir():
        from kg.store import EmbeddedStore

        with EmbeddedStore(source) as st:
            quads: Iterable = list(st.triples())
    else:
        fmt = {".nt": ox.RdfFormat.N_TRIPLES, ".ttl": ox.RdfFormat.TURTLE,
               ".jsonld": ox.RdfFormat.JSON_LD}.get(source.suffix.lower())
        if fmt is None:
            raise StoreError(f"{source}: unknown RDF file type (expected .ttl, .nt or .jsonld)")
        try:
            quads = list(ox.parse(path=str(source), format=fmt))
        except SyntaxError as exc:
            raise StoreError(f"{source}: {' '.join(str(exc).split())}") from None
    for q in quads:
        bnode = isinstance(q.subject, ox.BlankNode) or isinstance(q.object, ox.BlankNode)
        yield f"{q.subject} {q.predicate} {q.object} .\n", bnode


def _batches(lines: list[tuple[str, bool]], size: int) -> list[str]:
    """Batches of at most ``size`` triples; triples with blank nodes all in the last one.

    A blank node label means one node only within one request, so the
    triples that share blank nodes must travel together.
    """
    plain = [t for t, b in lines if not b]
    blank = [t for t, b in lines if b]
    out = ["".join(plain[i:i + size]) for i in range(0, len(plain), size)]
    if blank:
        out.append("".join(blank))
    return out or [""]


def push(graph_file_or_build_dir: str | Path, endpoint: str, graph_iri: str | None = None,
         user: str | None = None, password: str | None = None, *, batch_triples: int = 20000,
         method: str = "auto", update_endpoint: str | None = None,
         graph_store: str | None = None, progress: bool | None = None,
         retries: int = 4, timeout: float = 300.0) -> dict:
    """Load a build's graph into the named graph ``graph_iri``, replacing what was there.

    Parameters
    ----------
    graph_file_or_build_dir : str or Path
        A build folder (its ``graph.nt``, ``graph.ttl`` or ``store/``) or an
        RDF file (``.nt``, ``.ttl``, ``.jsonld``).
    endpoint : str
        The server's SPARQL query URL (for Virtuoso ``.../sparql`` or
        ``.../sparql-auth``).
    graph_iri : str, optional
        The named graph (default :data:`DEFAULT_GRAPH`).
    user, password : str, optional
        Credentials (default ``KG_SPARQL_USER`` / ``KG_SPARQL_PASSWORD``).
    batch_triples : int
        Triples per request.
    method : {"auto", "graph-store", "update"}
        ``auto`` uses the Graph Store Protocol when the server offers it.
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).

    Returns
    -------
    dict
        ``graph``, ``triples`` (sent), ``method`` used, ``requests`` made and
        ``count`` (triples in the graph afterwards, as the server counts).

    Raises
    ------
    kg.errors.StoreError
        When the graph cannot be read, the server cannot be reached or refuses.
    """
    if method not in ("auto", "graph-store", "update"):
        raise StoreError(f"unknown push method {method!r}")
    if batch_triples < 1:
        raise StoreError("batch size must be at least one triple")
    graph_iri = graph_iri or DEFAULT_GRAPH
    graph_term = sparql_term(_iri(graph_iri))
    source = _graph_source(graph_file_or_build_dir)
    lines = list(_ntriples_lines(source))
    batches = _batches(lines, batch_triples)
    store = RemoteStore(endpoint, update_endpoint=update_endpoint, graph_store=graph_store,
                        user=user, password=password, retries=retries, timeout=timeout)
    show = sys.stderr.isatty() if progress is None else progress

    with _Bar(show, len(lines), f"pushing to {_public_url(endpoint)}") as bar:
        used = None
        if method in ("auto", "graph-store"):
            urls = ([store.graph_store] if store.graph_store else
                    graph_store_candidates(store.endpoint, store.has_credentials))
            for url in urls:
                if _gsp_push(store, url, graph_iri, batches, bar, probe=method == "auto"):
                    used = "graph-store"
                    break
            if used is None and method == "graph-store":
                raise StoreError(f"{_public_url(endpoint)}: no SPARQL Graph Store endpoint found "
                                 "(set KG_SPARQL_GRAPH_STORE_URL)")
        if used is None:
            store.update(f"CLEAR SILENT GRAPH {graph_term}")
            for batch in batches:
                if batch:
                    store.update(f"INSERT DATA {{ GRAPH {graph_term} {{\n{batch}}} }}")
                bar.advance(batch.count("\n"))
            used = "update"
    count = store.graph_count(graph_iri)
    return {"graph": graph_iri, "triples": len(lines), "method": used,
            "requests": len(batches) + 1, "count": count}


def _gsp_push(store: RemoteStore, url: str, graph_iri: str, batches: list[str], bar,
              probe: bool) -> bool:
    """Send the batches by the Graph Store Protocol; False if ``url`` does not offer it."""
    target = url + ("&" if "?" in url else "?") + urllib.parse.urlencode({"graph": graph_iri})
    headers = {"Content-Type": "text/turtle; charset=utf-8"}
    # An empty PUT first: it empties the graph (the push replaces it anyway), and it
    # finds out cheaply whether the server offers the protocol here and takes the
    # credentials (a server may hang up on a big body it refuses).
    try:
        store._http.request("PUT", target, b"", headers, "the graph upload")
    except _HttpRefused as exc:
        if probe and exc.code in (400, 404, 405, 406, 415, 501):
            return False
        raise
    for batch in batches:  # N-Triples is Turtle, which every Graph Store implementation reads
        if batch:
            store._http.request("POST", target, batch.encode("utf-8"), headers,
                                "the graph upload")
        bar.advance(batch.count("\n"))
    return True


class _Bar:
    """A rich progress bar over triples sent (nothing unless ``show``)."""

    def __init__(self, show: bool, total: int, description: str) -> None:
        self.show, self.total, self.description = show, total, description
        self._progress = None
        self._task = None

    def __enter__(self) -> "_Bar":
        if self.show:
            from rich.progress import Progress

            self._progress = Progress(transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total)
        return self

    def advance(self, n: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()
