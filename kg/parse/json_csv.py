"""Exports users' lists also come as: JSON, JSON Lines, CSV/TSV with a header.

Field names are matched loosely (``title``; ``authors``/``author``/
``creators`` as a list, a list of ``{"name": ...}`` objects, or a ``;``- or
``,``-joined string; ``track``/``topic``/``primary_area``/``area`` (+
``subarea``); ``abstract``/``summary``). A record that cannot be used is a
warning naming its line; the rest of the file is still read.
"""
from __future__ import annotations

import csv
import json
import re
import sys
from typing import Any, Iterator

from kg.errors import ParseError
from kg.models import ParseWarning, Source, Track
from kg.parse.records import Entry, marker_warning, read_track, split_authors_full
from kg.util.safetext import count_controls, strip_controls

TITLE_KEYS = ("title", "paper_title", "name")
AUTHOR_KEYS = ("authors", "author", "author_names", "authors_shown", "creators")
TRACK_KEYS = ("track", "topic", "primary_area", "area", "category", "session")
SUBAREA_KEYS = ("subarea", "sub_area", "subtopic", "secondary_area")
ABSTRACT_KEYS = ("abstract", "summary", "abstract_text", "abstractnote", "description")
TRUNC_KEYS = ("authors_truncated", "truncated")

_AND = re.compile(r"\s+and\s+", re.I)

csv.field_size_limit(sys.maxsize)


def _get(rec: dict, keys: tuple[str, ...]) -> Any:
    lowered = {str(k).strip().lower().replace(" ", "_"): v for k, v in rec.items()}
    for k in keys:
        if k in lowered and lowered[k] not in (None, ""):
            return lowered[k]
    return None


def _text(value: Any, field: str) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"'{field}' should be text, not {type(value).__name__}")


def _authors(value: Any) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
    """Names, the cut flag, and cut-list markers found inside the list."""
    if value is None:
        return (), False, ()
    if isinstance(value, str):
        text = value.strip()
        if ";" in text or "；" in text:
            parts = re.split(r"\s*[;；]\s*", text)
            return split_authors_full(", ".join(p.replace(",", " ") for p in parts))
        if _AND.search(text) and "," not in text:
            return split_authors_full(", ".join(_AND.split(text)))
        return split_authors_full(text)
    if isinstance(value, list):
        names: list[str] = []
        truncated = False
        dropped: list[str] = []
        for idx, item in enumerate(value):
            if isinstance(item, dict):
                item = item.get("name") or " ".join(
                    str(item[k]) for k in ("given", "first", "family", "last") if item.get(k))
            if not isinstance(item, str):
                raise TypeError(f"author list holds a {type(item).__name__}, not a name")
            item = " ".join(item.split())
            if item.lower() in ("等", "et al.", "et al", "...", "…"):
                truncated = True
                if any(isinstance(x, (str, dict)) and x for x in value[idx + 1:]):
                    dropped.append(item)
            elif item:
                names.append(item)
        return tuple(names), truncated, tuple(dropped)
    raise TypeError(f"'authors' should be a list or text, not {type(value).__name__}")


def _track(rec: dict, source: Source, warnings: list[ParseWarning]) -> Track | None:
    value = _get(rec, TRACK_KEYS)
    if value is None:
        return None
    area = _text(value, "track")
    sub = _get(rec, SUBAREA_KEYS)
    if sub is None and "->" in area:          # a virtual site's "Applications->Robotics"
        area, _, sub = (part.strip() for part in area.partition("->"))
        sub = sub or None
    if sub is not None:
        sub = _text(sub, "subarea")
        track = read_track(area, source, warnings) if area else None
        if track is None:
            return None
        return Track(area=area, subarea=sub, line=f"{area} · {sub}")
    return read_track(area, source, warnings) if area else None


def record_to_entry(rec: Any, source: Source, warnings: list[ParseWarning] | None = None) -> Entry:
    """One export record to an entry; raises ValueError/TypeError if unusable.

    What had to be repaired is appended to ``warnings`` (file:line of ``source``).
    """
    if warnings is None:
        warnings = []
    if not isinstance(rec, dict):
        raise TypeError(f"record is a {type(rec).__name__}, not an object")
    abstract = _get(rec, ABSTRACT_KEYS)
    if abstract is None:
        raise ValueError("record has no abstract")
    abstract = " ".join(_text(abstract, "abstract").split("\n")).strip()
    if not abstract:
        raise ValueError("record has an empty abstract")
    authors, truncated, dropped = _authors(_get(rec, AUTHOR_KEYS))
    if dropped:
        warnings.append(marker_warning(source, dropped))
    flag = _get(rec, TRUNC_KEYS)
    if isinstance(flag, bool):
        truncated = truncated or flag
    elif isinstance(flag, str):
        truncated = truncated or flag.strip().lower() in ("true", "1", "yes")
    title = _get(rec, TITLE_KEYS)
    return Entry(
        authors=authors,
        authors_truncated=truncated,
        abstract=abstract,
        track=_track(rec, source, warnings),
        title=_text(title, "title") or None if title is not None else None,
        source=source,
    )


