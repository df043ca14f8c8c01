"""The views of the bundled sample in a real browser (Debian's Chromium, headless).

Each page is opened from disk with every non-file request aborted (and
recorded): it must draw, hold as many nodes as the view (and show those its
initial filters keep), show a non-blank graph, log no console error, and its
search box must focus a named node. On the concept map and the co-author map
the labels drawn at the start (read from the page) are many and never
overlap; filtering to one track fills the canvas again.
A listing whose author, abstract, track and entity carry a script payload
must open no dialog and show the payload as characters.

The browser is Debian's ``/usr/bin/chromium`` (``.ci/install-browser.sh``
installs it), driven by Playwright; Playwright never downloads one. When it
is missing the tests fail under ``CI=true`` and are skipped otherwise.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from kg.errors import KgError
from kg.viz import to_html, view

PAYLOAD = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="session")
def sample_build(sample_build_dir):
    from kg.build.read import load_build

    return load_build(sample_build_dir)


class Page:
    """A page opened with networking blocked, recording what it tried and logged."""

    def __init__(self, browser, path: Path, ready: str | None = "window.kgReady !== undefined"
                 ) -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 800},
                                           offline=True)
        self.page = self.context.new_page()
        self.page.route("**/*", self._route)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(path.resolve().as_uri())
        if ready:   # (a page with no graph, such as index.html: loaded is ready)
            self.page.wait_for_function(ready, timeout=30_000)
        else:
            self.page.wait_for_load_state("load")

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith("file:"):
            route.continue_()
        else:
            self.requests.append(url)
            route.abort()

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def js(self, expr: str, arg=None):
        return self.page.evaluate(expr, arg)

    def node_on_screen(self, node_id: int) -> tuple[float, float]:
        """Page coordinates of a node's centre."""
        return tuple(self.js("""id => {
            const p = kg.network.getPositions([id])[id];
            const d = kg.network.canvasToDOM(p);
            const r = document.getElementById('kg-network').getBoundingClientRect();
            return [d.x + r.left, d.y + r.top];
        }""", node_id))

    def hover_tooltip(self, node: dict) -> str:
        """Bring ``node`` into view, point at it and return the tooltip's text."""
        self.js("id => kg.focus(id)", node["id"])
        for _ in range(3):  # vis-network shows the popup after a pause in mouse moves
            self.page.mouse.move(5, 5)
            x, y = self.node_on_screen(node["id"])
            self.page.mouse.move(x, y, steps=4)
            try:
                self.page.wait_for_function(
                    """want => { const t = document.querySelector('div.vis-tooltip');
                        return t && t.style.visibility !== 'hidden'
                            && t.innerText.trim() === want.trim(); }""",
                    arg=node["title"], timeout=5_000)
            except Exception:  # retried; the last attempt's failure is reported below
                continue
            return self.page.inner_text("div.vis-tooltip")
        raise AssertionError(f"no tooltip for node {node['id']} ({node['name']!r})")

    def close(self) -> None:
        self.context.close()


def _pixel_spread(png: bytes) -> tuple[float, float]:
    """(standard deviation of grey levels, share of non-white pixels) of a screenshot."""
    import numpy as np
    from PIL import Image

    grey = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
    return float(grey.std()), float((grey < 235).mean())


def _subject(build, name: str) -> str | None:
    """A subject for the views that need one: the sample's busiest author, track, entity."""
    from collections import Counter

    papers = build.corpus.papers
    if name == "ego":
        return Counter(a for p in papers for a in p.authors).most_common(1)[0][0]
    if name == "track":
        return Counter(p.track.label for p in papers if p.track).most_common(1)[0][0]
    if name == "entity":
        c = Counter(m.canonical for ex in build.extractions.values()  # entities, not concepts
                    for m in {x.canonical: x for x in ex.mentions
                              if x.layer == "entity"}.values())
        return c.most_common(1)[0][0]
    return None


VIEW_NAMES = ("kg", "concepts", "coauthors", "ego", "track", "entity", "entities")


