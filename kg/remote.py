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

:func:`push` loads a build's graph into a named graph without ever leaving
it half-written: the triples go into a fresh temporary named graph (by the
SPARQL 1.1 Graph Store HTTP Protocol where the server offers it, otherwise by
SPARQL Update ``INSERT DATA`` in batches), and one SPARQL Update ``MOVE``
then puts that graph in place of the old one. A push that fails before the
``MOVE`` leaves the old graph whole, says so, and drops the temporary graph.

Credentials come from arguments or ``KG_SPARQL_USER`` / ``KG_SPARQL_PASSWORD``
and are sent by HTTP Basic or Digest auth, whichever the server asks for;
they never appear in messages. Every request has a deadline (connect, each
read, and in all, retries included; a command can set one more over all its
requests), enforced on every socket operation, so a server that never
answers or drips a byte now and then is given up on in time. Transient
failures (connection refused or reset, timeouts, HTTP 5xx other than 501)
are retried with exponential backoff while time remains; a refusal becomes
a one-line :class:`kg.errors.StoreError` with the server's reason.
"""
from __future__ import annotations

import http.client
import io
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from kg.errors import QueryError, StoreError
from kg.safetext import one_line
from kg.store import QueryResult, to_term

__all__ = ["RemoteStore", "push", "run_query_remote", "sparql_term", "with_bindings",
           "graph_store_candidates", "check_endpoint", "Timeouts", "DEFAULT_GRAPH",
           "PUSH_TIMEOUT", "QUERY_TIMEOUT"]

DEFAULT_GRAPH = "https://w3id.org/paper-kg/graph"
QUERY_TIMEOUT = 120.0  # seconds a query may take in all (kg query --timeout)
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

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _public_url(url: str) -> str:
    """``url`` without user info or query string (never show credentials).

    Also safe on URLs :func:`urllib.parse.urlsplit` cannot read.

    >>> _public_url("http://bob:pw@host:8890/sparql?access-token=t")
    'http://host:8890/sparql'
    >>> _public_url("http://bob:pw@[::1/sparql?t=x")
    'http://[::1/sparql'
    """
    try:
        p = urllib.parse.urlsplit(url)
        host = p.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        if p.port:
            host = f"{host}:{p.port}"
        return urllib.parse.urlunsplit((p.scheme, host, p.path, "", ""))
    except ValueError:  # a malformed URL: strip what could be a secret by hand
        text = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@", r"\1", url)
        return one_line(re.split(r"[?#]", text, maxsplit=1)[0], 120)


def check_endpoint(url: str, what: str = "endpoint") -> str:
    """``url`` if it is an http(s) URL with a host and a valid port; else a one-line StoreError.

    The message shows the URL without user info or query string.

    >>> check_endpoint("http://localhost:8890/sparql")
    'http://localhost:8890/sparql'
    >>> check_endpoint("http://localhost:99999/sparql")
    Traceback (most recent call last):
    ...
    kg.errors.StoreError: not a valid endpoint URL 'http://localhost:99999/sparql': port out of range 0-65535
    """
    shown = _public_url(url)
    if not isinstance(url, str) or not url.strip():
        raise StoreError(f"no {what} URL given")
    if _CONTROL.search(url) or " " in url.strip():
        raise StoreError(f"not a valid {what} URL {shown!r}: it holds spaces or control characters")
    try:
        p = urllib.parse.urlsplit(url.strip())
        port = p.port
    except ValueError as exc:
        raise StoreError(f"not a valid {what} URL {shown!r}: {one_line(str(exc)).lower()}") from None
    if p.scheme.lower() not in ("http", "https"):
        why = "no http:// or https:// at the start" if "://" not in url else \
            f"kg speaks http and https, not {p.scheme or '(none)'}"
        raise StoreError(f"not a valid {what} URL {shown!r}: {why}")
    if not p.hostname:
        raise StoreError(f"not a valid {what} URL {shown!r}: no host name")
    if port == 0:
        raise StoreError(f"not a valid {what} URL {shown!r}: port 0")
    return url.strip()


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


@dataclass(frozen=True)
class Timeouts:
    """How long kg waits for a server, in seconds.

    ``connect``: for a connection; ``read``: for the server's next bytes
    (``None``: as long as ``total`` allows, for queries the server computes
    in silence); ``total``: for one request with all its retries, body
    included. A deadline for a whole command is given apart (see :class:`_Http`).
    """

    connect: float = 30.0
    read: float | None = 30.0
    total: float = 300.0


class _Clock:
    """The deadline of one HTTP attempt, and what it was doing when time ran out."""

    def __init__(self, deadline: float, timeouts: Timeouts) -> None:
        self.deadline, self.timeouts, self.phase = deadline, timeouts, "connect"

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def arm(self, sock: socket.socket) -> None:
        """Set ``sock``'s timeout for the next operation; raise when the deadline has passed."""
        left = self.remaining()
        if left <= 0:
            raise _Expired()
        per = self.timeouts.read
        sock.settimeout(left if per is None else min(per, left))

    def connect_timeout(self) -> float:
        left = self.remaining()
        if left <= 0:
            raise _Expired()
        return min(self.timeouts.connect, left)


