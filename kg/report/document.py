"""``report.json`` and ``report.md``: the build's counts and what each counts, content, co-authorship.

:func:`report_document` puts the sections together; :func:`to_json` and
:func:`to_markdown` render them. Both are pure and deterministic (no
timings, no dates), so the same build gives byte-identical files. Names in
Markdown are escaped: they are data, never markup.

Examples
--------
>>> from kg.models import Corpus, Paper
>>> from kg.analysis import coauthor_report
>>> doc = report_document(coauthor_report(Corpus((Paper("1", ("A|x", "B"), "t"),))))
>>> md = to_markdown(doc)
>>> "A\\\\|x" in md and md.startswith("# kg report")
True
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kg.analysis.counts import MEANINGS, BuildCounts, count_label
from kg.analysis.records import AuthorRow, CoauthorReport, Counts
from kg.extract.labels import paper_label
from kg.models import Build
from kg.report.data import ContentTables, ExtractionSummary, Report
from kg.report.exports import table_csv

if TYPE_CHECKING:
    from kg.analysis.centrality import AuthorMetrics

__all__ = ["report_document", "to_json", "to_markdown", "md_escape", "authors_csv", "papers_csv"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def md_escape(text: object) -> str:
    """Text safe inside Markdown (and a table cell): no markup, one line.

    Examples
    --------
    >>> md_escape("*Ann* | <b>\\nLee")
    '\\\\*Ann\\\\* \\\\| \\\\<b\\\\> Lee'
    """
    text = _CONTROL.sub("", re.sub(r"\s+", " ", str(text)).strip())
    return _MD_SPECIAL.sub(r"\\\1", text)


def report_document(coauthors: CoauthorReport | Mapping[str, Any],
                    counts: BuildCounts | Mapping[str, Any] | None = None,
                    extraction: ExtractionSummary | Mapping[str, Any] | None = None,
                    content: ContentTables | Mapping[str, Any] | None = None) -> Report:
    """The ``report.json`` document: ``counts``, ``extraction``, ``coauthors``, ``content``.

    ``counts`` is the build's :func:`kg.analysis.counts.build_counts` (the
    record ``summary.json`` holds), ``extraction``
    :func:`kg.analysis.extraction_summary` (the top entities), ``content``
    :func:`kg.analysis.content_tables`; each may be ``None`` (left out).
    Each part may be its typed value or its JSON (a dict).
    """
    return Report(counts=BuildCounts.from_json(counts) if counts is not None else None,
                  extraction=(ExtractionSummary.from_json(extraction)
                              if extraction is not None else None),
                  coauthors=CoauthorReport.from_json(coauthors),
                  content=ContentTables.from_json(content) if content is not None else None)


def to_json(doc: Report | Mapping[str, Any]) -> str:
    """Stable JSON text (UTF-8 names kept, two-space indent, final newline)."""
    plain = doc.to_json() if isinstance(doc, Report) else doc
    return json.dumps(plain, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _f(x: float | None, digits: int = 4) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}"
    if x == 0:
        return "0"
    if abs(x) < 10 ** -digits:
        return f"{x:.2e}"
    return f"{x:,.{digits}f}".rstrip("0").rstrip(".")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _table(header: list[str], rows: Iterable[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        out.append("| " + " | ".join(r) + " |")
    return out + [""]


def _dist(dist: Sequence[Sequence[int]], limit: int = 12) -> str:
    shown = ", ".join(f"{k}: {n:,}" for k, n in dist[:limit])
    return shown + (f", … ({len(dist) - limit} more values)" if len(dist) > limit else "")


def _counts(c: Counts, digits: int = 3) -> str:
    """mean / median / max of a count."""
    return f"{_f(c.mean, digits)} / {_f(c.median)} / {_f(c.max)}"


def _same_people(top: Sequence[AuthorRow], other: Sequence[AuthorRow]) -> bool:
    """Whether two top lists name the same authors in the same order (one says nothing new)."""
    return [a.name for a in top] == [a.name for a in other[:len(top)]]


def _content_md(c: ContentTables) -> Iterator[str]:
    """Tracks, entities by type, concepts, proposed names, tracks x entities."""
    yield "## Content"
    yield ""
    if c.tracks:
        yield "### Papers and people per track"
        yield ""
        yield from _table(["track", "papers", "people"], [
            [md_escape(t.track), _f(t.papers), _f(t.authors)] for t in c.tracks])
    if not c.tracks:
        yield "No paper has a track: the tables per track are left out."
        yield ""
    elif c.papers_without_track:
        yield f"Papers without a track: {_f(c.papers_without_track)}."
        yield ""
    if c.entities_by_type:
        yield "### Top entities by type"
        yield ""
        yield "Papers mentioning each entity."
        yield ""
        yield from _table(["type", "entities (papers)"], [
            [md_escape(ty), ", ".join(f"{md_escape(n)} ({_f(k)})" for n, k in top)]
            for ty, top in c.entities_by_type.items()])
    if c.top_concepts:
        yield "### Top concepts"
        yield ""
        yield ("Papers mentioning each concept (a method, model class, task, field or metric), "
               "beside the top entities above.")
        yield ""
        yield from _table(["concept", "type", "papers"], [
            [md_escape(n), md_escape(ty.replace("_", " ")), _f(k)] for n, ty, k in c.top_concepts])
    if c.concepts_by_track:
        yield "### Top concepts per track"
        yield ""
        yield from _table(["track", "concepts (papers)"], [
            [md_escape(t.track), ", ".join(f"{md_escape(n)} ({_f(k)})" for n, k in t.concepts)]
            for t in c.concepts_by_track])
    if c.proposed_by_track:
        yield "### Proposed names per track"
        yield ""
        yield "What papers propose (papers proposing each name)."
        yield ""
        yield from _table(["track", "papers proposing", "names (papers)"], [
            [md_escape(t.track), _f(t.papers_proposing),
             ", ".join(f"{md_escape(n)} ({_f(k)})" for n, k in t.names)]
            for t in c.proposed_by_track])
    te = c.track_entities
    if te.entities and te.rows:
        yield "### Tracks and entities"
        yield ""
        yield "Papers of each track mentioning each of the most mentioned entities."
        yield ""
        yield from _table(["track", *(f"{md_escape(n)} ({md_escape(ty)})" for n, ty in te.entities)],
                          [[md_escape(r.track), *(_f(k) for k in r.papers)] for r in te.rows])


def _coauthor_md(r: CoauthorReport) -> Iterator[str]:
    prod, net, cav = r.productivity, r.network, r.caveats
    lc = net.largest_component
    yield "## Co-authorship network"
    yield ""
    yield "### What the data cannot tell"
    yield ""
    for note in cav.notes:
        yield f"- {note}"
    if cav.name_variant_examples:
        ex = "; ".join(" / ".join(md_escape(n) for n in g) for g in cav.name_variant_examples[:5])
        yield f"- examples of names that may be one person: {ex}"
    yield ""
    yield "### Whole network"
    yield ""
    fit = prod.lotka
    rows = [
        ["papers", _f(prod.papers)],
        ["people", _f(prod.people)],
        ["paper person links", _f(prod.paper_person_links)],
        ["papers per author (mean / median / max)", _counts(prod.papers_per_author)],
        ["authors per paper (mean / median / max)", _counts(prod.authors_per_paper)],
        ["single-author papers", _f(prod.single_author_papers)],
        ["Lotka exponent β (R²)", f"{_f(fit.beta, 3)} ({_f(fit.r2, 3)})" if fit else "n/a"],
        ["collaborators per author (mean / median / max)", _counts(net.collaborators_per_author)],
        ["coauthor pairs", _f(net.edges)],
        ["authors without co-authors", _f(net.isolates)],
        ["components", _f(net.components.count)],
        ["largest component", f"{_f(net.components.largest)} authors "
                              f"({_pct(net.components.largest_share)})"],
        ["density", _f(net.density, 6)],
        ["transitivity (global clustering)", _f(net.transitivity)],
        ["mean local clustering", _f(net.mean_clustering)],
        ["degree assortativity", _f(net.degree_assortativity)],
        ["mean distance in the largest component", _f(lc.mean_distance, 3)],
        ["diameter of the largest component",
         _f(lc.diameter) + ("" if lc.exact else " (lower bound)")],
    ]
    yield from _table(["measure", "value"], rows)
    yield f"Distances: {lc.method}."
    yield ""
    yield f"- papers per author: {_dist(prod.papers_per_author.distribution)}"
    yield f"- authors per paper: {_dist(prod.authors_per_paper.distribution)}"
    yield f"- collaborators per author: {_dist(net.collaborators_per_author.distribution)}"
    yield ""

    yield "### Top authors"
    yield ""
    method = r.centrality.method
    for metric, title in (("papers", "papers"), ("collaborators", "collaborators"),
                          ("strength", "collaboration strength"), ("betweenness", "betweenness"),
                          ("closeness", "closeness"), ("eigenvector", "eigenvector centrality"),
                          ("pagerank", "PageRank")):
        top = r.centrality.top.get(metric, ())[:10]
        if not top or (metric == "strength" and _same_people(top, r.centrality.top["papers"])):
            continue
        yield f"#### By {title}"
        yield ""
        how = getattr(method, metric, None)
        if how:
            yield f"{how[:1].upper()}{how[1:]}."
            yield ""
        extra = [c for c in ("papers", "collaborators") if c != metric]
        yield from _table(
            ["#", "author", title, *extra, "community"],
            [[str(i), md_escape(a.name), _f(getattr(a, metric), 6),
              *(_f(getattr(a, c)) for c in extra), _f(a.community)]
             for i, a in enumerate(top, 1)])

    com = r.communities
    yield "### Communities"
    yield ""
    yield f"{com.method[:1].upper()}{com.method[1:]}."
    yield ""
    yield from _table(["method", "communities", "of more than one author", "largest", "modularity"], [
        [m, _f(p.count), _f(p.non_singleton), _f(p.largest), _f(p.modularity)]
        for m, p in (("leiden", com.leiden), ("louvain", com.louvain))])
    yield "Largest Leiden communities:"
    yield ""
    yield from _table(["id", "authors", "papers", "leading authors", "tracks", "entities"], [
        [str(c.id), _f(c.size), _f(c.papers),
         ", ".join(md_escape(n) for n, _ in c.authors),
         ", ".join(f"{md_escape(t)} ({n})" for t, n in c.tracks) or "–",
         ", ".join(f"{md_escape(t)} ({n})" for t, n in c.entities) or "–"]
        for c in (com.leiden.top or ())[:10]])

    yield "### Strongest collaborations"
    yield ""
    yield "Collaboration strength (Newman): each joint paper with n authors adds 1/(n-1)."
    yield ""
    yield from _table(["#", "pair", "joint papers", "strength"], [
        [str(i), f"{md_escape(p.a)} – {md_escape(p.b)}", _f(p.papers), _f(p.weight, 3)]
        for i, p in enumerate(r.strongest_pairs.by_weight[:10], 1)])

    ego = r.ego
    if ego:
        yield f"### Ego network of {md_escape(ego.name)} (most collaborators)"
        yield ""
        yield (f"{_f(ego.papers)} papers, {_f(ego.degree)} collaborators; the ego network "
               f"has {_f(ego.ego_nodes)} authors and {_f(ego.ego_edges)} links "
               f"(density {_f(ego.density, 3)}, clustering {_f(ego.clustering, 3)}).")
        yield ""
        yield from _table(["collaborator", "joint papers", "strength"], [
            [md_escape(n), _f(p), _f(w, 3)] for n, p, w in ego.collaborators[:10]])


def _counts_md(counts: BuildCounts) -> Iterator[str]:
    """The build's counts, each with what it counts (the report's glossary)."""
    yield "## Counts"
    yield ""
    yield ("Each count has one name, the same in summary.json, report.json, index.html, the "
           "views and the dataset-summary query; what it counts:")
    yield ""
    yield from _table(["count", "value", "what it counts"], [
        [md_escape(count_label(k)), _f(v), md_escape(MEANINGS[k])]
        for k, v in counts.numbers().items()])
    for name in ("entities_by_type", "entity_mentions_by_type", "concept_mentions_by_type"):
        by_type: Mapping[str, int] = getattr(counts, name)
        if by_type:
            shown = ", ".join(f"{md_escape(t.replace('_', ' '))} {_f(n)}" for t, n in by_type.items())
            yield f"- {md_escape(count_label(name))}: {shown}"
    yield ""


def to_markdown(doc: Report | Mapping[str, Any]) -> str:
    """The report as Markdown (sections for the counts, top entities, content, co-authors)."""
    report = Report.from_json(doc)
    lines = ["# kg report", ""]
    if report.counts:
        lines += list(_counts_md(report.counts))
    ex = report.extraction
    if ex and ex.top_entities:
        lines += ["## Most mentioned entities", "", "Papers mentioning each entity.", ""]
        lines += _table(["entity", "type", "papers"], [
            [md_escape(n), md_escape(t), _f(c)] for n, t, c in ex.top_entities[:15]])
    if report.content:
        lines += list(_content_md(report.content))
    lines += list(_coauthor_md(report.coauthors))
    return "\n".join(lines).rstrip() + "\n"


def authors_csv(metrics: AuthorMetrics, tracks: Mapping[str, Iterable[str]] | None = None,
                community: Mapping[str, int] | None = None) -> Iterator[str]:
    """Every author's measures as CSV (``authors.csv``), in key order.

    ``metrics`` is a :class:`kg.analysis.AuthorMetrics`; floats are written
    with 6 significant digits. The last two columns: ``tracks`` (the labels
    of the author's papers' tracks, sorted, ``; ``-joined; from ``tracks``,
    by person key) and ``community`` (Leiden community id, from
    ``community``); empty where not given.
    """
    cols = ["name", "papers", "collaborators", "strength", "degree_centrality", "betweenness",
            "closeness", "eigenvector", "pagerank"]
    data = [metrics.columns[c] for c in cols]
    tracks = tracks or {}
    community = community or {}

    def cell(v: object) -> object:
        return float(f"{v:.6g}") if isinstance(v, float) else v

    def extra(key: str) -> list[str | int]:
        c = community.get(key)
        return ["; ".join(sorted(set(tracks.get(key, ())))), "" if c is None else c]

    rows = ([k] + [cell(col[i]) for col in data] + extra(k) for i, k in enumerate(metrics.keys))
    return table_csv(["key"] + cols + ["tracks", "community"], rows)


def papers_csv(build: Build) -> Iterator[str]:
    """Every paper as CSV (``papers.csv``), in corpus order: ``id``, ``label`` (the
    paper's one label, :func:`kg.extract.labels.paper_label`, as in the graph and
    the views), ``title`` (empty where the listing has none), ``authors``
    (``; ``-joined, as listed), ``authors_truncated``, ``track`` and ``proposes``
    (the names it proposes, ``; ``-joined).

    >>> from kg.models import Corpus, Paper
    >>> p = Paper("p1", ("Ann Lee",), "We study sparse attention.")
    >>> "".join(papers_csv(Build(Corpus((p,))))).splitlines()[1]
    'p1,Lee — sparse attention,,Ann Lee,false,,'
    """
    rows = []
    for p in build.corpus.papers:
        ex = build.extractions.get(p.id)
        rows.append([p.id, paper_label(p, ex), p.title or "", "; ".join(p.authors),
                     p.authors_truncated, p.track.label if p.track is not None else "",
                     "; ".join(ex.proposed) if ex is not None else ""])
    return table_csv(["id", "label", "title", "authors", "authors_truncated", "track", "proposes"],
                     rows)
