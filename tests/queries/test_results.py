"""kg.queries.results: query results as a table, CSV, TSV or JSON."""
from __future__ import annotations

import json

import pyoxigraph as ox
import pytest

from kg import queries
from kg.errors import QueryError
from kg.queries.results import format_result
from tests import rdf_fixture


def test_output_formats(stores):
    res = queries.run(stores["fixture"], "similar-papers", {"paper": rdf_fixture.P1})
    table = format_result(res, "table")
    lines = table.splitlines()
    assert lines[0].split() == list(res.variables) and set(lines[1]) <= {"-", " "}
    assert lines[-1] == "(3 rows)"
    assert len({len(line.rstrip()) <= len(lines[1]) for line in lines[:-1]}) == 1
    assert lines[2].index("5555555555555555") == lines[0].index("similar")  # aligned
    csv_text = format_result(res, "csv")
    assert csv_text.startswith("paper,track,concept,similar,label,paper_track,score,"
                               "shared_concepts,shared_words\r\n")
    tsv = format_result(res, "tsv").splitlines()
    assert tsv[0] == ("?paper\t?track\t?concept\t?similar\t?label\t?paper_track\t?score\t"
                      "?shared_concepts\t?shared_words")
    assert tsv[2].split("\t")[6] == '"0.8165"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    doc = json.loads(format_result(res, "json"))
    assert doc["head"]["vars"] == list(res.variables)
    first = doc["results"]["bindings"][0]
    assert first["similar"] == {"type": "literal", "value": "5555555555555555"}
    assert first["score"]["datatype"] == "http://www.w3.org/2001/XMLSchema#decimal"
    ask = stores["fixture"].query("ASK { ?s ?p ?o }")
    assert json.loads(format_result(ask, "json")) == {"head": {}, "boolean": True}
    assert format_result(ask, "table") == "true\n"
    with pytest.raises(QueryError):
        format_result(res, "xml")


def test_table_handles_wide_characters_and_iris():
    from kg.store import QueryResult

    r = QueryResult("select", ("a", "b"), (
        (ox.Literal("論文検索"), ox.NamedNode("https://schema.org/Person")),
        (ox.Literal("ab"), None)))
    lines = format_result(r, "table").splitlines()
    assert lines[2] == "論文検索  schema:Person"
    assert lines[3].rstrip() == "ab"
