"""A build's graph as streamed N-Triples: batches for requests, shard files for a bulk loader.

``kg push`` never holds the whole graph: :func:`ntriples_lines` reads a
``graph.nt`` line by line (a Turtle or JSON-LD file or an Oxigraph store is
parsed as a stream and written out as N-Triples lines), :func:`batches`
groups the lines into requests of a fixed number of triples and
:func:`write_shards` into files. A blank node label names one node only
within one request (or one file), so the lines that hold one (``_:``) are
set aside in a temporary file and travel together, last.
"""
from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.errors import StoreError
from kg.outputs import GRAPH_NT, GRAPH_TTL, STORE_DIR

__all__ = ["Batch", "batches", "graph_source", "ntriples_lines", "write_shards"]

#: triples per request of ``kg push`` (and per shard of ``kg push --bulk``) by default
BATCH_TRIPLES = 100_000


def graph_source(path: str | Path) -> Path:
    """The graph file (``graph.nt`` first) or store of a build folder, or ``path`` itself."""
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


def source_size(source: Path) -> int | None:
    """Bytes of an N-Triples file (what the progress bar counts), else None."""
    return source.stat().st_size if source.suffix.lower() == ".nt" and source.is_file() else None


def ntriples_lines(source: Path) -> Iterator[bytes]:
    """The N-Triples lines (each ending in a newline) of a graph file or store, streamed.

    An ``.nt`` file is passed through as it is (the server parses it; blank
    lines and comments are left out); other formats are parsed by pyoxigraph.
    """
    if source.is_file() and source.suffix.lower() == ".nt":
        with source.open("rb") as f:
            for line in f:
                text = line.strip()
                if text and not text.startswith(b"#"):
                    yield text + b"\n"
        return
    import pyoxigraph as ox

    if source.is_dir():
        from kg.store.embedded import EmbeddedStore

        with EmbeddedStore(source) as st:
            for q in st.triples():
                yield f"{q.subject} {q.predicate} {q.object} .\n".encode()
        return
    fmt = {".ttl": ox.RdfFormat.TURTLE, ".jsonld": ox.RdfFormat.JSON_LD}.get(source.suffix.lower())
    if fmt is None:
        raise StoreError(f"{source}: unknown RDF file type (expected .ttl, .nt or .jsonld)")
    try:
        for q in ox.parse(path=str(source), format=fmt):
            yield f"{q.subject} {q.predicate} {q.object} .\n".encode()
    except SyntaxError as exc:
        raise StoreError(f"{source}: {' '.join(str(exc).split())}") from None


def _has_blank_node(line: bytes) -> bool:
    """True when the line may hold a blank node (a literal holding ``_:`` is a harmless yes)."""
    return b"_:" in line


@dataclass(frozen=True)
class Batch:
    """One request's N-Triples."""

    data: bytes    #: the lines, UTF-8
    triples: int   #: how many


def batches(lines: Iterator[bytes], size: int) -> Iterator[Batch]:
    """Batches of ``size`` triples; the ones with blank nodes all in the last batch.

    Memory stays at one batch; the blank-node lines wait in a temporary file.
    """
    if size < 1:
        raise StoreError("batch size must be at least one triple")
    buf: list[bytes] = []
    blanks = 0
    with tempfile.TemporaryFile() as spool:
        for line in lines:
            if _has_blank_node(line):
                spool.write(line)
                blanks += 1
                continue
            buf.append(line)
            if len(buf) >= size:
                yield Batch(b"".join(buf), len(buf))
                buf = []
        if buf:
            yield Batch(b"".join(buf), len(buf))
        if blanks:
            spool.seek(0)
            yield Batch(spool.read(), blanks)


@dataclass(frozen=True)
class Shards:
    """The files :func:`write_shards` wrote."""

    files: tuple[Path, ...]
    triples: int
    bytes: int


def write_shards(lines: Iterator[bytes], folder: Path, size: int) -> Shards:
    """Write the lines into ``folder/part-NNNNN.nt`` files of ``size`` triples each.

    The blank-node lines go into one file of their own (a bulk loader scopes
    blank node labels to a file).
    """
    files: list[Path] = []
    total = nbytes = 0
    for batch in batches(lines, size):
        path = folder / f"part-{len(files) + 1:05d}.nt"
        path.write_bytes(batch.data)
        files.append(path)
        total += batch.triples
        nbytes += len(batch.data)
    return Shards(tuple(files), total, nbytes)
