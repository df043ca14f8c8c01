"""``kg push``: load a build's graph into a named graph of a SPARQL server, never half-written.

:func:`push` sends the triples into a fresh temporary named graph (by the
SPARQL 1.1 Graph Store HTTP Protocol where the server offers it, otherwise
by SPARQL Update ``INSERT DATA`` in batches), and one SPARQL Update ``MOVE``
then puts that graph in place of the old one. A push that fails before the
``MOVE`` leaves the old graph whole, says so, and drops the temporary graph.
Requests go through a :class:`kg.store.remote.RemoteStore`, so they have its
deadlines, retries and one-line errors.
"""
from __future__ import annotations

import math
import sys
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from kg.errors import StoreError
from kg.outputs import GRAPH_NT, GRAPH_TTL, STORE_DIR
from kg.store.embedded import EmbeddedStore
from kg.store.http import MAX_RESPONSE, HttpRefused, public_url
from kg.store.remote import RemoteStore, graph_node
from kg.store.sparql_text import sparql_term
from kg.util.termination import Terminated

__all__ = ["DEFAULT_GRAPH", "PUSH_TIMEOUT", "clean", "graph_store_candidates", "push"]

DEFAULT_GRAPH = "https://w3id.org/paper-kg/graph"

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
        for name in (GRAPH_NT, GRAPH_TTL):
            if (p / name).is_file():
                return p / name
        if (p / STORE_DIR / "CURRENT").is_file():
            return p / STORE_DIR
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
        with EmbeddedStore(source) as st:
            quads: Iterable[ox.Quad] = list(st.triples())
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


@dataclass(frozen=True)
class PushResult:
    """What :func:`push` did."""

    graph: str          #: the named graph pushed into
    triples: int        #: triples sent
    method: str         #: "graph-store" (the Graph Store Protocol) or "update" (SPARQL Update)
    requests: int       #: requests made
    count: int | None   #: triples in the graph afterwards as the server counts (None: unknown)
    orphans: int = 0    #: temporary graphs of interrupted pushes dropped on the way


