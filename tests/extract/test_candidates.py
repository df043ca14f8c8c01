"""kg.extract.candidates: chunks and candidate phrases over kg's tokens."""
from __future__ import annotations

from kg.extract.candidates import MAX_WORDS, chunk_candidates, chunks, load_tables


def test_chunks_cut_at_stop_words_verbs_and_punctuation() -> None:
    words = ["We", "propose", "a", "graph", "neural", "network", "that", "significantly",
             "improves", "link", "prediction", "."]
    assert chunks(words, load_tables()) == [(3, 6), (9, 11)]


def test_stop_words_inside_hyphenated_compounds_stay() -> None:
    words = ["an", "end", "-", "to", "-", "end", "non", "-", "convex", "model"]
    c = chunk_candidates(words, load_tables())
    assert "endtoend" in c.keys and "endtoendnonconvex" in c.keys
    assert "nonconvexmodel" in c.keys


def test_ing_and_ed_words_stay_inside_a_chunk() -> None:
    words = ["learned", "representations", "for", "self", "-", "supervised", "learning"]
    c = chunk_candidates(words, load_tables())
    assert {"learnedrepresentation", "selfsupervisedlearning"} <= set(c.keys)


def test_occurrences_group_by_folded_key() -> None:
    words = ["Diffusion", "Models", "and", "diffusion", "model", "."]
    c = chunk_candidates(words, load_tables())
    j = c.keys.index("diffusionmodel")
    assert c.spans[j] == [(0, 2), (3, 5)]
    assert c.whole[j] == 2 and c.edge[j] == 2 and c.words[j] == 2 and c.last[j] == "model"


def test_candidates_are_at_most_max_words_long() -> None:
    words = [f"w{i}x" for i in range(9)]
    c = chunk_candidates(words, load_tables())
    assert max(c.words) == MAX_WORDS
    assert all(b - a <= MAX_WORDS for sp in c.spans for a, b in sp)
