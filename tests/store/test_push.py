"""``kg push`` against the real Virtuoso CI starts (default transaction limits).

The push loads in several requests into a version graph and switches the
graph group users read in one request; the bulk path hands files to
Virtuoso's loader. A push that fails mid-way leaves the old graph's triples
as they were. The fake-server tests of the same module are in
``test_remote_safety.py``.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

import kg.store.push as push_module
from kg.cli import main
from kg.errors import StoreError
from kg.store.push import push
from kg.store.remote import RemoteStore
from kg.store.virtuoso import VERSION_PREFIX, Virtuoso, is_virtuoso
from tests.store.conftest import PASSWORD, ROOT, USER

GRAPH = "https://w3id.org/paper-kg/test/push"


def _count(url: str, graph: str) -> int:
    return RemoteStore(url, graph=graph).count()


def _versions(url: str) -> list[str]:
    r = RemoteStore(url).query(
        "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } "
        f'FILTER(STRSTARTS(STR(?g), "{VERSION_PREFIX}")) }}')
    return sorted(str(row[0].value) for row in r.rows)


@pytest.fixture(scope="module")
def pushed(virtuoso, sample_build_dir):
    """The sample pushed in requests of 500 triples."""
    return push(sample_build_dir, virtuoso, GRAPH, USER, PASSWORD, batch_triples=500,
                progress=False)


def test_push_in_batches_switches_a_graph_group(virtuoso, pushed):
    assert is_virtuoso(RemoteStore(virtuoso))
    assert pushed.switch == "graph-group" and pushed.method == "graph-store"
    assert pushed.triples > 1000                      # so at least 3 requests of 500
    assert pushed.count == pushed.triples == _count(virtuoso, GRAPH)
    # FROM <graph> reads the group as well as default-graph-uri does
    r = RemoteStore(virtuoso).query(f"SELECT (COUNT(*) AS ?n) FROM <{GRAPH}> WHERE {{ ?s ?p ?o }}")
    assert int(r.rows[0][0].value) == pushed.triples
    store = RemoteStore(virtuoso.replace("/sparql", "/sparql-auth"), user=USER, password=PASSWORD)
    live = Virtuoso(store, store.endpoint).versions(GRAPH)
    assert len(live) == 1 and live[0] in _versions(virtuoso)


def test_second_push_replaces_and_drops_the_old_version(virtuoso, sample_build_dir, pushed,
                                                        capsys):
    store = RemoteStore(virtuoso.replace("/sparql", "/sparql-auth"), user=USER, password=PASSWORD)
    before = Virtuoso(store, store.endpoint).versions(GRAPH)
    code = main(["push", "--endpoint", virtuoso, "--graph", GRAPH, "--user", USER,
                 "--password", PASSWORD, "--from", str(sample_build_dir), "--batch", "700"])
    err = capsys.readouterr().err
    assert code == 0 and "switched in" in err, err
    after = Virtuoso(store, store.endpoint).versions(GRAPH)
    assert len(after) == 1 and after != before
    assert before[0] not in _versions(virtuoso)       # the old version was dropped
    assert _count(virtuoso, GRAPH) == pushed.triples


@pytest.mark.parametrize("where", ["third batch", "before the switch"])
def test_failed_push_leaves_the_old_graph_whole(virtuoso, sample_build_dir, pushed, monkeypatch,
                                                where):
    n = _count(virtuoso, GRAPH)
    versions = _versions(virtuoso)
    if where == "third batch":
        real = push_module._PushJob._write
        calls = {"n": 0}

        def write(self, send):
            calls["n"] += 1
            if calls["n"] == 4:  # the probe PUT, two batches, then the connection is lost
                raise StoreError("the server hung up")
            return real(self, send)
        monkeypatch.setattr(push_module._PushJob, "_write", write)
    else:
        def interrupt(self, virt, graph_iri):
            raise KeyboardInterrupt
        monkeypatch.setattr(push_module._PushJob, "switch_group", interrupt)
    with pytest.raises(StoreError) as err:
        push(sample_build_dir, virtuoso, GRAPH, USER, PASSWORD, batch_triples=300,
             progress=False)
    assert f"the graph <{GRAPH}> on the server is unchanged" in str(err.value)
    assert "\n" not in str(err.value) and "was dropped" in str(err.value)
    assert _count(virtuoso, GRAPH) == n
    assert _versions(virtuoso) == versions            # the new version graph is gone


def test_bulk_push_of_the_sample(virtuoso_server, sample_build_dir, pushed):
    bulk = virtuoso_server.folder / "bulk"
    done = push(sample_build_dir, virtuoso_server.url, GRAPH + "-bulk", USER, PASSWORD,
                bulk=bulk, batch_triples=1000, progress=False)
    assert done.method == "bulk" and done.switch == "graph-group"
    assert done.triples == pushed.triples == done.count
    assert _count(virtuoso_server.url, GRAPH + "-bulk") == pushed.triples
    assert list(bulk.iterdir()) == []                 # its shard folder is removed


def test_bulk_folder_the_server_cannot_read_is_one_line(virtuoso, sample_build_dir, pushed,
                                                        capsys):
    # DirsAllowed of the CI server holds its own folder (and Virtuoso lets /tmp be read)
    base = Path("/var/tmp") if Path("/var/tmp").is_dir() else ROOT
    folder = Path(tempfile.mkdtemp(prefix="kg-bulk-", dir=base))
    try:
        n = _count(virtuoso, GRAPH)
        code = main(["push", "--endpoint", virtuoso, "--graph", GRAPH, "--user", USER,
                     "--password", PASSWORD, "--from", str(sample_build_dir),
                     "--bulk", str(folder)])
        err = capsys.readouterr().err
        assert code == 1 and err.count("\n") == 1, err
        assert f"cannot read {folder.resolve()}" in err and "DirsAllowed" in err
        assert "unchanged" in err and _count(virtuoso, GRAPH) == n
        assert list(folder.iterdir()) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_bulk_needs_virtuoso(tmp_path):
    from tests.store.test_remote_safety import FakeSparql

    fake = FakeSparql()
    try:
        (tmp_path / "g.nt").write_text("<urn:x> <urn:p> \"1\" .\n")
        with pytest.raises(StoreError, match="--bulk needs a Virtuoso server"):
            push(tmp_path / "g.nt", fake.url, GRAPH, bulk=tmp_path, progress=False)
        assert fake.graphs() == set()
    finally:
        fake.close()