class _Expired(socket.timeout):
    """The overall deadline passed (raised before a socket operation)."""


class _DeadlineReader(io.RawIOBase):
    """A socket's read side that re-arms the socket's timeout before every read."""

    def __init__(self, sock: socket.socket, clock: _Clock) -> None:
        self._sock, self._clock = sock, clock
        self._io = sock.makefile("rb", buffering=0)  # holds the socket open, as http.client expects

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        self._clock.arm(self._sock)
        self._clock.phase = "read"
        return self._io.readinto(b)

    def close(self) -> None:
        if not self.closed:
            self._io.close()
        super().close()


class _DeadlineSocket:
    """A connected socket whose every send and read is bounded by a :class:`_Clock`."""

    def __init__(self, sock: socket.socket, clock: _Clock) -> None:
        self._sock, self._clock = sock, clock

    def __getattr__(self, name: str):
        return getattr(self._sock, name)

    def sendall(self, data) -> None:
        view = memoryview(data)
        self._clock.phase = "send"
        for i in range(0, len(view), 65536):
            self._clock.arm(self._sock)
            self._sock.sendall(view[i:i + 65536])
        self._clock.phase = "wait"

    def makefile(self, mode: str = "r", *args, **kwargs):
        if "b" not in mode or "w" in mode:
            return self._sock.makefile(mode, *args, **kwargs)
        return io.BufferedReader(_DeadlineReader(self._sock, self._clock))


