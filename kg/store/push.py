"""``kg push``: load a build's graph into a named graph of a SPARQL server, never half-written.

:func:`push` streams the build's N-Triples in requests of
:data:`~kg.store.ntstream.BATCH_TRIPLES` triples (constant memory) into a
fresh graph: by the SPARQL 1.1 Graph Store HTTP Protocol where the server
offers it, otherwise by SPARQL Update ``INSERT DATA``; or, with ``bulk``,
as N-Triples files that Virtuoso's bulk loader reads. Then it switches what
users read in one small request: on Virtuoso the named graph is a graph
group whose one member becomes the new graph (:mod:`kg.store.virtuoso`:
a default Virtuoso refuses a whole-graph ``MOVE`` of a few million
triples); elsewhere one SPARQL Update ``MOVE`` puts the new graph in place.
A push that fails before the switch leaves the old graph whole, says so,
and drops the new graph. Requests go through a
:class:`kg.store.remote.RemoteStore`, so they have its deadlines, retries
and one-line errors.
"""
from __future__ import annotations

import contextlib
import math
import shutil
import sys
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, Literal

from kg.errors import StoreError
from kg.store.http import MAX_RESPONSE, HttpRefused, public_url
from kg.store.ntstream import (
    BATCH_TRIPLES,
    Batch,
    batches,
    graph_source,
    ntriples_lines,
    source_size,
    write_shards,
)
from kg.store.pushed import PushResult
from kg.store.remote import RemoteStore, graph_node, graph_store_candidates
from kg.store.sparql_text import sparql_term
from kg.store.virtuoso import VERSION_PREFIX, Virtuoso, is_virtuoso
from kg.util.termination import Terminated

__all__ = ["DEFAULT_GRAPH", "PUSH_TIMEOUT", "PushResult", "clean", "graph_store_candidates",
           "push"]

DEFAULT_GRAPH = "https://w3id.org/paper-kg/graph"

PUSH_TIMEOUT = 3600.0
#: seconds to wait for the answer to one batch (the server parses and writes it first)
_BATCH_READ = 300.0
_TRY_NEXT = (400, 404, 405, 406, 415, 501)


