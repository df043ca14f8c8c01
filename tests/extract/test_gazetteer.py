"""kg.extract.gazetteer: the gazetteer is broad, deliberate and consistent.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations

import pytest

from kg.extract.gazetteer import build, gazetteer_dir, read_entries


def test_gazetteer_is_broad_deliberate_and_consistent():
    rows = read_entries(sorted(gazetteer_dir().glob("*.jsonl")))
    g = build(rows)
    assert len(g) >= 1500
    assert g.collisions == []
    types = {e.type for e in g.entities.values()}
    assert {"model", "method", "dataset"} <= types
    by_type = {t: sum(e.type == t for e in g.entities.values()) for t in types}
    assert min(by_type["model"], by_type["method"], by_type["dataset"]) >= 400
    names = {e.canonical for e in g.entities.values()}
    for row in rows:
        assert row["source"].strip() and row.get("kind"), row["name"]
        if row.get("family"):
            assert row["family"] in names, f"{row['_where']}: family {row['family']!r} is no entry"
    assert g.entity("Llama 3").family == "LLaMA"
    assert g.entity("AdamW").family == "Adam"
    assert g.entity("CIFAR-100").family == "CIFAR"


def test_gazetteer_bad_line_is_an_error(tmp_path):
    from kg.errors import KgError

    (tmp_path / "x.jsonl").write_text('{"name": "X", "type": "gadget", "source": "s"}\n')
    with pytest.raises(KgError, match=r"x.jsonl:1: gazetteer type 'gadget'"):
        read_entries([tmp_path / "x.jsonl"])
