"""Choosing the store a command reads: an embedded store folder or a remote endpoint.

:func:`open_store` is the one place that knows both kinds of store, so the
stores themselves (:mod:`kg.store.embedded`, :mod:`kg.store.remote`) need not know
each other; the ``kg`` command (and a notebook) call it with their options.
"""
from __future__ import annotations

import time
from pathlib import Path

from kg.outputs import STORE_DIR, check_readable
from kg.store.embedded import EmbeddedStore
from kg.store.http import MAX_RESPONSE
from kg.store.remote import QUERY_TIMEOUT, RemoteStore
from kg.store.sparql import SparqlStore

__all__ = ["open_store"]


def open_store(store: str | Path | None = None, endpoint: str | None = None,
               from_dir: str | Path = "output", *, user: str | None = None,
               password: str | None = None, timeout: float | None = None,
               allow_service: bool = False, max_response: int | None = None) -> SparqlStore:
    """The store a command reads: ``--store DIR``, ``--endpoint URL`` or ``<from_dir>/store``.

    ``user``, ``password`` and ``timeout`` (seconds for everything the store
    does from now on, default :data:`kg.store.remote.QUERY_TIMEOUT`) and
    ``max_response`` (bytes of one answer, default :data:`kg.store.http.MAX_RESPONSE`)
    are for an endpoint; ``allow_service`` lets the embedded store run ``SERVICE`` clauses.
    """
    if endpoint:
        limit = QUERY_TIMEOUT if timeout is None else timeout
        return RemoteStore(endpoint, user=user, password=password, timeout=limit,
                           deadline=time.monotonic() + limit,
                           max_response=max_response or MAX_RESPONSE)
    folder = Path(store) if store else Path(from_dir) / STORE_DIR
    if not store:
        check_readable(Path(from_dir))   # a build caught mid-publish is not read
    return EmbeddedStore(folder, allow_service=allow_service)
