"""What ``kg push`` does differently on Virtuoso: a graph switch in one small request, the bulk loader.

A default Virtuoso refuses a transaction whose log grows past
``TransactionAfterImageLimit`` (50,000,000 bytes), so a SPARQL ``MOVE`` of
a graph of some million triples is aborted (``SR325``). So on Virtuoso the
graph a user names, ``G``, becomes a *graph group* (Virtuoso's own
feature: ``FROM <G>`` and ``default-graph-uri=G`` read its member graphs)
with one member, a *version* graph ``VERSION_PREFIX<time>-<uuid>`` that
the push loaded in parts. Switching ``G`` to a new version is one request
that adds the new member and removes the old one; the old version is then
dropped. Which versions are live is written in the graph :data:`REGISTRY`
(``<G> kg:version <V>``), so a clean-up never drops a live version.

The bulk path hands N-Triples files to Virtuoso's loader (``ld_dir``,
``rdf_loader_run``) through SQL procedures that Virtuoso lets ``dba`` call
from SPARQL (``<sql:...>``); the server must be able to read the folder
(``DirsAllowed`` in ``virtuoso.ini``), which :meth:`Virtuoso.check_readable`
finds out first by asking it to read a probe file.
"""
from __future__ import annotations

import threading
import time
import urllib.parse
from pathlib import Path

import pyoxigraph as ox

from kg.errors import QueryError, StoreError
from kg.store.http import HttpClient, public_url
from kg.store.registry import REGISTRY, VERSION_PREFIX, version_lookup
from kg.store.registry import VERSION as _VERSION
from kg.store.remote import RemoteStore, graph_node
from kg.store.sparql import QueryResult
from kg.store.sparql_text import sparql_term

__all__ = ["REGISTRY", "VERSION_PREFIX", "Virtuoso", "is_virtuoso"]



def is_virtuoso(store: RemoteStore) -> bool:
    """True when the endpoint is a Virtuoso (it answers Virtuoso's ``bif:sys_stat``)."""
    try:
        r = store.query('SELECT (bif:sys_stat("st_dbms_name") AS ?v) WHERE {}')
    except (StoreError, QueryError):
        return False
    return bool(r.rows and r.rows[0] and r.rows[0][0] is not None
                and "virtuoso" in str(r.rows[0][0].value).lower())


def _lit(text: str) -> str:
    return sparql_term(ox.Literal(text))


def _iri(text: str) -> str:
    return sparql_term(graph_node(text))


