"""docs/SCHEMA.md: every query on the page runs on a sample build and returns
rows, and every class and property of that graph appears in one of them."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from kg.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "SCHEMA.md"
BLOCKS = re.findall(r"```sparql\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
PREFIXES = {
    "https://schema.org/": "schema:", "https://w3id.org/paper-kg/ontology#": "kgo:",
    "http://www.w3.org/2004/02/skos/core#": "skos:", "http://purl.org/dc/terms/": "dcterms:",
    "http://www.w3.org/ns/oa#": "oa:", "http://www.w3.org/ns/prov#": "prov:",
    "http://rdfs.org/ns/void#": "void:", "http://www.w3.org/2000/01/rdf-schema#": "rdfs:",
}


def _short(iri: str) -> str:
    for ns, prefix in PREFIXES.items():
        if iri.startswith(ns):
            return prefix + iri[len(ns):]
    return iri


def _rows(capsys, sparql: str, build: Path) -> list[list[str]]:
    code = main(["query", sparql, "--from", str(build), "--format", "csv"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return list(csv.reader(io.StringIO(out)))[1:]


def test_the_page_has_queries():
    assert len(BLOCKS) >= 12


@pytest.mark.parametrize("n", range(len(BLOCKS)))
def test_each_query_runs_and_finds_rows(capsys, sample_build_dir, n):
    assert _rows(capsys, BLOCKS[n], sample_build_dir), BLOCKS[n]


def test_every_class_and_property_is_in_a_query(capsys, sample_build_dir):
    found = _rows(capsys, "SELECT DISTINCT ?t WHERE { { ?s a ?t } UNION { ?s ?t ?o } }",
                  sample_build_dir)
    terms = {_short(t) for (t,) in found} - {"http://www.w3.org/1999/02/22-rdf-syntax-ns#type"}
    assert {"schema:ScholarlyArticle", "kgo:position", "oa:exact"} <= terms
    text = "\n".join(BLOCKS)
    missing = sorted(t for t in terms
                     if not re.search(rf"(?<![\w:]){re.escape(t)}(?![\w])", text))
    assert missing == []


def test_every_node_people_search_by_has_one_label(capsys, sample_build_dir):
    rows = _rows(capsys, """
        SELECT ?class (COUNT(DISTINCT ?n) AS ?nodes) (COUNT(?l) AS ?labels) WHERE {
          VALUES ?class { schema:ScholarlyArticle schema:Person kgo:Track kgo:Concept
                          kgo:Model kgo:Dataset }
          ?n a ?class . OPTIONAL { ?n rdfs:label ?l }
        } GROUP BY ?class""", sample_build_dir)
    assert len(rows) == 6
    for cls, nodes, labels in rows:
        assert int(nodes) > 0 and nodes == labels, cls
