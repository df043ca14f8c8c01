"""Texts the graph derives from names: a paper's readable label and the lookup keys.

``rdfs:label`` of a paper (:func:`paper_label`), ``skos:hiddenLabel`` of an
entity (:func:`kg.identity.search_key`) and ``kgo:nameKey`` of a person
(:func:`kg.identity.name_key`); the query library binds its ``entity-name`` and
``person-name`` parameters with the same two key functions, which live in
:mod:`kg.identity`.
"""
from __future__ import annotations

import re

from kg.models import Extraction, Paper

__all__ = ["paper_label"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def _surname(name: str) -> str:
    parts = name.strip().split()
    return parts[-1].strip(",;") if parts else name.strip()


def _short_text(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def paper_label(paper: Paper, extraction: Extraction | None = None) -> str:
    """A readable ``rdfs:label`` for a paper.

    Its title when it has one; otherwise what it proposes and its first
    author (``ToMoE — Gao et al.``); with nothing proposed, the first author
    and the start of the abstract (``He et al. — Learning rate ...``); with no
    authors either, the start of the abstract.

    >>> p = Paper(id="x", authors=("Shangqian Gao", "Ting Hua"), abstract="We propose ToMoE.")
    >>> from kg.models import Mention
    >>> ex = Extraction("x", "We propose ToMoE.",
    ...                 (Mention("ToMoE", "ToMoE", "method", 11, 16, True),))
    >>> paper_label(p, ex)
    'ToMoE — Gao et al.'
    """
    if paper.title:
        return " ".join(paper.title.split())
    author = ""
    if paper.authors:
        many = len(paper.authors) > 1 or paper.authors_truncated
        author = _surname(paper.authors[0]) + (" et al." if many else "")
    proposed = extraction.proposed if extraction is not None else ()
    if proposed:
        return f"{proposed[0]} — {author}" if author else proposed[0]
    abstract = extraction.abstract if extraction is not None else paper.abstract
    short = _short_text(abstract)
    if author and short:
        return f"{author} — {short}"
    return author or short or paper.id