def _clean(value: Any) -> tuple[Any, int]:
    """Every string in a decoded record without control characters, and how many went.

    JSON escapes (``\\u001b``) only become characters when decoded, after
    the file's text was cleaned, so records are cleaned again here.
    """
    if isinstance(value, str):
        n = count_controls(value)
        return (strip_controls(value), n) if n else (value, 0)
    if isinstance(value, dict):
        total, out = 0, {}
        for k, v in value.items():
            k2, a = _clean(k) if isinstance(k, str) else (k, 0)
            v2, b = _clean(v)
            out[k2] = v2
            total += a + b
        return (out, total) if total else (value, 0)
    if isinstance(value, list):
        total, items = 0, []
        for v in value:
            v2, a = _clean(v)
            items.append(v2)
            total += a
        return (items, total) if total else (value, 0)
    return value, 0


def _collect(records: Iterator[tuple[int, Any]], label: str):
    entries: list[Entry] = []
    warnings: list[ParseWarning] = []
    skipped = 0
    for line, rec in records:
        if isinstance(rec, _Bad):
            skipped += 1
            warnings.append(ParseWarning(label, line, f"record skipped: {rec.reason}"))
            continue
        rec, removed = _clean(rec)
        if removed:
            warnings.append(ParseWarning(label, line, f"{removed} control character(s) removed"))
        try:
            entries.append(record_to_entry(rec, Source(label, line), warnings))
        except (TypeError, ValueError) as exc:
            skipped += 1
            warnings.append(ParseWarning(label, line, f"record skipped: {exc}"))
    return entries, warnings, skipped


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _json_records(text: str, label: str) -> Iterator[tuple[int, Any]]:
    dec = json.JSONDecoder()
    i = len(text) - len(text.lstrip())
    if i >= len(text):
        return
    if text[i] == "{":
        try:
            obj, end = dec.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise ParseError(label, exc.lineno, f"invalid JSON: {exc.msg}") from None
        for key in ("papers", "data", "items", "records", "results", "notes"):
            if isinstance(obj.get(key), list):
                # the objects' own lines are not kept by json; re-scan the list
                j = text.find("[", text.find(f'"{key}"', i))
                yield from _json_array(text, j, label, dec)
                return
        yield _line_at(text, i), obj
        return
    if text[i] != "[":
        raise ParseError(label, _line_at(text, i), "invalid JSON: expected an array or object")
    yield from _json_array(text, i, label, dec)


def _json_array(text: str, i: int, label: str, dec: json.JSONDecoder) -> Iterator[tuple[int, Any]]:
    i += 1
    n = len(text)
    while True:
        while i < n and text[i] in " \t\r\n,":
            i += 1
        if i >= n:
            raise ParseError(label, _line_at(text, n), "invalid JSON: unterminated array")
        if text[i] == "]":
            return
        start = i
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise ParseError(label, exc.lineno, f"invalid JSON: {exc.msg}") from None
        yield _line_at(text, start), obj


def parse_json(text: str, label: str):
    return _collect(_json_records(text, label), label)


def parse_jsonl(text: str, label: str):
    def records():
        for lineno, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                yield lineno, json.loads(line)
            except json.JSONDecodeError as exc:
                yield lineno, _Bad(f"invalid JSON: {exc.msg}")

    return _collect(records(), label)


def _preview(text: str, width: int = 80) -> str:
    """``text`` cut to ``width`` characters for a one-line message.

    >>> _preview("a" * 100, 10)
    'aaaaaaaaa…'
    """
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


class _Bad:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def parse_delimited(text: str, label: str, delimiter: str):
    """CSV or TSV with a header row; fields may hold newlines and quotes."""
    lines = iter(text.split("\n"))
    reader = csv.DictReader((ln + "\n" for ln in lines), delimiter=delimiter)
    if not reader.fieldnames:
        raise ParseError(label, 1, "no header row")
    keys = {f.strip().lower() for f in reader.fieldnames if f}
    if not keys & set(ABSTRACT_KEYS):
        raise ParseError(label, 1, f"no header row with an abstract column (first row: "
                         f"{_preview(', '.join(f.strip() for f in reader.fieldnames if f))}); "
                         "add a header row naming the columns (title, authors, abstract)")

    def records():
        start = 2
        try:
            for row in reader:
                rec = {k: v for k, v in row.items() if k is not None}
                if None in row:
                    rec["__extra__"] = row[None]
                yield start, rec
                start = reader.line_num + 1
        except csv.Error as exc:
            raise ParseError(label, reader.line_num, f"invalid CSV: {exc}") from None

    def cleaned():
        for line, rec in records():
            if all(not (v or "").strip() for k, v in rec.items() if k != "__extra__"):
                continue
            rec.pop("__extra__", None)
            yield line, rec

    return _collect(cleaned(), label)
