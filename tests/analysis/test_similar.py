"""kg.analysis.similar: nearest papers by words and things, their explanations, determinism."""
from __future__ import annotations

from kg.analysis.similar import Document, documents, similar_papers, terms
from kg.extract.concept_vocab import Concept, ConceptVocab
from kg.models import Build, Corpus, Extraction, Mention, Paper

VIDEO = [
    Document("v1", "We animate personalized text-to-image models into video generators "
                   "with a motion module.", ("c:diffusion-model", "e:stablediffusion")),
    Document("v2", "Video generation with motion priors: a motion module animates images.",
             ("c:diffusion-model",)),
    Document("v3", "Motion transfer for video generation from a single image.",
             ("c:video-generation",)),
]
OTHER = [
    Document("o1", "Convex optimisation bounds for stochastic gradient methods.",
             ("c:optimization",)),
    Document("o2", "Stochastic gradient descent converges under convex losses.",
             ("c:optimization", "e:stablediffusion")),
    Document("o3", "Personalized text-to-image models with low-rank adapters.",
             ("c:diffusion-model", "e:stablediffusion", "e:lora")),
    Document("o4", "Graph neural networks for molecules.", ("c:gnn",)),
    Document("o5", "Molecule property prediction with graph networks.", ("c:gnn",)),
]


def test_a_video_paper_finds_video_papers_first():
    near = similar_papers(VIDEO + OTHER, k=3)
    assert {n.paper for n in near["v2"][:2]} == {"v1", "v3"}
    assert [n.paper for n in near["v3"]] == ["v2", "v1"]
    assert [n.paper for n in near["o1"]] == ["o2"]
    assert [n.paper for n in near["o4"]] == ["o5"]  # shares nothing with the rest


def test_scores_fall_and_are_rounded_and_ties_go_by_id():
    twins = [Document(i, "Sparse attention for long documents.", ()) for i in ("c", "a", "b")]
    near = similar_papers(twins + [Document("z", "Unrelated words entirely here.", ())])
    assert [n.paper for n in near["c"]] == ["a", "b"]  # equal scores: by id
    assert near["z"] == ()                             # shares nothing: no neighbour
    for ns in near.values():
        scores = [n.score for n in ns]
        assert scores == sorted(scores, reverse=True)
        assert all(0 < s <= 1.0001 and round(s, 4) == s for s in scores)


def test_what_the_two_share_is_named():
    near = similar_papers(VIDEO + OTHER, k=5)
    v2 = next(n for n in near["v1"] if n.paper == "v2")
    assert v2.things == ("c:diffusion-model",)
    # the pair stands for its words, which are not named again
    assert v2.words[:2] == ("animate", "motion module") and "motion" not in v2.words
    o3 = near["v1"][0]
    # the rarer thing first; both are in 3 papers here, so by key
    assert o3.paper == "o3" and o3.things == ("c:diffusion-model", "e:stablediffusion")
    assert [n.words for n in near["o2"] if n.paper == "v1"] == [()]


def test_blocks_and_order_of_input_change_nothing():
    docs = VIDEO + OTHER
    a = similar_papers(docs, k=4)
    b = similar_papers(list(reversed(docs)), k=4, block=2)
    assert a == b
    assert list(a) == sorted(a)


def test_words_share_moves_the_ranking():
    words_only = similar_papers(VIDEO + OTHER, words=1.0)
    things_only = similar_papers(VIDEO + OTHER, words=0.0)
    # o2 shares only Stable Diffusion with v1: no word, a thing
    assert "o2" not in [n.paper for n in words_only["v1"]]
    assert "o2" in [n.paper for n in things_only["v1"]]


def test_words_most_papers_use_are_left_out_of_a_large_corpus(monkeypatch):
    from kg.analysis import similar

    twins = [Document(i, "Sparse attention for long documents.", ()) for i in "abcd"]
    docs = twins + [Document(f"z{i}", f"Other word{i} here{i}.", ()) for i in range(6)]
    assert [n.paper for n in similar_papers(docs)["a"]] == ["b", "c", "d"]
    monkeypatch.setattr(similar, "MIN_CAP", 2)     # as if the corpus were large
    assert similar_papers(docs, max_df=0.3)["a"] == ()  # in 4 of 10 papers: left out
    assert [n.paper for n in similar_papers(docs, max_df=0.4)["a"]] == ["b", "c", "d"]


def test_one_paper_or_none():
    assert similar_papers([]) == {}
    assert similar_papers([Document("a", "Only one paper.", ())]) == {"a": ()}


def test_terms_fold_plurals_and_pair_adjacent_words():
    got = [t for t, _ in terms("Policies of the agents; video models.")]
    assert got == ["policy", "agent", "video", "model", "video model"]  # no pair across ";"
    assert [w for _, w in terms("Videos")] == ["videos"]


def test_documents_name_concepts_and_entities():
    vocab = ConceptVocab(concepts={
        "diffusion-model": Concept("diffusion-model", "diffusion model", "model_class",
                                   entity="Diffusion Model")},
        entity_links={}, kind_links={}, narrower={})
    p = Paper("00000000000000a1", ("A",), "Diffusion Models and LoRA on quantization.")
    q = Paper("00000000000000a2", ("B",), "No extraction here.")
    ms = (Mention("Diffusion Models", "Diffusion Model", "model", 0, 16, key="diffusionmodel"),
          Mention("LoRA", "LoRA", "method", 21, 25, key="lora"),
          Mention("quantization", "quantization", "method", 29, 41, key="quantization",
                  layer="concept"))
    build = Build(Corpus((p, q)), {p.id: Extraction(p.id, p.abstract, ms)})
    docs = documents(build, vocab)
    assert docs[0] == Document(p.id, p.abstract, ("c:diffusion-model", "e:lora",
                                                  "c:quantization"))
    assert docs[1] == Document(q.id, q.abstract, ())


def _corpus(n: int) -> list[Document]:
    """n abstracts over a small vocabulary, so that every cap of the search binds."""
    words = [f"word{i:02d}" for i in range(60)]
    return [Document(f"p{i:03d}", " ".join(words[(i * 7 + j * j) % 60] for j in range(25)),
                     (f"e:{i % 9}", f"e:{i % 13}")) for i in range(n)]


def test_candidate_search_without_caps_is_the_exhaustive_ranking():
    docs = _corpus(120)
    capped = similar_papers(docs, top_terms=3, posting=4, candidates=5)
    full = similar_papers(docs, top_terms=10**6, posting=10**6, candidates=10**6)
    assert capped != full                   # the caps bind here ...
    # ... and every paper still has neighbours, each scored exactly
    assert all(capped[p] for p in capped)
    exact = {(p, n.paper): n.score for p, ns in full.items() for n in ns}
    for p, ns in capped.items():
        for n in ns:
            assert n.score <= full[p][0].score
            assert exact.get((p, n.paper), n.score) == n.score
    # with caps that do not bind, the search is the exhaustive ranking
    assert similar_papers(docs, top_terms=500, posting=500, candidates=500) == full


def test_same_papers_same_neighbours_byte_for_byte():
    docs = _corpus(90)
    a = similar_papers(docs, top_terms=4, posting=6, candidates=8, block=7)
    b = similar_papers(list(reversed(docs)), top_terms=4, posting=6, candidates=8, block=50)
    assert repr(a) == repr(b)
