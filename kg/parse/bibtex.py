"""BibTeX input, parsed with bibtexparser one entry at a time.

Each ``@type{`` block is parsed on its own, so a broken entry (unbalanced
braces, say) is a warning naming its line and the rest is still read.
"""
from __future__ import annotations

import re

from kg.models import ParseWarning, Source
from kg.parse.records import Entry, ParsedEntries, marker_warning, read_track

_START = re.compile(r"^[ \t]*@([A-Za-z]+)\s*[{(]", re.M)
_SKIP_TYPES = {"comment", "preamble", "string"}
_MARKERS = frozenset({"others", "et al.", "et al", "等", "...", "…"})


def _balanced(chunk: str) -> bool:
    depth = 0
    for ch in chunk:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _person(name: str) -> str:
    """``Last, First`` to ``First Last``; braces removed."""
    name = " ".join(name.replace("{", "").replace("}", "").split())
    if "," in name:
        last, _, first = name.partition(",")
        return f"{first.strip()} {last.strip()}".strip()
    return name


def parse_bibtex(text: str, label: str) -> ParsedEntries:
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    entries: list[Entry] = []
    warnings: list[ParseWarning] = []
    skipped = 0
    starts = [m for m in _START.finditer(text)]
    for k, m in enumerate(starts):
        kind = m.group(1).lower()
        if kind in _SKIP_TYPES:
            continue
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        chunk = text[m.start():end].strip()
        line = text.count("\n", 0, m.start()) + 1
        if not _balanced(chunk):
            skipped += 1
            warnings.append(ParseWarning(label, line, "BibTeX entry skipped: unbalanced braces"))
            continue
        try:
            parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False)
            db = bibtexparser.loads(chunk, parser=parser)
        except Exception as exc:  # bibtexparser raises many kinds
            skipped += 1
            warnings.append(ParseWarning(label, line, f"BibTeX entry skipped: {exc}"))
            continue
        if not db.entries:
            skipped += 1
            warnings.append(ParseWarning(label, line, "BibTeX entry skipped: cannot be read"))
            continue
        rec = db.entries[0]
        abstract = " ".join(rec.get("abstract", "").split())
        if not abstract:
            skipped += 1
            warnings.append(ParseWarning(label, line, "BibTeX entry skipped: no abstract"))
            continue
        raw_authors = rec.get("author", "")
        names = tuple(_person(a) for a in re.split(r"\s+and\s+", raw_authors) if a.strip())
        truncated = bool(names) and names[-1].lower() in _MARKERS
        if truncated:
            names = names[:-1]
        dropped = tuple(n for n in names if n.lower() in _MARKERS)
        if dropped:
            names, truncated = tuple(n for n in names if n.lower() not in _MARKERS), True
            warnings.append(marker_warning(Source(label, line), dropped))
        track_text = rec.get("track") or rec.get("primary_area")
        title = " ".join(rec.get("title", "").replace("{", "").replace("}", "").split()) or None
        entries.append(Entry(
            authors=names,
            authors_truncated=truncated,
            abstract=abstract,
            track=read_track(track_text, Source(label, line), warnings) if track_text else None,
            title=title,
            source=Source(label, line),
        ))
    return entries, warnings, skipped
