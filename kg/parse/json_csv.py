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
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from kg.errors import ParseError
from kg.models import JsonObject, ParseWarning, Source, Track
from kg.parse.records import Entry, ParsedEntries, marker_warning, read_track, split_authors_full
from kg.util.safetext import count_controls, strip_controls

TITLE_KEYS = ("title", "paper_title", "name")
AUTHOR_KEYS = ("authors", "author", "author_names", "authors_shown", "creators")
TRACK_KEYS = ("track", "topic", "primary_area", "area", "category", "session")
SUBAREA_KEYS = ("subarea", "sub_area", "subtopic", "secondary_area")
ABSTRACT_KEYS = ("abstract", "summary", "abstract_text", "abstractnote", "description")
TRUNC_KEYS = ("authors_truncated", "truncated")

_AND = re.compile(r"\s+and\s+", re.I)

csv.field_size_limit(sys.maxsize)


def _get(rec: JsonObject, keys: tuple[str, ...]) -> Any:
    lowered = {str(k).strip().lower().replace(" ", "_"): v for k, v in rec.items()}
    for k in keys:
        if k in lowered and lowered[k] not in (None, ""):
            return lowered[k]
    return None


def _text(value: Any, field: str) -> str:
    """A text field's value: a string, or a whole number written as text (a title "1984").

    A float, NaN, Infinity or a number too long to read is no paper text.
    """
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    what = value.what if isinstance(value, _NotText) else type(value).__name__
    raise TypeError(f"'{field}' should be text, not {what}")


class _NotText:
    """A JSON value kg keeps but never reads as text: NaN, Infinity, a huge number."""

    def __init__(self, what: str) -> None:
        self.what = what


def _constant(name: str) -> _NotText:
    return _NotText(name)


def _int(digits: str) -> int | _NotText:
    # Python refuses to read integers of more than 4,300 digits (a ValueError mid-decode)
    return int(digits) if len(digits) <= 4000 else _NotText(f"a number of {len(digits):,} digits")


_DUPLICATES = "__kg_duplicate_keys__"


