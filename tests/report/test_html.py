"""report.html and the content tables (per track, per entity type) of report.json/md.

The expected counts are computed here from the build's corpus.jsonl and
extractions.jsonl, not by the code under test.
"""
from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from html import escape
from pathlib import Path

import pytest

from kg import outputs
from kg.analysis.counts import build_counts
from kg.build.graph_stage import stage_outputs
from kg.models import Build, Corpus, Extraction, Mention, Paper, Track
from kg.report.html import markdown_html

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def sample(sample_build_dir) -> Path:
    """The bundled sample, built once for the session (with extraction)."""
    return sample_build_dir


@pytest.fixture(scope="module")
def expected(sample) -> dict:
    """Counts per track and entity, straight from the build's JSON Lines files.

    An entity is its key; its name and type are those of its first mention
    (FiF is a dataset and a method in the sample: one entity). Concept mentions,
    and mentions of a gazetteer entry that is a concept (LLM), are no entities.
    """
    from kg.extract.concept_vocab import load
    from kg.identity import entity_key

    concept_keys = {entity_key(c.entity) for c in load().concepts.values() if c.entity}
    papers = [json.loads(line) for line in (sample / outputs.CORPUS).read_text().splitlines()]
    extractions = {e["id"]: e for e in map(json.loads,
                                           (sample / outputs.EXTRACTIONS).read_text().splitlines())}
    track_papers: Counter = Counter()
    track_authors: dict[str, set] = defaultdict(set)
    entity_papers: Counter = Counter()        # (name, type) -> papers
    track_entity: Counter = Counter()         # (track, name) -> papers
    proposed: Counter = Counter()             # (track, name) -> papers
    proposing: Counter = Counter()            # track -> papers proposing anything
    first: dict[str, tuple[str, str]] = {}
    for e in extractions.values():
        e["mentions"] = [m for m in e["mentions"] if m.get("layer", "entity") != "concept"
                         and (m.get("key") or m["canonical"].casefold()) not in concept_keys]
        for m in e["mentions"]:
            first.setdefault(m.get("key") or m["canonical"].casefold(), (m["canonical"], m["type"]))
    for p in papers:
        track = " · ".join(x for x in (p["area"], p["subarea"]) if x) or None
        if track:
            track_papers[track] += 1
            track_authors[track] |= {" ".join(a.split()).casefold() for a in p["authors"]}
        mentions = extractions[p["id"]]["mentions"]
        names = {first[m.get("key") or m["canonical"].casefold()] for m in mentions}
        entity_papers.update(names)
        if track:
            track_entity.update((track, n) for n, _ in names)
            mine = {m["canonical"] for m in mentions if m.get("proposed")}
            proposed.update((track, n) for n in mine)
            proposing[track] += bool(mine)
    return {"papers": track_papers, "authors": {t: len(a) for t, a in track_authors.items()},
            "entities": entity_papers, "track_entity": track_entity, "proposed": proposed,
            "proposing": proposing, "untracked": sum(1 for p in papers if not p["area"])}


@pytest.fixture(scope="module")
def content(sample) -> dict:
    return json.loads((sample / outputs.REPORT_JSON).read_text())["content"]


@pytest.fixture(scope="module")
def page(sample) -> str:
    return (sample / outputs.REPORT_HTML).read_text(encoding="utf-8")


def _row(*cells) -> str:
    return "<tr>" + "".join(f'<td class="n">{c}</td>' if isinstance(c, int) else
                            f"<td>{escape(c)}</td>" for c in cells) + "</tr>"


def test_page_is_self_contained_and_links_every_plot(sample, page):
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page)  # nothing from a network
    plots = sorted(p.name for p in (sample / outputs.PLOTS_DIR).glob("*.png"))
    assert len(plots) == 4
    for name in plots:
        assert f'<img src="plots/{name}"' in page
    assert page.count("<img ") == len(plots)


def test_index_links_the_html_report(sample):
    index = (sample / outputs.INDEX_HTML).read_text(encoding="utf-8")
    assert 'href="report.html"' in index
    assert index.index('href="report.html"') < index.index('href="report.md"')
    assert outputs.REPORT_HTML in json.loads((sample / outputs.MANIFEST).read_text())["entries"]


def test_papers_and_authors_per_track(expected, content, page):
    got = {r["track"]: (r["papers"], r["authors"]) for r in content["tracks"]}
    assert got == {t: (n, expected["authors"][t]) for t, n in expected["papers"].items()}
    assert [r["papers"] for r in content["tracks"]] == sorted(expected["papers"].values(),
                                                               reverse=True)
    assert content["papers_without_track"] == expected["untracked"] == 7
    assert got["Deep Learning · Large Language Models"] == (9, 55)
    for t, (n, a) in got.items():
        assert _row(t, n, a) in page


def test_top_entities_by_type(expected, content, page):
    by_type = content["entities_by_type"]
    assert set(by_type) == {ty for _, ty in expected["entities"]}
    for ty, top in by_type.items():
        counts = sorted((n for (_, t), n in expected["entities"].items() if t == ty),
                        reverse=True)
        assert [n for _, n in top] == counts[:len(top)]
        assert len(top) == min(10, len(counts))
        for name, n in top:
            assert expected["entities"][(name, ty)] == n
    # LLM is the concept large language model (one node): a concept, not a model
    assert "LLM" not in {n for n, _ in by_type["model"]}
    top = {n: k for n, _, k in content["top_concepts"]}
    assert top["large language model"] >= 21  # the 21 papers naming LLMs, at least
    assert _row("large language model", "model class", top["large language model"]) in page


