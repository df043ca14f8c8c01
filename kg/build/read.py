"""Reading a build folder back: its papers, extractions, report and counts.

The file names are :mod:`kg.build.folder`'s; what is read comes back as the
typed values the build wrote (:mod:`kg.models`, :mod:`kg.analysis.records`), with
the models' own codecs, so a build read back is the build that was written:
the same papers, mentions (with their keys and families) and acronyms.
For ``kg coauthors``, ``kg viz``, ``kg query --from`` and notebooks. The
stages after extraction read the build whole, concept mentions included (the
RDF graph, the report, the graph views know concepts).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from kg import outputs
from kg.errors import KgError
from kg.models import Build, Corpus, Extraction, JsonObject, Paper
from kg.report.data import BuildSummary, Report

__all__ = ["load_build", "read_paper_count", "read_report", "read_summary"]

T = TypeVar("T")


def _records(path: Path) -> Iterator[JsonObject]:
    """The JSON objects of a JSON Lines file (blank lines skipped).

    Raises
    ------
    KgError
        On a line that is not a JSON object, naming the file and line.
    """
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                yield obj
            except ValueError as exc:
                raise KgError(f"{path}:{n}: not a build record ({exc})") from None


def load_build(folder: str | Path = "output", *, extractions: bool = True) -> Build:
    """Read a build folder back: ``corpus.jsonl`` (+ ``extractions.jsonl``).

    Raises
    ------
    KgError
        When the folder has no ``corpus.jsonl`` (not a build) or a line is
        not valid JSON (naming the file and line).
    """
    root = Path(folder)
    path = root / outputs.CORPUS
    if not path.is_file():
        raise KgError(f"{root}: no {outputs.CORPUS} here; run 'kg build -o {root}' first "
                      "or name a build folder with --from")
    try:
        papers = tuple(Paper.from_json(o) for o in _records(path))
    except (KeyError, TypeError) as exc:
        raise KgError(f"{path}: not a build record (missing {exc})") from None
    exs: dict[str, Extraction] = {}
    ex_path = root / outputs.EXTRACTIONS
    if extractions and ex_path.is_file():
        try:
            for o in _records(ex_path):
                ex = Extraction.from_json(o)
                exs[ex.paper_id] = ex
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise KgError(f"{ex_path}: not a build record ({exc!r})") from None
    corpus = Corpus(papers=papers, entries=len(papers), files=(str(path),))
    return Build(corpus=corpus, extractions=exs)


def _json_file(path: Path) -> JsonObject:
    """The JSON object in ``path``, or a :class:`KgError` saying why there is none."""
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KgError(f"{path.parent}: no {path.name} here; run 'kg build -o {path.parent}' "
                      "first") from None
    except (OSError, ValueError) as exc:
        raise KgError(f"{path}: not readable as JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise KgError(f"{path}: not a JSON object")
    return obj


def read_report(folder: str | Path = "output") -> Report:
    """The build's ``report.json`` as a typed :class:`~kg.report.data.Report`."""
    return _read_typed(Path(folder) / outputs.REPORT_JSON, Report.from_json, "report")


def read_summary(folder: str | Path = "output") -> BuildSummary:
    """The build's ``summary.json`` as a typed :class:`~kg.report.data.BuildSummary`."""
    return _read_typed(Path(folder) / outputs.SUMMARY, BuildSummary.from_json, "summary")


def read_paper_count(folder: str | Path = "output") -> int:
    """The ``papers`` of the build's ``summary.json``, of either version.

    ``papers`` is the one key every version of the file has, with the same
    meaning (unique papers), so a build made by an older kg still says how
    many papers it holds; :func:`read_summary` reads the current version only.

    Raises
    ------
    KgError
        When there is no summary or it has no paper count.
    """
    path = Path(folder) / outputs.SUMMARY
    papers = _json_file(path).get("papers")
    if not isinstance(papers, int) or isinstance(papers, bool):
        raise KgError(f"{path}: not a kg summary (no paper count)")
    return papers


def _read_typed(path: Path, from_json: Callable[[JsonObject], T], what: str) -> T:
    try:
        return from_json(_json_file(path))
    except ValueError as exc:
        raise KgError(f"{path}: not a kg {what} ({exc})") from None