def _object(pairs: list[tuple[str, Any]]) -> JsonObject:
    """A JSON object; keys written twice are noted (the last value is kept, as json does)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        counts = Counter(k for k, _ in pairs)
        out[_DUPLICATES] = sorted(k for k, n in counts.items() if n > 1)
    return out


def _decoder() -> json.JSONDecoder:
    return json.JSONDecoder(parse_constant=_constant, parse_int=_int, object_pairs_hook=_object)


_SURROGATE = re.compile("[\ud800-\udfff]")


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


def _track(rec: JsonObject, source: Source, warnings: list[ParseWarning]) -> Track | None:
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


def _walk(value: Any, fix: Callable[[str], tuple[str, int]]) -> tuple[Any, int]:
    """Every string in a decoded record passed through ``fix`` (text -> (text, count)),
    and the counts summed; the record itself where nothing changed.

    JSON escapes (``\\u001b``, ``\\ud800``) only become characters when decoded,
    after the file's text was cleaned, so records are cleaned again here.
    """
    if isinstance(value, str):
        return fix(value)
    if isinstance(value, dict):
        total, out = 0, {}
        for k, v in value.items():
            k2, a = _walk(k, fix) if isinstance(k, str) else (k, 0)
            v2, b = _walk(v, fix)
            out[k2] = v2
            total += a + b
        return (out, total) if total else (value, 0)
    if isinstance(value, list):
        total, items = 0, []
        for v in value:
            v2, a = _walk(v, fix)
            items.append(v2)
            total += a
        return (items, total) if total else (value, 0)
    return value, 0


def _controls(text: str) -> tuple[str, int]:
    n = count_controls(text)
    return (strip_controls(text), n) if n else (text, 0)


def _surrogates(text: str) -> tuple[str, int]:
    """Lone UTF-16 surrogates (half an emoji from scraped data) as U+FFFD: they cannot be
    written as UTF-8."""
    found = _SURROGATE.findall(text)
    return (_SURROGATE.sub("\ufffd", text), len(found)) if found else (text, 0)


def _collect(records: Iterator[tuple[int, Any]], label: str) -> ParsedEntries:
    entries: list[Entry] = []
    warnings: list[ParseWarning] = []
    skipped = 0
    for line, rec in records:
        if isinstance(rec, _Bad):
            skipped += 1
            warnings.append(ParseWarning(label, line, f"record skipped: {rec.reason}"))
            continue
        rec, removed = _walk(rec, _controls)
        if removed:
            warnings.append(ParseWarning(label, line, f"{removed} control character(s) removed"))
        rec, broken = _walk(rec, _surrogates)
        if broken:
            warnings.append(ParseWarning(label, line, f"{broken} broken character(s) (lone "
                                         "UTF-16 surrogates) replaced with U+FFFD"))
        if isinstance(rec, dict) and _DUPLICATES in rec:
            twice = rec.pop(_DUPLICATES)
            warnings.append(ParseWarning(label, line, f"keys written twice: {', '.join(twice)} "
                                         "(the last value is read)"))
        try:
            entries.append(record_to_entry(rec, Source(label, line), warnings))
        except (TypeError, ValueError) as exc:
            skipped += 1
            warnings.append(ParseWarning(label, line, f"record skipped: {exc}"))
    return entries, warnings, skipped


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _decode_at(dec: json.JSONDecoder, text: str, i: int, label: str) -> tuple[Any, int]:
    """One JSON value at ``i``; a one-line ParseError (file:line) for what json cannot read."""
    try:
        return dec.raw_decode(text, i)
    except json.JSONDecodeError as exc:
        raise ParseError(label, exc.lineno, f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise ParseError(label, _line_at(text, i), "invalid JSON: nested too deeply to read") \
            from None


def _json_records(text: str, label: str) -> Iterator[tuple[int, Any]]:
    dec = _decoder()
    i = len(text) - len(text.lstrip())
    if i >= len(text):
        return
    if text[i] == "{":
        obj, end = _decode_at(dec, text, i, label)
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
        obj, i = _decode_at(dec, text, i, label)
        yield _line_at(text, start), obj


def parse_json(text: str, label: str) -> ParsedEntries:
    return _collect(_json_records(text, label), label)


def parse_jsonl(text: str, label: str) -> ParsedEntries:
    dec = _decoder()

    def records() -> Iterator[tuple[int, Any]]:
        for lineno, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                yield lineno, dec.decode(line)
            except json.JSONDecodeError as exc:
                yield lineno, _Bad(f"invalid JSON: {exc.msg}")
            except RecursionError:
                yield lineno, _Bad("invalid JSON: nested too deeply to read")

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


def parse_delimited(text: str, label: str, delimiter: str) -> ParsedEntries:
    """CSV or TSV with a header row; fields may hold newlines and quotes.

    A quote opened and never closed would swallow every later record into one
    field: the record where it opens is read alone (as if closed at its line's
    end), a warning names its line, and the records after it are read as usual.
    """
    lines = text.split("\n")
    header = next(csv.reader([lines[0]], delimiter=delimiter), [])
    if not any(f.strip() for f in header):
        raise ParseError(label, 1, "no header row")
    keys = {f.strip().lower() for f in header if f}
    if not keys & set(ABSTRACT_KEYS):
        raise ParseError(label, 1, f"no header row with an abstract column (first row: "
                         f"{_preview(', '.join(f.strip() for f in header if f))}); "
                         "add a header row naming the columns (title, authors, abstract)")
    notes: list[ParseWarning] = []
    twice = sorted({f.strip() for f in header if f and
                    [h.strip().lower() for h in header].count(f.strip().lower()) > 1})
    if twice:
        notes.append(ParseWarning(label, 1, f"columns named twice: {', '.join(twice)} "
                                  "(the last one is read)"))
    entries, warnings, skipped = _collect(_delimited_records(lines, 1, header, label, delimiter,
                                                             notes), label)
    return entries, notes + warnings, skipped


def _delimited_records(lines: list[str], first: int, header: list[str], label: str,
                       delimiter: str, notes: list[ParseWarning]
                       ) -> Iterator[tuple[int, dict[str, str]]]:
    """The records of ``lines[first:]`` (1-based line numbers), a runaway quote mended."""
    pos = first
    suspect = None   # the first record whose field runs over lines that look like records
    while pos < len(lines):
        reader = csv.DictReader((ln + "\n" for ln in lines[pos:]), fieldnames=header,
                                delimiter=delimiter)
        start = pos + 1
        runaway = None
        try:
            for row in reader:
                end = pos + reader.line_num
                if end >= len(lines) and end > start and _unclosed(lines[start - 1:]):
                    runaway = start        # read to the end of the file: never closed
                    break
                if suspect is None and end > start and any(
                        ln.count(delimiter) >= len(header) - 1 for ln in lines[start:end]):
                    suspect = (start, end - start + 1)
                yield from _row(start, row)
                start = end + 1
        except csv.Error as exc:
            raise ParseError(label, pos + reader.line_num, f"invalid CSV: {exc}") from None
        if runaway is None:
            if suspect and _unclosed(lines[first:]):
                notes.append(ParseWarning(label, suspect[0], f"a quoted field here runs over "
                                          f"{suspect[1]} lines that look like records: a quote "
                                          "may be unclosed (the file has an odd number of "
                                          "quotes); check this record"))
            return
        notes.append(ParseWarning(label, runaway, "a quote opened here is never closed; "
                                  "this record is read up to its line's end and the records "
                                  "after it as usual"))
        mended = lines[runaway - 1] + '"'
        for row in csv.DictReader([mended + "\n"], fieldnames=header, delimiter=delimiter):
            yield from _row(runaway, row)
        pos = runaway


def _unclosed(lines: list[str]) -> bool:
    """Whether a quote opened in ``lines`` is never closed: quotes come in pairs (an
    escaped one is doubled), so an odd count means one stays open.

    >>> _unclosed(['T1,Ada,"We propose X.', 'T2,Bob,Y']), _unclosed(['a,"b', 'c",d'])
    (True, False)
    """
    return sum(line.count('"') for line in lines) % 2 == 1


def _row(line: int, row: dict[str | None, str]) -> Iterator[tuple[int, dict[str, str]]]:
    rec = {k: v for k, v in row.items() if k is not None}
    if all(not (v or "").strip() for v in rec.values()):
        return
    yield line, rec
