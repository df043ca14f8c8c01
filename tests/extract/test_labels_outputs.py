"""kg.extract.labels in a build: every output names each paper by the same label."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import networkx as nx
import pytest

from kg.build.read import load_build
from kg.extract.labels import paper_label

_DATA = re.compile(r'<script id="kg-data" type="application/json">(.*?)</script>', re.S)


def _view_papers(path: Path) -> dict[str, str]:
    """The paper table of a written view (``[id, label]`` rows) and its paper nodes' names."""
    data = json.loads(_DATA.search(path.read_text(encoding="utf-8")).group(1))
    out = {row[0]: row[1] for row in data["papers"]}
    for n in data.get("nodes", ()):
        if n.get("group") == "paper":
            assert out.setdefault(n["pid"], n["name"]) == n["name"]
    return out


def test_rdf_graphml_csv_and_views_name_each_paper_the_same(sample_build_dir: Path):
    import rdflib

    build = load_build(sample_build_dir)
    want = {p.id: paper_label(p, build.extractions.get(p.id)) for p in build.corpus.papers}
    assert len(set(want.values())) > 1

    g = rdflib.Graph().parse(sample_build_dir / "graph.ttl")
    rdf = {str(ident): str(label) for ident, label in g.query(
        "PREFIX schema: <https://schema.org/> PREFIX dcterms: <http://purl.org/dc/terms/> "
        "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
        "SELECT ?id ?label { ?p a schema:ScholarlyArticle ; dcterms:identifier ?id ; "
        "rdfs:label ?label }")}
    assert rdf == want

    K = nx.read_graphml(sample_build_dir / "graph.graphml")
    assert {n[len("paper:"):]: d["label"] for n, d in K.nodes(data=True)
            if d.get("kind") == "paper"} == want

    rows = list(csv.DictReader(io.StringIO((sample_build_dir / "papers.csv").read_text("utf-8"))))
    assert {r["id"]: r["label"] for r in rows} == want

    views = {}
    for name in ("kg.html", "coauthors.html", "entities.html", "concepts.html"):
        path = sample_build_dir / name
        if path.exists():
            for pid, label in _view_papers(path).items():
                assert label == want[pid], (name, pid)
                views[pid] = label
    assert views, "no view lists a paper"


@pytest.mark.parametrize("name", ["graph.ttl", "papers.csv", "graph.graphml"])
def test_no_label_is_a_misread_proposal(sample_build_dir: Path, name: str):
    # the classes of issue 30: a cue glued to a name, a hyphenated adjective, a bare
    # generic acronym never name a paper
    text = (sample_build_dir / name).read_text("utf-8")
    assert not re.search(r"\b(?:called|named|dubbed)[A-Z]\w* — ", text)
    assert not re.search(r"\b\w+-(?:based|aware|driven) — ", text)
    assert not re.search(r'(?:"|^|,)(?:NN|LLM|GNN|CNN) — ', text, re.M)
