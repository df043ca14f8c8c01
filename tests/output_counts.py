"""Every count a build folder's outputs show, read back by name from each output.

:func:`output_counts` reads ``summary.json``, ``report.json``, ``report.md``,
``report.html``, ``index.html``, the views' notes, ``authors.csv``,
``corpus.jsonl`` and the ``dataset-summary`` query's answer, each into
``{count name: number}`` (names of :class:`kg.analysis.counts.BuildCounts`;
a label written with spaces is the name with underscores). :func:`disagreements`
lists the names whose numbers differ between outputs.
"""
from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from kg import outputs, queries
from kg.analysis.counts import MEANINGS
from kg.build.read import read_report, read_summary
from kg.store import EmbeddedStore

# what each output must show at least (a parse that found nothing fails)
MUST_SHOW = {
    "summary.json": set(MEANINGS) - {"entities_by_type", "entity_mentions_by_type",
                                     "concept_mentions_by_type"},
    "report.json": {"papers", "people", "paper_person_links", "coauthor_pairs",
                    "truncated_author_lists", "entities_mentioned"},
    "report.md": {"papers", "people", "author_names", "paper_person_links", "coauthor_pairs",
                  "mention_occurrences", "entities_mentioned", "concepts_mentioned"},
    "report.html": {"papers", "people", "author_names", "paper_person_links", "coauthor_pairs",
                    "mention_occurrences", "entities_mentioned", "concepts_mentioned"},
    "index.html": {"papers", "people", "author_names", "entities_mentioned"},
    "coauthors.html": {"people", "coauthor_pairs"},
    "entities.html": {"entities_mentioned"},
    "concepts.html": {"entities_mentioned", "concepts_mentioned"},
    "authors.csv": {"people"},
    "corpus.jsonl": {"papers"},
    "dataset-summary": {"papers", "author_names", "people", "authorships", "paper_person_links",
                        "repeat_coauthor_pairs", "tracks", "mention_occurrences",
                        "entity_mentions", "concept_mentions", "entities_mentioned",
                        "concepts_mentioned", "paper_entity_links", "paper_concept_links",
                        "acronyms", "acronym_definitions"},
}

_NUMBER = r"(\d[\d,]*)"


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def _name(label: str) -> str:
    return unescape(label).replace("\\", "").strip().replace(" ", "_")


def _md_rows(md: str, section: str) -> dict[str, int]:
    """``| label | value | ...`` rows of the first table after ``section``."""
    start = md.index(section)
    out: dict[str, int] = {}
    for line in md[start:].splitlines()[2:]:
        if not line.startswith("|"):
            if out:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) >= 2 and re.fullmatch(_NUMBER, cells[1]):
            out[_name(cells[0])] = _int(cells[1])
    return out


def _html_rows(html: str, section: str) -> dict[str, int]:
    """``<tr><td>label</td><td class="n">value</td>`` rows of the first table after ``section``."""
    start = html.index(section)
    table = html[start:html.index("</table>", start)]
    return {_name(k): _int(v) for k, v in
            re.findall(r'<tr[^>]*><td>([^<]*)</td><td class="n">' + _NUMBER + "</td>", table)}


def _notes(html: str) -> str:
    return " ".join(unescape(n) for n in re.findall(r'<p class="kg-note">([^<]*)', html))


def _network_names(rows: dict[str, int]) -> dict[str, int]:
    """The whole-network table's rows that are build counts."""
    return {k: rows[k] for k in ("papers", "people", "paper_person_links", "coauthor_pairs")
            if k in rows}


def output_counts(folder: Path) -> dict[str, dict[str, int]]:
    """``{output: {count name: number}}`` for every output of the build in ``folder``."""
    got: dict[str, dict[str, int]] = {}
    got["summary.json"] = read_summary(folder).counts.numbers()

    report = read_report(folder)
    co = report.coauthors
    assert report.counts is not None
    got["report.json"] = {
        **report.counts.numbers(),
        "papers": co.productivity.papers, "people": co.productivity.people,
        "paper_person_links": co.productivity.paper_person_links,
        "coauthor_pairs": co.network.edges, "truncated_author_lists": co.caveats.truncated_papers,
    }
    # the network's own figures, beside report.json's counts: the same numbers
    assert co.network.nodes == co.productivity.people and co.caveats.papers == co.productivity.papers

    md = (folder / outputs.REPORT_MD).read_text(encoding="utf-8")
    got["report.md"] = {**_md_rows(md, "## Counts"),
                        **_network_names(_md_rows(md, "### Whole network"))}
    html = (folder / outputs.REPORT_HTML).read_text(encoding="utf-8")
    got["report.html"] = {**_html_rows(html, "<h2>Counts</h2>"),
                          **_network_names(_html_rows(html, "<h3>Whole network</h3>"))}
    got["index.html"] = _html_rows((folder / outputs.INDEX_HTML).read_text(encoding="utf-8"),
                                   "<table>")

    views = {v: _notes((folder / outputs.VIEW_FILES[v]).read_text(encoding="utf-8"))
             for v in ("coauthors", "entities", "concepts")}
    people = re.search(_NUMBER + r" people, " + _NUMBER + r" coauthor pairs", views["coauthors"])
    got["coauthors.html"] = ({"people": _int(people[1]), "coauthor_pairs": _int(people[2])}
                             if people else {})
    ent = re.search(r"of the " + _NUMBER + r" entities mentioned", views["entities"])
    got["entities.html"] = {"entities_mentioned": _int(ent[1])} if ent else {}
    con = re.search(r"of the " + _NUMBER + r" entities mentioned(?: and " + _NUMBER
                    + r" concepts mentioned)?", views["concepts"])
    got["concepts.html"] = ({"entities_mentioned": _int(con[1]),
                             "concepts_mentioned": _int(con[2] or "0")} if con else {})

    rows = (folder / outputs.AUTHORS_CSV).read_text(encoding="utf-8").splitlines()
    got["authors.csv"] = {"people": len(rows) - 1}
    lines = (folder / outputs.CORPUS).read_text(encoding="utf-8").splitlines()
    got["corpus.jsonl"] = {"papers": sum(1 for line in lines if json.loads(line))}

    store = EmbeddedStore(folder / outputs.STORE_DIR)
    got["dataset-summary"] = {str(what): int(str(n)) for what, n in
                              queries.run(store, "dataset-summary").values() if what != "triples"}
    return got


def disagreements(got: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """``{count name: {output: number}}`` for every name two outputs give different numbers,
    and ``{output: {missing name: -1}}`` for what an output should show but does not."""
    by_name: dict[str, dict[str, int]] = {}
    for output, counts in got.items():
        for name, n in counts.items():
            by_name.setdefault(name, {})[output] = n
    bad = {k: v for k, v in by_name.items() if len(set(v.values())) > 1}
    for output, names in MUST_SHOW.items():
        missing = names - set(got.get(output, {}))
        if missing:
            bad[f"missing from {output}"] = {m: -1 for m in sorted(missing)}
    unknown = {n for n in by_name if n not in MEANINGS}
    if unknown:
        bad["names that are no count"] = {n: -1 for n in sorted(unknown)}
    return bad
