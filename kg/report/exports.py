"""Exports for the tools bibliometricians use: GraphML, GEXF (Gephi), VOSviewer, CSV.

VOSviewer gets two maps: the co-authorship network (:func:`vosviewer_map`,
:func:`vosviewer_network`) and the concept map as a term map
(:func:`term_map_files`: the terms, links, clusters and positions of
``concepts.html``).

Each writer is a generator of text chunks (the caller writes them, e.g.
atomically with :mod:`kg.util.fsio`), streams the graph without building a
document tree, and emits nodes and edges in the graph's own (sorted) order,
so the same graph gives byte-identical files.

Names are data: XML escapes them (and replaces characters XML 1.0 cannot
hold with U+FFFD); the tab-separated and CSV files replace tabs and line
breaks with spaces and quote where needed; a cell starting with ``=``,
``+``, ``-`` or ``@`` gets a leading ``'`` so a spreadsheet never runs it as
a formula.

Examples
--------
>>> import networkx as nx
>>> G = nx.Graph()
>>> G.add_node("a", name="=HYPERLINK(1)", papers=1)
>>> G.add_node("b", name="B <b>", papers=1)
>>> G.add_edge("a", "b", papers=1, weight=1.0)
>>> "".join(vosviewer_map(G)).splitlines()[1]
"1\\t'=HYPERLINK(1)\\t1\\t1\\t1"
>>> "B &lt;b&gt;" in "".join(graphml(G))
True
"""
from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import networkx as nx

from kg.util.safetext import guard_formula, strip_controls

if TYPE_CHECKING:  # pragma: no cover
    from kg.viz.network import ViewNetwork

__all__ = ["xml_text", "safe_cell", "graphml", "gexf", "vosviewer_map", "vosviewer_network",
           "term_map_graph", "term_map_files", "table_csv"]

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_text(value: object) -> str:
    """``value`` as XML character data or attribute text.

    Examples
    --------
    >>> xml_text('a<b & "c"\\x00')
    'a&lt;b &amp; &quot;c&quot;\\ufffd'
    """
    text = _XML_ILLEGAL.sub("\ufffd", str(value))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\r", "&#13;").replace("\n", "&#10;")
            .replace("\t", "&#9;"))


def safe_cell(value: object) -> str:
    """One cell of a spreadsheet-like file: no tab, line break or control character, no formula.

    Examples
    --------
    >>> safe_cell("=1+1"), safe_cell("a\\tb\\nc"), safe_cell(-1.5), safe_cell("@x")
    ("'=1+1", 'a b c', '-1.5', "'@x")
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):  # numbers are never formulas
        return _number(value)
    return guard_formula(strip_controls(re.sub(r"[\t\r\n\x0b\x0c]+", " ", str(value))))


def _number(x: float | int) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        return "NaN"
    return repr(float(x))


def _gtype(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _value(value: object) -> str:
    if isinstance(value, (tuple, list)):
        return "; ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    return str(value)


_CLEAN_TEXT = re.compile(r"[^&<>\"\r\n\t\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]*")


def _xml_value(value: object) -> str:
    """:func:`_value` as XML text; numbers need no escaping."""
    # exact types first: this runs for every attribute written
    if type(value) is float:
        return repr(value) if math.isfinite(value) else "NaN"
    if type(value) is int:
        return str(value)
    if type(value) is str and _CLEAN_TEXT.fullmatch(value):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number(value)
    return xml_text(_value(value))


_GTYPES = {bool: "boolean", int: "long", float: "double", str: "string"}


def _keys(items: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Attribute name -> GraphML type, in first-seen order (ints widen to doubles)."""
    out: dict[str, str] = {}
    for d in items:
        for k, v in d.items():
            t = _GTYPES.get(type(v)) or _gtype(v)
            seen = out.get(k)
            if seen == t:
                continue
            if seen is None or (seen == "long" and t == "double"):
                out[k] = t
            elif not (seen == "double" and t == "long"):
                out[k] = "string"
    return out


