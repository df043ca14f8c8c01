"""kg.viz.lookup: a build's papers, entities and labels looked up for the views."""
from __future__ import annotations

from kg.models import Build, Corpus, Extraction, Paper
from kg.viz.lookup import BuildIndex, content_words
from tests.viz.test_conceptmap import _mention


def test_paper_labels_own_names_and_first_content_words():
    own = "We propose ZetaNet for graphs."
    generic = "In this paper, we propose a novel LLM method for sparse retrieval."
    papers = (Paper("p1", ("Ann Lee", "Bob Xu", "Cy Zhu"), own),
              *(Paper(f"g{i}", ("Dee Ma",), generic) for i in range(3)))
    ex = {"p1": Extraction("p1", own, (_mention(own, "ZetaNet", "model", proposed=True),))}
    for i in range(3):  # "LLM" is a class of models: no paper's own name
        ex[f"g{i}"] = Extraction(f"g{i}", generic,
                                 (_mention(generic, "LLM", "model", proposed=True),))
    ix = BuildIndex(Build(Corpus(papers), ex))
    assert ix.paper_label("p1") == "ZetaNet — Lee et al."
    assert ix.paper_label("g0") == "Ma — LLM method sparse retrieval"
    assert "LLM" in ix.paper_search("g0") and "Dee Ma" in ix.paper_search("g0")
    assert content_words("This work presents the first study of robust training.") == \
        ["robust", "training"]
