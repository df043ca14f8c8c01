"""The pages of an ICML 2024 build (2,610 papers) in a real browser.

Every page ``kg build`` writes opens from disk with no request and no console
error; each view holds as many nodes as the view kg made of the build; the
concept map and the co-author map open with at least 30 labels, none
overlapping; on the concept map, the overview and the entities map the ten
biggest nodes are labelled at Fit, with the density layer on too. (The
listing has no track lines, so the track checks run on the bundled sample in
``test_browser``.) Chromium as there: a missing browser
fails under ``CI=true`` and skips otherwise.
"""
from __future__ import annotations

import pytest

from kg.viz import view
from tests.viz.test_browser import (
    Page,
    _pixel_spread,
    biggest_unlabelled,
    initially_shown,
    overlaps,
)

PAGES = ("kg", "concepts", "coauthors", "entities")


@pytest.fixture(scope="module")
def icml_build_dir(tmp_path_factory, icml_txt):
    from kg.cli import main

    out = tmp_path_factory.mktemp("icml") / "build"
    assert main(["build", "-q", "-o", str(out), str(icml_txt)]) == 0
    return out


@pytest.fixture(scope="module")
def icml_views(icml_build_dir):
    from kg.build.read import load_build

    build = load_build(icml_build_dir)
    return {name: view(build, name) for name in PAGES}


@pytest.mark.parametrize("page_file", ("kg.html", "concepts.html", "coauthors.html",
                                       "entities.html", "index.html", "report.html"))
def test_every_page_of_an_icml_build_opens_offline_without_errors(page_file, browser,
                                                                     icml_build_dir, icml_views):
    name = page_file.removesuffix(".html")
    page = Page(browser, icml_build_dir / page_file,
                ready="window.kgReady !== undefined" if name in icml_views else None)
    try:
        assert page.requests == [] and page.errors == []
        if name in icml_views:
            net = icml_views[name]
            assert page.js("kg.nodes.length") == len(net.nodes) > 0
            assert page.js("kg.view.length") == len(initially_shown(net)) > 0
            std, ink = _pixel_spread(page.page.locator("#kg-network").screenshot())
            assert std > 8 and ink > 0.002, (std, ink)
    finally:
        page.close()


@pytest.mark.parametrize("page_file", ("concepts.html", "coauthors.html"))
def test_icml_maps_open_with_30_labels_and_none_overlapping(page_file, browser,
                                                          icml_build_dir):
    page = Page(browser, icml_build_dir / page_file)
    try:
        boxes = page.js("kg.labels()")
        assert len(boxes) >= 30 and overlaps(boxes) == [], len(boxes)
        assert page.errors == []
    finally:
        page.close()


@pytest.mark.parametrize("name", ("kg", "concepts", "entities"))
def test_icml_maps_label_their_ten_biggest_nodes_at_fit(name, browser, icml_build_dir, icml_views):
    page = Page(browser, icml_build_dir / f"{name}.html")
    try:
        assert biggest_unlabelled(page, icml_views[name]) == []
        if name == "concepts":
            page.page.check("#kg-density")
            assert page.js("kg.density().top") > 0
            assert biggest_unlabelled(page, icml_views[name]) == []
        assert page.requests == [] and page.errors == []
    finally:
        page.close()
