"""The concept map, the overview and paper labels, without a browser."""
from __future__ import annotations

import itertools

from kg.models import Build, Corpus, Extraction, Mention, Paper, Track
from kg.viz import concept_map, kg_view, overview_map, to_html, view
from kg.viz.clusterlayout import silhouette
from kg.viz.conceptmap import association_strength, distinctive, term_map, terms_of, threshold


def _mention(abstract: str, name: str, typ: str = "method", *, layer: str = "entity",
             key: str | None = None, proposed: bool = False) -> Mention:
    start = abstract.index(name)
    return Mention(name, name, typ, start, start + len(name), proposed,
                   key=key or name.lower().replace(" ", ""), layer=layer)


def corpus_build(spec: list[tuple[str, list[str]]], track: Track | None = None) -> Build:
    """Papers whose abstracts list the given names (each an entity mention)."""
    papers, extractions = [], {}
    for i, (author, names) in enumerate(spec):
        abstract = "We use " + ", ".join(names) + "." if names else "Nothing named here."
        p = Paper(f"p{i}", (author, "Co Author"), abstract, track=track)
        papers.append(p)
        extractions[p.id] = Extraction(p.id, abstract, tuple(_mention(abstract, n) for n in names))
    return Build(Corpus(tuple(papers)), extractions)


def test_threshold_keeps_at_most_the_target_and_is_the_smallest_such():
    counts = [10, 8, 8, 5, 3, 3, 3, 2, 1, 1]
    for target in range(1, 12):
        n = threshold(counts, target)
        assert sum(c >= n for c in counts) <= target
        assert n == 1 or sum(c >= n - 1 for c in counts) > target


def test_links_follow_association_strength_not_raw_counts():
    # "Big" is in every paper, so it co-occurs most with everything; A and B
    # occur together every time either occurs: their strength is the highest.
    spec = [("Ann Lee", ["Big", "Alpha", "Beta"])] * 3 + [("Bob Xu", ["Big", "Gamma"])] * 5 \
        + [("Cy Zhu", ["Big", "Alpha"])]
    net = concept_map(corpus_build(spec))
    names = {n["id"]: n["name"] for n in net.nodes}
    strength = {frozenset((names[e["from"]], names[e["to"]])): e["s"] for e in net.edges}
    both = {frozenset((names[e["from"]], names[e["to"]])): e["n"] for e in net.edges}
    assert both[frozenset(("Big", "Gamma"))] == 5 > both[frozenset(("Alpha", "Beta"))] == 3
    assert strength[frozenset(("Alpha", "Beta"))] > strength[frozenset(("Big", "Gamma"))]
    assert strength[frozenset(("Alpha", "Beta"))] == round(association_strength(3, 4, 3, 9), 2)


def test_clusters_are_coloured_and_named_by_their_top_terms():
    # two groups of terms that never meet: two clusters, each named by its own terms
    left = [("Ann Lee", ["Alpha", "Beta", "Gamma"])] * 4
    right = [("Bob Xu", ["Delta", "Epsilon", "Zeta"])] * 3
    net = concept_map(corpus_build(left + right))
    groups = {n["name"]: n["group"] for n in net.nodes}
    assert groups["Alpha"] == groups["Beta"] == groups["Gamma"] != groups["Delta"]
    assert groups["Delta"] == groups["Epsilon"] == groups["Zeta"]
    labels = {e.group: e.label for e in net.legend}
    assert labels[groups["Alpha"]].startswith("1: ") and "Alpha" in labels[groups["Alpha"]]
    assert "Delta" in labels[groups["Delta"]] and "Alpha" not in labels[groups["Delta"]]


def test_the_threshold_starts_the_map_small_and_the_control_can_lower_it():
    # 12 terms in 1..12 papers
    names = [f"Term{i:02d}" for i in range(1, 13)]
    spec = [("Ann Lee", [n for j, n in enumerate(names, 1) if j > i]) for i in range(12)]
    net = concept_map(corpus_build(spec), target=5, max_terms=8)
    m = net.controls["min"]
    assert m["value"] == 8 and m["floor"] == 5 and m["max"] == 12
    assert len(net.nodes) == 8  # the floor's terms are in the page ...
    assert sum(n["o"] >= m["value"] for n in net.nodes) == 5  # ... the threshold's shown first
    page = to_html(net)
    assert 'id="kg-min" type="number" min="5" max="12" step="1" value="8"' in page


def test_concept_layer_terms_join_the_map_and_never_merge_with_entities():
    a = "Diffusion models and DDPM."
    m = (_mention(a, "Diffusion models", "method", layer="concept", key="diffusion-model"),
         _mention(a, "DDPM", "model"))
    b = "DDPM again, with diffusion-model as a word."
    m2 = (_mention(b, "DDPM", "model"),
          _mention(b, "diffusion-model", "model", key="diffusion-model"))  # an entity, same key
    build = Build(Corpus((Paper("p1", ("A B",), a), Paper("p2", ("C D",), b))),
                  {"p1": Extraction("p1", a, m), "p2": Extraction("p2", b, m2)})
    terms = terms_of(build)
    assert set(terms) == {"concept:diffusion-model", "diffusion-model", "ddpm"}
    assert terms["concept:diffusion-model"].layer == "concept"
    assert terms["ddpm"].papers == ("p1", "p2")
    over = overview_map(build)
    kinds = {n["name"]: n["group"] for n in over.nodes}
    assert kinds["Diffusion models"] == "concept" and kinds["DDPM"] == "model"
    assert "concepts and entities" in " ".join(concept_map(build).notes)


