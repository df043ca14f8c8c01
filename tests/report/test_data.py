"""kg.report.data: report.json as typed values, serialised back to the same JSON."""
from __future__ import annotations

import json

import pytest

from kg.analysis import analyse
from kg.analysis.counts import build_counts
from kg.report.document import report_document, to_json
from tests.report.test_exports import small_build


def test_report_is_typed_and_serialises_to_its_json():
    from kg.analysis.records import CoauthorReport
    from kg.report.data import Report

    b = small_build()
    r = analyse(b).report
    assert isinstance(r, CoauthorReport)
    assert r.network.nodes == 6 and r.ego is not None and r.ego.name == "Ann Lee"
    assert r.centrality.top["papers"][0].name == "Ann Lee"
    assert CoauthorReport.from_json(r.to_json()) == r
    assert r["network"]["nodes"] == 6  # code written for the dict report still reads it
    doc = report_document(r, counts=build_counts(b))
    assert Report.from_json(json.loads(to_json(doc))) == doc
    with pytest.raises(ValueError, match="unknown key 'nodez'"):
        CoauthorReport.from_json({**r.to_json(), "nodez": 1})
