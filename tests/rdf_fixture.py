"""A small hand-built Build (papers + extractions) for the RDF and query tests.

Five papers, five people, three tracks, a dozen entities with families,
kinds, acronyms and proposals: small enough to check every query's answer by
hand (see tests/data/expected/*.csv).

P1  Ada Lovelace, Alan Turing, Grace Hopper      Deep Learning · Large Language Models
    proposes SparseLoRA (method, family LoRA); mentions LLaMA-2, GPT-4, LoRA (twice,
    once as "Low-Rank Adaptation"), GLUE; defines LoRA = Low-Rank Adaptation
P2  Alan Turing, Grace Hopper                    Deep Learning · Large Language Models
    proposes QuickPrune (method, kind pruning); mentions LLaMA-2, LLaMA-3 (as "Llama 3"), GLUE
P3  Grace Hopper, Edsger Dijkstra 等 (cut)       Theory (area only)
    mentions GPT-4, ImageNet
P4  Ada Lovelace                                 no track
    proposes TinyNet (model); mentions ResNet-50, ImageNet, SGD (twice); defines SGD
P5  Alan Turing, Ada Lovelace                    Deep Learning · Robustness; has a title
    mentions LLaMA-2, GPT-4, GLUE
"""
from __future__ import annotations

from kg.models import Alias, Build, Corpus, Entity, Extraction, Mention, Paper, Source, Track

P1, P2, P3, P4, P5 = (c * 16 for c in "12345")

LLM = Track("Deep Learning", "Large Language Models", "Deep Learning · Large Language Models")
ROBUST = Track("Deep Learning", "Robustness", "Deep Learning · Robustness")
THEORY = Track("Theory", None, "Theory")


def _m(text: str, abstract: str, canonical: str, type_: str, *, proposed: bool = False,
       family: str | None = None, nth: int = 0) -> Mention:
    start = -1
    for _ in range(nth + 1):
        start = abstract.index(text, start + 1)
    return Mention(text=text, canonical=canonical, type=type_, start=start,
                   end=start + len(text), proposed=proposed, family=family)


def make() -> Build:
    """The fixture build (deterministic)."""
    a1 = ("We propose SparseLoRA, a pruning method for LLaMA-2 and GPT-4. "
          "Low-Rank Adaptation (LoRA) is applied on GLUE.")
    a2 = "We introduce QuickPrune for LLaMA-2 and Llama 3, evaluated on GLUE."
    a3 = "A study of GPT-4 on ImageNet."
    a4 = ("We propose TinyNet, a small vision model, and compare it with ResNet-50 on ImageNet "
          "using Stochastic Gradient Descent (SGD); SGD converges.")
    a5 = "Robust LLaMA-2 and GPT-4 training on GLUE."
    papers = (
        Paper(id=P1, authors=("Ada Lovelace", "Alan Turing", "Grace Hopper"), abstract=a1,
              track=LLM, sources=(Source("listings/a.txt", 3),)),
        Paper(id=P2, authors=("Alan Turing", "Grace Hopper"), abstract=a2, track=LLM,
              sources=(Source("listings/a.txt", 9), Source("listings/b.txt", 3))),
        Paper(id=P3, authors=("Grace Hopper", "Edsger Dijkstra"), abstract=a3,
              authors_truncated=True, track=THEORY, sources=(Source("listings/b.txt", 9),)),
        Paper(id=P4, authors=("Ada Lovelace",), abstract=a4, sources=(Source("listings/b.txt", 15),)),
        Paper(id=P5, authors=("Alan Turing", "Ada Lovelace"), abstract=a5, track=ROBUST,
              title="Robust Training of Language Models", sources=(Source("listings/b.txt", 19),)),
    )
    ex = {
        P1: Extraction(P1, a1, (
            _m("SparseLoRA", a1, "SparseLoRA", "method", proposed=True, family="LoRA"),
            _m("LLaMA-2", a1, "LLaMA-2", "model", family="LLaMA"),
            _m("GPT-4", a1, "GPT-4", "model", family="GPT"),
            _m("Low-Rank Adaptation", a1, "LoRA", "method"),
            _m("LoRA", a1, "LoRA", "method", nth=1),
            _m("GLUE", a1, "GLUE", "dataset"),
        ), (Alias("Low-Rank Adaptation", "LoRA"),)),
        P2: Extraction(P2, a2, (
            _m("QuickPrune", a2, "QuickPrune", "method", proposed=True),
            _m("LLaMA-2", a2, "LLaMA-2", "model", family="LLaMA"),
            _m("Llama 3", a2, "LLaMA-3", "model", family="LLaMA"),
            _m("GLUE", a2, "GLUE", "dataset"),
        )),
        P3: Extraction(P3, a3, (
            _m("GPT-4", a3, "GPT-4", "model", family="GPT"),
            _m("ImageNet", a3, "ImageNet", "dataset"),
        )),
        P4: Extraction(P4, a4, (
            _m("TinyNet", a4, "TinyNet", "model", proposed=True),
            _m("ResNet-50", a4, "ResNet-50", "model", family="ResNet"),
            _m("ImageNet", a4, "ImageNet", "dataset"),
            _m("Stochastic Gradient Descent", a4, "SGD", "method"),
            _m("SGD", a4, "SGD", "method"),
            _m("SGD", a4, "SGD", "method", nth=1),
        ), (Alias("Stochastic Gradient Descent", "SGD"),)),
        P5: Extraction(P5, a5, (
            _m("LLaMA-2", a5, "LLaMA-2", "model", family="LLaMA"),
            _m("GPT-4", a5, "GPT-4", "model", family="GPT"),
            _m("GLUE", a5, "GLUE", "dataset"),
        )),
    }
    corpus = Corpus(papers=papers, entries=5, files=("listings/a.txt", "listings/b.txt"))
    return _linked(Build(corpus=corpus, extractions=ex), entities())


