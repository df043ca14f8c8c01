"""The concept vocabulary: what papers are about, in a hierarchy.

Concepts (methods and technique families, model classes, tasks, fields,
metrics) live in JSON Lines files under ``kg/data/concepts/`` (schema in
``SCHEMA.md`` there). This module reads and checks them: every ``broader`` and
link names a known concept, the hierarchy is acyclic, ids are unique. It has
no matching code; :mod:`kg.extract.concept_finder` finds concepts in text.

>>> v = load()
>>> v.concepts["diffusion-model"].type
'model_class'
>>> "generative-model" in v.ancestors("diffusion-model")
True
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from kg.errors import KgError
from kg.identity import entity_key
from kg.models import JsonObject

#: the concept types, in the order the schema lists them
CONCEPT_TYPES = ("method", "model_class", "task", "field", "metric")

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True, slots=True)
class Concept:
    """One concept of the vocabulary.

    ``id`` is its stable slug (the IRI's last segment); ``label`` the
    preferred name as the field writes it in running text (``diffusion
    model``, ``Gaussian process``); ``forms`` its other surface forms;
    ``acronyms`` its case-sensitive short forms (``LLM``); ``broader`` the ids
    of its broader concepts; ``single`` whether its one-word forms may match
    on their own (a one-word term of art that is no English word);
    ``entity`` the canonical name of the gazetteer entry that is this concept
    (one node, not two); ``source`` and ``source_id`` where it was curated
    from.
    """

    id: str
    label: str
    type: str
    forms: tuple[str, ...] = ()
    acronyms: tuple[str, ...] = ()
    broader: tuple[str, ...] = ()
    single: bool = False
    entity: str | None = None
    source: str = "kg"
    source_id: str | None = None


@dataclass(frozen=True)
class ConceptVocab:
    """Every concept by id, and the links from named entities to concepts.

    ``entity_links`` maps an entity key (:func:`kg.identity.entity_key` of a
    gazetteer name) to the ids of the concepts it falls under;
    ``kind_links`` maps a gazetteer ``kind`` to concept ids (an entity with no
    link of its own and no family root falls under its kind's, see
    :mod:`kg.rdf.aggregate`); ``narrower`` is the inverse
    of ``broader``.
    """

    concepts: Mapping[str, Concept]
    entity_links: Mapping[str, tuple[str, ...]]
    kind_links: Mapping[str, tuple[str, ...]]
    narrower: Mapping[str, tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.concepts)

    def ancestors(self, cid: str) -> tuple[str, ...]:
        """Every concept above ``cid``, nearest first, each once."""
        seen: dict[str, None] = {}
        frontier = list(self.concepts[cid].broader)
        while frontier:
            nxt: list[str] = []
            for b in frontier:
                if b not in seen:
                    seen[b] = None
                    nxt.extend(self.concepts[b].broader)
            frontier = nxt
        return tuple(seen)

    def descendants(self, cid: str) -> tuple[str, ...]:
        """Every concept below ``cid``, nearest first, each once."""
        seen: dict[str, None] = {}
        frontier = list(self.narrower.get(cid, ()))
        while frontier:
            nxt: list[str] = []
            for n in frontier:
                if n not in seen:
                    seen[n] = None
                    nxt.extend(self.narrower.get(n, ()))
            frontier = nxt
        return tuple(seen)

    def concepts_of_entity(self, key: str, kind: str | None = None) -> tuple[str, ...]:
        """The concepts an entity (by key) falls under: its own links, else its kind's."""
        return self.entity_links.get(key) or (self.kind_links.get(kind, ()) if kind else ())


def concepts_dir() -> Path:
    return Path(str(files("kg") / "data" / "concepts"))


def _rows(path: Path) -> list[tuple[int, JsonObject]]:
    numbered = [(n, line) for n, line in
                enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]
    try:        # one parse of the whole file (the vocabulary has thousands of lines)
        objs = json.loads("[" + ",".join(line for _, line in numbered) + "]")
    except json.JSONDecodeError:
        objs = None
    rows = []
    for i, (lineno, line) in enumerate(numbered):
        if objs is None:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise KgError(f"{path}:{lineno}: not JSON: {e.msg}") from None
        else:
            obj = objs[i]
        if not isinstance(obj, dict):
            raise KgError(f"{path}:{lineno}: expected a JSON object")
        rows.append((lineno, obj))
    return rows


def _concept(path: Path, lineno: int, obj: JsonObject) -> Concept:
    where = f"{path}:{lineno}"
    try:
        cid, label, ctype = obj["id"], obj["label"], obj["type"]
    except KeyError as e:
        raise KgError(f"{where}: missing field {e.args[0]!r}") from None
    if not isinstance(cid, str) or not _ID.match(cid):
        raise KgError(f"{where}: id {cid!r} is not a lower-case slug")
    if ctype not in CONCEPT_TYPES:
        raise KgError(f"{where}: type {ctype!r} is not one of {', '.join(CONCEPT_TYPES)}")
    return Concept(id=cid, label=label, type=ctype, forms=tuple(obj.get("forms", ())),
                   acronyms=tuple(obj.get("acronyms", ())), broader=tuple(obj.get("broader", ())),
                   single=bool(obj.get("single", False)), entity=obj.get("entity"),
                   source=obj.get("source", "kg"), source_id=obj.get("source_id"))


def _check_acyclic(concepts: Mapping[str, Concept]) -> None:
    state: dict[str, int] = {}          # 1 = on the path, 2 = done
    for root in sorted(concepts):
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            cid, i = stack.pop()
            if i == 0:
                if state.get(cid) == 2:
                    continue
                state[cid] = 1
            broader = concepts[cid].broader
            if i < len(broader):
                stack.append((cid, i + 1))
                b = broader[i]
                if state.get(b) == 1:
                    raise KgError(f"concepts: cycle through {cid!r} -> {b!r}")
                if state.get(b) != 2:
                    stack.append((b, 0))
            else:
                state[cid] = 2


def build(concept_rows: Sequence[tuple[Path, int, JsonObject]],
          link_rows: Sequence[tuple[Path, int, JsonObject]] = ()) -> ConceptVocab:
    """Check and index the rows of the concept files and the link file."""
    concepts: dict[str, Concept] = {}
    for path, lineno, obj in concept_rows:
        c = _concept(path, lineno, obj)
        if c.id in concepts:
            raise KgError(f"{path}:{lineno}: concept {c.id!r} defined twice")
        concepts[c.id] = c
    for c in concepts.values():
        for b in c.broader:
            if b not in concepts:
                raise KgError(f"concepts: {c.id!r} has unknown broader concept {b!r}")
    _check_acyclic(concepts)
    entity_links: dict[str, tuple[str, ...]] = {}
    kind_links: dict[str, tuple[str, ...]] = {}
    for path, lineno, obj in link_rows:
        targets = tuple(obj.get("concepts", ()))
        for t in targets:
            if t not in concepts:
                raise KgError(f"{path}:{lineno}: unknown concept {t!r}")
        if "entity" in obj:
            entity_links[entity_key(obj["entity"])] = targets
        elif "kind" in obj:
            kind_links[obj["kind"]] = targets
        else:
            raise KgError(f"{path}:{lineno}: a link needs 'entity' or 'kind'")
    narrower: dict[str, list[str]] = {}
    for c in concepts.values():
        for b in c.broader:
            narrower.setdefault(b, []).append(c.id)
    return ConceptVocab(concepts=concepts, entity_links=entity_links, kind_links=kind_links,
                        narrower={k: tuple(sorted(v)) for k, v in narrower.items()})


@lru_cache(maxsize=4)
def load(directory: str | None = None) -> ConceptVocab:
    """The vocabulary shipped with kg (or the one in ``directory``).

    Every ``*.jsonl`` file but ``links.jsonl`` holds concepts; ``links.jsonl``
    holds the entity and kind links.
    """
    d = Path(directory) if directory else concepts_dir()
    concept_rows = [(p, n, o) for p in sorted(d.glob("*.jsonl")) if p.name != "links.jsonl"
                    for n, o in _rows(p)]
    links = d / "links.jsonl"
    link_rows = [(links, n, o) for n, o in _rows(links)] if links.exists() else []
    return build(concept_rows, link_rows)
