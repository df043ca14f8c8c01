"""The listing format of DESIGN.md: optional title line, then entries of an
optional track line, an author line and an abstract.

What each line is gets decided from the structure of the whole file, not
from the look of one line: every line gets a cost for each role it could
play (track, authors, abstract, continuation of an abstract, junk), and a
Viterbi pass picks the cheapest sequence the grammar allows::

    listing := entry*        entry := [track] authors abstract continuation*

So ``Deep Learning`` before an author line is a track, while ``He Jia``
between two abstracts is a single author, though the two look alike.
Lines that fit nowhere are skipped with a warning naming their line.
"""
from __future__ import annotations

import re
from typing import Any

from kg.models import ParseWarning, Source
from kg.parse.records import (
    Entry,
    ParsedEntries,
    marker_warning,
    read_track,
    split_authors,
    split_authors_full,
)

TITLE_LINES = frozenset({"论文检索"})

# roles
T, A, B, C, J = range(5)
_ROLE_NAMES = ("track", "authors", "abstract", "continuation", "junk")
_INF = 1e9

SENTENCE_END = re.compile(r"[.!?。](?:\s|$)")
_NAME = re.compile(r"^[^\W\d_][\w'’‘`´.\-()\s\ufffd]*$")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[^\W\d_]{2,}")
# a comma-separated list of name-shaped parts, each at most six words
_ONE = r"[^\W\d_][\w'’‘`´.\-()\ufffd]*(?: [\w'’‘`´.\-()\ufffd]+){0,5}"
_ALL_NAMES = re.compile(rf"{_ONE}(?:, {_ONE})*\Z")


# words of prose that are no part of a person's name
_PROSE_WORDS = frozenset([
    "the", "with", "and", "we", "our", "is", "are", "for", "this", "that", "which", "using", "from",
    "by", "results", "method", "methods", "model", "models", "learning", "data", "paper", "propose",
    "show", "study", "these", "their", "can", "has", "have", "been", "was", "were", "not",
])


def _prose(text: str) -> bool:
    return not _PROSE_WORDS.isdisjoint(text.lower().replace(",", " ").split())


def name_like(part: str) -> bool:
    """Whether one author as written has a person's name's shape (any case, any
    script; no prose words, at most six words)."""
    if not part or len(part) > 60:
        return False
    if part.count(" ") > 5:
        return False
    return bool(_NAME.match(part)) and not _prose(part)


def _author_cost(names: tuple[str, ...], truncated: bool, sentences: int) -> float:
    if not names:
        return _INF if not truncated else 12.0
    k = len(names)
    joined = ", ".join(names)
    if k > 1 and _ALL_NAMES.match(joined) and not _prose(joined):
        share = 1.0
    else:
        share = sum(1 for p in names if name_like(p)) / k
    if truncated and share >= 0.6:
        cost = 0.0
    elif share >= 0.999:
        cost = 0.5 if k > 1 else 1.5
    elif share >= 0.8:
        cost = 2.0 if k > 2 else 4.0
    else:
        cost = 8.0 + 10.0 * (1 - share)
    if sentences and (k < 3 or share < 0.9):
        cost += 3.0
    return cost


def role_costs(text: str) -> tuple[float, float, float]:
    """Costs of a line as (track, authors, abstract); lower is likelier.

    See :func:`line_costs`, which also returns the line split as authors.

    Examples
    --------
    >>> t, a, b = role_costs("Deep Learning · Large Language Models")
    >>> t < a and t < b
    True
    >>> t, a, b = role_costs("Ada Lovelace, Alan Turing 等")
    >>> a < t and a < b
    True
    """
    return line_costs(text)[:3]


_PROSE = (20.0, 25.0, 0.0, None)


