"""The SPARQL store API under its historical name: re-exports only.

kg's stores used to live here; each now has a module of its own, and this
one keeps ``from kg.store import ...`` working:

* :mod:`kg.sparql`: :class:`QueryResult`, :class:`SparqlStore`, :func:`to_term`;
* :mod:`kg.embedded`: :class:`EmbeddedStore`, :class:`StoreBuilder`,
  :func:`run_query`, :func:`refuse_service`, :data:`STORE_DIR`;
* :mod:`kg.sparql_text`: :func:`uses_service`;
* :mod:`kg.loadgraph`: :func:`load_graph` (also :func:`kg.load_graph`);
* :mod:`kg.connect`: :func:`open_store` (embedded folder or remote endpoint).

Library modules import from those modules, never from this one.
"""
from __future__ import annotations

from kg.connect import open_store
from kg.embedded import STORE_DIR, EmbeddedStore, StoreBuilder, refuse_service, run_query
from kg.loadgraph import load_graph
from kg.sparql import QueryResult, SparqlStore, to_term
from kg.sparql_text import uses_service

__all__ = ["EmbeddedStore", "QueryResult", "SparqlStore", "StoreBuilder", "load_graph",
           "open_store", "to_term", "STORE_DIR", "refuse_service", "run_query", "uses_service"]
