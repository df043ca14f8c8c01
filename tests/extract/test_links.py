"""kg.extract.links: what the RDF stage links, resolved once in extraction."""
from __future__ import annotations

from kg.extract import extract_texts
from kg.extract.links import resolve_links, with_links
from kg.models import Build, Corpus, Paper


def _build(*texts: str) -> Build:
    ids = [f"p{i}" for i in range(len(texts))]
    exs = extract_texts(list(texts), ids)
    papers = tuple(Paper(i, ("Ada Lovelace",), ex.abstract) for i, ex in zip(ids, exs, strict=True))
    return Build(Corpus(papers), {ex.paper_id: ex for ex in exs})


def test_family_and_heads_are_resolved():
    links = resolve_links(_build("We fine-tune LLaMA-2 with Contrastive Learning."))
    assert [e.canonical for e in links.entities] == ["LLaMA", "LLaMA-2"]   # family root too
    assert ("contrastive learning", "contrastive-learning") in links.heads


def test_with_links_carries_them_and_is_deterministic():
    b = _build("We train a diffusion model on ImageNet.", "We use LoRA on LLaMA-2.")
    one, two = with_links(b), with_links(b)
    assert one.links == two.links and one.links is not None
    assert one.extractions == b.extractions        # nothing else changes


def test_no_mentions_no_links():
    b = _build("We study nothing in particular here at all.")
    assert all(not ex.mentions for ex in b.extractions.values())
    links = resolve_links(b)
    assert (links.entities, links.heads, links.named) == ((), (), ())
