"""Serialisation: N-Triples text or file -> Turtle and JSON-LD, by pyoxigraph.

The triples keep the writer's order; the Turtle header lists the kg
prefixes in one fixed order (:data:`kg.rdf.vocab.PREFIXES`), so the files are
byte-identical across runs.
"""
from __future__ import annotations

from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

from kg.rdf.vocab import PREFIXES

if TYPE_CHECKING:
    import pyoxigraph as ox

__all__ = ["parse_ntriples", "to_jsonld", "to_turtle"]


def parse_ntriples(source: bytes | str | Path) -> ox.QuadParser:
    """The triples of N-Triples text (bytes or str) or of an N-Triples file, as pyoxigraph
    parses them (an iterator of quads in the default graph)."""
    import pyoxigraph as ox

    if isinstance(source, (bytes, str)) and not isinstance(source, Path):
        return ox.parse(source, ox.RdfFormat.N_TRIPLES)
    return ox.parse(path=str(source), format=ox.RdfFormat.N_TRIPLES)


_PREFIX_HEADER = "".join(f"@prefix {p}: <{ns}> .\n" for p, ns in PREFIXES.items()).encode()


class _HeaderFixer:
    """Replace the serialiser's ``@prefix`` lines by :data:`_PREFIX_HEADER`.

    pyoxigraph writes the prefixes in the order of an internal map; this keeps
    the header in one fixed order so the file is byte-identical across runs.
    """

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh
        self.head = b""
        self.done = False

    def write(self, data: bytes) -> int:
        if self.done:
            return self.fh.write(data)
        self.head += bytes(data)
        lines = self.head.split(b"\n")
        n = 0
        while n < len(lines) - 1 and lines[n].startswith(b"@prefix "):
            n += 1
        if n < len(lines) - 1 or n >= len(PREFIXES):
            self.done = True
            self.fh.write(_PREFIX_HEADER + b"\n".join(lines[n:]))
        return len(data)

    def flush(self) -> None:
        if not self.done:
            self.done = True
            self.fh.write(self.head)
        self.fh.flush()


def to_turtle(ntriples: bytes | Path, output: IO[bytes] | Path | None = None) -> bytes | None:
    """N-Triples (bytes, or a file) -> Turtle with the kg prefixes, in the same order.

    Returns the bytes when ``output`` is ``None``; otherwise writes there.
    """
    import io

    import pyoxigraph as ox

    if output is None:
        buf = io.BytesIO()
        to_turtle(ntriples, buf)
        return buf.getvalue()
    if isinstance(output, Path):
        with open(output, "wb") as fh:
            return to_turtle(ntriples, fh)
    fixer = _HeaderFixer(output)
    ox.serialize(parse_ntriples(ntriples), cast(IO[bytes], fixer), ox.RdfFormat.TURTLE,
                 prefixes=PREFIXES)
    fixer.flush()
    return None


def to_jsonld(ntriples: bytes | Path, output: IO[bytes] | Path | None = None) -> bytes | None:
    """N-Triples (bytes, or a file) -> JSON-LD (expanded form), in the same order.

    Returns the bytes when ``output`` is ``None``; otherwise writes there.
    """
    import pyoxigraph as ox

    out = str(output) if isinstance(output, Path) else output
    return ox.serialize(parse_ntriples(ntriples), out, ox.RdfFormat.JSON_LD)