class Virtuoso:
    """Virtuoso's graph groups, the version registry and the bulk loader, over SPARQL.

    ``url`` is where authenticated SPARQL goes (``/sparql-auth``): the SQL
    procedures need ``dba``'s rights.
    """

    def __init__(self, store: RemoteStore, url: str) -> None:
        self.store, self.url = store, url
        self.requests = 0

    def call(self, text: str, what: str, read: float | None = 30.0,
             http: HttpClient | None = None) -> QueryResult:
        """Run a query at :attr:`url` (where the ``<sql:...>`` calls are allowed)."""
        from kg.store.remote import _parse_results

        self.requests += 1
        body = urllib.parse.urlencode({"query": text}).encode("utf-8")
        _, ctype, data = (http or self.store.http).request(
            "POST", self.url, body, {"Content-Type": "application/x-www-form-urlencoded",
                                     "Accept": "application/sparql-results+json"},
            what, read=read)
        return _parse_results(data, ctype, public_url(self.url))

    def update(self, text: str, what: str, read: float | None = 30.0) -> None:
        self.requests += 1
        self.store.update(text, url=self.url, what=what, read=read)

    # -- versions
    def versions(self, graph: str | None = None) -> list[str]:
        """The version graphs the registry names (for ``graph``, or for any graph)."""
        if graph:
            graph_node(graph)  # a one-line error for a graph name that is no IRI
        r = self.call(version_lookup(graph), "the version lookup")
        return sorted(str(row[0].value) for row in r.rows if row and row[0] is not None)

    def register(self, graph: str, version: str, what: str) -> None:
        """Name ``version`` as one of ``graph``'s in the registry."""
        self.update(f"INSERT DATA {{ GRAPH {_iri(REGISTRY)} {{ {_iri(graph)} {_iri(_VERSION)} "
                    f"{_iri(version)} }} }}", what)

    def unregister(self, graph: str, versions: list[str], what: str) -> None:
        if versions:
            body = " ".join(f"{_iri(graph)} {_iri(_VERSION)} {_iri(v)} ." for v in versions)
            self.update(f"DELETE DATA {{ GRAPH {_iri(REGISTRY)} {{ {body} }} }}", what)

    def switch(self, graph: str, new: str, old: list[str]) -> float:
        """Make ``new`` the one member of the graph group ``graph``, in one request; its seconds.

        The group is created if missing (with ``graph``'s own triples, if an
        earlier push left some, no longer read through ``FROM <graph>``).
        """
        calls = [f"(<sql:RDF_GRAPH_GROUP_CREATE>({_lit(graph)}, 1) AS ?c)",
                 f"(<sql:RDF_GRAPH_GROUP_INS>({_lit(graph)}, {_lit(new)}) AS ?i)"]
        calls += [f"(<sql:RDF_GRAPH_GROUP_DEL>({_lit(graph)}, {_lit(v)}) AS ?d{k})"
                  for k, v in enumerate(old) if v != new]
        t0 = time.monotonic()
        self.call(f"SELECT {' '.join(calls)} WHERE {{}}", "the graph switch", read=None)
        return time.monotonic() - t0

    def drop(self, graphs: list[str], what: str) -> None:
        for g in graphs:
            self.update(f"DROP SILENT GRAPH {_iri(g)}", what, read=None)

    def clear_plain(self, graph: str) -> None:
        """Drop the triples stored under the group's own name (an earlier push's ``MOVE``)."""
        self.update(f"CLEAR SILENT GRAPH {_iri(graph)}", "the clean-up of the old graph",
                    read=None)

    # -- bulk loader
    def check_readable(self, folder: Path, token: str) -> None:
        """A one-line StoreError unless the server reads ``folder`` (its ``DirsAllowed``)."""
        probe = folder / "kg-probe.txt"
        probe.write_text(token, encoding="utf-8")
        why = ""
        try:
            r = self.call(f"SELECT (bif:file_to_string({_lit(str(probe))}) AS ?t) WHERE {{}}",
                          "the bulk folder check")
            got = str(r.rows[0][0].value) if r.rows and r.rows[0] and r.rows[0][0] else ""
            if got.strip() != token:
                why = "it finds other content there (another machine's file system?)"
        except StoreError as exc:
            why = "access denied" if "FA003" in str(exc) else str(exc)
        finally:
            probe.unlink(missing_ok=True)
        if why:
            raise StoreError(
                f"the server cannot read {folder.parent} ({why}): add the folder to DirsAllowed "
                "in the [Parameters] section of its virtuoso.ini and restart it, or push "
                "without --bulk")

    def bulk_load(self, folder: Path, graph: str, loaders: int) -> None:
        """Load ``folder/*.nt`` into ``graph`` by ``loaders`` bulk loaders side by side."""
        self.call(f"SELECT (<sql:ld_dir>({_lit(str(folder))}, {_lit('*.nt')}, {_lit(graph)})"
                  " AS ?r) WHERE {}", "the bulk load (ld_dir)")
        errors: list[BaseException] = []

        def run() -> None:
            try:
                self.call("SELECT (<sql:rdf_loader_run>() AS ?r) WHERE {}",
                          "the bulk load (rdf_loader_run)", read=None,
                          http=self.store.http.fork())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                errors.append(exc)

        threads = [threading.Thread(target=run, daemon=True) for _ in range(max(1, loaders))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        # the loader writes without a transaction log: a checkpoint makes the load durable
        self.call('SELECT (bif:exec("checkpoint") AS ?r) WHERE {}', "the checkpoint", read=None)