def line_costs(text: str) -> tuple[float, float, float, tuple[tuple[str, ...], bool] | None]:
    """(track, authors, abstract) costs and the line split as authors (or None)."""
    n = len(text)
    if n > 300 and "·" not in text and n / (text.count(",") + 1) > 45 and (
        ". " in text or text[-1] in ".!?"
    ):
        return _PROSE  # plainly prose: an abstract
    sentences = 1 if SENTENCE_END.search(text) else 0
    words = text.count(" ") + 1
    # -- abstract
    if n >= 200 and sentences:
        cost_b = 0.0
    elif n >= 120 and words >= 15:
        cost_b = 1.0
    elif sentences and words >= 8:
        cost_b = 3.0
    elif words >= 12:
        cost_b = 4.0
    else:
        cost_b = 9.0
    # -- authors
    if n > 300 and n / (text.count(",") + 1) > 45:
        split = None
        cost_a = 25.0  # long prose, not a list of names
    else:
        split = split_authors(text)
        cost_a = _author_cost(split[0], split[1], sentences)
    dot = text.find("·")
    if dot < 0:
        dot = text.find("・")
    if dot >= 0:
        cost_a += 8.0
    # -- track
    if dot >= 0 and n <= 160 and not sentences:
        area = text[:dot].strip()
        cost_t = 0.0 if area and len(area) <= 60 and not _DIGIT.search(area) else 5.0
    elif n <= 60 and "," not in text and not sentences and words <= 7 and not _DIGIT.search(text):
        cost_t = 1.5
    else:
        cost_t = 20.0
    if dot >= 0:
        cost_b += 4.0 if n < 200 else 0.0
    if cost_a <= 2.0 and n < 200:
        cost_b += 10.0  # a list of names is not an abstract
    return cost_t, cost_a, cost_b, split


# Transition costs: which role may follow which (others are impossible).
_JUNK = 15.0
_MISSING_AUTHORS = 7.0     # an abstract with no author line before it
_CONT_NO_BLANK = 0.5       # a hard-wrapped abstract continues on the next line
_CONT_AFTER_BLANK = 9.0    # an abstract that continues after a blank line


#: an author line's split: the names and whether the list was cut, or None
_Split = tuple[tuple[str, ...], bool] | None


def label_lines(units: list[tuple[int, str, bool]]) -> tuple[list[int], list[_Split]]:
    """Assign a role to each non-blank line ``(lineno, text, blank_before)``.

    Returns the roles and, per line, its split as an author line (or None).
    """
    n = len(units)
    splits: list[_Split] = []
    if n == 0:
        return [], splits
    # pT..pJ: cost of the best labelling of the lines so far ending in that role;
    # the start behaves like "just after an abstract".
    back: list[tuple[int, int, int, int, int]] = []
    pT = pA = pC = pJ = _INF
    pB = 0.0
    for _, text, blank in units:
        ct, ca, cb, split = line_costs(text)
        splits.append(split)
        # the best way to have just ended an entry (abstract, continuation, junk)
        end, er = pB, B
        if pC < end:
            end, er = pC, C
        if pJ < end:
            end, er = pJ, J
        cT, bT = end + ct, er                                  # track after an entry
        cA, bA = (pT + ca, T) if pT < end else (end + ca, er)  # authors after track/entry
        cB, bB = pA + cb, A                                    # abstract after authors
        x = end + cb + _MISSING_AUTHORS                        # ... or with no author line
        if x < cB:
            cB, bB = x, er
        x = pT + cb + _MISSING_AUTHORS - 1.0
        if x < cB:
            cB, bB = x, T
        step = (_CONT_NO_BLANK + (cb if cb < 3.0 else 3.0)) if not blank else _CONT_AFTER_BLANK + cb
        cC, bC = (pB + step, B) if pB <= pC else (pC + step, C)  # an abstract goes on
        jb, jr = end, er                                       # junk: after anything
        if pT < jb:
            jb, jr = pT, T
        if pA < jb:
            jb, jr = pA, A
        cJ, bJ = jb + _JUNK, jr
        back.append((bT, bA, bB, bC, bJ))
        pT, pA, pB, pC, pJ = cT, cA, cB, cC, cJ
    prev = (pT, pA, pB, pC, pJ)
    last = min((B, C, J), key=lambda r: prev[r])
    roles = [0] * n
    r = last
    for i in range(n - 1, -1, -1):
        roles[i] = r
        r = back[i][r]
    return roles, splits


def _units(text: str) -> list[tuple[int, str, bool]]:
    """The non-blank lines of a listing as ``(lineno, text, blank_before)``, without
    its first title line."""
    units: list[tuple[int, str, bool]] = []
    blank = True
    title_seen = False
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip().strip("\ufeff\u200b")
        if not line:
            blank = True
            continue
        if line in TITLE_LINES and not title_seen:
            title_seen = True
            blank = True
            continue
        units.append((lineno, line, blank))
        blank = False
    return units