def graphml(G: nx.Graph, node_attrs: Mapping[str, Mapping[str, Any]] | None = None,
            graph_id: str = "G") -> Iterator[str]:
    """GraphML of ``G`` (directed if ``G`` is; parallel edges kept).

    ``node_attrs`` adds attributes per node (e.g. centralities, community).
    Node ids are the graph's node names; lists and tuples are written joined
    with ``"; "``.

    Examples
    --------
    >>> G = nx.Graph([("x", "y", {"weight": 0.5})])
    >>> import io
    >>> H = nx.read_graphml(io.BytesIO("".join(graphml(G)).encode()))
    >>> H.edges["x", "y"]["weight"]
    0.5
    """
    extra = node_attrs or {}
    nkeys = _keys(({**d, **extra.get(n, {})} for n, d in G.nodes(data=True)))
    ekeys = _keys(d for *_, d in G.edges(data=True))
    yield ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
           'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
           'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
    nid = {k: f"n{i}" for i, k in enumerate(nkeys)}
    eid = {k: f"e{i}" for i, k in enumerate(ekeys)}
    for k, t in nkeys.items():
        yield f'  <key id="{nid[k]}" for="node" attr.name="{xml_text(k)}" attr.type="{t}"/>\n'
    for k, t in ekeys.items():
        yield f'  <key id="{eid[k]}" for="edge" attr.name="{xml_text(k)}" attr.type="{t}"/>\n'
    direction = "directed" if G.is_directed() else "undirected"
    yield f'  <graph id="{xml_text(graph_id)}" edgedefault="{direction}">\n'
    buf: list[str] = []
    ids = {n: xml_text(n) for n in G}
    ntag = {k: f'<data key="{i}">' for k, i in nid.items()}
    etag = {k: f'<data key="{i}">' for k, i in eid.items()}
    for n, d in G.nodes(data=True):
        attrs = {**d, **extra[n]} if n in extra else d
        data = "".join([f'{ntag[k]}{_xml_value(v)}</data>'
                        for k, v in attrs.items() if v is not None])
        buf.append(f'    <node id="{ids[n]}">{data}</node>\n')
        if len(buf) >= 4096:
            yield "".join(buf)
            buf.clear()
    for u, v, d in G.edges(data=True):
        data = "".join([f'{etag[k]}{_xml_value(x)}</data>' for k, x in d.items() if x is not None])
        buf.append(f'    <edge source="{ids[u]}" target="{ids[v]}">{data}</edge>\n')
        if len(buf) >= 4096:
            yield "".join(buf)
            buf.clear()
    yield "".join(buf)
    yield "  </graph>\n</graphml>\n"


