"""Virtuoso's graph groups and the version registry, on the real Virtuoso CI starts."""
from __future__ import annotations

from kg.store.remote import RemoteStore
from kg.store.virtuoso import Virtuoso, is_virtuoso
from tests.store.conftest import PASSWORD, USER

GROUP = "https://w3id.org/paper-kg/test/group"
A, B = "https://w3id.org/paper-kg/test/group-a", "https://w3id.org/paper-kg/test/group-b"


def _read(url: str) -> set[str]:
    r = RemoteStore(url, graph=GROUP).query("SELECT ?o WHERE { ?s ?p ?o }")
    return {str(row[0].value) for row in r.rows}


def test_switch_moves_what_the_group_reads_and_registry_round_trips(virtuoso):
    store = RemoteStore(virtuoso.replace("/sparql", "/sparql-auth"), user=USER, password=PASSWORD)
    v = Virtuoso(store, store.endpoint)
    store.update(f'INSERT DATA {{ GRAPH <{A}> {{ <urn:s> <urn:p> "a" }} '
                 f'GRAPH <{B}> {{ <urn:s> <urn:p> "b" }} GRAPH <{GROUP}> {{ <urn:s> <urn:p> '
                 '"plain" } }', url=store.endpoint)
    v.switch(GROUP, A, [])
    assert _read(virtuoso) == {"a"}                   # the group's own triples are not read
    assert v.switch(GROUP, B, [A]) < 5
    assert _read(virtuoso) == {"b"}
    v.register(GROUP, B, "test")
    assert v.versions(GROUP) == [B] and B in v.versions()
    v.unregister(GROUP, [B], "test")
    assert v.versions(GROUP) == []


def test_is_virtuoso_is_false_elsewhere():
    from tests.store.test_remote_safety import FakeSparql

    fake = FakeSparql()
    try:
        assert not is_virtuoso(RemoteStore(fake.url))
    finally:
        fake.close()
