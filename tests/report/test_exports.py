"""report.json / report.md, plots, GraphML / GEXF / VOSviewer / CSV, kg coauthors."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from kg.analysis import analyse
from kg.analysis.counts import build_counts
from kg.analysis.graphs import knowledge_graph
from kg.build.graph_stage import stage_outputs
from kg.build.read import load_build
from kg.models import Build, Corpus, Extraction, Mention, Paper, Track
from kg.report.document import md_escape
from kg.report.exports import gexf, graphml, safe_cell, table_csv, vosviewer_map, vosviewer_network

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "=cmd|' /C calc'!A0"  # a name that is a spreadsheet formula


def small_build() -> Build:
    t = Track("Theory", "Game Theory", "Theory · Game Theory")
    ps = (
        Paper("p0", ("Ann Lee", "Bo <b>Wu</b>", HOSTILE), "We use BERT.", track=t),
        Paper("p1", ("Ann Lee", "Bo <b>Wu</b>"), "BERT again.", track=t),
        Paper("p2", ("Cy [red]Dee[/red]", "-Eve; \"Q\"", "Ann Lee"), "Other.",
              authors_truncated=True),
        Paper("p3", ("Solo\tAuthor\x01",), "Alone."),
    )
    ex = {"p0": Extraction("p0", ps[0].abstract,
                           (Mention("BERT", "BERT", "model", 7, 11, key="bert"),)),
          "p1": Extraction("p1", ps[1].abstract,
                           (Mention("BERT", "BERT", "model", 0, 4, key="bert"),))}
    return Build(Corpus(ps, entries=4), ex)


@pytest.fixture(scope="module")
def files() -> dict:
    out = {}
    b = small_build()
    for name, content in stage_outputs(b, counts=build_counts(b)):
        out[name] = content if isinstance(content, (str, bytes)) else "".join(content)
    return out


def test_stage_writes_every_file(files):
    assert set(files) == {
        "report.json", "report.md", "report.html", "plots/degree_distribution.png",
        "plots/papers_per_author.png", "plots/component_sizes.png",
        "plots/community_sizes.png", "coauthors.graphml", "coauthors.gexf",
        "coauthors_vosviewer_map.txt", "coauthors_vosviewer_network.txt", "authors.csv",
        "graph.graphml", "papers.csv"}
    for name, data in files.items():
        if name.endswith(".png"):
            assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_json(files):
    doc = json.loads(files["report.json"])
    assert doc["counts"]["papers"] == 4 and doc["counts"]["people"] == doc["coauthors"]["network"]["nodes"]
    assert doc["extraction"]["top_entities"] == [["BERT", "model", 2]]
    co = doc["coauthors"]
    assert co["network"]["nodes"] == 6 and co["network"]["edges"] == 6
    assert co["caveats"]["truncated_papers"] == 1
    assert co["strongest_pairs"]["by_weight"][0]["papers"] == 2
    assert co["ego"]["name"] == "Ann Lee"  # most collaborators
    assert "NaN" not in files["report.json"]


def test_report_markdown_escapes_names(files):
    md = files["report.md"]
    assert "# kg report" in md and "## Co-authorship network" in md
    assert "Bo \\<b\\>Wu\\</b\\>" in md  # markup in a name is shown, not rendered
    assert "<b>" not in md
    assert "Solo Author" in md and "\x01" not in md  # tab to space, control dropped
    assert md_escape("a|b\nc") == "a\\|b c"


def test_graphml_round_trip_and_escaping(files):
    G = nx.read_graphml(io.BytesIO(files["coauthors.graphml"].encode("utf-8")))
    assert G.nodes["bo <b>wu</b>"]["name"] == "Bo <b>Wu</b>"
    assert G.nodes["ann lee"]["papers"] == 3
    assert G.nodes["ann lee"]["collaborators"] == 4
    assert G.nodes["ann lee"]["tracks"] == "Theory · Game Theory"
    assert G.edges["ann lee", "bo <b>wu</b>"]["weight"] == pytest.approx(1.5)
    assert G.edges["ann lee", "bo <b>wu</b>"]["papers"] == 2
    assert "\x01" not in files["coauthors.graphml"]  # not allowed in XML 1.0
    K = nx.read_graphml(io.BytesIO(files["graph.graphml"].encode("utf-8")))
    assert K.is_directed()
    assert K.nodes["entity:bert"]["kind"] == "entity"
    assert sum(1 for *_, d in K.edges(data=True) if d["relation"] == "author") == 9


def test_gexf_round_trip(files):
    G = nx.read_gexf(io.BytesIO(files["coauthors.gexf"].encode("utf-8")))
    assert G.number_of_nodes() == 6 and G.number_of_edges() == 6
    assert G.nodes["bo <b>wu</b>"]["label"] == "Bo <b>Wu</b>"
    assert G.edges["ann lee", "bo <b>wu</b>"]["weight"] == pytest.approx(1.5)


def test_vosviewer_files(files):
    lines = files["coauthors_vosviewer_map.txt"].splitlines()
    assert lines[0].split("\t") == ["id", "label", "cluster", "weight<Links>",
                                    "weight<Total link strength>", "weight<Documents>"]
    rows = [l.split("\t") for l in lines[1:]]
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    labels = {r[1] for r in rows}
    assert "'" + HOSTILE in labels  # formula neutralised
    assert '"\'-Eve; ""Q"""' in labels  # ; and " need quotes, - a guard
    ann = next(r for r in rows if r[1] == "Ann Lee")
    assert ann[3:] == ["4", "5", "3"]  # 4 co-authors, 5 joint papers in all, 3 papers
    net = [l.split("\t") for l in files["coauthors_vosviewer_network.txt"].splitlines()]
    ids = {r[0] for r in rows}
    assert len(net) == 6 and all(a in ids and b in ids for a, b, _ in net)