def push(graph_file_or_build_dir: str | Path, endpoint: str, graph_iri: str | None = None,
         user: str | None = None, password: str | None = None, *,
         batch_triples: int | None = None, method: str = "auto",
         bulk: str | Path | None = None, loaders: int = 2,
         update_endpoint: str | None = None, graph_store: str | None = None,
         progress: bool | None = None, retries: int = 4, timeout: float = PUSH_TIMEOUT,
         backoff: float = 0.5, max_response: int = MAX_RESPONSE) -> PushResult:
    """Load a build's graph into the named graph ``graph_iri``, replacing what was there.

    The triples go into a new graph first, in requests of ``batch_triples``
    (or by Virtuoso's bulk loader); one small request then switches
    ``graph_iri`` to it (see the module's text); so a push that fails (the
    server refuses a batch, hangs up, the time runs out, Ctrl-C or SIGTERM)
    leaves the old graph whole, says so, names the new graph and drops it
    where it can. The new graph's name carries the time by which its push
    must have ended; the next push (and :func:`clean`) drops the ones a
    killed push left (their time has passed), never a live one.

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
    batch_triples : int, optional
        Triples per request (per file with ``bulk``; default 100,000).
    method : {"auto", "graph-store", "update"}
        ``auto`` uploads by the Graph Store Protocol when the server offers it.
    bulk : str or Path, optional
        Virtuoso only: write N-Triples files into a new folder under this one
        and have the server's bulk loader read them (the server must be
        allowed to read it: ``DirsAllowed``); the folder is removed afterwards.
    loaders : int
        Bulk loaders run side by side (``bulk`` only).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).
    retries : int
        Extra attempts per request after a transient failure.
    timeout : float
        Seconds the whole push may take (default 3600); no request waits more
        than 30 s for a connection, nor more than 300 s for an answer to a batch.

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
    batch_triples = BATCH_TRIPLES if batch_triples is None else batch_triples
    if batch_triples < 1:
        raise StoreError("batch size must be at least one triple")
    deadline = time.monotonic() + timeout if timeout > 0 else 0.0
    store = RemoteStore(endpoint, update_endpoint=update_endpoint, graph_store=graph_store,
                        user=user, password=password, retries=retries, timeout=timeout,
                        backoff=backoff, connect_timeout=30.0, read_timeout=30.0,
                        deadline=deadline, max_response=max_response)
    graph_iri = graph_iri or DEFAULT_GRAPH
    graph_node(graph_iri)
    source = graph_source(graph_file_or_build_dir)
    virt = Virtuoso(store, store.update_candidates()[0]) if is_virtuoso(store) else None
    if bulk is not None and virt is None:
        raise StoreError(f"{public_url(endpoint)}: --bulk needs a Virtuoso server")
    expires = time.time() + (timeout if timeout > 0 else PUSH_TIMEOUT)
    tmp_iri = temporary_graph(expires, VERSION_PREFIX if virt else TMP_PREFIX)
    show = sys.stderr.isatty() if progress is None else progress
    job = _PushJob(store, tmp_iri, virt)
    orphans = _drop_orphans(store, virt)
    t0 = time.monotonic()
    try:
        with _Bar(show, source_size(source), f"pushing to {public_url(endpoint)}") as bar:
            if bulk is not None and virt is not None:
                sent = job.bulk_upload(virt, source, Path(bulk), batch_triples, loaders)
                used = "bulk"
            else:
                sent, used = job.upload(method, batches(ntriples_lines(source), batch_triples),
                                        bar, endpoint)
        t1 = time.monotonic()
        if virt is not None:
            switch_s = job.switch_group(virt, graph_iri)
        else:
            target = sparql_term(graph_node(graph_iri))
            tmp = sparql_term(graph_node(tmp_iri))
            job.swap(f"MOVE GRAPH {tmp} TO GRAPH {target}" if sent else
                     f"DROP SILENT GRAPH {target} ; DROP SILENT GRAPH {tmp}")
            switch_s = time.monotonic() - t1
    except StoreError as exc:
        raise job.failed(exc, graph_iri) from None
    except (KeyboardInterrupt, Terminated):
        raise job.failed(StoreError("interrupted"), graph_iri) from None
    if virt is not None:
        job.drop_old_versions(virt, graph_iri)
    try:
        count: int | None = (RemoteStore(endpoint, user=user, password=password,
                                         graph=graph_iri, timeout=timeout).count()
                             if virt is not None else store.graph_count(graph_iri))
    except StoreError:  # the graph is in place; only the check failed
        count = None
    return PushResult(graph=graph_iri, triples=sent, method=used,
                      requests=job.requests + (virt.requests if virt else 0)
                      + (count is not None), count=count, orphans=orphans,
                      switch="graph-group" if virt else "move", load_seconds=t1 - t0,
                      switch_seconds=switch_s)


TMP_PREFIX = "https://w3id.org/paper-kg/push-tmp/"


def temporary_graph(expires: float, prefix: str | None = None) -> str:
    """A fresh new graph's IRI, carrying the time (epoch s) its push ends by.

    >>> temporary_graph(1700000000.5).startswith(TMP_PREFIX + "1700000001-")
    True
    """
    return f"{prefix or TMP_PREFIX}{math.ceil(expires)}-{uuid.uuid4()}"


def expired_temporaries(graphs: Iterable[str], now: float,
                        prefixes: tuple[str, ...] = (TMP_PREFIX,)) -> list[str]:
    """The new graphs among ``graphs`` whose push must have ended before ``now``.

    Graphs named otherwise (a live push, or another tool's) are never listed.

    >>> expired_temporaries([TMP_PREFIX + "100-a", TMP_PREFIX + "900-b",
    ...                      TMP_PREFIX + "x-c", "http://example.org/g"], now=500)
    ['https://w3id.org/paper-kg/push-tmp/100-a']
    """
    out = []
    for g in graphs:
        prefix = next((p for p in prefixes if g.startswith(p)), None)
        stamp = g[len(prefix):].partition("-")[0] if prefix else ""
        if stamp.isdigit() and int(stamp) < now:
            out.append(g)
    return sorted(out)


def _temporaries(store: RemoteStore, prefixes: tuple[str, ...]) -> list[str]:
    test = " || ".join(f'STRSTARTS(STR(?g), "{p}")' for p in prefixes)
    r = store.query(f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER({test}) }}")
    return [str(row[0].value) for row in r.rows if row and row[0] is not None]


def _drop_orphans(store: RemoteStore, virt: Virtuoso | None, strict: bool = False) -> int:
    """Drop the new graphs killed pushes left (their time has passed); how many.

    On Virtuoso also the version graphs no graph reads any more (the
    registry names the live ones). Best effort before a push (a server that
    cannot list graphs is left as it is); ``strict`` (``kg push --clean``)
    lets a failure through.
    """
    try:
        prefixes = (TMP_PREFIX, VERSION_PREFIX) if virt else (TMP_PREFIX,)
        live = set(virt.versions()) if virt else set()
        gone = [g for g in expired_temporaries(_temporaries(store, prefixes), time.time(),
                                               prefixes) if g not in live]
        job = _PushJob(store, "", virt)
        for g in gone:
            text = f"DROP SILENT GRAPH {sparql_term(graph_node(g))}"
            if job.update_url is None:
                job.update_url = job._first_update_url(text, "the clean-up of earlier pushes")
            else:
                store.update(text, url=job.update_url, what="the clean-up of earlier pushes",
                             read=None)
        return len(gone)
    except StoreError:
        if strict:
            raise
        return 0


def clean(endpoint: str, user: str | None = None, password: str | None = None, *,
          timeout: float = PUSH_TIMEOUT, max_response: int = MAX_RESPONSE) -> int:
    """Drop the new graphs that interrupted pushes left on ``endpoint``; how many.

    Only graphs whose push has ended for sure (the time in their name has
    passed) and that no graph reads are dropped, so a push running now is
    not disturbed.
    """
    store = RemoteStore(endpoint, user=user, password=password, timeout=timeout,
                        deadline=time.monotonic() + timeout, max_response=max_response)
    virt = Virtuoso(store, store.update_candidates()[0]) if is_virtuoso(store) else None
    return _drop_orphans(store, virt, strict=True)


class _PushJob:
    """The requests of one push, and what to say and clean up when one fails."""

    def __init__(self, store: RemoteStore, tmp_iri: str, virt: Virtuoso | None) -> None:
        self.store, self.tmp_iri, self.virt = store, tmp_iri, virt
        self.requests = 0
        self.wrote = False        # a request that may have written the temporary graph was sent
        self.swapping = False     # the MOVE (or the graph group switch) was sent
        self.registered = False   # the new graph is in the Virtuoso registry
        self.old: list[str] = []  # the version graphs the switch replaced (Virtuoso)
        self.update_url: str | None = None
        self.gsp_target: str | None = None

    def upload(self, method: str, parts: Iterator[Batch], bar: _Bar,
               endpoint: str) -> tuple[int, str]:
        """Send the batches to the new graph; (triples sent, method used)."""
        if method in ("auto", "graph-store"):
            urls = ([self.store.graph_store] if self.store.graph_store else
                    graph_store_candidates(self.store.endpoint, self.store.has_credentials))
            for url in urls:
                sent = self.gsp_upload(url, parts, bar, probe=method == "auto")
                if sent is not None:
                    return sent, "graph-store"
            if method == "graph-store":
                raise StoreError(f"{public_url(endpoint)}: no SPARQL Graph Store endpoint "
                                 "found (set KG_SPARQL_GRAPH_STORE_URL)")
        tmp = sparql_term(graph_node(self.tmp_iri))
        return self.update_upload(parts, bar, tmp), "update"

    def bulk_upload(self, virt: Virtuoso, source: Path, under: Path, size: int,
                    loaders: int) -> int:
        """Write shards into a new folder under ``under``, have Virtuoso load them; triples."""
        token = f"kg-push-{uuid.uuid4()}"
        folder = under.resolve() / token
        try:
            folder.mkdir(parents=True)
        except OSError as exc:
            raise StoreError(f"cannot write {folder}: {exc.strerror or exc}") from None
        try:
            virt.check_readable(folder, token)
            shards = write_shards(ntriples_lines(source), folder, size)
            self.wrote = True
            virt.bulk_load(folder, self.tmp_iri, loaders)
            got = self.store.graph_count(self.tmp_iri)
            if got != shards.triples:
                raise StoreError(f"the bulk loader loaded {got:,} of {shards.triples:,} triples "
                                 "(the server's DB.DBA.load_list says why)")
            return shards.triples
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def switch_group(self, virt: Virtuoso, graph_iri: str) -> float:
        """Point Virtuoso's graph group ``graph_iri`` at the new graph; the switch's seconds."""
        self.old = [v for v in virt.versions(graph_iri) if v != self.tmp_iri]
        self.registered = True
        virt.register(graph_iri, self.tmp_iri, "the graph switch (registry)")
        self.swapping = True
        return virt.switch(graph_iri, self.tmp_iri, self.old)

    def drop_old_versions(self, virt: Virtuoso, graph_iri: str) -> None:
        """After a switch: drop what users no longer read (best effort: a failure leaves
        graphs the next push drops)."""
        try:
            virt.unregister(graph_iri, self.old, "the clean-up of the old graph")
            virt.drop(self.old, "the clean-up of the old graph")
            if not self.old:  # the first switch: the triples an older kg's MOVE left
                virt.clear_plain(graph_iri)
        except StoreError:
            pass

    def gsp_upload(self, url: str, parts: Iterator[Batch], bar: _Bar, probe: bool) -> int | None:
        """Send the batches to the temporary graph by the Graph Store Protocol; triples sent.

        None if ``url`` does not offer the protocol (only when ``probe``).
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
                return None
            raise
        self.gsp_target = target
        sent = 0
        for batch in parts:  # N-Triples is Turtle, which every Graph Store implementation reads
            self._write(partial(self.store.http.request, "POST", target, batch.data, headers,
                                "the graph upload", read=_BATCH_READ))
            sent += batch.triples
            bar.advance(len(batch.data))
        return sent

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

    def update_upload(self, parts: Iterator[Batch], bar: _Bar, tmp: str) -> int:
        """Send the batches to the temporary graph by SPARQL Update ``INSERT DATA``; triples."""
        sent = 0
        for batch in parts:
            text = f"INSERT DATA {{ GRAPH {tmp} {{\n{batch.data.decode('utf-8')}}} }}"
            if self.update_url is None:
                try:
                    self.update_url = self._first_update_url(text, "the upload", read=_BATCH_READ)
                except HttpRefused:
                    raise
                except BaseException:
                    self.wrote = True
                    raise
                self.wrote = True
            else:
                url = self.update_url
                self._write(partial(self.store.update, text, url=url, what="the upload",
                                    read=_BATCH_READ))
            sent += batch.triples
            bar.advance(len(batch.data))
        return sent

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
            # the switch was sent but its answer did not come: it may have been done
            return StoreError(f"{msg}; the server may or may not have replaced <{graph_iri}> "
                              f"(the new triples are either there or in <{self.tmp_iri}>)")
        left = ""
        if self.wrote:
            left = (f" (the temporary graph <{self.tmp_iri}> was dropped)"
                    if self._drop_temporary() else
                    f" (a partial upload may remain in the temporary graph <{self.tmp_iri}>: "
                    "the next kg push drops it, or kg push --clean now)")
        if self.registered and self.virt is not None:
            with contextlib.suppress(StoreError):  # else the next push of this graph drops it
                self.virt.unregister(graph_iri, [self.tmp_iri], "the clean-up")
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
    """A rich progress bar over the bytes of N-Triples sent (nothing unless ``show``)."""

    def __init__(self, show: bool, total: int | None, description: str) -> None:
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
