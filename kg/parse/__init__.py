"""Reading inputs: listings (DESIGN.md), JSON / JSON Lines, CSV / TSV, BibTeX.

>>> from kg.parse import sniff
>>> sniff("papers.bib", "@article{x, title={T}}")
'bibtex'
>>> sniff("list.txt", "论文检索\\n\\nDeep Learning\\n")
'listing'
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from kg.errors import ParseError
from kg.models import Corpus, Paper, ParseWarning, Source
from kg.parse.decode import STDIN, decode, read_bytes
from kg.parse.records import Entry, ParsedEntries, merge_entries

FORMATS = ("listing", "json", "jsonl", "csv", "tsv", "bibtex")
_EXTENSIONS = {
    ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv",
    ".tsv": "tsv", ".tab": "tsv", ".bib": "bibtex", ".bibtex": "bibtex",
    ".txt": "listing", ".md": "listing",
}


def sniff(name: str, text: str) -> str:
    """Guess an input's format from its content, then its extension."""
    head = text.lstrip()[:4096]
    ext = _EXTENSIONS.get(Path(name).suffix.lower())
    first = head.split("\n", 1)[0].strip()
    if head.startswith("["):
        return "json"
    if head.startswith("{"):
        lines = [ln for ln in head.split("\n") if ln.strip()]
        if len(lines) > 1 and lines[0].rstrip().endswith("}"):
            try:
                json.loads(lines[0])
                return "jsonl"
            except ValueError:
                pass
        return "jsonl" if ext == "jsonl" else "json"
    if head.startswith("@") or ("\n@" in head and ext == "bibtex"):
        return "bibtex"
    lower = first.lower()
    if any(k in lower for k in ("abstract", "summary")) and len(first) < 500:
        if "\t" in first and (ext == "tsv" or first.count("\t") >= first.count(",")):
            return "tsv"
        if "," in first:
            return "csv"
    if ext in ("csv", "tsv", "json", "jsonl", "bibtex"):
        return ext
    return "listing"


STDIN_LABEL = "<stdin>"


def _label(path: Path) -> str:
    """How a file is named in sources: bundled sample files by a stable name."""
    if str(path) == STDIN:
        return STDIN_LABEL
    from kg.parse.sample import sample_files

    try:
        samples = {p.resolve(): p.name for p in sample_files()}
    except (OSError, ModuleNotFoundError):
        samples = {}
    name = samples.get(path.resolve())
    return f"sample/{name}" if name else str(path)


def read_entries(
    path: str | Path, *, format: str | None = None, max_bytes: int | None = None,
    label: str | None = None,
) -> ParsedEntries:
    """Entries of one file, with warnings and the count of skipped entries."""
    path = Path(path)
    label = label or _label(path)
    data = read_bytes(path, label, max_bytes)
    text = decode(data, label)
    fmt = format or sniff(path.name, text.text)
    if fmt not in FORMATS:
        raise ParseError(label, None, f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    if fmt == "listing":
        from kg.parse.listing import parse_listing as fn
    elif fmt == "json":
        from kg.parse.json_csv import parse_json as fn
    elif fmt == "jsonl":
        from kg.parse.json_csv import parse_jsonl as fn
    elif fmt in ("csv", "tsv"):
        from kg.parse.json_csv import parse_delimited

        def fn(text: str, label: str) -> ParsedEntries:
            return parse_delimited(text, label, "," if fmt == "csv" else "\t")
    else:
        from kg.parse.bibtex import parse_bibtex as fn
    entries, warnings, skipped = fn(text.text, label)
    if fmt == "listing":
        _refuse_non_listing(text.text, entries, label)
    warnings = list(text.warnings) + warnings
    if not entries and not skipped:
        warnings.append(ParseWarning(label, 1, f"no papers found (read as {fmt})"))
    return entries, warnings, skipped


def _refuse_non_listing(text: str, entries: list[Entry], label: str) -> None:
    """Refuse a file read as a listing that has none of a listing's shape
    (:mod:`kg.parse.shape`): a build from it would replace a good one with noise."""
    from kg.parse.shape import not_a_listing

    lines = [(n, s) for n, line in enumerate(text.split("\n"), start=1) if (s := line.strip())]
    why = not_a_listing(lines, entries)
    if why is not None:
        raise ParseError(label, why[0], f"{why[1]}; nothing was read from it")


def read_corpus(
    paths: Iterable[str | Path], *, format: str | None = None, max_bytes: int | None = None,
) -> Corpus:
    """Read every file and merge duplicate papers into one corpus.

    Warnings name each file as given (the user's path); the papers' sources and
    the corpus's files name it as :func:`recorded_names` does (no folders).
    """
    entries: list[Entry] = []
    warnings: list[ParseWarning] = []
    skipped = 0
    given = [Path(p) for p in paths]
    labels = [_label(p) for p in given]
    names = recorded_names(given, labels)
    for p, label in zip(given, labels, strict=True):
        e, w, s = read_entries(p, format=format, max_bytes=max_bytes, label=label)
        name = names[label]
        entries += e if name == label else [
            replace(x, source=Source(name, x.source.line)) for x in e]
        warnings += w
        skipped += s
    return merge_entries(entries, warnings, skipped, tuple(dict.fromkeys(names[x] for x in labels)))


def recorded_names(paths: Sequence[Path], labels: Sequence[str]) -> dict[str, str]:
    """How the outputs name each input (label -> name): its file name without folders, so
    a build's files do not depend on where it ran or hold a home folder's name. Two
    different files with one name get the first 8 hex digits of their content's SHA-256
    after it (``listing.txt#1a2b3c4d``). The bundled sample and standard input keep
    their labels.

    >>> recorded_names([Path("/home/ann/x/listing.txt")], ["/home/ann/x/listing.txt"])
    {'/home/ann/x/listing.txt': 'listing.txt'}
    """
    base = {label: label if label == STDIN_LABEL or label.startswith("sample/")
            else (Path(label).name or label) for label in labels}
    groups: dict[str, set[str]] = {}
    for label in labels:
        groups.setdefault(base[label], set()).add(label)
    names = {}
    for path, label in zip(paths, labels, strict=True):
        if len(groups[base[label]]) == 1:
            names[label] = base[label]
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:8]
            names[label] = f"{base[label]}#{digest}"
    return names


def parse_text(text: str, label: str = "<text>", format: str = "listing") -> Corpus:
    """Parse text already in memory (tests, notebooks)."""
    from kg.parse.decode import decode as _decode

    t = _decode(text.encode("utf-8"), label)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "input"
        p.write_text(t.text, encoding="utf-8")
        entries, warnings, skipped = read_entries(p, format=format, label=label)
    return merge_entries(entries, warnings, skipped, (label,))


#: the ``kg parse`` record of a paper and its inverse (the codec is :class:`kg.models.Paper`'s)
paper_to_json = Paper.to_json
paper_from_json = Paper.from_json


__all__: Sequence[str] = (
    "FORMATS", "sniff", "read_entries", "read_corpus", "parse_text", "paper_to_json",
    "paper_from_json",
)
