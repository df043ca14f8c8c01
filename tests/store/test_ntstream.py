"""A graph as streamed N-Triples: batches of a fixed size, blank nodes last, shard files."""
from __future__ import annotations

import itertools

import pytest

from kg.errors import StoreError
from kg.store.ntstream import batches, graph_source, ntriples_lines, source_size, write_shards

PLAIN = [f'<urn:s:{i}> <urn:p> "v {i}" .\n'.encode() for i in range(7)]
BLANK = [b'_:b1 <urn:p> "x" .\n', b'<urn:s:0> <urn:q> _:b1 .\n']


def test_batches_have_the_size_and_blank_nodes_travel_together_last():
    lines = [PLAIN[0], BLANK[0], *PLAIN[1:5], BLANK[1], *PLAIN[5:]]
    got = list(batches(iter(lines), 3))
    assert [b.triples for b in got] == [3, 3, 1, 2]
    assert got[-1].data == b"".join(BLANK)
    assert b"".join(b.data for b in got[:-1]) == b"".join(PLAIN)


def test_batches_stream_without_reading_everything_first():
    endless = (f"<urn:s:{i}> <urn:p> <urn:o> .\n".encode() for i in itertools.count())
    first, second = itertools.islice(batches(endless, 1000), 2)
    assert first.triples == second.triples == 1000
    assert second.data.startswith(b"<urn:s:1000> ")


def test_batch_size_must_be_positive():
    with pytest.raises(StoreError, match="at least one triple"):
        next(batches(iter(PLAIN), 0))


def test_ntriples_lines_of_nt_ttl_and_unknown_files(tmp_path):
    nt = tmp_path / "graph.nt"
    nt.write_bytes(b"# a comment\n\n" + b"".join(PLAIN[:2]) + b"  \n")
    assert list(ntriples_lines(nt)) == PLAIN[:2]
    assert graph_source(tmp_path) == nt and source_size(nt) == nt.stat().st_size
    ttl = tmp_path / "g.ttl"
    ttl.write_text('@prefix e: <urn:> . e:a e:p "1", "2" .\n', encoding="utf-8")
    assert sorted(ntriples_lines(ttl)) == [b'<urn:a> <urn:p> "1" .\n', b'<urn:a> <urn:p> "2" .\n']
    assert source_size(ttl) is None
    bad = tmp_path / "g.xml"
    bad.write_text("<x/>")
    with pytest.raises(StoreError, match="unknown RDF file type"):
        list(ntriples_lines(bad))
    with pytest.raises(StoreError, match="no graph here"):
        graph_source(tmp_path / "nothing")


def test_write_shards(tmp_path):
    shards = write_shards(iter([*PLAIN, *BLANK]), tmp_path, 4)
    assert [p.name for p in shards.files] == ["part-00001.nt", "part-00002.nt", "part-00003.nt"]
    assert shards.triples == 9
    assert shards.files[-1].read_bytes() == b"".join(BLANK)
    assert shards.bytes == sum(p.stat().st_size for p in shards.files)
