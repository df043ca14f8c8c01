"""kg.viz.html: a view as one self-contained, deterministic HTML page."""
from __future__ import annotations

import json
import re

from kg.viz import coauthors_view, kg_view, to_html
from kg.viz.html import vis_assets
from tests.viz.test_views import tiny_build

# --------------------------------------------------------------- the page


def test_page_is_self_contained():
    page = to_html(kg_view(tiny_build()))
    assert not re.search(r"<(script|img|iframe)[^>]*\ssrc=", page, re.I)
    assert not re.search(r"<link[^>]*stylesheet", page, re.I)
    assert not re.search(r"https?://[^\s\"']*(cdn|jsdelivr|unpkg|cloudflare)", page, re.I)
    for word in ("bootstrap", "lib/bindings", "tom-select", "sourceMappingURL"):
        assert word not in page
    vis_js, vis_css = vis_assets()
    assert vis_js[:2000] in page and vis_css[:2000] in page  # inlined from pyvis
    assert '<link rel="icon" href="data:,">' in page  # not even a favicon request


def test_write_html_leaves_no_lib_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    net = coauthors_view(tiny_build())
    net.write_html("view.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["view.html"]
    assert (tmp_path / "view.html").read_text(encoding="utf-8") == to_html(net)
    assert net.generate_html() == to_html(net)


def test_page_has_no_random_ids():
    page = to_html(coauthors_view(tiny_build()))
    head = page.split("<style>")[0] + page.split("</style>")[-1].split('<script id="kg-data"')[0]
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}", head)
    assert "Math.random" not in page.split("<script>")[-1]


def test_a_plain_pyvis_network_renders_too():
    from pyvis.network import Network

    net = Network()
    net.add_node(1, label="a <b>", group="person")
    net.add_node(2, label="b", group="paper")
    net.add_edge(1, 2)
    page = to_html(net)
    data = json.loads(page.split('type="application/json">')[1].split("</script>")[0])
    assert [n["label"] for n in data["nodes"]] == ["a <b>", "b"]
    assert {e["group"] for e in data["legend"]} == {"person", "paper"}
    assert "a <b>" not in page