def push(graph_file_or_build_dir: str | Path, endpoint: str, graph_iri: str | None = None,
         user: str | None = None, password: str | None = None, *, batch_triples: int = 20000,
         method: str = "auto", update_endpoint: str | None = None,
         graph_store: str | None = None, progress: bool | None = None,
         retries: int = 4, timeout: float = PUSH_TIMEOUT, backoff: float = 0.5,
         max_response: int = MAX_RESPONSE) -> PushResult:
    """Load a build's graph into the named graph ``graph_iri``, replacing what was there.

    The triples go into a new temporary named graph first, which one SPARQL
    Update ``MOVE`` then puts in place of ``graph_iri``; so a push that fails
    (the server refuses a batch, hangs up, the time runs out, Ctrl-C or
    SIGTERM) leaves the old graph whole, says so, names the temporary graph
    and drops it where it can. A temporary graph's name carries the time by
    which its push must have ended; the next push (and :func:`clean`) drops
    the ones a killed push left (their time has passed), never a live one.

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
    PushResult

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
                        deadline=deadline, max_response=max_response)
    graph_iri = graph_iri or DEFAULT_GRAPH
    target = sparql_term(graph_node(graph_iri))
    source = _graph_source(graph_file_or_build_dir)
    lines = list(_ntriples_lines(source))
    batches = _batches(lines, batch_triples)
    tmp_iri = temporary_graph(time.time() + (timeout if timeout > 0 else PUSH_TIMEOUT))
    tmp = sparql_term(graph_node(tmp_iri))
    show = sys.stderr.isatty() if progress is None else progress
    job = _PushJob(store, tmp_iri)
    orphans = _drop_orphans(store)

    try:
        with _Bar(show, len(lines), f"pushing to {public_url(endpoint)}") as bar:
            used = None
            if method in ("auto", "graph-store"):
                urls = ([store.graph_store] if store.graph_store else
                        graph_store_candidates(store.endpoint, store.has_credentials))
                for url in urls:
                    if job.gsp_upload(url, batches, bar, probe=method == "auto"):
                        used = "graph-store"
                        break
                if used is None and method == "graph-store":
                    raise StoreError(f"{public_url(endpoint)}: no SPARQL Graph Store endpoint "
                                     "found (set KG_SPARQL_GRAPH_STORE_URL)")
            if used is None:
                job.update_upload(batches, bar, tmp)
                used = "update"
        swap = (f"MOVE GRAPH {tmp} TO GRAPH {target}" if lines else
                f"DROP SILENT GRAPH {target} ; DROP SILENT GRAPH {tmp}")
        job.swap(swap)
    except StoreError as exc:
        raise job.failed(exc, graph_iri) from None
    except (KeyboardInterrupt, Terminated):
        raise job.failed(StoreError("interrupted"), graph_iri) from None
    try:
        count: int | None = store.graph_count(graph_iri)
    except StoreError:  # the graph is in place; only the check failed
        count = None
    return PushResult(graph=graph_iri, triples=len(lines), method=used,
                      requests=job.requests + (count is not None), count=count,
                      orphans=orphans)


TMP_PREFIX = "https://w3id.org/paper-kg/push-tmp/"


def temporary_graph(expires: float) -> str:
    """A fresh temporary graph's IRI, carrying the time (epoch s) its push ends by.

    >>> temporary_graph(1700000000.5).startswith(TMP_PREFIX + "1700000001-")
    True
    """
    return f"{TMP_PREFIX}{math.ceil(expires)}-{uuid.uuid4()}"


def expired_temporaries(graphs: Iterable[str], now: float) -> list[str]:
    """The temporary graphs among ``graphs`` whose push must have ended before ``now``.

    Graphs named otherwise (a live push, or another tool's) are never listed.

    >>> expired_temporaries([TMP_PREFIX + "100-a", TMP_PREFIX + "900-b",
    ...                      TMP_PREFIX + "x-c", "http://example.org/g"], now=500)
    ['https://w3id.org/paper-kg/push-tmp/100-a']
    """
    out = []
    for g in graphs:
        stamp = g[len(TMP_PREFIX):].partition("-")[0] if g.startswith(TMP_PREFIX) else ""
        if stamp.isdigit() and int(stamp) < now:
            out.append(g)
    return sorted(out)


def _temporaries(store: RemoteStore) -> list[str]:
    r = store.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } "
                    f'FILTER(STRSTARTS(STR(?g), "{TMP_PREFIX}")) }}')
    return [str(row[0].value) for row in r.rows if row and row[0] is not None]


def _drop_orphans(store: RemoteStore, strict: bool = False) -> int:
    """Drop the temporary graphs killed pushes left (their time has passed); how many.

    Best effort before a push (a server that cannot list graphs is left as it
    is); ``strict`` (``kg push --clean``) lets a failure through.
    """
    try:
        gone = expired_temporaries(_temporaries(store), time.time())
        job = _PushJob(store, "")
        for g in gone:
            text = f"DROP SILENT GRAPH {sparql_term(graph_node(g))}"
            if job.update_url is None:
                job.update_url = job._first_update_url(text, "the clean-up of earlier pushes")
            else:
                store.update(text, url=job.update_url, what="the clean-up of earlier pushes")
        return len(gone)
    except StoreError:
        if strict:
            raise
        return 0


def clean(endpoint: str, user: str | None = None, password: str | None = None, *,
          timeout: float = PUSH_TIMEOUT, max_response: int = MAX_RESPONSE) -> int:
    """Drop the temporary graphs that interrupted pushes left on ``endpoint``; how many.

    Only graphs whose push has ended for sure (the time in their name has
    passed) are dropped, so a push running now is not disturbed.
    """
    store = RemoteStore(endpoint, user=user, password=password, timeout=timeout,
                        deadline=time.monotonic() + timeout, max_response=max_response)
    return _drop_orphans(store, strict=True)


class _PushJob:
    """The requests of one push, and what to say and clean up when one fails."""

    def __init__(self, store: RemoteStore, tmp_iri: str) -> None:
        self.store, self.tmp_iri = store, tmp_iri
        self.requests = 0
        self.wrote = False        # a request that may have written the temporary graph was sent
        self.swapping = False     # the MOVE was sent
        self.update_url: str | None = None
        self.gsp_target: str | None = None

    def gsp_upload(self, url: str, batches: list[str], bar: _Bar, probe: bool) -> bool:
        """Send the batches to the temporary graph by the Graph Store Protocol.

        False if ``url`` does not offer the protocol (only when ``probe``).
        """
        target = url + ("&" if "?" in url else "?") + urllib.parse.urlencode(
            {"graph": self.tmp_iri})
        headers = {"Content-Type": "text/turtle; charset=utf-8"}
        # An empty PUT first: it finds out cheaply whether the server offers the
        # protocol here and takes the credentials (a server may hang up on a big
        # body it refuses). It only touches the temporary graph.
        try:
            self._write(lambda: self.store.http.request("PUT", target, b"", headers,
                                                        "the graph upload"))
        except HttpRefused as exc:
            if probe and exc.code in _TRY_NEXT:
                return False
            raise
        self.gsp_target = target
        for batch in batches:  # N-Triples is Turtle, which every Graph Store implementation reads
            if batch:
                data = batch.encode("utf-8")
                self._write(partial(self.store.http.request, "POST", target, data, headers,
                                    "the graph upload"))
            bar.advance(batch.count("\n"))
        return True

    def _write(self, send: Callable[[], object]) -> None:
        """Send one request that writes the temporary graph; a refusal wrote nothing,
        anything else (an answer, a timeout, a dropped connection) may have."""
        self.requests += 1
        try:
            send()
        except HttpRefused:
            raise
        except BaseException:
            self.wrote = True
            raise
        self.wrote = True

    def update_upload(self, batches: list[str], bar: _Bar, tmp: str) -> None:
        """Send the batches to the temporary graph by SPARQL Update ``INSERT DATA``."""
        for batch in batches:
            if batch:
                text = f"INSERT DATA {{ GRAPH {tmp} {{\n{batch}}} }}"
                if self.update_url is None:
                    try:
                        self.update_url = self._first_update_url(text, "the upload")
                    except HttpRefused:
                        raise
                    except BaseException:
                        self.wrote = True
                        raise
                    self.wrote = True
                else:
                    url = self.update_url
                    self._write(partial(self.store.update, text, url=url, what="the upload"))
            bar.advance(batch.count("\n"))

    def swap(self, text: str) -> None:
        """Put the temporary graph in place of the target (one request)."""
        self.swapping = True
        if self.update_url is not None:
            self.requests += 1
            self.store.update(text, url=self.update_url, what="the graph swap (MOVE)", read=None)
        else:
            self.update_url = self._first_update_url(text, "the graph swap (MOVE)", read=None)

    def _first_update_url(self, text: str, what: str,
                          read: float | None | Literal["default"] = "default") -> str:
        """Send ``text`` to the first update URL that takes SPARQL Update; that URL."""
        candidates = self.store.update_candidates()
        for i, url in enumerate(candidates):
            try:
                self.requests += 1
                self.store.update(text, url=url, what=what, read=read)
                return url
            except HttpRefused as exc:
                if i == len(candidates) - 1 or exc.code not in _TRY_NEXT + (401, 403, 500):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def failed(self, exc: StoreError, graph_iri: str) -> StoreError:
        """The one-line error for a failed push, after dropping the temporary graph if it can."""
        msg = str(exc)
        if self.swapping and not isinstance(exc, HttpRefused):
            # the MOVE was sent but its answer did not come: it may have been done
            return StoreError(f"{msg}; the server may or may not have replaced <{graph_iri}> "
                              f"(the new triples are either there or in <{self.tmp_iri}>)")
        left = ""
        if self.wrote:
            left = (f" (the temporary graph <{self.tmp_iri}> was dropped)"
                    if self._drop_temporary() else
                    f" (a partial upload may remain in the temporary graph <{self.tmp_iri}>: "
                    "the next kg push drops it, or kg push --clean now)")
        return StoreError(f"{msg}; the graph <{graph_iri}> on the server is unchanged{left}")

    def _drop_temporary(self) -> bool:
        """Best effort, within what is left of the time limit plus 2 s, no retries."""
        http = self.store.http
        left = (http.deadline - time.monotonic()) if http.deadline else http.limit
        total = max(left, 0.0) + min(2.0, http.limit / 4)
        http.deadline = None
        tmp = sparql_term(graph_node(self.tmp_iri))
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
            except HttpRefused as exc:
                return exc.code == 404  # nothing there
            except StoreError:
                pass
        return False


class _Bar:
    """A rich progress bar over triples sent (nothing unless ``show``)."""

    def __init__(self, show: bool, total: int, description: str) -> None:
        self.show, self.total, self.description = show, total, description
        self._progress: Any = None  # a rich.progress.Progress while shown
        self._task: Any = None

    def __enter__(self) -> _Bar:
        if self.show:
            from rich.progress import Progress

            self._progress = Progress(transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total)
        return self

    def advance(self, n: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