def test_proposed_names_per_track(expected, content, page):
    rows = content["proposed_by_track"]
    assert {r["track"]: r["papers_proposing"] for r in rows} == {
        t: n for t, n in expected["proposing"].items() if n}
    for r in rows:
        assert r["names"], r
        for name, n in r["names"]:
            assert expected["proposed"][(r["track"], name)] == n
        listed = sum(1 for (t, _), _n in expected["proposed"].items() if t == r["track"])
        assert len(r["names"]) == min(10, listed)
    assert f"<td>{escape('Theory · Game Theory')}</td>" in page and "DEB (1), DID (1)" in page


def test_track_by_entity_table(expected, content, page):
    te = content["track_entities"]
    top = sorted(expected["entities"].items(), key=lambda kv: (-kv[1], kv[0][0]))[:8]
    assert [tuple(e) for e in te["entities"]] == [e for e, _ in top]
    for r in te["rows"]:
        want = [expected["track_entity"][(r["track"], name)] for name, _ in te["entities"]]
        assert r["papers"] == want
        assert _row(r["track"], *want) in page
    assert "<th>LLM (model)</th>" not in page  # LLM is a concept now
    llm_track = {t["track"]: dict(t["concepts"]) for t in content["concepts_by_track"]}
    assert llm_track["Deep Learning · Large Language Models"]["large language model"] >= 8


def test_report_md_drops_the_strength_table_that_repeats_papers(sample):
    md = (sample / outputs.REPORT_MD).read_text(encoding="utf-8")
    doc = json.loads((sample / outputs.REPORT_JSON).read_text())
    top = doc["coauthors"]["centrality"]["top"]
    assert [a["name"] for a in top["papers"][:10]] == [a["name"] for a in top["strength"][:10]]
    assert "#### By papers" in md and "#### By collaboration strength" not in md
    assert top["strength"]  # report.json keeps it
    assert "## Content" in md and "### Tracks and entities" in md


def _hostile_pages() -> dict:
    t = Track(SCRIPT, "x | y", f"{SCRIPT} · x | y")
    p = Paper("p0", ("Ann <b>Lee</b>", "Bo"), "We propose Evil.", track=t)
    ms = (Mention("Evil", "<img src=x onerror=alert(2)>", "method", 11, 15, proposed=True,
                  key="evil"),)
    b = Build(Corpus((p,)), {"p0": Extraction("p0", p.abstract, ms)})
    files = dict(stage_outputs(b, counts=build_counts(b), exports=False))
    return files


def test_hostile_track_and_entity_names_are_text():
    files = _hostile_pages()
    page = files[outputs.REPORT_HTML]
    assert "<script>" not in page and "<img src=x" not in page and "<b>" not in page
    track = escape(f"{SCRIPT} · x | y")
    assert f"<td>{track}</td>" in page                          # per track, intact
    assert escape("<img src=x onerror=alert(2)> (1)") in page    # proposed, entity by type
    assert escape("Ann <b>Lee</b>") in page
    assert page == dict(_hostile_pages())[outputs.REPORT_HTML]       # deterministic
    doc = json.loads(files[outputs.REPORT_JSON])
    assert doc["content"]["tracks"] == [{"track": f"{SCRIPT} · x | y", "papers": 1, "authors": 2}]


def test_markdown_cells_with_escaped_pipes_and_backslashes():
    md = "| a | b |\n|---|---|\n| x \\| y \\\\ | 1,234 |\n"
    page = markdown_html(md)
    assert "<td>x | y \\</td>" in page and '<td class="n">1,234</td>' in page


def test_a_corpus_without_tracks_says_so():
    p = Paper("p0", ("Ann", "Bo"), "We use BERT.")
    b = Build(Corpus((p,)), {"p0": Extraction("p0", p.abstract, (
        Mention("BERT", "BERT", "model", 7, 11, key="bert"),))})
    files = dict(stage_outputs(b, exports=False))
    assert "No paper has a track: the tables per track are left out." in files[outputs.REPORT_MD]
    assert "### Papers and people per track" not in files[outputs.REPORT_MD]
    assert "BERT (1)" in files[outputs.REPORT_HTML]
    assert json.loads(files[outputs.REPORT_JSON])["content"]["papers_without_track"] == 1


def test_page_opens_offline_in_chromium(sample, browser):
    """The page draws in headless Chromium from disk: every plot loads, nothing asks a network."""
    asked: list[str] = []
    errors: list[str] = []
    context = browser.new_context(offline=True)
    try:
        page = context.new_page()
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:")
                   else (asked.append(r.request.url), r.abort()))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.goto((sample / outputs.REPORT_HTML).resolve().as_uri())
        loaded = page.evaluate("[...document.images].map(i => i.complete && i.naturalWidth > 0)")
        tables = page.evaluate("document.querySelectorAll('table').length")
    finally:
        context.close()
    assert loaded == [True] * 4
    assert tables >= 10 and asked == [] and errors == []
