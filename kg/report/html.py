"""``report.html``: the report as one page to read in a browser.

The page is made from ``report.md`` (:func:`kg.report.document.to_markdown`), so
both say the same: :func:`markdown_html` reads back the few constructs the
report writes (headings, tables, bullet lists, paragraphs), undoes the
Markdown escaping of :func:`kg.report.document.md_escape` and HTML-escapes every
text. It is not a general Markdown reader: anything else is shown as text.
The plots are linked relatively (``plots/*.png`` beside the page, as
``kg build`` writes them), so the page stays small and opens from disk
without a network; the CSS is inline. Deterministic: the same report gives
the same bytes.

Examples
--------
>>> page = markdown_html("# kg report\\n\\n| a | b |\\n|---|---|\\n| \\\\<script\\\\> | 1 |\\n")
>>> "<td>&lt;script&gt;</td>" in page and '<td class="n">1</td>' in page
True
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from html import escape
from urllib.parse import quote

from kg import outputs
from kg.report.data import Report
from kg.report.document import to_markdown
from kg.viz.site import page

__all__ = ["to_html", "markdown_html"]

_UNESCAPE = re.compile(r"\\(.)")
_SEPARATOR = re.compile(r"(?<!\\)\|")
_NUMBER = re.compile(r"^-?[\d,]*\.?\d+(?:e[-+]?\d+)?%?$|^n/a$")

_CSS = """body{font:15px/1.5 system-ui,sans-serif;max-width:64em;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:24px}h2{font-size:19px;margin-top:1.6em;border-bottom:1px solid #ddd}
h3{font-size:16px;margin-top:1.3em}h4{font-size:15px;margin:1em 0 .3em}
table{border-collapse:collapse;margin:.4em 0 1em;font-size:14px}
th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{border-bottom:1px solid #bbb}td.n{text-align:right;font-variant-numeric:tabular-nums}
.wide{overflow-x:auto}figure{display:inline-block;margin:.5em 1em .5em 0}
figure img{max-width:100%;width:460px;border:1px solid #eee}figcaption{color:#555;font-size:13px}
a{color:#0b63a8}"""


def _text(md: str) -> str:
    """One escaped Markdown text as HTML text."""
    return escape(_UNESCAPE.sub(r"\1", md.strip()))


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` inside a cell is not a separator)."""
    return _SEPARATOR.split(line.strip())[1:-1]


def _table(rows: list[str]) -> str:
    head, body = _cells(rows[0]), [_cells(r) for r in rows[2:]]
    th = "".join(f"<th>{_text(c)}</th>" for c in head)
    trs = []
    for r in body:
        tds = "".join((f'<td class="n">{_text(c)}</td>' if _NUMBER.match(c.strip())
                       else f"<td>{_text(c)}</td>") for c in r)
        trs.append(f"<tr>{tds}</tr>")
    return (f'<div class="wide"><table>\n<thead><tr>{th}</tr></thead>\n<tbody>\n'
            + "\n".join(trs) + "\n</tbody></table></div>")


def _blocks(markdown: str) -> Iterator[str]:
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("#"):
            level = min(len(line) - len(line.lstrip("#")), 6)
            yield f"<h{level}>{_text(line[level:])}</h{level}>"
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            yield _table(lines[i:j])
            i = j
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_text(lines[i][2:])}</li>")
                i += 1
            yield "<ul>\n" + "\n".join(items) + "\n</ul>"
        else:
            yield f"<p>{_text(line)}</p>"
            i += 1


def _plots(plots: Iterable[str]) -> str:
    figs = []
    for name in dict.fromkeys(plots):
        src = escape(quote(f"{outputs.PLOTS_DIR}/{name}"), quote=True)
        caption = escape(name.rsplit(".", 1)[0].replace("_", " "))
        figs.append(f'<figure><a href="{src}"><img src="{src}" alt="{caption}"></a>'
                    f"<figcaption>{caption}</figcaption></figure>")
    return ("<h3>Plots</h3>\n<div>" + "\n".join(figs) + "</div>") if figs else ""


def markdown_html(markdown: str, plots: Iterable[str] = (), title: str = "kg report") -> str:
    """The page of a report written as :func:`kg.report.document.to_markdown` writes it.

    ``plots`` are file names in :data:`kg.outputs.PLOTS_DIR`, shown in
    their order after the co-authorship network's measures (before its top
    authors; at the end of a report without them).
    """
    blocks = list(_blocks(markdown))
    figures = _plots(plots)
    if figures:
        at = next((i for i, b in enumerate(blocks) if b == "<h3>Top authors</h3>"), len(blocks))
        blocks.insert(at, figures)
    links = (f'<p><a href="{escape(outputs.INDEX_HTML)}">all files of the build</a> ·\n'
             f'<a href="{escape(outputs.REPORT_MD)}">Markdown</a> · '
             f'<a href="{escape(outputs.REPORT_JSON)}">JSON</a></p>')
    return page(title, _CSS, "\n".join([links, *blocks]))


def to_html(doc: Report, plots: Iterable[str] = ()) -> str:
    """``report.html`` of a report, linking ``plots`` (names in ``plots/``)."""
    return markdown_html(to_markdown(doc), plots)
