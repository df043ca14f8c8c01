"""SPARQL stores: the embedded Oxigraph store, remote endpoints, ``kg push``.

The package's public names, loaded on first use (so that importing one
module of the package, such as :mod:`kg.store.sparql`, loads no other):

* :mod:`kg.store.sparql`: :class:`QueryResult`, :class:`SparqlStore`, :func:`to_term`;
* :mod:`kg.store.embedded`: :class:`EmbeddedStore`, :class:`StoreBuilder`,
  :func:`run_query`, :func:`refuse_service`;
* :mod:`kg.outputs`: :data:`STORE_DIR` (the store's folder in a build);
* :mod:`kg.store.sparql_text`: :func:`uses_service`;
* :mod:`kg.store.connect`: :func:`open_store` (embedded folder or remote endpoint);
* :func:`load_graph` (also :func:`kg.load_graph`), from :mod:`kg.rdf.load`.

Library modules import from those modules, never from this one.
"""
from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "QueryResult": "kg.store.sparql", "SparqlStore": "kg.store.sparql", "to_term": "kg.store.sparql",
    "EmbeddedStore": "kg.store.embedded", "StoreBuilder": "kg.store.embedded",
    "run_query": "kg.store.embedded", "refuse_service": "kg.store.embedded",
    "STORE_DIR": "kg.outputs", "uses_service": "kg.store.sparql_text",
    "open_store": "kg.store.connect",
}

__all__ = ["EmbeddedStore", "QueryResult", "SparqlStore", "StoreBuilder", "load_graph",
           "open_store", "to_term", "STORE_DIR", "refuse_service", "run_query", "uses_service"]


def __getattr__(name: str) -> Any:
    if name == "load_graph":  # the graph reader sits above the store (kg.rdf): on use only
        from kg.rdf.load import load_graph

        return load_graph
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'kg.store' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
