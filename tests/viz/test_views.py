"""kg.viz without a browser: views, caps, escaping, determinism, the page and the index."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.analysis.graphs import coauthor_graph, knowledge_graph
from kg.errors import KgError
from kg.models import Build, Corpus, Extraction, Mention, Paper, Track
from kg.viz import (
    coauthors_view,
    ego_view,
    entities_view,
    entity_view,
    find_track,
    kg_view,
    to_html,
    track_view,
    view,
)

PAYLOAD = "<img src=x onerror=alert(1)>"
ROOT = Path(__file__).resolve().parents[2]


def mention(text: str, typ: str, start: int, proposed: bool = False, canonical: str | None = None):
    from kg.identity import entity_key

    canonical = canonical or text
    return Mention(text, canonical, typ, start, start + len(text), proposed, key=entity_key(canonical))


def tiny_build() -> Build:
    llm = Track("Deep Learning", "Large Language Models", "Deep Learning · Large Language Models")
    vis = Track("Deep Learning", "Vision", "Deep Learning · Vision")
    theory = Track("Theory", None, "Theory")
    papers = (
        Paper("p1", ("Ann Lee", "Bob Xu", "Cy Zhu"), "We propose LoRA. We use BERT.", track=llm),
        Paper("p2", ("Ann Lee", "Dee Ma"), "BERT on ImageNet works.", track=vis),
        Paper("p3", ("Eve Roe",), "A theorem about games.", track=theory),
        Paper("p4", ("Ann Lee", "Bob Xu"), "Adam with BERT again.", track=llm),
    )
    ex = {
        "p1": Extraction("p1", papers[0].abstract, (mention("LoRA", "method", 10, True),
                                                     mention("BERT", "model", 24))),
        "p2": Extraction("p2", papers[1].abstract, (mention("BERT", "model", 0),
                                                     mention("ImageNet", "dataset", 8))),
        "p3": Extraction("p3", papers[2].abstract, ()),
        "p4": Extraction("p4", papers[3].abstract, (mention("Adam", "method", 0),
                                                     mention("BERT", "model", 10))),
    }
    return Build(Corpus(papers, entries=4), ex)


def payload_build() -> Build:
    """A build whose author, abstract, track and entity all carry markup."""
    t = Track(f"Area {PAYLOAD}", f"Sub {PAYLOAD}", "")
    abstract = f"We show {PAYLOAD} and </script><script>window.pwned=1</script> here. Second."
    p = Paper("px", (f"Eve {PAYLOAD}", "Bob Xu"), abstract, track=t)
    m = Mention(PAYLOAD, PAYLOAD, "model", 8, 8 + len(PAYLOAD), True, key="imgsrcx")
    return Build(Corpus((p,), entries=1), {"px": Extraction("px", abstract, (m,))})


# ------------------------------------------------------------------ views


def test_view_node_and_edge_counts_follow_the_graphs():
    b = tiny_build()
    K = knowledge_graph(b)
    net = kg_view(b)
    assert len(net.nodes) == K.number_of_nodes() == net.num_nodes()
    # parallel mentions/proposes edges of one pair are drawn once
    pairs = {(u, v) for u, v in K.edges()}
    assert len(net.edges) == len(pairs)
    C = coauthor_graph(b)
    co = coauthors_view(b)
    assert len(co.nodes) == C.number_of_nodes() and len(co.edges) == C.number_of_edges()
    # ids are 0..n-1 and every edge joins two of them
    assert [n["id"] for n in co.nodes] == list(range(len(co.nodes)))
    assert all(0 <= e["from"] < len(co.nodes) and 0 <= e["to"] < len(co.nodes) for e in co.edges)


def test_coauthor_view_sizes_people_by_papers_and_edges_by_joint_papers():
    net = coauthors_view(tiny_build())
    by_name = {n["name"]: n for n in net.nodes}
    assert by_name["Ann Lee"]["value"] == 3 and by_name["Eve Roe"]["value"] == 1
    ann, bob = by_name["Ann Lee"]["id"], by_name["Bob Xu"]["id"]
    edge = next(e for e in net.edges if {e["from"], e["to"]} == {ann, bob})
    assert edge["n"] == 2 and edge["width"] > 1
    # every node has a legend group, and the legend counts add up
    assert sum(e.count for e in net.legend) == len(net.nodes)
    assert {n["group"] for n in net.nodes} <= {e.group for e in net.legend}


def test_views_reuse_the_builds_graphs_and_partition_unchanged():
    # the build hands its analysis' graph and Leiden partition (and the
    # knowledge graph) to the views instead of computing them again
    from kg.analysis import analyse

    b = tiny_build()
    a = analyse(b)
    assert to_html(coauthors_view(b, graph=a.graph, partition=a.leiden)) == to_html(coauthors_view(b))
    assert to_html(kg_view(b, graph=knowledge_graph(b))) == to_html(kg_view(b))


def test_kg_view_kinds_tooltips_and_tracks():
    net = kg_view(tiny_build())
    groups = {n["group"] for n in net.nodes}
    assert groups == {"paper", "person", "track", "model", "method", "dataset"}
    paper = next(n for n in net.nodes if n["group"] == "paper" and "LoRA" in n["label"])
    assert paper["label"] == "LoRA — Lee et al."
    assert "Authors: Ann Lee, Bob Xu, Cy Zhu" in paper["title"]
    assert "Track: Deep Learning · Large Language Models" in paper["title"]
    assert "LoRA (proposed)" in paper["title"] and "We propose LoRA." in paper["title"]
    # the track filter: a paper lists its subarea and its area
    assert {net.tracks[i] for i in paper["t"]} == {"Deep Learning · Large Language Models",
                                                   "Deep Learning"}
    # the canvas shows labels cut short (a paper's full label is its "name")
    assert all(len(n["label"]) <= (40 if n["group"] == "paper" else 28) for n in net.nodes)
    assert paper["name"] == "LoRA — Lee et al." and net.papers[0][1] == paper["name"]
    # the paper table gives each paper's tracks too, as indices (the filter counts by them)
    rows = {row[0]: row for row in net.papers}
    assert {net.tracks[i] for i in rows["p1"][2]} == {net.tracks[i] for i in paper["t"]}
    assert [net.tracks[i] for i in rows["p3"][2]] == ["Theory"]
    plain = kg_view(Build(Corpus(tuple(Paper(p.id, p.authors, p.abstract)
                                       for p in tiny_build().corpus.papers))))
    assert plain.tracks == [] and all(len(row) == 2 for row in plain.papers)


def test_cap_keeps_the_top_nodes_by_the_stated_measure_and_says_so():
    b = tiny_build()
    net = coauthors_view(b, max_nodes=2)
    assert sorted(n["name"] for n in net.nodes) == ["Ann Lee", "Bob Xu"]  # most papers
    note = " ".join(net.notes)
    assert "shows 2 of 5 nodes" in note and "most papers" in note
    page = to_html(net)
    assert "shows 2 of 5 nodes" in page
    capped = kg_view(b, max_edges=3)
    assert len(capped.edges) == 3 and "strongest of" in " ".join(capped.notes)


def test_ego_track_and_entity_views():
    b = tiny_build()
    ego1 = ego_view(b, "ann lee")
    assert sorted(n["name"] for n in ego1.nodes) == ["Ann Lee", "Bob Xu", "Cy Zhu", "Dee Ma"]
    assert next(n for n in ego1.nodes if n["name"] == "Ann Lee")["group"] == "ego"
    ego2 = ego_view(b, "Dee Ma", radius=2)
    assert {n["name"] for n in ego2.nodes} == {"Dee Ma", "Ann Lee", "Bob Xu", "Cy Zhu"}
    assert {n["group"] for n in ego2.nodes} == {"ego", "d1", "d2"}

    tr = track_view(b, "deep learning")  # an area: all its subareas: the concept map of p1, p2, p4
    terms = {n["name"]: n for n in tr.nodes if n["group"] != "person"}
    assert set(terms) == {"BERT", "LoRA", "ImageNet", "Adam"} and tr.title == "Track: Deep Learning"
    assert terms["BERT"]["o"] == 3 and len(terms["BERT"]["p"]) == 3
    people = {n["name"] for n in tr.nodes if n["group"] == "person"}
    assert people == {"Ann Lee", "Bob Xu", "Cy Zhu", "Dee Ma"}  # Eve Roe is in Theory
    assert [e.shown for e in tr.legend if e.group == "person"] == [False]  # hidden at first
    assert 'type="checkbox" data-group="person"' in to_html(tr)
    assert find_track(b, "Vision") == ("Deep Learning · Vision", ["p2"])

    ent = entity_view(b, "bert")
    assert {n["group"] for n in ent.nodes} == {"paper", "model", "method", "dataset"}
    assert sum(n["group"] == "paper" for n in ent.nodes) == 3
    assert next(n for n in ent.nodes if n["name"] == "BERT").get("focus") is True

    ents = entities_view(b)
    names = {n["id"]: n["name"] for n in ents.nodes}
    pairs = {frozenset((names[e["from"]], names[e["to"]])): e["n"] for e in ents.edges}
    assert pairs[frozenset(("BERT", "LoRA"))] == 1 and frozenset(("BERT", "Adam")) in pairs
    # Min. papers: each node's papers for the control; too few entities with two
    # papers here to hide the one-paper ones at the start
    assert {n["name"]: n["o"] for n in ents.nodes}["BERT"] == 3
    assert ents.controls["min"] == {"value": 1, "floor": 1, "max": 3, "label": "in at least N papers"}
    assert 'id="kg-min"' in to_html(ents)


def test_entities_view_starts_without_one_paper_entities_when_enough_are_left():
    from kg.viz.views import MIN_SHOWN

    papers, ex = [], {}
    for i in range(MIN_SHOWN + 5):  # entity E{i} in papers 2i and 2i+1 (with E{i+1}); X{i} alone
        for j in (2 * i, 2 * i + 1):
            text = f"E{i} and E{i + 1} and X{j}."
            papers.append(Paper(f"p{j}", ("Ann Lee",), text))
            ex[f"p{j}"] = Extraction(f"p{j}", text, (
                mention(f"E{i}", "model", 0), mention(f"E{i + 1}", "model", text.index(" E") + 1),
                mention(f"X{j}", "method", text.index("X"))))
    net = entities_view(Build(Corpus(tuple(papers)), ex))
    assert net.controls["min"]["value"] == 2 and net.controls["regions"] is True
    ones = [n for n in net.nodes if n["o"] == 1]
    assert ones and all(n["name"].startswith(("X", f"E{MIN_SHOWN + 5}")) for n in ones)
    assert sum(n["o"] >= 2 for n in net.nodes) >= MIN_SHOWN


@pytest.mark.parametrize("name, arg, message", [
    ("ego", "Nobody Here", "no author named 'Nobody Here'"),
    ("track", "Nope", "no track named 'Nope'"),
    ("entity", "Nope", "no entity named 'Nope'"),
    ("ego", None, "needs an author"),
    ("bogus", None, "unknown view"),
])
def test_unknown_subjects_are_one_line_user_errors(name, arg, message):
    with pytest.raises(KgError) as err:
        view(tiny_build(), name, arg)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_ego_radius_must_be_1_or_2():
    with pytest.raises(KgError, match="radius must be 1 or 2"):
        ego_view(tiny_build(), "Ann Lee", radius=3)


def test_untrusted_text_never_reaches_the_page_as_markup():
    b = payload_build()
    for net in (kg_view(b), coauthors_view(b), entity_view(b, PAYLOAD), entities_view(b),
                track_view(b, f"Sub {PAYLOAD}"), ego_view(b, f"Eve {PAYLOAD}")):
        page = to_html(net)
        assert PAYLOAD not in page and "<img" not in page
        assert "window.pwned" not in page.split('<script id="kg-data"')[0]
        # exactly one data block, and it parses back to the payload as text
        data = page.split('<script id="kg-data" type="application/json">')[1].split("</script>")[0]
        assert data.count("</") == 0
        parsed = json.loads(data)
        assert any(PAYLOAD in (n["name"] + n["title"]) for n in parsed["nodes"])
    # the heading of a view named after the payload is escaped too
    assert "Entity: &lt;img src=x onerror=alert(1)&gt;" in to_html(entity_view(b, PAYLOAD))


def _page_hash(code: str, seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True)
    return out.stdout.strip()


def test_same_build_gives_byte_identical_pages_across_processes():
    code = (
        "import hashlib, sys; sys.path.insert(0, '.')\n"
        "from tests.viz.test_views import tiny_build\n"
        "from kg.viz import view, to_html\n"
        "b = tiny_build()\n"
        "pages = [to_html(view(b, v, a)) for v, a in [('kg', None), ('coauthors', None), "
        "('entities', None), ('ego', 'Bob Xu'), ('track', 'Deep Learning'), ('entity', 'BERT')]]\n"
        "print(hashlib.sha256(''.join(pages).encode()).hexdigest())\n"
    )
    first, second = _page_hash(code, "1"), _page_hash(code, "2")
    assert first == second
    b = tiny_build()
    assert to_html(kg_view(b)) == to_html(kg_view(b))


def test_views_of_a_sample_corpus_without_extractions(sample_corpus):
    b = Build(sample_corpus)
    net = kg_view(b)
    assert {n["group"] for n in net.nodes} == {"paper", "person", "track"}
    assert hashlib.sha256(to_html(net).encode()).hexdigest() == \
        hashlib.sha256(to_html(kg_view(b)).encode()).hexdigest()


def test_empty_builds_give_empty_pages_not_errors():
    for b in (Build(Corpus(())), Build(Corpus((Paper("p", ("Ann Lee",), "x"),)))):
        for make in (kg_view, coauthors_view, entities_view):
            net = make(b)
            page = to_html(net)
            assert page.count('<script id="kg-data"') == 1
            assert len(net.nodes) == (0 if make is entities_view or not b.corpus.papers
                                      else len(knowledge_graph(b)) if make is kg_view else 1)
