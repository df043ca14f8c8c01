"""The VOSviewer files read back by a parser written from VOSviewer's documented format.

The format, as VOSviewer's manual ("VOSviewer map and network files")
documents it: a map file is tab-separated (or comma or semicolon separated),
its first line a header naming each column's attribute, one item a line;
the columns are ``id``, ``label``, ``description``, ``url``, ``x``, ``y``,
``cluster`` (an integer from 1 to 1000), ``weight<...>`` (non-negative
numbers, several allowed, ``...`` a label) and ``score<...>``; a label
holding a comma or semicolon is enclosed in double quotes. A network file
has no header; each line is a link: two item ids and optionally the link's
strength.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from kg import outputs
from kg.models import Build, Corpus, Extraction, Mention, Paper
from kg.report.exports import term_map_files, term_map_graph
from kg.viz import concept_map

_PLAIN = {"id", "label", "description", "url", "x", "y", "cluster"}
_ANGLED = re.compile(r"(weight|score)<([^<>]+)>")


@dataclass(frozen=True)
class VosItem:
    id: str
    label: str
    x: float | None
    y: float | None
    cluster: int | None
    weights: dict[str, float]


def _label(cell: str) -> str:
    if cell.startswith('"') and cell.endswith('"') and len(cell) >= 2:
        return cell[1:-1].replace('""', '"')
    assert "," not in cell and ";" not in cell, f"label {cell!r} with , or ; must be quoted"
    return cell


def read_vos_map(text: str) -> list[VosItem]:
    """A VOSviewer map file as the manual describes it (tab-separated, as kg writes it)."""
    lines = text.split("\n")
    assert lines[-1] == "", "the file ends with a line break"
    header, rows = lines[0].split("\t"), lines[1:-1]
    for col in header:
        assert col in _PLAIN or _ANGLED.fullmatch(col), f"not a map file column: {col!r}"
    assert len(set(header)) == len(header) and ("id" in header or "label" in header)
    items = []
    for line in rows:
        cells = line.split("\t")
        assert len(cells) == len(header), line
        row = dict(zip(header, cells, strict=True))
        cluster = int(row["cluster"]) if row.get("cluster") else None
        assert cluster is None or 1 <= cluster <= 1000
        weights = {}
        for col, cell in row.items():
            m = _ANGLED.fullmatch(col)
            if m and m.group(1) == "weight":
                weights[m.group(2)] = float(cell)
                assert weights[m.group(2)] >= 0 and math.isfinite(weights[m.group(2)])
        xy = [float(row[c]) if c in row else None for c in ("x", "y")]
        items.append(VosItem(row["id"], _label(row["label"]), xy[0], xy[1], cluster, weights))
    assert len({i.id for i in items}) == len(items), "ids are unique"
    return items


def read_vos_network(text: str, ids: set[str]) -> list[tuple[str, str, float]]:
    """A VOSviewer network file: no header, ``id1 id2 [strength]`` a line."""
    links = []
    for line in text.splitlines():
        cells = line.split("\t")
        assert len(cells) in (2, 3), line
        assert cells[0] in ids and cells[1] in ids, line
        strength = float(cells[2]) if len(cells) == 3 else 1.0
        assert strength > 0
        links.append((cells[0], cells[1], strength))
    return links


def hostile_build() -> Build:
    """Terms whose names a spreadsheet or VOSviewer could misread."""
    names = ["BERT", "GPT; v2", '"quoted", term', "=SUM(A1)", "tab\tname"]
    papers, exs = [], {}
    for i in range(6):
        p = Paper(f"p{i}", ("Ann Lee",), "x " * 40)
        ms = tuple(Mention(n, n, "model", 0, 1, key=f"k{j}")
                   for j, n in enumerate(names) if (i + j) % 3 != 0)
        papers.append(p)
        exs[p.id] = Extraction(p.id, p.abstract, ms)
    return Build(Corpus(tuple(papers)), exs)


@pytest.fixture(scope="module")
def term_files():
    net = concept_map(hostile_build())
    map_chunks, net_chunks = term_map_files(net)
    return net, "".join(map_chunks), "".join(net_chunks)


def test_term_map_round_trips_through_the_documented_format(term_files):
    net, map_text, net_text = term_files
    items = read_vos_map(map_text)
    assert map_text.split("\n")[0].split("\t") == [
        "id", "label", "x", "y", "cluster", "weight<Links>", "weight<Total link strength>",
        "weight<Occurrences>"]
    T, clusters, pos = term_map_graph(net)
    assert len(items) == len(T) == 5
    by_label = {i.label: i for i in items}
    # names come back as they were, but for the tab and the formula guard
    assert set(by_label) == {"BERT", "GPT; v2", '"quoted", term', "'=SUM(A1)", "tab name"}
    # what the page shows: papers, positions (y pointing up) and clusters
    for item, (key, d) in zip(items, T.nodes(data=True), strict=True):
        node = net.nodes[net.node_id(key)]
        assert item.weights["Occurrences"] == node["value"] == d["papers"]
        assert (item.x, item.y) == (node["x"], -node["y"])
        assert item.cluster == net.clusters[key] + 1
    links = read_vos_network(net_text, {i.id for i in items})
    assert len(links) == len(net.edges) == T.number_of_edges()
    ids = {i.id: key for i, key in zip(items, T, strict=True)}
    for a, b, s in links:
        assert s == T.edges[ids[a], ids[b]]["papers"]
    for item, key in zip(items, T, strict=True):
        assert item.weights["Links"] == T.degree(key)
        assert item.weights["Total link strength"] == sum(
            s for a, b, s in links if key in (ids[a], ids[b]))


def test_term_map_leaves_people_out():
    net = concept_map(hostile_build(), people=True)
    assert any(str(k).startswith("person:") for k in net.keys)
    T, clusters, _ = term_map_graph(net)
    assert not any(str(k).startswith("person:") for k in T) and set(T) == set(clusters)


def test_coauthor_map_reads_back_too(tmp_path):
    from kg.build.graph_stage import stage_outputs

    files = {name: c if isinstance(c, str) else "".join(c)
             for name, c in stage_outputs(hostile_build())
             if name in (outputs.VOSVIEWER_MAP, outputs.VOSVIEWER_NETWORK)}
    items = read_vos_map(files[outputs.VOSVIEWER_MAP])
    assert [i.label for i in items] == ["Ann Lee"]
    assert read_vos_network(files[outputs.VOSVIEWER_NETWORK], {"1"}) == []


def test_the_parser_refuses_what_the_format_forbids():
    with pytest.raises(AssertionError):
        read_vos_map("id\tlabel\tcolour\n1\ta\tred\n")
    with pytest.raises(AssertionError):
        read_vos_map("id\tlabel\n1\ta, b\n")
    with pytest.raises(AssertionError):
        read_vos_map("id\tlabel\tcluster\n1\ta\t1001\n")
    with pytest.raises(AssertionError):
        read_vos_network("1\t3\t1\n", {"1", "2"})


def test_a_build_writes_the_term_map(tmp_path: Path):
    from kg.build.pipeline import build

    out = tmp_path / "out"
    result = build(None, out)
    assert set(outputs.TERM_MAP_FILES) <= set(result.files)
    items = read_vos_map((out / outputs.CONCEPTS_VOSVIEWER_MAP).read_text(encoding="utf-8"))
    links = read_vos_network((out / outputs.CONCEPTS_VOSVIEWER_NETWORK).read_text(),
                             {i.id for i in items})
    assert len(items) > 50 and len(links) > len(items)
    assert len({i.cluster for i in items}) > 2
    assert "large language model" in {i.label for i in items}
