"""kg.analysis.records: the Record codec: JSON in and out, nested records, strict keys."""
from __future__ import annotations

import pytest

from kg.analysis.records import Distances, Pair, PartitionSummary, StrongestPairs


def test_nested_records_round_trip_and_read_as_their_json():
    d = {"by_weight": [{"a": "Ann", "b": "Bo", "papers": 2, "weight": 1.5}], "by_papers": []}
    s = StrongestPairs.from_json(d)
    assert s.by_weight == (Pair("Ann", "Bo", 2, 1.5),) and s.by_papers == ()
    assert s.to_json() == d
    assert StrongestPairs.from_json(s) is s
    assert s["by_weight"][0]["a"] == "Ann" and "by_papers" in s and s.get("other", 7) == 7


def test_optional_fields_are_left_out_when_none_other_nones_are_null():
    p = PartitionSummary(count=1, modularity=None, seed=0, sizes=((3, 1),), largest=3,
                         non_singleton=1)
    assert p.to_json() == {"count": 1, "modularity": None, "seed": 0, "sizes": [[3, 1]],
                           "largest": 3, "non_singleton": 1}
    assert PartitionSummary.from_json(p.to_json()) == p
    d = Distances(nodes=2, mean_distance=None, diameter=1, exact=True, method="exact",
                  sources=None)
    assert d.to_json()["sources"] is None and Distances.from_json(d.to_json()) == d


def test_unknown_and_missing_keys_are_errors():
    with pytest.raises(ValueError, match="unknown key 'c'"):
        Pair.from_json({"a": "x", "b": "y", "papers": 1, "weight": 1.0, "c": 0})
    with pytest.raises(ValueError, match="missing key 'weight'"):
        Pair.from_json({"a": "x", "b": "y", "papers": 1})
    with pytest.raises(ValueError, match="expected an object"):
        Pair.from_json([1, 2])