def test_overview_has_tracks_and_terms_and_no_people():
    t1, t2 = Track("ML", "Vision", "ML · Vision"), Track("ML", "Text", "ML · Text")
    b1 = corpus_build([("Ann Lee", ["ViT", "ImageNet"])] * 3, t1)
    b2 = corpus_build([("Bob Xu", ["BERT", "GLUE"])] * 2, t2)
    papers = b1.corpus.papers + tuple(Paper(f"q{i}", p.authors, p.abstract, track=t2)
                                      for i, p in enumerate(b2.corpus.papers))
    ex = {**b1.extractions, **{f"q{i}": Extraction(f"q{i}", e.abstract, e.mentions)
                               for i, e in enumerate(b2.extractions.values())}}
    build = Build(Corpus(papers), ex)
    net = view(build, "kg")
    assert {n["group"] for n in net.nodes} == {"track", "method"}  # corpus_build's type
    names = {n["id"]: n["name"] for n in net.nodes}
    links = {(names[e["from"]], names[e["to"]]) for e in net.edges if e["relation"] == "subject"}
    assert ("ML · Vision", "ViT") in links and ("ML · Text", "BERT") in links
    assert ("ML · Vision", "BERT") not in links
    full = kg_view(build)  # the whole graph still has everyone
    assert {"person", "paper"} <= {n["group"] for n in full.nodes}
    assert view(build, "kg", full=True).nodes == full.nodes


def test_concept_map_is_deterministic():
    spec = [(f"Au {i}", [n for n in ("Alpha", "Beta", "Gamma", "Delta") if (i >> k) % 2])
            for i, k in itertools.product(range(8), range(1))]
    b = corpus_build(spec)
    assert to_html(concept_map(b)) == to_html(concept_map(b))


def test_tracks_named_alike_in_two_areas_say_their_area():
    """"Everything Else" under two areas would be two nodes of one name: they say their area."""
    tracks = [Track("ML", "Everything Else", ""), Track("Vision", "Everything Else", ""),
              Track("ML", "Text", "")]
    papers, ex = [], {}
    for i, t in enumerate(tracks * 2):
        abstract = "We use BERT."
        papers.append(Paper(f"p{i}", ("Ann Lee",), abstract, track=t))
        ex[f"p{i}"] = Extraction(f"p{i}", abstract, (_mention(abstract, "BERT"),))
    build = Build(Corpus(tuple(papers)), ex)
    for net in (overview_map(build), kg_view(build)):
        labels = {n["name"]: n["label"] for n in net.nodes if n["group"] == "track"}
        assert labels["ML · Everything Else"] == "ML · Everything Else"
        assert labels["Vision · Everything Else"] == "Vision · Everything Else"
        assert labels["ML · Text"] == "Text"   # unambiguous: the subarea alone
        if "ML" in labels:
            assert labels["ML"] == "ML"


def test_clusters_are_named_by_their_distinctive_terms_not_the_generic_ones():
    # "Deep" is in every paper (most papers of all) and links everywhere: it
    # joins a cluster but names none first; each group's own terms do
    left = [("Ann Lee", ["Deep", "Alpha", "Beta"])] * 4
    right = [("Bob Xu", ["Deep", "Delta", "Epsilon"])] * 4
    tm = term_map(corpus_build(left + right))
    assert tm.modularity is not None and tm.modularity > 0.2
    assert {t.name for t in tm.terms} == {"Deep", "Alpha", "Beta", "Delta", "Epsilon"}
    assert tm.membership["alpha"] == tm.membership["beta"] != tm.membership["delta"]
    first = {g.label.split(": ", 1)[1].split(", ")[0] for g in tm.groups}
    assert "Deep" not in first and first <= {"Alpha", "Beta", "Delta", "Epsilon"}
    names = distinctive(tm.graph, tm.terms, tm.membership)
    assert names[tm.membership["deep"]][-1] == "Deep"


def test_concept_map_places_each_cluster_in_a_region_and_has_a_density_switch():
    # three groups of five terms, a few papers linking groups
    groups = [[f"T{g}x{i}" for i in range(5)] for g in range(3)]
    spec = [(f"Au {g}", groups[g]) for g in range(3) for _ in range(4)]
    spec += [("Cross Ref", [groups[0][0], groups[1][0]]), ("Cross Ref", [groups[1][1], groups[2][1]])]
    net = concept_map(corpus_build(spec))
    assert net.controls["regions"] is True and net.controls["density"] is True
    assert 'id="kg-density"' in to_html(net)
    xy = [(n["x"], n["y"]) for n in net.nodes]
    assert silhouette(xy, [n["group"] for n in net.nodes]) > 0.3