def _linked(build: Build, known: dict[str, Entity]) -> Build:
    """``build`` with the links extraction resolves (kg.extract.links), by the fixture's
    entities and concept vocabulary."""
    from kg.extract.links import with_links

    return with_links(build, known, concept_vocab())


def entities() -> dict[str, Entity]:
    """Known-entity metadata (as a gazetteer gives it): kinds and families."""
    from kg.identity import entity_key

    rows = [
        Entity("QuickPrune", "method", entity_key("QuickPrune"), kind="pruning"),
        Entity("SparseLoRA", "method", entity_key("SparseLoRA"), family="LoRA",
               kind="parameter-efficient fine-tuning"),
        Entity("LoRA", "method", entity_key("LoRA"), aliases=("Low-Rank Adaptation",),
               kind="parameter-efficient fine-tuning"),
        Entity("LLaMA", "model", entity_key("LLaMA"), kind="language model"),
    ]
    return {e.key: e for e in rows}


# ------------------------------------------------------------------ concepts
#
# The same five papers, each abstract with one sentence more that names
# concepts (the concept finder's mentions: layer "concept", key = concept id),
# read against the vocabulary in tests/data/concept_fixture/ (a copy of the 12-concept
# seed, so the answers do not move when kg's own vocabulary grows):
#
# P1  + "Quantization and post-training quantization (PTQ) of large language models."
#       quantization, post-training-quantization (twice, once as PTQ), large-language-model
# P2  + "We propose QuantX for knowledge distillation of language models."
#       proposes QuantX (method, kind quantization: under quantization by its kind);
#       knowledge-distillation, language-model
# P3  + "We cover image classification in computer vision."
#       image-classification, computer-vision
# P4  + "A diffusion model and reinforcement learning with policy gradient."
#       diffusion-model (the gazetteer's Diffusion Model: one node, its entity IRI),
#       reinforcement-learning, policy-gradient
# P5  + "LLMs use post-training quantization."
#       the entity LLM (the gazetteer entry that is large-language-model: counted as
#       that concept), post-training-quantization
#
# Entities under concepts (links.jsonl): LLaMA-2 and LLaMA-3 through their family
# root LLaMA -> large-language-model; LoRA -> parameter-efficient-fine-tuning,
# SparseLoRA through its family root LoRA.