def _deadline_handlers(holder: "_Http") -> list:
    """urllib handlers whose connections obey ``holder.clock`` (connect, read and total)."""

    def wrap(base):
        class Connection(base):
            def connect(self) -> None:
                clock = holder.clock
                clock.phase = "connect"
                self.timeout = clock.connect_timeout()
                super().connect()
                self.sock = _DeadlineSocket(self.sock, clock)
                clock.phase = "send"
        return Connection

    http_conn, https_conn = wrap(http.client.HTTPConnection), wrap(http.client.HTTPSConnection)

    class Handler(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(http_conn, req)

    class SecureHandler(urllib.request.HTTPSHandler):
        def https_open(self, req):
            extra = ({"check_hostname": self._check_hostname}  # Python < 3.12 only
                     if getattr(self, "_check_hostname", None) is not None else {})
            return self.do_open(https_conn, req, context=self._context, **extra)

    return [Handler(), SecureHandler()]


class _Http:
    """One endpoint family's HTTP client: auth, deadlines, retries, error translation.

    Every request ends within ``timeouts.total`` seconds, retries included,
    and never after ``deadline`` (a :func:`time.monotonic` instant for the
    whole command), whatever the server does: a socket timeout alone bounds
    each read, not a server that sends a byte now and then.
    """

    def __init__(self, user: str | None, password: str | None, timeouts: Timeouts,
                 retries: int, backoff: float, sleep: Callable[[float], None] = time.sleep,
                 deadline: float | None = None):
        handlers: list = _deadline_handlers(self)
        if user is not None:
            mgr = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            self._mgr = mgr
            handlers += [urllib.request.HTTPDigestAuthHandler(mgr),
                         urllib.request.HTTPBasicAuthHandler(mgr)]
        self._user, self._password = user, password
        self._opener = urllib.request.build_opener(*handlers)
        self.timeouts, self.retries, self.backoff, self._sleep = timeouts, retries, backoff, sleep
        self.deadline = deadline
        self.limit = timeouts.total  # the limit the user set, for messages
        self.clock = _Clock(time.monotonic() + timeouts.total, timeouts)

    def _redact(self, text: str) -> str:
        if self._password:
            text = text.replace(self._password, "***")
        return text

    def request(self, method: str, url: str, body: bytes | None, headers: Mapping[str, str],
                what: str, *, total: float | None = None, retries: int | None = None,
                read: float | None | str = "default") -> tuple[int, str, bytes]:
        """Send, retrying transient failures; returns (status, content type, body)."""
        if self._user is not None:
            self._mgr.add_password(None, url, self._user, self._password or "")
        where = _public_url(url)
        start = time.monotonic()
        limit = self.timeouts.total if total is None else total
        end = start + limit
        if self.deadline is not None:
            end = min(end, self.deadline)
        timeouts = self.timeouts if read == "default" else Timeouts(
            self.timeouts.connect, read, self.timeouts.total)  # type: ignore[arg-type]
        retries = self.retries if retries is None else retries
        attempt = 0
        while True:
            self.clock = clock = _Clock(end, timeouts)
            req = urllib.request.Request(url, data=body, method=method,
                                         headers={"User-Agent": _USER_AGENT, **headers})
            try:
                if clock.remaining() <= 0:
                    raise _Expired()
                with self._opener.open(req, timeout=clock.connect_timeout()) as resp:
                    return resp.status, resp.headers.get("Content-Type", ""), resp.read()
            except urllib.error.HTTPError as exc:
                try:
                    text = self._redact(_read_error(exc))
                finally:
                    exc.close()
                retry = (_transient(exc) and not (exc.code == 500 and _not_transient_500(text)))
                if not (retry and attempt < retries and self._pause(attempt, end)):
                    raise _HttpRefused(exc.code, where, what, text) from None
            except ValueError:  # urllib: the auth handlers gave up on the server's challenge
                raise _HttpRefused(401, where, what, "") from None
            except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
                reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
                if isinstance(reason, socket.timeout) or isinstance(exc, socket.timeout):
                    if time.monotonic() >= end - 0.05 or isinstance(reason, _Expired):
                        raise self._expired(where, what, time.monotonic() - start, attempt) \
                            from None
                    message = (f"{where}: could not connect within {timeouts.connect:g} s"
                               if clock.phase == "connect" else
                               f"{where}: the server sent nothing for "
                               f"{timeouts.read:g} s while kg waited "
                               f"for the answer to {what}")
                else:
                    message = (f"{where}: cannot reach the server "
                               f"({self._redact(one_line(str(reason))) or type(reason).__name__})")
                if not (_transient(exc) and attempt < retries and self._pause(attempt, end)):
                    raise StoreError(message) from None
            attempt += 1

    def _pause(self, attempt: int, end: float) -> bool:
        """Wait before another attempt; False when the wait would not leave time to try."""
        wait = self.backoff * 2 ** attempt
        if time.monotonic() + wait + 0.5 >= end:
            return False
        self._sleep(wait)
        return True

    def _expired(self, where: str, what: str, elapsed: float, attempt: int) -> StoreError:
        tries = f", {attempt + 1} attempts" if attempt else ""
        return StoreError(f"{where}: {what} timed out: no complete answer after {elapsed:.1f} s "
                          f"(the time limit is {self.limit:g} s{tries}; --timeout sets it)")


def _read_error(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read(65536).decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - the body is only for the message
        return ""


class _HttpRefused(StoreError):
    """The server answered with an error status (kept apart so push can fall back)."""

    def __init__(self, code: int, where: str, what: str, text: str) -> None:
        self.code = code
        msg = one_line(text)
        if code in (401, 403):
            head = f"{where}: the server refused {what} ({code}: wrong or missing credentials " \
                   "or rights; give --user/--password or KG_SPARQL_USER/KG_SPARQL_PASSWORD)"
        else:
            head = f"{where}: the server refused {what} (HTTP {code})"
        super().__init__(f"{head}: {msg}" if msg else head)


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
                 deadline: float | None = None) -> None:
        endpoint = check_endpoint(endpoint)
        p = urllib.parse.urlsplit(endpoint)
        if p.username is not None:  # credentials in the URL: take them, never show them
            user = user if user is not None else urllib.parse.unquote(p.username)
            password = password if password is not None else urllib.parse.unquote(p.password or "")
            endpoint = urllib.parse.urlunsplit((p.scheme, _public_url(endpoint).split("/", 3)[2],
                                                p.path, p.query, ""))
        self.endpoint = endpoint
        env_update = os.environ.get("KG_SPARQL_UPDATE_URL")
        self.update_explicit = bool(update_endpoint or env_update)
        self.update_endpoint = check_endpoint(update_endpoint or env_update, "update") \
            if self.update_explicit else (
            endpoint[: -len("/query")] + "/update" if p.path.endswith("/query") else endpoint)
        gs = graph_store or os.environ.get("KG_SPARQL_GRAPH_STORE_URL") or None
        self.graph_store = check_endpoint(gs, "graph store") if gs else None
        if timeout <= 0:
            raise StoreError(f"the time limit must be more than 0 s (got {timeout:g})")
        user, password = _credentials(user, password)
        self.has_credentials = user is not None
        self.graph = graph
        self._http = _Http(user, password, Timeouts(min(connect_timeout, timeout), read_timeout,
                                                    timeout),
                           retries, backoff, sleep, deadline)

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

    def update(self, sparql_update: str, *, url: str | None = None, what: str = "the update",
               **options) -> None:
        """Send a SPARQL Update request (to ``url``, default :attr:`update_endpoint`).

        ``options`` go to the HTTP client: ``total``, ``retries``, ``read``.
        """
        self._http.request("POST", url or self.update_endpoint,
                           urllib.parse.urlencode({"update": sparql_update}).encode("utf-8"),
                           {"Content-Type": "application/x-www-form-urlencoded",
                            "Accept": "*/*"}, what, **options)

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
        raise StoreError(f"{where}: unreadable results: {one_line(str(exc))}") from None
    if isinstance(res, ox.QueryBoolean):
        return QueryResult("ask", boolean=bool(res))
    names = tuple(v.value for v in res.variables)
    return QueryResult("select", variables=names,
                       rows=tuple(tuple(sol[i] for i in range(len(names))) for sol in res))


def run_query_remote(endpoint: str, name_or_sparql: str, params: Mapping[str, Any] | None = None,
                     fmt: str = "table", user: str | None = None,
                     password: str | None = None, timeout: float = QUERY_TIMEOUT) -> str:
    """``kg query --endpoint URL``: run a named query, ``.rq`` file or SPARQL text remotely.

    Returns the text ``kg query`` prints, in ``fmt`` (as for the embedded store).
    """
    from kg import queries
    from kg.results import format_result

    query = queries.resolve(name_or_sparql)
    queries.bind(query, params)  # a bad parameter fails before any request
    with RemoteStore(endpoint, user=user, password=password, timeout=timeout,
                     deadline=time.monotonic() + timeout) as store:
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


PUSH_TIMEOUT = 600.0
_TRY_NEXT = (400, 404, 405, 406, 415, 501)


def push(graph_file_or_build_dir: str | Path, endpoint: str, graph_iri: str | None = None,
         user: str | None = None, password: str | None = None, *, batch_triples: int = 20000,
         method: str = "auto", update_endpoint: str | None = None,
         graph_store: str | None = None, progress: bool | None = None,
         retries: int = 4, timeout: float = PUSH_TIMEOUT, backoff: float = 0.5) -> dict:
    """Load a build's graph into the named graph ``graph_iri``, replacing what was there.

    The triples go into a new temporary named graph first, which one SPARQL
    Update ``MOVE`` then puts in place of ``graph_iri``; so a push that fails
    (the server refuses a batch, hangs up, the time runs out) leaves the old
    graph whole, says so, and drops the temporary graph where it can.

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
        ``auto`` uploads by the Graph Store Protocol when the server offers it.
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).
    retries : int
        Extra attempts per request after a transient failure.
    timeout : float
        Seconds the whole push may take (default 600); no request waits more
        than 30 s for a connection or for the server's next bytes during the upload.

    Returns
    -------
    dict
        ``graph``, ``triples`` (sent), ``method`` used, ``requests`` made and
        ``count`` (triples in the graph afterwards as the server counts, or
        ``None`` if it could not be counted).

    Raises
    ------
    kg.errors.StoreError
        When a URL is malformed, the graph cannot be read, or the server cannot
        be reached, refuses or runs out of time (the message says whether the
        graph on the server is unchanged).
    """
    if method not in ("auto", "graph-store", "update"):
        raise StoreError(f"unknown push method {method!r}")
    if batch_triples < 1:
        raise StoreError("batch size must be at least one triple")
    deadline = time.monotonic() + timeout if timeout > 0 else 0.0
    store = RemoteStore(endpoint, update_endpoint=update_endpoint, graph_store=graph_store,
                        user=user, password=password, retries=retries, timeout=timeout,
                        backoff=backoff, connect_timeout=30.0, read_timeout=30.0,
                        deadline=deadline)
    graph_iri = graph_iri or DEFAULT_GRAPH
    target = sparql_term(_iri(graph_iri))
    source = _graph_source(graph_file_or_build_dir)
    lines = list(_ntriples_lines(source))
    batches = _batches(lines, batch_triples)
    tmp_iri = f"https://w3id.org/paper-kg/push-tmp/{uuid.uuid4()}"
    tmp = sparql_term(_iri(tmp_iri))
    show = sys.stderr.isatty() if progress is None else progress
    job = _PushJob(store, tmp_iri)

    try:
        with _Bar(show, len(lines), f"pushing to {_public_url(endpoint)}") as bar:
            used = None
            if method in ("auto", "graph-store"):
                urls = ([store.graph_store] if store.graph_store else
                        graph_store_candidates(store.endpoint, store.has_credentials))
                for url in urls:
                    if job.gsp_upload(url, batches, bar, probe=method == "auto"):
                        used = "graph-store"
                        break
                if used is None and method == "graph-store":
                    raise StoreError(f"{_public_url(endpoint)}: no SPARQL Graph Store endpoint "
                                     "found (set KG_SPARQL_GRAPH_STORE_URL)")
            if used is None:
                job.update_upload(batches, bar, tmp)
                used = "update"
        swap = (f"MOVE GRAPH {tmp} TO GRAPH {target}" if lines else
                f"DROP SILENT GRAPH {target} ; DROP SILENT GRAPH {tmp}")
        job.swap(swap)
    except StoreError as exc:
        raise job.failed(exc, graph_iri) from None
    try:
        count: int | None = store.graph_count(graph_iri)
    except StoreError:  # the graph is in place; only the check failed
        count = None
    return {"graph": graph_iri, "triples": len(lines), "method": used,
            "requests": job.requests + (count is not None), "count": count}


class _PushJob:
    """The requests of one push, and what to say and clean up when one fails."""

    def __init__(self, store: RemoteStore, tmp_iri: str) -> None:
        self.store, self.tmp_iri = store, tmp_iri
        self.requests = 0
        self.wrote = False        # a request that may have written the temporary graph was sent
        self.swapping = False     # the MOVE was sent
        self.update_url: str | None = None
        self.gsp_target: str | None = None

    def gsp_upload(self, url: str, batches: list[str], bar, probe: bool) -> bool:
        """Send the batches to the temporary graph by the Graph Store Protocol.

        False if ``url`` does not offer the protocol (only when ``probe``).
        """
        target = url + ("&" if "?" in url else "?") + urllib.parse.urlencode(
            {"graph": self.tmp_iri})
        headers = {"Content-Type": "text/turtle; charset=utf-8"}
        # An empty PUT first: it finds out cheaply whether the server offers the
        # protocol here and takes the credentials (a server may hang up on a big
        # body it refuses). It only touches the temporary graph.
        self.wrote = True
        try:
            self.requests += 1
            self.store._http.request("PUT", target, b"", headers, "the graph upload")
        except _HttpRefused as exc:
            if probe and exc.code in _TRY_NEXT:
                return False
            raise
        self.gsp_target = target
        for batch in batches:  # N-Triples is Turtle, which every Graph Store implementation reads
            if batch:
                self.requests += 1
                self.store._http.request("POST", target, batch.encode("utf-8"), headers,
                                         "the graph upload")
            bar.advance(batch.count("\n"))
        return True

    def update_upload(self, batches: list[str], bar, tmp: str) -> None:
        """Send the batches to the temporary graph by SPARQL Update ``INSERT DATA``."""
        for batch in batches:
            if batch:
                text = f"INSERT DATA {{ GRAPH {tmp} {{\n{batch}}} }}"
                self.wrote = True
                if self.update_url is None:
                    self.update_url = self._first_update_url(text, "the upload")
                else:
                    self.requests += 1
                    self.store.update(text, url=self.update_url, what="the upload")
            bar.advance(batch.count("\n"))

    def swap(self, text: str) -> None:
        """Put the temporary graph in place of the target (one request)."""
        self.swapping = True
        if self.update_url is not None:
            self.requests += 1
            self.store.update(text, url=self.update_url, what="the graph swap (MOVE)", read=None)
        else:
            self.update_url = self._first_update_url(text, "the graph swap (MOVE)", read=None)

    def _first_update_url(self, text: str, what: str, **options) -> str:
        """Send ``text`` to the first update URL that takes SPARQL Update; that URL."""
        candidates = self.store.update_candidates()
        for i, url in enumerate(candidates):
            try:
                self.requests += 1
                self.store.update(text, url=url, what=what, **options)
                return url
            except _HttpRefused as exc:
                if i == len(candidates) - 1 or exc.code not in _TRY_NEXT + (401, 403, 500):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def failed(self, exc: StoreError, graph_iri: str) -> StoreError:
        """The one-line error for a failed push, after dropping the temporary graph if it can."""
        msg = str(exc)
        if self.swapping and not isinstance(exc, _HttpRefused):
            # the MOVE was sent but its answer did not come: it may have been done
            return StoreError(f"{msg}; the server may or may not have replaced <{graph_iri}> "
                              f"(the new triples are either there or in <{self.tmp_iri}>)")
        left = ""
        if self.wrote and not self._drop_temporary():
            left = f" (a partial upload may remain in the graph <{self.tmp_iri}>: drop it)"
        return StoreError(f"{msg}; the graph <{graph_iri}> on the server is unchanged{left}")

    def _drop_temporary(self) -> bool:
        """Best effort, within what is left of the time limit plus 2 s, no retries."""
        http = self.store._http
        left = (http.deadline - time.monotonic()) if http.deadline else http.limit
        total = max(left, 0.0) + min(2.0, http.limit / 4)
        http.deadline = None
        tmp = sparql_term(_iri(self.tmp_iri))
        urls = [self.update_url] if self.update_url else self.store.update_candidates()
        start = time.monotonic()
        for url in urls:
            rest = total - (time.monotonic() - start)
            if rest <= 0:
                return False
            try:
                self.store.update(f"DROP SILENT GRAPH {tmp}", url=url,
                                  what="the clean-up", total=rest, retries=0)
                return True
            except StoreError:
                continue
        if self.gsp_target:
            rest = total - (time.monotonic() - start)
            try:
                if rest > 0:
                    http.request("DELETE", self.gsp_target, None, {}, "the clean-up",
                                 total=rest, retries=0)
                    return True
            except _HttpRefused as exc:
                return exc.code == 404  # nothing there
            except StoreError:
                pass
        return False


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