@pytest.fixture(scope="session")
def rendered(sample_build, tmp_path_factory):
    """name -> (network, path of its page) for every view of the sample (and
    ``kgfull``, the whole knowledge graph)."""
    out = tmp_path_factory.mktemp("views")
    pages = {}
    for name in (*VIEW_NAMES, "kgfull"):
        if name == "kgfull":
            net = view(sample_build, "kg", full=True)
        else:
            net = view(sample_build, name, _subject(sample_build, name))
        path = out / f"{name}.html"
        path.write_text(to_html(net), encoding="utf-8")
        pages[name] = (net, path)
    return pages


def initially_shown(net) -> list[dict]:
    """The nodes the page's initial filters keep: ticked legend groups, at
    least the starting minimum of papers, the starting scope."""
    hidden = {e.group for e in net.legend if not e.shown}
    least = net.controls.get("min", {}).get("value", 0)
    scoped = "scope" in net.controls
    return [n for n in net.nodes if n["group"] not in hidden and n.get("o", least) >= least
            and (not scoped or n.get("top"))]


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of label boxes that overlap."""
    return [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]]


@pytest.mark.parametrize("name", VIEW_NAMES)
def test_view_draws_offline_with_its_nodes_and_no_errors(name, browser, rendered):
    net, path = rendered[name]
    page = Page(browser, path)
    try:
        assert page.requests == []
        external = page.js("performance.getEntriesByType('resource')"
                           ".map(e => e.name).filter(n => !n.startsWith('data:'))")
        assert external == []
        assert page.js("kg.nodes.length") == len(net.nodes) > 0
        assert page.js("kg.view.length") == len(initially_shown(net)) > 0
        assert page.js("kg.edges.length") == len(net.edges)
        assert page.js("kgReady.nodes") == len(net.nodes)
        std, ink = _pixel_spread(page.page.locator("#kg-network").screenshot())
        assert std > 8 and ink > 0.002, (std, ink)
        assert page.errors == []
    finally:
        page.close()


@pytest.mark.parametrize("name", VIEW_NAMES)
def test_search_box_focuses_a_named_node(name, browser, rendered):
    net, path = rendered[name]
    people = [n for n in net.nodes if n["group"] not in ("paper", "track", "model", "method",
                                                         "dataset", "task", "metric", "other")]
    # an author where the view has people (the busiest one), else its biggest entity
    pool = people or [n for n in net.nodes if n["group"] != "paper"]
    target = max(pool, key=lambda n: (n["value"], n["name"]))
    page = Page(browser, path)
    try:
        page.page.fill("#kg-search", target["name"])
        page.page.press("#kg-search", "Enter")
        assert page.js("kg.network.getSelectedNodes()") == [target["id"]]
        centre = page.js("kg.network.getViewPosition()")
        at = page.js("id => kg.network.getPositions([id])[id]", target["id"])
        assert abs(centre["x"] - at["x"]) < 1 and abs(centre["y"] - at["y"]) < 1
        assert page.js("document.getElementById('kg-details').hidden") is False
        assert page.page.inner_text("#kg-details h2") == target["name"]
        assert target["name"] in page.page.inner_text("#kg-status")
        # typing part of a name lists matches; clicking one focuses it too
        page.page.fill("#kg-search", target["name"][:4])
        page.page.wait_for_selector("#kg-results button")
        assert page.js("document.querySelectorAll('#kg-results button').length") >= 1
        assert page.errors == []
    finally:
        page.close()


def test_click_highlights_neighbours_and_filters_hide_kinds(browser, rendered):
    net, path = rendered["kgfull"]
    paper = max((n for n in net.nodes if n["group"] == "paper"), key=lambda n: n["value"])
    neighbours = {e["to"] if e["from"] == paper["id"] else e["from"]
                  for e in net.edges if paper["id"] in (e["from"], e["to"])}
    page = Page(browser, path)
    try:
        page.js("id => kg.focus(id)", paper["id"])
        page.js("kg.unselect()")
        x, y = page.node_on_screen(paper["id"])
        page.page.mouse.click(x, y)
        assert page.js("kg.network.getSelectedNodes()") == [paper["id"]]
        bright = set(page.js("kg.nodes.get({filter: n => (n.opacity ?? 1) === 1}).map(n => n.id)"))
        assert bright == neighbours | {paper["id"]}
        # hovering shows the tooltip: abstract, authors, track
        tip = page.hover_tooltip(paper)
        assert "Authors:" in tip and "Track:" in tip and tip.strip() == paper["title"].strip()
        # clicking the background clears the highlight
        page.js("kg.unselect()")
        assert page.js("kg.nodes.get({filter: n => (n.opacity ?? 1) !== 1}).length") == 0
        # unticking "person" in the legend hides exactly the people
        people = sum(n["group"] == "person" for n in net.nodes)
        page.page.uncheck("#kg-legend input[data-group=person]")
        assert page.js("kg.view.length") == len(net.nodes) - people
        # choosing a track keeps the nodes tagged with it
        if net.tracks:
            page.page.select_option("#kg-track", "0")
            tagged = sum(1 for n in net.nodes if 0 in n.get("t", ()) and n["group"] != "person")
            assert page.js("kg.view.length") == tagged
        assert page.errors == []
    finally:
        page.close()


def test_script_payload_shows_as_text_and_runs_nothing(browser, tmp_path):
    from kg.models import Build, Extraction, Mention
    from kg.parse import read_corpus

    listing = tmp_path / "payload.txt"
    abstract = (f"We study {PAYLOAD} in abstracts and </script><script>window.pwned=1</script> "
                "as well. A second sentence follows.")
    listing.write_text(f"Deep Learning · Robust {PAYLOAD}\nEve {PAYLOAD}, Bob Xu\n{abstract}\n\n"
                       "Deep Learning · Robustness\nBob Xu, Ann Lee\nA plain second paper.\n",
                       encoding="utf-8")
    corpus = read_corpus([listing])
    assert any(PAYLOAD in a for p in corpus.papers for a in p.authors)
    first = corpus.papers[0]
    start = first.abstract.index(PAYLOAD)
    ex = Extraction(first.id, first.abstract,
                    (Mention(PAYLOAD, PAYLOAD, "model", start, start + len(PAYLOAD), key="imgx"),))
    build = Build(corpus, {first.id: ex})
    for name, arg, opts in (("kg", None, {"full": True}), ("kg", None, {}), ("concepts", None, {}),
                            ("coauthors", None, {}), ("entity", PAYLOAD, {})):
        net = view(build, name, arg, **opts)
        people = any(n["group"] == "person" for n in net.nodes)
        path = tmp_path / f"{name}.html"
        path.write_text(to_html(net), encoding="utf-8")
        page = Page(browser, path)
        try:
            hostile = [n for n in net.nodes if PAYLOAD in n["name"] or PAYLOAD in n["title"]]
            assert hostile
            for node in hostile:
                assert PAYLOAD in page.hover_tooltip(node)
                assert PAYLOAD in page.page.inner_text("#kg-details")
            # the search box lists and focuses the hostile name as text
            page.page.fill("#kg-search", f"Eve {PAYLOAD}" if people else PAYLOAD)
            page.page.wait_for_selector("#kg-results button")
            assert PAYLOAD in page.page.inner_text("#kg-results")
            page.page.press("#kg-search", "Enter")
            assert PAYLOAD in page.page.inner_text("#kg-details h2")
            assert PAYLOAD in page.page.inner_text("h1") or name != "entity"
            if net.tracks:  # the track filter lists the hostile track as text
                options = page.js("[...document.querySelectorAll('#kg-track option')]"
                                  ".map(o => o.textContent)")
                assert f"Deep Learning · Robust {PAYLOAD}" in options
            page.page.wait_for_timeout(200)  # give a stray onerror time to fire
            assert page.dialogs == []
            assert page.js("document.querySelectorAll('img').length") == 0
            assert page.js("window.pwned") is None
            assert page.requests == [] and page.errors == []
        finally:
            page.close()


@pytest.mark.parametrize("name", ("concepts", "coauthors"))
def test_maps_open_with_many_labels_and_none_overlapping(name, browser, rendered):
    net, path = rendered[name]
    page = Page(browser, path)
    try:
        boxes = page.js("kg.labels()")
        shown = initially_shown(net)
        assert len(boxes) >= min(30, len(shown)), (len(boxes), len(shown))
        assert overlaps(boxes) == []
        # every label drawn is a shown node's, inside the canvas
        ids = {n["id"] for n in shown}
        width, height = page.js("[kg.shownBox().width, kg.shownBox().height]")
        assert all(b["id"] in ids and b["x"] >= 0 and b["x"] + b["w"] <= width
                   and b["y"] >= 0 and b["y"] + b["h"] <= height for b in boxes)
        # zooming in draws labels that did not fit before, still without overlaps
        before = {b["id"] for b in boxes}
        page.js("kg.network.moveTo({scale: kg.network.getScale() * 3, animation: false})")
        page.page.wait_for_timeout(100)
        zoomed = page.js("kg.labels()")
        assert overlaps(zoomed) == []
        assert len(shown) <= len(before) or {b["id"] for b in zoomed} - before
        assert page.errors == []
    finally:
        page.close()


def biggest_unlabelled(page: Page, net, k: int = 10) -> list[str]:
    """Names of the ``k`` biggest nodes the page shows that carry no label."""
    shown = set(page.js("kg.view.getIds()"))
    top = sorted((n for n in net.nodes if n["id"] in shown),
                 key=lambda n: (-n["value"], n["id"]))[:k]
    labelled = {b["id"] for b in page.js("kg.labels()")}
    return [n["name"] for n in top if n["id"] not in labelled]


@pytest.mark.parametrize("name", ("kg", "concepts", "entities"))
def test_the_ten_biggest_nodes_of_each_map_are_labelled_at_fit(name, browser, rendered):
    net, path = rendered[name]
    page = Page(browser, path)
    try:
        assert page.js("kg.view.length") >= 10
        assert biggest_unlabelled(page, net) == []
        page.js("kg.network.moveTo({scale: kg.network.getScale() * 2.5, animation: false})")
        page.page.click("#kg-fit")
        page.page.wait_for_timeout(100)
        assert biggest_unlabelled(page, net) == [] and overlaps(page.js("kg.labels()")) == []
        assert page.requests == [] and page.errors == []
    finally:
        page.close()


def test_density_view_draws_a_heat_layer_and_hides_the_links(browser, rendered):
    net, path = rendered["concepts"]
    page = Page(browser, path)
    try:
        def colourful() -> float:  # share of strongly coloured pixels in the graph
            import numpy as np
            from PIL import Image

            png = page.page.locator("#kg-network").screenshot()
            hsv = np.asarray(Image.open(io.BytesIO(png)).convert("HSV"), dtype=float)
            return float((hsv[:, :, 1] > 80).mean())

        before = colourful()
        assert page.js("kg.edgeView.length") > 0
        page.page.check("#kg-density")
        state = page.js("kg.density()")
        assert state["on"] is True and state["top"] > 0
        assert page.js("kg.edgeView.length") == 0
        assert colourful() > before + 0.05
        assert biggest_unlabelled(page, net) == []
        # a filter recomputes the layer for what is left
        page.page.fill("#kg-min", str(net.controls["min"]["value"] + 2))
        page.page.press("#kg-min", "Enter")
        page.page.dispatch_event("#kg-min", "change")
        assert page.js("kg.density().top") != state["top"]
        page.page.uncheck("#kg-density")
        assert page.js("kg.density().on") is False and page.js("kg.edgeView.length") > 0
        assert page.requests == [] and page.errors == []
    finally:
        page.close()


@pytest.mark.parametrize("name", ("concepts", "kg"))
def test_a_track_filter_scopes_sizes_and_panels_to_the_track(name, browser, rendered):
    net, path = rendered[name]
    assert net.tracks and all(len(row) == 3 for row in net.papers)
    best = max(range(len(net.tracks)),
               key=lambda i: (sum(i in n.get("t", ()) for n in net.nodes), -i))

    def in_track(node: dict) -> int:
        return sum(best in net.papers[i][2] for i in node["p"])

    # the biggest node with papers outside the track too
    node = max((n for n in net.nodes if n.get("p") and 0 < in_track(n) < len(n["p"])),
               key=lambda n: (in_track(n), -n["id"]))
    page = Page(browser, path)
    try:
        page.page.select_option("#kg-track", str(best))
        page.js("id => kg.focus(id)", node["id"])
        k = in_track(node)
        assert page.page.inner_text("#kg-details h3 >> nth=0") == \
            f"Papers in {net.tracks[best]} ({k} of {len(node['p'])})"
        items = page.js("[...document.querySelectorAll('#kg-details ul')[0].children]"
                        ".map(li => li.querySelector('code').textContent)")
        track_ids = {net.papers[i][0] for i in node["p"] if best in net.papers[i][2]}
        assert len(items) == min(k, 80) and set(items) <= track_ids
        # most relevant first: the papers mentioning most of its shown linked terms
        shown = set(page.js("kg.view.getIds()"))
        by_id = {n["id"]: n for n in net.nodes}
        near = [by_id[e["to"] if e["from"] == node["id"] else e["from"]] for e in net.edges
                if node["id"] in (e["from"], e["to"])]
        near = [m for m in near if m["id"] in shown]
        row = {r[0]: i for i, r in enumerate(net.papers)}
        score = [sum(row[pid] in m.get("p", ()) for m in near) for pid in items]
        assert score == sorted(score, reverse=True)
        # every shown node is sized by its papers in the track
        values = page.js("kg.view.getIds().map(id => [id, kg.nodes.get(id).value])")
        assert all(v == max(1, in_track(by_id[i])) for i, v in values if by_id[i].get("p"))
        assert any(v != by_id[i]["value"] for i, v in values)
        # all tracks again: conference-wide sizes and lists
        page.page.select_option("#kg-track", "")
        assert page.js("id => kg.nodes.get(id).value", node["id"]) == node["value"]
        page.js("id => kg.focus(id)", node["id"])
        assert page.page.inner_text("#kg-details h3 >> nth=0") == f"Papers ({len(node['p'])})"
        assert page.requests == [] and page.errors == []
    finally:
        page.close()


def test_only_its_papers_scopes_the_concept_map_to_a_concept(browser, rendered):
    net, path = rendered["concepts"]
    shown0 = [n for n in initially_shown(net)]
    # the shown term sharing papers with most other shown terms
    def shared(a: dict, b: dict) -> int:
        return len(set(a["p"]) & set(b["p"]))

    target = max(shown0, key=lambda n: (sum(shared(n, m) > 0 for m in shown0), -n["id"]))
    page = Page(browser, path)
    try:
        page.js("id => kg.focus(id)", target["id"])
        page.page.click("#kg-details .kg-scope-to")
        want = {m["id"]: shared(target, m) for m in shown0 if shared(target, m)}
        values = dict(page.js("kg.view.getIds().map(id => [id, kg.nodes.get(id).value])"))
        assert values == want and len(want) > 1
        assert page.page.inner_text("#kg-details h3 >> nth=0") == \
            f"Papers with {target['name']} ({len(target['p'])} of {len(target['p'])})"
        assert "only" in page.page.inner_text("#kg-status")
        # another term's panel lists the papers it shares with the target only
        other = max((m for m in shown0 if m["id"] in want and m["id"] != target["id"]),
                    key=lambda m: (want[m["id"]], -m["id"]))
        page.js("id => kg.focus(id)", other["id"])
        k = want[other["id"]]
        assert page.page.inner_text("#kg-details h3 >> nth=0") == \
            f"Papers with {target['name']} ({k} of {len(other['p'])})"
        items = page.js("[...document.querySelectorAll('#kg-details ul')[0].children]"
                        ".map(li => li.querySelector('code').textContent)")
        assert set(items) == {net.papers[i][0] for i in set(target["p"]) & set(other["p"])}
        # Reset: conference-wide again
        page.page.click("#kg-reset")
        assert page.js("kg.view.length") == len(shown0)
        assert page.js("id => kg.nodes.get(id).value", other["id"]) == other["value"]
        assert page.requests == [] and page.errors == []
    finally:
        page.close()


def _shown_area(page: Page) -> float:
    box = page.js("kg.shownBox()")
    b = box["box"]
    return (b["right"] - b["left"]) * (b["bottom"] - b["top"]) / (box["width"] * box["height"])


@pytest.mark.parametrize("name", ("concepts", "coauthors", "kgfull"))
def test_filtering_to_one_track_lays_it_out_again_to_fill_the_canvas(name, browser, rendered):
    net, path = rendered[name]
    assert net.tracks
    page = Page(browser, path)
    try:
        if "scope" in net.controls:
            page.page.select_option("#kg-scope", "all")
            assert page.js("kg.view.length") == len(net.nodes)
        # the track tagging most nodes
        best = max(range(len(net.tracks)),
                   key=lambda i: (sum(i in n.get("t", ()) for n in net.nodes), -i))
        page.page.select_option("#kg-track", str(best))
        shown = page.js("kg.view.length")
        hidden = {e.group for e in net.legend if not e.shown}
        assert shown == sum(1 for n in net.nodes if best in n.get("t", ())
                            and n["group"] not in hidden
                            and n.get("o", 0) >= net.controls.get("min", {}).get("value", 0))
        assert shown > 1 and _shown_area(page) >= 0.5
        # sizes span the scale again among what is shown
        sizes = page.js("kg.view.getIds().map(id => kg.network.body.nodes[id].options.size)")
        values = page.js("kg.view.getIds().map(id => kg.nodes.get(id).value)")
        scale = net.options["nodes"]["scaling"]
        if len(set(values)) > 1:
            assert min(sizes) == scale["min"] and max(sizes) == scale["max"]
        # positions changed from the precomputed ones, and come back with every node
        moved = page.js("""kg.view.getIds().filter(id => {
            const p = kg.network.getPositions([id])[id], n = kg.data.nodes[id];
            return p.x !== n.x || p.y !== n.y; }).length""")
        assert moved > 0
        page.page.click("#kg-reset")
        if "scope" in net.controls:
            page.page.select_option("#kg-scope", "all")
        assert page.js("""kg.data.nodes.every(n => { const p = kg.network.getPositions([n.id])[n.id];
                            return !p || (p.x === n.x && p.y === n.y); })""")
        assert page.errors == []
    finally:
        page.close()


def test_a_tooltip_goes_with_its_node(browser, rendered):
    net, path = rendered["kgfull"]
    paper = max((n for n in net.nodes if n["group"] == "paper"), key=lambda n: n["value"])
    page = Page(browser, path)
    try:
        page.hover_tooltip(paper)
        page.page.uncheck("#kg-legend input[data-group=paper]")
        assert page.js("getComputedStyle(document.querySelector('div.vis-tooltip')).visibility") \
            == "hidden"
        assert page.errors == []
    finally:
        page.close()


def test_panels_show_paper_ids_and_list_papers_first(browser, rendered):
    net, path = rendered["kgfull"]
    paper = max((n for n in net.nodes if n["group"] == "paper"), key=lambda n: n["value"])
    page = Page(browser, path)
    try:
        page.js("id => kg.focus(id)", paper["id"])
        assert page.page.inner_text("#kg-details .kg-id code") == paper["pid"]
        page.page.click("#kg-details .kg-id button")
        page.page.wait_for_function("/copied|selected/.test(document.getElementById('kg-status')"
                                    ".textContent)")
        assert paper["pid"] in page.page.inner_text("#kg-status") or \
            page.js("String(window.getSelection())") == paper["pid"]
    finally:
        page.close()
    for name in ("coauthors", "entity"):
        net, path = rendered[name]
        node = max((n for n in net.nodes if n.get("p")), key=lambda n: (len(n["p"]), n["name"]))
        page = Page(browser, path)
        try:
            page.js("id => kg.focus(id)", node["id"])
            assert page.page.inner_text("#kg-details h3 >> nth=0") == f"Papers ({len(node['p'])})"
            items = page.js("[...document.querySelectorAll('#kg-details ul')[0].children]"
                            ".map(li => li.textContent)")
            want = [net.papers[i][1] + net.papers[i][0] for i in node["p"]][:80]
            assert items[:len(want)] == want
            assert page.errors == []
        finally:
            page.close()


def test_search_finds_papers_by_label_proposed_name_and_author(browser, rendered, sample_build):
    net, path = rendered["kgfull"]
    proposing = [n for n in net.nodes if n["group"] == "paper" and n.get("q")
                 and n["q"].split(" | ")[0] not in {a for p in sample_build.corpus.papers
                                                    for a in p.authors}]
    page = Page(browser, path)
    try:
        target = proposing[0]
        for query in (target["name"], target["q"].split(" | ")[0]):
            page.page.fill("#kg-search", query)
            page.page.wait_for_selector("#kg-results button")
            assert target["name"] in page.page.inner_text("#kg-results"), query
    finally:
        page.close()
    net, path = rendered["coauthors"]  # no paper nodes: a paper is found through its people
    label = net.papers[0][1]
    page = Page(browser, path)
    try:
        page.page.fill("#kg-search", label)
        page.page.wait_for_selector("#kg-results button")
        assert "paper, via" in page.page.inner_text("#kg-results")
        page.page.press("#kg-search", "Enter")
        sel = page.js("kg.network.getSelectedNodes()")
        assert len(sel) == 1 and 0 in next(n for n in net.nodes if n["id"] == sel[0])["p"]
        assert page.errors == []
    finally:
        page.close()


def test_unknown_subject_of_the_sample_is_a_user_error(sample_build):
    with pytest.raises(KgError, match="no author named"):
        view(sample_build, "ego", "Nobody At All")


def test_sample_kg_page_is_under_1_5_mb(rendered):
    net, path = rendered["kg"]
    size = path.stat().st_size
    assert size < 1_500_000, f"kg view of the sample is {size:,} bytes"


# ------------------------------------------- the build's pages and `kg viz`


def test_build_writes_the_views_and_an_index_linking_every_file(sample_build_dir):
    import re
    from urllib.parse import unquote

    for name in ("kg.html", "coauthors.html", "entities.html", "index.html"):
        assert (sample_build_dir / name).is_file(), name
    index = (sample_build_dir / "index.html").read_text(encoding="utf-8")
    hrefs = {unquote(h) for h in re.findall(r'href="([^"]+)"', index) if h != "data:,"}
    files = {p.relative_to(sample_build_dir).as_posix() for p in sample_build_dir.rglob("*")
             if p.is_file() and p.name != "index.html" and not p.name.startswith(".")
             and p.relative_to(sample_build_dir).parts[0] != "store"}
    assert files <= hrefs  # every file is linked ...
    assert all((sample_build_dir / h).exists() for h in hrefs)  # ... and every link works
    assert {"kg.html", "coauthors.html", "entities.html", "report.md", "graph.graphml"} <= hrefs
    assert not (sample_build_dir / "lib").exists()


def test_cli_viz_writes_a_view_and_reports_unknown_subjects(sample_build_dir, sample_build,
                                                             tmp_path, monkeypatch, capsys):
    from kg.cli import main

    author = _subject(sample_build, "ego")
    out = tmp_path / "ego.html"
    assert main(["viz", "ego", author, "--from", str(sample_build_dir), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == to_html(view(sample_build, "ego", author))
    monkeypatch.chdir(tmp_path)
    assert main(["viz", "coauthors", "--from", str(sample_build_dir)]) == 0
    assert (tmp_path / "coauthors.html").is_file() and not (tmp_path / "lib").exists()
    assert main(["viz", "concepts", "--from", str(sample_build_dir)]) == 0
    assert (tmp_path / "concepts.html").read_text(encoding="utf-8") == \
        (sample_build_dir / "concepts.html").read_text(encoding="utf-8")
    assert main(["viz", "kg", "--full", "--from", str(sample_build_dir)]) == 0
    assert (tmp_path / "kg.html").read_text(encoding="utf-8") == \
        to_html(view(sample_build, "kg", full=True))
    capsys.readouterr()
    for argv, message in ((["viz", "ego", "Nobody At All"], "no author named 'Nobody At All'"),
                          (["viz", "track", "No Such Track"], "no track named 'No Such Track'"),
                          (["viz", "entity", "NoSuchThing"], "no entity named 'NoSuchThing'"),
                          (["viz", "track"], "'track' needs a track")):
        assert main([*argv, "--from", str(sample_build_dir)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("kg: error: ") and message in err and err.count("\n") == 1
    assert main(["viz", "kg", "--from", str(tmp_path / "nowhere")]) == 1
    assert "no corpus.jsonl" in capsys.readouterr().err
