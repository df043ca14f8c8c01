"""One self-contained HTML page per view: everything inlined, nothing fetched.

vis-network's JavaScript and CSS are read from the files the pyvis package
ships (``pyvis/templates/lib/vis-9.1.2``) and inlined, as are kg's own page
script and style (``kg/viz/templates/viz.js``, ``viz.css``). The page links no
CDN, no Bootstrap, no ``lib/`` folder, and declares an empty favicon so a
browser asks for nothing: it opens from disk with networking off.

Escaping: the heading, notes, legend and track names go through
:func:`html.escape`; the graph data is JSON in a ``<script
type="application/json">`` block with ``<``, ``>`` and ``&`` written as
``\\u003c`` … so no text can close the block; the page script puts names and
abstracts into the DOM only as text. The output has no random parts: the
same network gives the same bytes.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from html import escape
from importlib.resources import files
from pathlib import Path

from pyvis.network import Network

from kg.models import JsonObject
from kg.viz.style import KIND_GROUPS, RELATIONS

__all__ = ["to_html", "vis_assets", "script_json", "VIS_VERSION"]

VIS_VERSION = "9.1.2"
_SOURCE_MAP = re.compile(r"^\s*//[#@] sourceMappingURL=.*$", re.MULTILINE)


def _pyvis_lib() -> Path:
    import pyvis

    return Path(pyvis.__file__).resolve().parent / "templates" / "lib" / f"vis-{VIS_VERSION}"


def _safe_for_tag(text: str, tag: str) -> str:
    """Make sure ``text`` cannot end its ``<script>``/``<style>`` element early."""
    return re.sub(rf"</(?={tag})", r"<\\/", text, flags=re.IGNORECASE)


@lru_cache(maxsize=1)
def vis_assets() -> tuple[str, str]:
    """vis-network's ``(javascript, css)`` from the pyvis package, ready to inline.

    The source-map comment is dropped (a browser with developer tools open
    would otherwise ask for the missing ``.map`` file).
    """
    lib = _pyvis_lib()
    js = (lib / "vis-network.min.js").read_text(encoding="utf-8")
    css = (lib / "vis-network.css").read_text(encoding="utf-8")
    js = _SOURCE_MAP.sub("", js)
    return _safe_for_tag(js, "script"), _safe_for_tag(css, "style")


@lru_cache(maxsize=1)
def _page_assets() -> tuple[str, str]:
    root = files("kg.viz") / "templates"
    js = (root / "viz.js").read_text(encoding="utf-8")
    css = (root / "viz.css").read_text(encoding="utf-8")
    return _safe_for_tag(js, "script"), _safe_for_tag(css, "style")


def script_json(obj: object) -> str:
    """``obj`` as JSON that is safe inside a ``<script>`` element.

    Examples
    --------
    >>> script_json({"a": "</script><img src=x onerror=alert(1)>"})
    '{"a":"\\\\u003c/script\\\\u003e\\\\u003cimg src=x onerror=alert(1)\\\\u003e"}'
    """
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _legend(net: Network) -> list[JsonObject]:
    entries = getattr(net, "legend", None)
    if entries:
        return [{"group": e.group, "label": e.label, "colour": e.colour, "shape": e.shape,
                 "count": e.count, "shown": e.shown} for e in entries]
    # a plain pyvis Network: one entry per group its nodes use
    counts: dict[str, int] = {}
    for n in net.nodes:
        if "group" in n:
            counts[str(n["group"])] = counts.get(str(n["group"]), 0) + 1
    out = []
    for g, c in counts.items():
        kind = KIND_GROUPS.get(g)
        out.append({"group": g, "label": kind.label if kind else g,
                    "colour": kind.colour if kind else "#97c2fc",
                    "shape": kind.shape if kind else "dot", "count": c, "shown": True})
    return out


def _options(net: Network) -> JsonObject:
    opts = net.options if isinstance(net.options, dict) else json.loads(net.options.to_json())
    return opts


def _legend_html(legend: list[JsonObject]) -> str:
    rows = []
    for e in legend:
        rows.append(
            '<label><input type="checkbox"{checked} data-group="{g}">'
            '<span class="kg-swatch kg-shape-{shape}" style="background:{colour}"></span>'
            '<span>{label}</span><span class="kg-count">{count:,}</span></label>'.format(
                g=escape(e["group"]), shape=escape(e["shape"]), colour=escape(e["colour"]),
                label=escape(e["label"]), count=e["count"],
                checked=" checked" if e.get("shown", True) else ""))
    return "\n".join(rows)


def _track_html(tracks: list[str]) -> str:
    if not tracks:
        return ""
    opts = "".join(f'<option value="{i}">{escape(t)}</option>' for i, t in enumerate(tracks))
    return ('<label>Track <select id="kg-track"><option value="">all tracks</option>'
            f"{opts}</select></label>")


def _controls_html(controls: JsonObject) -> str:
    """The minimum-papers box, the density switch and the scope choice, when the view has them."""
    out = []
    m = controls.get("min")
    if m:
        out.append('<label title="{t}">Min. papers <input id="kg-min" type="number" min="{lo}" '
                   'max="{hi}" step="1" value="{v}"></label>'.format(
                       t=escape(str(m.get("label", ""))), lo=int(m["floor"]),
                       hi=int(m["max"]), v=int(m["value"])))
    if controls.get("density"):
        out.append('<label title="where the papers concentrate: a heat layer weighted by papers">'
                   '<input id="kg-density" type="checkbox"> Density</label>')
    scope = controls.get("scope")
    if scope:
        shown = escape(str(scope))
        out.append('<label>Show <select id="kg-scope">'
                   f'<option value="top" selected>{shown}</option>'
                   '<option value="all">everyone</option></select></label>')
    return "\n".join(out)


def to_html(net: Network) -> str:
    """The page of ``net`` as one HTML string (the caller writes it).

    Parameters
    ----------
    net : pyvis.network.Network
        A view from :mod:`kg.viz.views` (legend, track filter and notes come
        along) or any pyvis network whose nodes have ``id`` and ``label``.

    Returns
    -------
    str
        A complete HTML document; it loads nothing from anywhere.
    """
    vis_js, vis_css = vis_assets()
    page_js, page_css = _page_assets()
    title = str(getattr(net, "title", None) or net.heading or "Graph")
    legend = _legend(net)
    tracks = list(getattr(net, "tracks", []) or [])
    notes = list(getattr(net, "notes", []) or [])
    data = {
        "view": getattr(net, "view", "graph"),
        "nodes": net.nodes,
        "edges": net.edges,
        "options": _options(net),
        "legend": legend,
        "tracks": tracks,
        "relations": {k: list(v) for k, v in RELATIONS.items()},
        "papers": list(getattr(net, "papers", []) or []),
        "controls": dict(getattr(net, "controls", {}) or {}),
    }
    note_html = "".join(
        f'<p class="{"kg-leftout" if n.startswith("Big graph") else "kg-note"}">{escape(n)}</p>'
        for n in notes)
    summary = (f"{len(net.nodes):,} nodes, {len(net.edges):,} links. Drag to pan, scroll to "
               "zoom (labels that would overlap appear as you zoom in), hover for details, "
               "click a node for its panel.")
    legend_block = (f'<fieldset id="kg-legend"><legend>Show</legend>\n{_legend_html(legend)}'
                    "\n</fieldset>" if legend else "")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="kg (vis-network {VIS_VERSION} from pyvis)">
<title>{escape(title)}</title>
<link rel="icon" href="data:,">
<style>
{vis_css}
</style>
<style>
{page_css}
</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p class="kg-summary">{escape(summary)}</p>
{note_html}
</header>
<div id="kg-toolbar">
<span id="kg-search-wrap"><label>Find <input id="kg-search" type="search" autocomplete="off" placeholder="person, concept, entity, paper, track…" aria-describedby="kg-status"></label>
<ul id="kg-results"></ul></span>
{_track_html(tracks)}
{_controls_html(dict(getattr(net, "controls", {}) or {}))}
<button id="kg-fit" type="button">Fit</button>
<button id="kg-reset" type="button">Reset</button>
<span id="kg-status" role="status" aria-live="polite"></span>
</div>
<div id="kg-main">
{legend_block}
<div id="kg-network"></div>
<aside id="kg-details" hidden></aside>
</div>
<noscript><p>This page needs JavaScript to draw the graph.</p></noscript>
<script id="kg-data" type="application/json">{script_json(data)}</script>
<script>
{vis_js}
</script>
<script>
{page_js}
</script>
</body>
</html>
"""