def gexf(G: nx.Graph, node_attrs: Mapping[str, Mapping[str, Any]] | None = None,
         label: str = "name", description: str = "co-authorship network") -> Iterator[str]:
    """GEXF 1.2 of an undirected weighted graph, for Gephi.

    Node labels come from attribute ``label`` (else the node id); edge
    ``weight`` becomes the GEXF weight; other attributes become attvalues.
    No dates are written, so the file depends on the graph only.

    Examples
    --------
    >>> G = nx.Graph()
    >>> G.add_node("a", name="Ann", papers=2)
    >>> G.add_edge("a", "b", weight=1.5, papers=2)
    >>> import io
    >>> H = nx.read_gexf(io.BytesIO("".join(gexf(G)).encode()))
    >>> H.nodes["a"]["label"], H.edges["a", "b"]["weight"]
    ('Ann', 1.5)
    """
    extra = node_attrs or {}
    types = {"long": "long", "double": "double", "boolean": "boolean", "string": "string"}
    nkeys = {k: t for k, t in _keys(({**d, **extra.get(n, {})} for n, d in G.nodes(data=True)))
             .items() if k != label}
    ekeys = {k: t for k, t in _keys(d for *_, d in G.edges(data=True)).items() if k != "weight"}
    nid = {k: str(i) for i, k in enumerate(nkeys)}
    eid = {k: str(i) for i, k in enumerate(ekeys)}
    kind = "directed" if G.is_directed() else "undirected"
    yield ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">\n'
           f'  <meta><creator>kg</creator><description>{xml_text(description)}'
           '</description></meta>\n'
           f'  <graph defaultedgetype="{kind}" mode="static">\n')
    yield '    <attributes class="node">\n'
    for k, t in nkeys.items():
        yield f'      <attribute id="{nid[k]}" title="{xml_text(k)}" type="{types[t]}"/>\n'
    yield '    </attributes>\n    <attributes class="edge">\n'
    for k, t in ekeys.items():
        yield f'      <attribute id="{eid[k]}" title="{xml_text(k)}" type="{types[t]}"/>\n'
    yield '    </attributes>\n    <nodes>\n'
    buf: list[str] = []
    ids = {n: xml_text(n) for n in G}
    ntag = {k: f'<attvalue for="{i}" value="' for k, i in nid.items()}
    etag = {k: f'<attvalue for="{i}" value="' for k, i in eid.items()}
    for n, d in G.nodes(data=True):
        attrs = {**d, **extra[n]} if n in extra else d
        lab = attrs.get(label, n)
        vals = "".join([f'{ntag[k]}{_xml_value(v)}"/>'
                        for k, v in attrs.items() if k in ntag and v is not None])
        buf.append(f'      <node id="{ids[n]}" label="{xml_text(lab)}">'
                   f'<attvalues>{vals}</attvalues></node>\n')
        if len(buf) >= 4096:
            yield "".join(buf)
            buf.clear()
    buf.append("    </nodes>\n    <edges>\n")
    for i, (u, v, d) in enumerate(G.edges(data=True)):
        w = d.get("weight")
        wattr = f' weight="{_number(float(w))}"' if w is not None else ""
        vals = "".join([f'{etag[k]}{_xml_value(x)}"/>'
                        for k, x in d.items() if k in etag and x is not None])
        buf.append(f'      <edge id="{i}" source="{ids[u]}" target="{ids[v]}"{wattr}>'
                   f'<attvalues>{vals}</attvalues></edge>\n')
        if len(buf) >= 4096:
            yield "".join(buf)
            buf.clear()
    yield "".join(buf)
    yield "    </edges>\n  </graph>\n</gexf>\n"


