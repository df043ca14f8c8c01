"""The timing harness itself: a plain listing builds within the budget."""
from __future__ import annotations

from tests.hostile import RESULTS, assert_within_budget, build_case, listing


def test_plain_listing_within_budget(tmp_path):
    run = build_case("plain listing", listing("We propose FooNet, a model for images."), tmp_path)
    assert_within_budget(run)
    assert run.returncode == 0
    assert (tmp_path / "out" / "graph.ttl").is_file()
    assert RESULTS[-1] is run
