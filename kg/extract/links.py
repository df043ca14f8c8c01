"""What extraction knows about the names a build mentions, for the RDF mapping to link.

The RDF stage links an entity to the concepts it falls under, keeps a concept's
labels its own, and gives entities their gazetteer family, kind and aliases. What
that needs from extraction (the gazetteer, the concept finder's index) is resolved
here, once, into a frozen :class:`kg.models.Links` carried on the
:class:`~kg.models.Build` (:func:`with_links`); the RDF stage only translates it.

>>> from kg.extract import extract_texts
>>> from kg.models import Build, Corpus, Paper
>>> ex = extract_texts(["We fine-tune LLaMA-2 with Contrastive Learning."], ["p1"])[0]
>>> links = resolve_links(Build(Corpus((Paper("p1", ("A",), ex.abstract),)), {"p1": ex}))
>>> links.heads, [e.canonical for e in links.entities]
((('Contrastive Learning', 'contrastive-learning'), ('contrastive learning', 'contrastive-learning')), ['LLaMA', 'LLaMA-2'])
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from kg.extract.concept_finder import (
    ConceptIndex,
    build_index,
    cached_index,
    head_concept,
    phrase_key,
)
from kg.extract.concept_vocab import ConceptVocab
from kg.identity import entity_key
from kg.models import Build, Entity, Links

__all__ = ["resolve_links", "with_links"]


def with_links(build: Build, entities: Mapping[str, Entity] | None = None,
               concepts: ConceptVocab | None = None) -> Build:
    """``build`` with its :class:`~kg.models.Links` (:func:`resolve_links`)."""
    return replace(build, links=resolve_links(build, entities, concepts))


def resolve_links(build: Build, entities: Mapping[str, Entity] | None = None,
                  concepts: ConceptVocab | None = None) -> Links:
    """The :class:`~kg.models.Links` of a build's names.

    ``entities``: the known entities (default: the gazetteer's); ``concepts``: the
    concept vocabulary (default: kg's, whose index extraction used)."""
    from kg.extract import concept_vocab

    if entities is None:
        from kg.extract.gazetteer import load as load_gazetteer

        entities = load_gazetteer().entities
    vocab = concepts if concepts is not None else concept_vocab.load()
    index = cached_index() if vocab is concept_vocab.load() else build_index(vocab)
    known = {e.key or entity_key(e.canonical): e for e in entities.values()}
    texts: dict[str, None] = {}
    names: dict[str, None] = {}
    keys: dict[str, None] = {}
    for ex in build.extractions.values():
        for m in ex.mentions:
            texts[m.text] = None
            names.update(dict.fromkeys((m.text, m.canonical)))
            if m.layer != "concept":
                keys[m.identity_key] = None
            if m.family:
                names[m.family] = None
                keys[entity_key(m.family)] = None
        for al in ex.aliases:
            names.update(dict.fromkeys((al.short, al.long)))
    entries = _entries(keys, known)
    for e in entries:
        names.update(dict.fromkeys((e.canonical, *e.aliases)))
        if e.family:
            names[e.family] = None
    return Links(entities=entries,
                 heads=tuple(sorted(_pairs(names, lambda n: head_concept(n, index)))),
                 named=tuple(sorted(_pairs(texts, lambda t: _names(t, index)))))


def _entries(keys: Iterable[str], known: Mapping[str, Entity]) -> tuple[Entity, ...]:
    """The known entities of ``keys`` and of their families, their families' ... ."""
    found: dict[str, Entity] = {}
    todo = [k for k in keys if k]
    while todo:
        key = todo.pop()
        meta = known.get(key)
        if meta is None or key in found:
            continue
        found[key] = meta
        if meta.family:
            todo.append(entity_key(meta.family))
    return tuple(found[k] for k in sorted(found))


def _names(text: str, index: ConceptIndex) -> str | None:
    """The concept a mention's text names as a whole (a form or an acronym), or None."""
    step = index.steps.get(phrase_key(text, index.spelling))
    return step[0] if step is not None else index.acronyms.get(text)


def _pairs(items: Iterable[str], find: Callable[[str], str | None]
           ) -> Iterable[tuple[str, str]]:
    for item in items:
        if item:
            found = find(item)
            if found is not None:
                yield item, found