def _vos_label(text: str) -> str:
    text = safe_cell(text)
    if any(c in text for c in ',;"'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def vosviewer_map(G: nx.Graph, membership: Mapping[Any, int] | None = None, *,
                  positions: Mapping[Any, tuple[float, float]] | None = None,
                  documents: str = "Documents") -> Iterator[str]:
    """A VOSviewer map file (tab-separated, with a header line).

    Items are numbered 1.. in node order; ``x`` and ``y`` (with
    ``positions``) are each node's coordinates; ``cluster`` is the community
    id plus one (VOSviewer allows 1-1000: communities past the 999th share
    cluster 1000); ``weight<Links>`` is the number of links (collaborators),
    ``weight<Total link strength>`` the edges' ``papers`` summed over them
    (joint papers), ``weight<Documents>`` the node's ``papers`` (the column's
    label is ``documents``: a term map says ``Occurrences``).
    """
    cols = ["id", "label"] + (["x", "y"] if positions is not None else []) + (
        ["cluster"] if membership is not None else []) + [
        "weight<Links>", "weight<Total link strength>", f"weight<{documents}>"]
    yield "\t".join(cols) + "\n"
    buf: list[str] = []
    for i, (n, d) in enumerate(G.nodes(data=True), start=1):
        row = [str(i), _vos_label(d.get("name", str(n)))]
        if positions is not None:
            row += [_number(c) for c in positions[n]]
        if membership is not None:
            c = membership.get(n)
            row.append(str(min(c + 1, 1000)) if c is not None else "")
        strength = sum(int(e.get("papers", 1)) for e in G[n].values())
        row += [str(G.degree(n)), str(strength), str(int(d.get("papers", 0)))]
        buf.append("\t".join(row) + "\n")
        if len(buf) >= 4096:
            yield "".join(buf)
            buf.clear()
    yield "".join(buf)


def vosviewer_network(G: nx.Graph, strength: str = "papers") -> Iterator[str]:
    """A VOSviewer network file: ``id1<TAB>id2<TAB>strength`` a line.

    Ids match :func:`vosviewer_map`; the strength is the edge attribute
    ``strength`` (joint papers, i.e. full counting, by default).
    """
    index = {n: i for i, n in enumerate(G.nodes, start=1)}
    buf: list[str] = []
    for u, v, d in G.edges(data=True):
        buf.append(f"{index[u]}\t{index[v]}\t{_number(d.get(strength, 1))}\n")
        if len(buf) >= 8192:
            yield "".join(buf)
            buf.clear()
    yield "".join(buf)


def term_map_graph(net: ViewNetwork
                   ) -> tuple[nx.Graph, dict[Any, int], dict[Any, tuple[int, int]]]:
    """The terms of a concept map (:func:`kg.viz.concept_map`) as the writers above take them.

    Returns the graph (nodes: the clustered terms in the map's order, with
    ``name`` and ``papers``; edges: the map's links, ``papers`` the papers
    mentioning both terms), each term's cluster (the map's Leiden clusters,
    ``net.clusters``) and its position on the page, ``y`` turned to point up
    as VOSviewer's does (the page's points down), so the file draws the
    page's picture. Nodes without a cluster (the people of
    ``concept_map(people=True)``) are left out.

    Examples
    --------
    >>> from kg.models import Build, Corpus, Extraction, Mention, Paper
    >>> from kg.viz import concept_map
    >>> ps = tuple(Paper(f"p{i}", ("Ann Lee",), "BERT and GPT.") for i in range(3))
    >>> ms = (Mention("BERT", "BERT", "model", 0, 4, key="bert"),
    ...       Mention("GPT", "GPT", "model", 9, 12, key="gpt"))
    >>> net = concept_map(Build(Corpus(ps), {p.id: Extraction(p.id, p.abstract, ms) for p in ps}))
    >>> T, clusters, pos = term_map_graph(net)
    >>> list(T.nodes(data="papers")), T.edges["bert", "gpt"]["papers"], sorted(clusters.values())
    ([('bert', 3), ('gpt', 3)], 3, [0, 0])
    """
    T = nx.Graph()
    clusters: dict[Any, int] = {}
    positions: dict[Any, tuple[int, int]] = {}
    key_of: dict[int, Any] = {}
    for node, key in zip(net.nodes, net.keys, strict=True):
        if key not in net.clusters:
            continue
        key_of[node["id"]] = key
        T.add_node(key, name=node["name"], papers=int(node["value"]))
        clusters[key] = net.clusters[key]
        positions[key] = (int(node["x"]), -int(node["y"]))
    for e in net.edges:
        a, b = key_of.get(e["from"]), key_of.get(e["to"])
        if a is not None and b is not None:
            T.add_edge(a, b, papers=int(e.get("n", 1)))
    return T, clusters, positions


def term_map_files(net: ViewNetwork) -> tuple[Iterator[str], Iterator[str]]:
    """The VOSviewer map and network files of a concept map (``concepts_vosviewer_*.txt``).

    The map file's columns: ``id``, ``label``, ``x``, ``y`` (the page's
    layout), ``cluster`` (its Leiden cluster, plus one),
    ``weight<Links>``, ``weight<Total link strength>`` (co-occurrences summed
    over the links) and ``weight<Occurrences>`` (papers mentioning the term);
    the network file's strength is the co-occurrences of the pair, the count
    VOSviewer's own term maps start from (it normalises them itself). See
    :func:`term_map_graph`.
    """
    T, clusters, positions = term_map_graph(net)
    return (vosviewer_map(T, clusters, positions=positions, documents="Occurrences"),
            vosviewer_network(T))


def table_csv(header: list[str], rows: Iterable[Iterable[object]]) -> Iterator[str]:
    """CSV (RFC 4180 quoting) with every cell passed through :func:`safe_cell`.

    Examples
    --------
    >>> "".join(table_csv(["name", "n"], [["-x, y", 2]]))
    'name,n\\r\\n"\\'-x, y",2\\r\\n'
    """
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([safe_cell(h) for h in header])
    yield out.getvalue()
    for row in rows:
        out.seek(0)
        out.truncate()
        w.writerow([safe_cell(c) for c in row])
        yield out.getvalue()