CONCEPT_SENTENCES = {
    P1: (" Quantization and post-training quantization (PTQ) of large language models.", (
        ("Quantization", "quantization", "quantization", "method", 0),
        ("post-training quantization", "post-training-quantization",
         "post-training quantization", "method", 0),
        ("PTQ", "post-training-quantization", "post-training quantization", "method", 0),
        ("large language models", "large-language-model", "large language model",
         "model_class", 0))),
    P2: (" We propose QuantX for knowledge distillation of language models.", (
        ("knowledge distillation", "knowledge-distillation", "knowledge distillation",
         "method", 0),
        ("language models", "language-model", "language model", "model_class", 0))),
    P3: (" We cover image classification in computer vision.", (
        ("image classification", "image-classification", "image classification", "task", 0),
        ("computer vision", "computer-vision", "computer vision", "field", 0))),
    P4: (" A diffusion model and reinforcement learning with policy gradient.", (
        ("diffusion model", "diffusion-model", "diffusion model", "model_class", 0),
        ("reinforcement learning", "reinforcement-learning", "reinforcement learning",
         "field", 0),
        ("policy gradient", "policy-gradient", "policy gradient", "method", 0))),
    P5: (" LLMs use post-training quantization.", (
        ("post-training quantization", "post-training-quantization",
         "post-training quantization", "method", 0),)),
}


def concept_vocab():
    """The fixture's concept vocabulary (tests/data/concept_fixture/)."""
    from pathlib import Path

    from kg.extract.concept_vocab import load

    return load(str(Path(__file__).parent / "data" / "concept_fixture"))


def make_concepts() -> Build:
    """The fixture build with concept mentions added (see above; deterministic)."""
    base = make()
    papers, ex = [], {}
    for paper in base.corpus.papers:
        old = base.extractions[paper.id]
        extra, rows = CONCEPT_SENTENCES[paper.id]
        abstract = paper.abstract + extra
        added = []
        for text, cid, label, ctype, nth in rows:
            m = _m(text, abstract[len(paper.abstract):], label, ctype, nth=nth)
            added.append(Mention(text=text, canonical=label, type=ctype,
                                 start=m.start + len(paper.abstract),
                                 end=m.end + len(paper.abstract), key=cid, layer="concept"))
        if paper.id == P2:
            at = abstract.index("QuantX")
            added.insert(0, Mention("QuantX", "QuantX", "method", at, at + 6, proposed=True,
                                    key="quantx"))
        if paper.id == P5:
            at = abstract.index("LLMs")
            added.insert(0, Mention("LLMs", "LLM", "model", at, at + 4, key="llm"))
        mentions = tuple(sorted(old.mentions + tuple(added), key=lambda m: m.start))
        papers.append(paper.__class__(**{**{f: getattr(paper, f) for f in (
            "id", "authors", "authors_truncated", "track", "title", "sources")},
            "abstract": abstract}))
        ex[paper.id] = Extraction(paper.id, abstract, mentions, old.aliases)
    corpus = Corpus(papers=tuple(papers), entries=5, files=base.corpus.files)
    return _linked(Build(corpus=corpus, extractions=ex), concept_entities())


def concept_entities() -> dict[str, Entity]:
    """:func:`entities` and QuantX (a method of kind quantization)."""
    from kg.identity import entity_key

    out = entities()
    out[entity_key("QuantX")] = Entity("QuantX", "method", entity_key("QuantX"),
                                       kind="quantization")
    return out


def ntriples() -> bytes:
    """The N-Triples of the fixture (:func:`make`), read with the fixture's vocabulary."""
    from kg.rdf import to_ntriples

    return to_ntriples(make(), entities=entities(), concepts=concept_vocab())


def concept_ntriples() -> bytes:
    """The N-Triples of the concept fixture, as the query tests load it."""
    from kg.rdf import to_ntriples

    return to_ntriples(make_concepts(), entities=concept_entities(), concepts=concept_vocab())
