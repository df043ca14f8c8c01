"""Entries as read from any input format, and their merge into a Corpus."""
from __future__ import annotations

import re
from dataclasses import dataclass

from kg.identity import paper_id, person_key
from kg.models import EXTRACT_CHARS, Corpus, Paper, ParseWarning, Source, Track

# A trailing "et al." marker: ` 等` (the site's), `等`, `et al.`, `...`
_TRUNCATION = re.compile(r"(?:[,，、;]\s*)?(?:\s*等+|\s+et\s+al\.?|\s*(?:\.\.\.|…))\s*$", re.I)
_SPLIT = re.compile(r"\s*[,，、;；]\s*")
_OTHER_SEPS = re.compile(r"[，、;；]")
_WS = re.compile(r"\s+")
_TRACK_SEP = re.compile(r"\s*[·・]\s*")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry as read, before duplicates are merged."""

    authors: tuple[str, ...]
    abstract: str
    source: Source
    authors_truncated: bool = False
    track: Track | None = None
    title: str | None = None


#: what a format's parser gives: the entries read, the warnings, the count of skipped entries
ParsedEntries = tuple[list[Entry], list[ParseWarning], int]


def split_authors(line: str) -> tuple[tuple[str, ...], bool]:
    """Split an author line into names (as written) and the truncation flag.

    Examples
    --------
    >>> split_authors("Ada Lovelace, Alan  Turing 等")
    (('Ada Lovelace', 'Alan Turing'), True)
    >>> split_authors("He Jia")
    (('He Jia',), False)
    """
    names, truncated, _ = split_authors_full(line)
    return names, truncated


_MARKERS = frozenset({"等", "et al.", "et al", "...", "…"})


def split_authors_full(line: str) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
    """:func:`split_authors` and the cut-list markers found *inside* the list.

    A marker (``等``, ``et al.``, ``...``) between two names is no name: it
    is dropped, the list counts as cut, and the caller warns about it.

    Examples
    --------
    >>> split_authors_full("Ada, 等, Alan")
    (('Ada', 'Alan'), True, ('等',))
    >>> split_authors_full("Ada, Alan 等")
    (('Ada', 'Alan'), True, ())
    """
    text = line.strip()
    truncated = False
    tail = text[-24:]
    m = _TRUNCATION.search(tail)
    if m:
        truncated = True
        text = text[: len(text) - len(tail) + m.start()]
    parts = _SPLIT.split(text) if _OTHER_SEPS.search(text) else text.split(",")
    names = tuple(" ".join(n.split()) if ("  " in n or "\t" in n) else n.strip() for n in parts)
    dropped = tuple(n for n in names if n.lower() in _MARKERS)
    if dropped:
        return tuple(n for n in names if n and n.lower() not in _MARKERS), True, dropped
    return tuple(n for n in names if n), truncated, ()


def marker_warning(source: Source, dropped: tuple[str, ...]) -> ParseWarning:
    """The warning for cut-list markers found inside an author list."""
    what = ", ".join(repr(d) for d in dropped)
    return ParseWarning(source.file, source.line,
                        f"{what} inside the author list is not a name: dropped, "
                        "and the list counted as cut")


def parse_track(line: str) -> Track:
    """``Area · Subarea`` (subarea may hold commas) or an area alone.

    Examples
    --------
    >>> parse_track("General Machine Learning · Online Learning, Active Learning and Bandits")
    Track(area='General Machine Learning', subarea='Online Learning, Active Learning and Bandits', line='General Machine Learning · Online Learning, Active Learning and Bandits')
    >>> parse_track("Deep Learning").subarea is None
    True
    """
    text = _WS.sub(" ", line.strip())
    parts = _TRACK_SEP.split(text, maxsplit=1)
    area = parts[0].strip()
    sub = parts[1].strip() if len(parts) > 1 else ""
    return Track(area=area, subarea=sub or None, line=text)


def read_track(text: str, source: Source, warnings: list[ParseWarning]) -> Track | None:
    """:func:`parse_track`, or None (with a warning at ``source``) when it names no area.

    Examples
    --------
    >>> w = []
    >>> read_track("· Subarea", Source("a.txt", 3), w), str(w[0])
    (None, "a.txt:3: track line '· Subarea' has no area before '·'; the paper is kept without a track")
    >>> read_track("Deep Learning", Source("a.txt", 3), w).area
    'Deep Learning'
    """
    track = parse_track(text)
    if track.area and track.area not in ("·", "・"):
        return track
    if track.line:
        warnings.append(ParseWarning(
            source.file, source.line,
            f"track line {track.line!r} has no area before '·'; the paper is kept without a track"))
    return None


def merge_entries(
    entries: list[Entry],
    warnings: list[ParseWarning],
    skipped: int,
    files: tuple[str, ...],
) -> Corpus:
    """Fold entries with the same normalised abstract into one paper each.

    The merged paper keeps every source (reading order), the first track
    any copy has, the first title, and the fuller author list. When neither
    author list holds the other, the paper keeps every name of both (the
    first list's order, then the names only the later copy has), with a
    warning naming both places.
    """
    order: dict[str, int] = {}
    papers: list[Paper] = []
    merged = 0
    for e in entries:
        pid = paper_id(e.abstract)
        i = order.get(pid)
        if i is None and len(e.abstract) > EXTRACT_CHARS:
            warnings.append(ParseWarning(e.source.file, e.source.line,
                                         f"an abstract of {len(e.abstract):,} characters: kept "
                                         f"whole; its first {EXTRACT_CHARS:,} are cleaned and "
                                         "read for mentions, the rest kept as written"))
        if i is None:
            order[pid] = len(papers)
            papers.append(Paper(
                id=pid,
                authors=e.authors,
                abstract=e.abstract,
                authors_truncated=e.authors_truncated,
                track=e.track,
                title=e.title,
                sources=(e.source,),
            ))
            continue
        merged += 1
        p = papers[i]
        authors, truncated = p.authors, p.authors_truncated
        mine = {person_key(a) for a in authors}
        theirs = {person_key(a) for a in e.authors}
        if mine <= theirs or theirs <= mine:
            if (truncated and not e.authors_truncated and e.authors) or len(e.authors) > len(authors):
                authors, truncated = e.authors, e.authors_truncated
        else:
            added = tuple(a for a in _unique(e.authors) if person_key(a) not in mine)
            authors = authors + added
            truncated = truncated or e.authors_truncated  # names may still be missing
            warnings.append(ParseWarning(
                e.source.file, e.source.line,
                f"same abstract as {p.sources[0]} but other authors; kept as one paper "
                f"with the authors of both ({len(added)} added: {', '.join(added)})"))
        papers[i] = Paper(
            id=p.id,
            authors=authors,
            abstract=p.abstract,
            authors_truncated=truncated,
            track=p.track or e.track,
            title=p.title or e.title,
            sources=p.sources + (e.source,),
        )
    return Corpus(
        papers=tuple(papers),
        entries=len(entries),
        merged=merged,
        skipped=skipped,
        warnings=tuple(warnings),
        files=files,
    )


def _unique(names: tuple[str, ...]) -> tuple[str, ...]:
    seen: set[str] = set()
    out = []
    for n in names:
        k = person_key(n)
        if k not in seen:
            seen.add(k)
            out.append(n)
    return tuple(out)
