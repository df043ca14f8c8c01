"""``index.html``: one page linking every view, report and graph file of a build.

Pure: it gets the names of the files present (relative, ``/``-separated; a
folder as ``name/``) and returns the page. Names are percent-encoded in
links and HTML-escaped in text, so an odd file name stays a file name.

Examples
--------
>>> page = index_html(["kg.html", "report.html", "graph.ttl", "store/", "x<y>.html"])
>>> 'href="kg.html"' in page, 'href="x%3Cy%3E.html"' in page, "x&lt;y&gt;.html" in page
(True, True, True)
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape
from urllib.parse import quote

from kg import outputs
from kg.analysis.counts import MEANINGS, BuildCounts, count_label

__all__ = ["index_html", "page", "DESCRIPTIONS", "INDEX_COUNTS"]

#: The counts ``index.html`` shows (names of :class:`~kg.analysis.counts.BuildCounts`).
INDEX_COUNTS = ("entries", "papers", "author_names", "people", "authorships",
                "mention_occurrences", "entities_mentioned", "concepts_mentioned")

#: What each known output file is, by section (names from :mod:`kg.outputs`).
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "Interactive views": {
        outputs.KG_HTML: "the overview: tracks and the most mentioned concepts and entities",
        outputs.CONCEPTS_HTML: "the concept map: terms clustered and linked by association strength",
        outputs.COAUTHORS_HTML: "the co-authorship network, coloured by community",
        outputs.ENTITIES_HTML: "models, methods and datasets linked when a paper mentions both",
    },
    "Report": {
        outputs.REPORT_HTML: "the report: tracks, entities, co-authorship statistics and plots",
        outputs.REPORT_MD: "the same report as Markdown",
        outputs.REPORT_JSON: "the same report as JSON",
        outputs.SUMMARY: "counts of the build",
        outputs.AUTHORS_CSV: "every author's papers, collaborators and centralities",
        outputs.PAPERS_CSV: "every paper: its label, title, authors, track and what it proposes",
    },
    "Graph files": {
        outputs.GRAPH_TTL: "the RDF graph (Turtle)",
        outputs.GRAPH_NT: "the RDF graph (N-Triples)",
        outputs.GRAPH_JSONLD: "the RDF graph (JSON-LD)",
        f"{outputs.STORE_DIR}/": "the embedded SPARQL store (kg query)",
        outputs.GRAPH_GRAPHML: "the knowledge graph for Gephi and other tools (GraphML)",
        outputs.COAUTHORS_GRAPHML: "the co-authorship graph with measures and communities (GraphML)",
        outputs.COAUTHORS_GEXF: "the co-authorship graph for Gephi (GEXF)",
        outputs.VOSVIEWER_MAP: "the co-authorship network: VOSviewer map file",
        outputs.VOSVIEWER_NETWORK: "the co-authorship network: VOSviewer network file",
        outputs.CONCEPTS_VOSVIEWER_MAP: "the concept map as a VOSviewer term map: map file",
        outputs.CONCEPTS_VOSVIEWER_NETWORK: "the concept map as a VOSviewer term map: network file",
    },
    "Data": {
        outputs.CORPUS: "the unique papers, one a line",
        outputs.EXTRACTIONS: "the entities mentioned in each paper",
    },
}

_CSS = """body{font:15px/1.5 system-ui,sans-serif;max-width:52em;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:22px}h2{font-size:17px;margin-top:1.4em;border-bottom:1px solid #ddd}
ul{padding-left:1.2em}li{margin:.2em 0}a{color:#0b63a8}span.d{color:#555}
table{border-collapse:collapse}td{padding:1px 12px 1px 0}td.n{text-align:right}"""


def page(title: str, css: str, body: str) -> str:
    """A self-contained HTML page of kg's: ``body`` is HTML already escaped.

    >>> "<title>a &lt;b&gt;</title>" in page("a <b>", "", "<p>x</p>")
    True
    """
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="data:,">
<style>{css}</style>
</head>
<body>
{body}
</body>
</html>
"""


def _section(name: str) -> str:
    for section, known in DESCRIPTIONS.items():
        if name in known:
            return section
    if name.endswith(".html"):
        return "Interactive views"
    if name.startswith(f"{outputs.PLOTS_DIR}/"):
        return "Report"
    return "Other files"


def index_html(names: Iterable[str], title: str = "kg build",
               counts: BuildCounts | None = None) -> str:
    """The index page linking ``names`` (files present in the build folder).

    Parameters
    ----------
    names : iterable of str
        Relative paths (``plots/x.png``), folders ending in ``/``;
        ``index.html`` itself is skipped.
    title : str
        The page heading.
    counts : BuildCounts, optional
        The build's counts (:func:`kg.analysis.counts.build_counts`, as in
        ``summary.json``): :data:`INDEX_COUNTS` are shown, under their names,
        each with what it counts as its tooltip.
    """
    sections: dict[str, list[str]] = {s: [] for s in (*DESCRIPTIONS, "Other files")}
    for name in dict.fromkeys(names):
        if name == outputs.INDEX_HTML or not name:
            continue
        sections[_section(name)].append(name)
    order = {n: i for s in DESCRIPTIONS.values() for i, n in enumerate(s)}
    parts = [f"<h1>{escape(title)}</h1>"]
    if counts is not None:
        numbers = counts.numbers()
        cells = "".join(f'<tr title="{escape(MEANINGS[k])}"><td>{escape(count_label(k))}</td>'
                        f'<td class="n">{numbers[k]:,}</td></tr>' for k in INDEX_COUNTS)
        parts.append(f"<table>{cells}</table>")
    for section, items in sections.items():
        if not items:
            continue
        items.sort(key=lambda n: (order.get(n, len(order)), n))
        known = DESCRIPTIONS.get(section, {})
        lis = []
        for n in items:
            desc = known.get(n) or ("a saved view" if n.endswith(".html") else
                                    "plot" if n.startswith(f"{outputs.PLOTS_DIR}/") else "")
            lis.append(f'<li><a href="{escape(quote(n), quote=True)}">{escape(n)}</a>'
                       + (f' <span class="d">— {escape(desc)}</span>' if desc else "") + "</li>")
        parts.append(f"<h2>{escape(section)}</h2>\n<ul>\n" + "\n".join(lis) + "\n</ul>")
    return page(title, _CSS, "\n".join(parts))
