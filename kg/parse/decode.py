"""From the bytes of an input file to text lines, whatever the encoding quirks.

Handles a UTF-8 BOM, UTF-16/32 with BOM (and BOM-less UTF-16 that is
plainly so), CRLF and lone CR line ends, NUL bytes and invalid UTF-8
sequences mid-file (replaced, each reported with its line), and refuses
binary files and files over a size limit.
"""
from __future__ import annotations

import codecs
import sys
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputTooLarge, ParseError
from kg.models import ParseWarning
from kg.util.safetext import CONTROL as _CONTROL

DEFAULT_MAX_BYTES = 512 * 1024 * 1024
STDIN = "-"          # the file name that stands for standard input

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True, slots=True)
class Text:
    """Decoded text of one input with what decoding had to repair."""

    label: str
    text: str
    encoding: str
    warnings: tuple[ParseWarning, ...] = ()


def read_bytes(path: str | Path, label: str, max_bytes: int | None = None) -> bytes:
    """Read a file (``-``: standard input), refusing it (one line) when over ``max_bytes``."""
    limit = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    p = Path(path)
    if str(path) == STDIN:
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputTooLarge(label, None,
                                f"input is over the limit of {limit:,} bytes (--max-bytes)")
        return data
    try:
        size = p.stat().st_size
        if p.is_dir():
            raise ParseError(label, None, "is a directory, not a listing file")
        if size > limit:
            raise InputTooLarge(
                label, None, f"file is {size:,} bytes, over the limit of {limit:,} bytes (--max-bytes)"
            )
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError:
        raise ParseError(label, None, "no such file") from None
    except PermissionError:
        raise ParseError(label, None, "permission denied") from None
    except IsADirectoryError:
        raise ParseError(label, None, "is a directory, not a listing file") from None
    except OSError as exc:
        raise ParseError(label, None, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputTooLarge(label, None, f"file is over the limit of {limit:,} bytes (--max-bytes)")
    return data


def _guess_utf16(data: bytes) -> str | None:
    """BOM-less UTF-16: every other byte NUL in the first kilobyte."""
    head = data[:1024]
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > 0.7 * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.7 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode(data: bytes, label: str) -> Text:
    """Decode an input's bytes to text with ``\\n`` line ends.

    Raises :class:`ParseError` for binary or undecodable data; repairs and
    reports (as warnings) isolated invalid sequences and control characters.
    """
    warnings: list[ParseWarning] = []
    encoding = None
    body = data
    for bom, enc in _BOMS:
        if data.startswith(bom):
            encoding, body = enc, data[len(bom):]
            break
    if encoding is None:
        encoding = _guess_utf16(data)
    if encoding and encoding != "utf-8":
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(label, None, f"not valid {encoding.upper()}: {exc.reason}") from None
    else:
        encoding = "utf-8"
        head = body[:8192]
        if head.count(0) > max(2, len(head) // 100):
            raise ParseError(label, _line_of(body, head.index(0)),
                             "binary file, not a listing (NUL bytes)")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = body.decode("utf-8", errors="replace")
            bad = text.count("\ufffd")
            latin = body.decode("utf-8", errors="ignore").isascii()
            if not latin and bad <= max(16, len(body) // 50):
                for line, n in _bad_lines(body):
                    warnings.append(ParseWarning(
                        label, line, f"{n} invalid UTF-8 byte(s) replaced by U+FFFD"))
            else:
                text = body.decode("cp1252", errors="replace")
                if len(_CONTROL.findall(text[:65536])) > len(text[:65536]) // 200 + 2:
                    raise ParseError(label, None,
                                     "binary file, not a listing (not UTF-8 or UTF-16 text)"
                                     ) from None
                encoding = "cp1252"
                warnings.append(ParseWarning(label, 1, "not UTF-8: read as Windows-1252"))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _CONTROL.search(text):
        text = _strip_controls(text, label, warnings)
    if text.startswith("\ufeff"):
        text = text[1:]
    return Text(label=label, text=text, encoding=encoding, warnings=tuple(warnings))


def _strip_controls(text: str, label: str, warnings: list[ParseWarning]) -> str:
    """Remove control characters, one warning per line that held any."""
    pieces: list[str] = []
    last = 0
    line, counted_to = 1, 0
    per_line: dict[int, int] = {}
    for m in _CONTROL.finditer(text):
        line += text.count("\n", counted_to, m.start())
        counted_to = m.start()
        per_line[line] = per_line.get(line, 0) + 1
        pieces.append(text[last:m.start()])
        last = m.end()
    pieces.append(text[last:])
    for ln, n in per_line.items():
        warnings.append(ParseWarning(label, ln, f"{n} control character(s) removed"))
    return "".join(pieces)


def _bad_lines(body: bytes) -> list[tuple[int, int]]:
    """(line, invalid byte count) for each line holding invalid UTF-8."""
    out = []
    for i, raw in enumerate(body.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            n = len(raw) - len(raw.decode("utf-8", errors="ignore").encode("utf-8"))
            out.append((i, n))
    return out
