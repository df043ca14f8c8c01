"""The page's controls in a real browser: the toolbar's text is not cut off, the
legend counts what the filters let through.

The co-author map of a corpus with more than ``TOP_AUTHORS`` people in its
largest group has a *Show* select (its initial scope, or everyone); the
selected option's text must fit the select's box: the box does not scroll
(``scrollWidth <= clientWidth``) and the text, measured in the select's own
font, is narrower than the box less its padding and arrow. The legend's
count of a group reads "N of M" when the other filters (minimum papers,
track, scope) let N of its M nodes through, and follows them.
The browser as in ``test_browser.py`` (fails under ``CI=true`` without one).
"""
from __future__ import annotations

from kg.models import Corpus, Paper
from kg.viz import to_html, view
from kg.viz.peopleviews import TOP_AUTHORS

from .test_browser import Page

_FITS = """() => {
    const s = document.getElementById('kg-scope');
    const cs = getComputedStyle(s);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = cs.font;
    return {opts: [...s.options].map(o => [o.text, ctx.measureText(o.text).width]),
            selected: s.selectedIndex, client: s.clientWidth, scroll: s.scrollWidth,
            padding: parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight)};
}"""
ARROW = 20  # px Chromium draws the drop-down arrow in


def big_corpus() -> Corpus:
    """A chain of co-authors longer than the map's initial scope."""
    n = TOP_AUTHORS + 40
    return Corpus(tuple(Paper(f"p{i}", (f"Author {i}", f"Author {i + 1}"), "Text.")
                        for i in range(n)))


def test_the_show_select_fits_its_text(browser, tmp_path):
    net = view(big_corpus(), "coauthors")
    assert "scope" in net.controls
    path = tmp_path / "coauthors.html"
    path.write_text(to_html(net), encoding="utf-8")
    page = Page(browser, path)
    try:
        m = page.js(_FITS)
        assert m["scroll"] <= m["client"], m
        for text, width in m["opts"]:
            assert width + m["padding"] + ARROW <= m["client"], (text, m)
        assert page.errors == []
    finally:
        page.close()


def _legend(page: Page) -> dict[str, str]:
    return page.js("""() => Object.fromEntries([...document.querySelectorAll(
        '#kg-legend input[data-group]')].map(b => [b.dataset.group,
        b.parentNode.querySelector('.kg-count').textContent]))""")


def _expected(net, minimum: int, track: int = -1) -> dict[str, str]:
    out = {}
    for e in net.legend:
        ours = [n for n in net.nodes if n["group"] == e.group]
        shown = sum(1 for n in ours if n.get("o", 0) >= minimum
                    and (track < 0 or track in n.get("t", ())))
        out[e.group] = f"{len(ours):,}" if shown == len(ours) else f"{shown:,} of {len(ours):,}"
    return out


def test_legend_counts_what_the_filters_let_through(browser, sample_build_dir, tmp_path):
    from kg.build import load_build

    net = view(load_build(sample_build_dir), "concepts", target=40)
    low = net.controls["min"]
    assert low["value"] > low["floor"]   # the map starts filtered
    path = tmp_path / "concepts.html"
    path.write_text(to_html(net), encoding="utf-8")
    page = Page(browser, path)
    try:
        counts = _legend(page)
        assert counts == _expected(net, low["value"])
        assert any(" of " in c for c in counts.values())
        page.page.fill("#kg-min", str(low["floor"]))
        page.page.dispatch_event("#kg-min", "change")
        assert _legend(page) == _expected(net, low["floor"])
        page.page.select_option("#kg-track", "0")
        assert _legend(page) == _expected(net, low["floor"], 0)
        assert page.errors == []
    finally:
        page.close()