def test_csv_has_no_formulas(files):
    rows = list(csv.reader(io.StringIO(files["authors.csv"])))
    assert rows[0][:3] == ["key", "name", "papers"]
    cells = [c for r in rows[1:] for c in r[:2]]
    assert all(not c.startswith(("=", "+", "-", "@")) for c in cells)
    assert "'" + HOSTILE in cells
    assert safe_cell("+1") == "'+1" and safe_cell(-3) == "-3" and safe_cell("a\nb") == "a b"
    assert "".join(table_csv(["x"], [["@SUM(A1)"]])) == "x\r\n'@SUM(A1)\r\n"


def test_safe_cell_removes_control_characters():
    assert safe_cell("=A\x1b[1m\x00B\x9b") == "'=A[1mB"
    assert "\x07" not in "".join(table_csv(["n"], [["bell\x07"]]))


def test_byte_identical_across_runs_and_hash_seeds(tmp_path):
    """report.json and coauthors.graphml do not depend on PYTHONHASHSEED or run."""
    script = (
        "import sys, importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('synth', {str(ROOT / 'bench' / 'synth.py')!r})\n"
        "synth = importlib.util.module_from_spec(spec); spec.loader.exec_module(synth)\n"
        "from kg.build.graph_stage import stage_outputs\n"
        "for name, c in stage_outputs(synth.make_build(400, seed=3)):\n"
        "    if name in ('report.json', 'coauthors.graphml', 'authors.csv', 'plots/community_sizes.png'):\n"
        "        data = c if isinstance(c, bytes) else ''.join(c).encode()\n"
        "        open(sys.argv[1] + '/' + name.replace('/', '_'), 'wb').write(data)\n"
    )
    outs = []
    for seed in ("0", "4242"):
        d = tmp_path / seed
        d.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", script, str(d)], check=True, env=env, cwd=ROOT)
        outs.append({p.name: p.read_bytes() for p in d.iterdir()})
    assert len(outs[0]) == 4
    assert outs[0] == outs[1]


def write_build(folder: Path, build: Build) -> None:
    from kg.extract import extraction_to_json
    from kg.parse import paper_to_json

    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for p in build.corpus.papers:
            fh.write(json.dumps(paper_to_json(p), ensure_ascii=False) + "\n")
    with open(folder / "extractions.jsonl", "w", encoding="utf-8") as fh:
        for ex in build.extractions.values():
            fh.write(json.dumps(extraction_to_json(ex), ensure_ascii=False) + "\n")


def test_load_build_round_trip(tmp_path):
    b = small_build()
    write_build(tmp_path / "out", b)
    back = load_build(tmp_path / "out")
    assert back.corpus.papers == b.corpus.papers
    assert back.extractions["p0"].mentions[0].canonical == "BERT"
    assert analyse(back).report == analyse(b).report


def test_cli_coauthors(tmp_path, capsys):
    from kg.cli import main

    write_build(tmp_path / "out", small_build())
    assert main(["coauthors", "--from", str(tmp_path / "out"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["network"]["nodes"] == 6
    assert main(["coauthors", "--from", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Co-authorship network" in out and "Ann Lee" in out
    assert "Cy [red]Dee[/red]" in out


def test_cli_coauthors_errors(tmp_path, capsys):
    from kg.cli import main

    assert main(["coauthors", "--from", str(tmp_path / "missing")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kg: error:") and "corpus.jsonl" in err and len(err.splitlines()) == 1
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "corpus.jsonl").write_text('{"id": "x", "authors": [], "abstract": "a"}\nnot json\n')
    assert main(["coauthors", "--from", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "corpus.jsonl:2" in err and len(err.splitlines()) == 1


def test_exports_of_plain_graphs():
    G = nx.Graph()
    G.add_edge("x", "y", weight=2.0, papers=1)
    assert "edgedefault=\"undirected\"" in "".join(graphml(G))
    assert "".join(vosviewer_network(G)) == "1\t2\t1\n"
    assert "".join(vosviewer_map(G)).splitlines()[1] == "1\tx\t1\t1\t0"
    H = nx.read_gexf(io.BytesIO("".join(gexf(G)).encode()))
    assert H.edges["x", "y"]["weight"] == 2.0
    K = knowledge_graph(small_build())
    assert nx.read_graphml(io.StringIO("".join(graphml(K)))).number_of_edges() == K.number_of_edges()
