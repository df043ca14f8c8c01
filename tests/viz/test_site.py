"""kg.viz.site: index.html links every file of a build, names escaped."""
from __future__ import annotations

import re

from kg.analysis.counts import build_counts
from kg.models import Build, Corpus, Paper
from kg.viz import index_html

# ------------------------------------------------------------------ index


def test_index_links_every_file_and_escapes_names():
    names = ["kg.html", "coauthors.html", "entities.html", "report.md", "report.json",
             "graph.ttl", "graph.graphml", "store/", "plots/degree.png", "corpus.jsonl",
             'odd "name" <b>.html', "index.html"]
    counts = build_counts(Build(Corpus((Paper("1", ("Ann Lee", "ann  lee", "Bob"), "x"),))))
    page = index_html(names, counts=counts)
    hrefs = re.findall(r'href="([^"]+)"', page)
    assert "index.html" not in hrefs
    assert {"kg.html", "coauthors.html", "report.md", "graph.ttl", "store/",
            "plots/degree.png"} <= set(hrefs)
    assert "odd%20%22name%22%20%3Cb%3E.html" in hrefs
    assert "<b>" not in page and "&lt;b&gt;" in page
    assert page.index("Interactive views") < page.index("Report") < page.index("Graph files")
    assert "<td>papers</td><td class=\"n\">1</td>" in page
    # the counts under their names: two spellings of one name are two names, one person
    assert "<td>author names</td><td class=\"n\">3</td>" in page
    assert "<td>people</td><td class=\"n\">2</td>" in page
