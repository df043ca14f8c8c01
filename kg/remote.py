"""Remote SPARQL 1.1 endpoints: the client's public names (re-exports), ``kg query --endpoint``.

The work is done in one module per concern, whose names this module
re-exports so that ``from kg.remote import ...`` keeps working:

* :mod:`kg.store.sparql_text`: parameters as ``VALUES`` clauses
  (:func:`with_bindings`, :func:`sparql_term`);
* :mod:`kg.store.http`: HTTP with deadlines, retries and one-line errors
  (:func:`check_endpoint`, :class:`Timeouts`);
* :mod:`kg.store.remote`: the endpoint behind the store API (:class:`RemoteStore`);
* :mod:`kg.store.push`: ``kg push`` (:func:`push`, :func:`graph_store_candidates`).

:func:`run_query_remote` runs a named query, ``.rq`` file or SPARQL text on
an endpoint and returns the text ``kg query`` prints.
"""
from __future__ import annotations

import time
from typing import Any, Mapping

from kg.store.http import Timeouts, check_endpoint
from kg.store.push import DEFAULT_GRAPH, PUSH_TIMEOUT, graph_store_candidates, push
from kg.store.remote import QUERY_TIMEOUT, RemoteStore
from kg.store.sparql_text import sparql_term, with_bindings

__all__ = ["RemoteStore", "push", "run_query_remote", "sparql_term", "with_bindings",
           "graph_store_candidates", "check_endpoint", "Timeouts", "DEFAULT_GRAPH",
           "PUSH_TIMEOUT", "QUERY_TIMEOUT"]


def run_query_remote(endpoint: str, name_or_sparql: str, params: Mapping[str, Any] | None = None,
                     fmt: str = "table", user: str | None = None,
                     password: str | None = None, timeout: float = QUERY_TIMEOUT) -> str:
    """``kg query --endpoint URL``: run a named query, ``.rq`` file or SPARQL text remotely.

    Returns the text ``kg query`` prints, in ``fmt`` (as for the embedded store).
    """
    from kg import queries
    from kg.queries.results import format_result

    query = queries.resolve(name_or_sparql)
    queries.bind(query, params)  # a bad parameter fails before any request
    with RemoteStore(endpoint, user=user, password=password, timeout=timeout,
                     deadline=time.monotonic() + timeout) as store:
        return format_result(queries.run(store, query, params), fmt)