def _entry(current: dict[str, Any], label: str, warnings: list[ParseWarning]) -> Entry:
    """The entry of the lines gathered for one paper (its track, author and abstract
    lines); a marker of missing authors in the author line is warned about."""
    a, t = current["authors"], current["track"]
    track = read_track(t[1], Source(label, t[0]), warnings) if t else None
    authors, truncated = (a[2] or split_authors(a[1])) if a else ((), False)
    if a and any(m in a[1] for m in ("等", "et al", "...", "…")):
        authors, truncated, dropped = split_authors_full(a[1])
        if dropped:
            warnings.append(marker_warning(Source(label, a[0]), dropped))
    return Entry(
        authors=authors,
        authors_truncated=truncated,
        abstract=" ".join(current["abstract"]),
        track=track,
        source=Source(label, current["line"]),
    )


def _skipped_warning(label: str, lineno: int, line: str,
                     pending: list[tuple[str, int]]) -> ParseWarning:
    """The warning of the first junk line of a run, after the track and author
    lines it leaves without an abstract (``pending``: which and where)."""
    if pending:  # the entry's place is its first line; say which line failed
        return ParseWarning(
            label, pending[0][1],
            f"skipped entry: line {lineno} after its "
            + " and ".join(f"{w} line" for w, _ in pending)
            + f" is not an abstract: {_preview(line)}")
    return ParseWarning(
        label, lineno,
        f"skipped line that is not a track, author line or abstract: {_preview(line)}")


def parse_listing(text: str, label: str) -> ParsedEntries:
    """Parse listing text into entries, warnings and the count of skipped entries."""
    units = _units(text)
    roles, splits = label_lines(units)
    entries: list[Entry] = []
    warnings: list[ParseWarning] = []
    skipped = 0
    track_line: tuple[int, str, None] | None = None
    author_line: tuple[int, str, _Split] | None = None
    current: dict[str, Any] | None = None
    junk_run_start: int | None = None

    def flush() -> None:
        nonlocal current
        if current is not None:
            entries.append(_entry(current, label, warnings))
        current = None

    rows = zip(units, roles, splits, strict=True)
    for i, ((lineno, line, _blank), role, split) in enumerate(rows):
        if role != J and junk_run_start is not None:
            junk_run_start = None
        if role == T:
            flush()
            track_line, author_line = (lineno, line, None), None
        elif role == A:
            flush()
            author_line = (lineno, line, split)
        elif role == B:
            flush()
            if author_line is None:
                warnings.append(ParseWarning(label, lineno, "abstract without an author line; "
                                             "kept with no authors"))
            current = {"track": track_line, "authors": author_line, "abstract": [line],
                       "line": (track_line or author_line or (lineno,))[0]}
            track_line = author_line = None
        elif role == C:
            if current is not None:
                current["abstract"].append(line)
        elif author_line is not None and junk_run_start is None and _WORD.search(line) and (
                i + 1 == len(units) or roles[i + 1] != J):
            # one short line after an author line: a (very) short abstract, kept
            warnings.append(ParseWarning(label, lineno, f"abstract of only {_words(line)} "
                                         f"word(s): {_preview(line)}; kept"))
            current = {"track": track_line, "authors": author_line, "abstract": [line],
                       "line": (track_line or author_line)[0]}
            track_line = author_line = None
        else:  # junk
            flush()
            pending = [(what, x[0]) for what, x in (("track", track_line), ("author", author_line))
                       if x is not None]
            track_line = author_line = None
            if junk_run_start is None:
                junk_run_start = lineno
                skipped += 1
                warnings.append(_skipped_warning(label, lineno, line, pending))
    flush()
    for x in (track_line, author_line):
        if x is not None:
            skipped += 1
            warnings.append(ParseWarning(label, x[0], "entry has no abstract; skipped"))
            break
    return entries, warnings, skipped


def _words(text: str) -> int:
    return len(text.split())


def _preview(text: str, width: int = 60) -> str:
    text = text if len(text) <= width else text[: width - 1] + "…"
    return repr(text)
