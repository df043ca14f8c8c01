"""kg.report.document: report.json/report.md and authors.csv from the analysis."""
from __future__ import annotations

import csv
import io
import json

from kg.analysis import analyse
from kg.models import Corpus
from kg.report.document import authors_csv, report_document, to_json, to_markdown
from kg.report.exports import safe_cell
from tests.report.test_exports import small_build


def test_empty_build_report():
    doc = report_document(analyse(Corpus(())).report)
    json.loads(to_json(doc))
    assert "n/a" in to_markdown(doc)


def test_authors_csv_rows():
    m = analyse(small_build()).metrics
    rows = list(csv.reader(io.StringIO("".join(authors_csv(m)))))
    assert len(rows) == 1 + 6
    assert rows[1][0] == safe_cell(sorted(m.keys)[0]) == "'-eve; \"q\""
