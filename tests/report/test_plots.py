"""kg.report.plots: the PNG plots are deterministic."""
from __future__ import annotations

from kg.analysis import analyse
from kg.models import Corpus
from kg.report.plots import all_plots
from tests.report.test_exports import small_build


def test_plots_are_deterministic():
    r = analyse(small_build()).report
    assert all_plots(r) == all_plots(r)
    empty = analyse(Corpus(())).report
    assert all(png[:4] == b"\x89PNG" for png in all_plots(empty).values())
