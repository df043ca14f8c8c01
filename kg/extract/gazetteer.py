"""The gazetteer: well-known models, methods, datasets and metrics.

Entries live in JSON Lines files under ``kg/data/gazetteer/`` (schema in
``SCHEMA.md`` there). This module loads and checks them and builds the index
the ruler matches against: normalised key -> entry, plus every key prefix so
a scan over tokens can stop early.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from kg.errors import KgError
from kg.identity import compact, entity_key
from kg.models import Entity, JsonObject

TYPES = ("model", "method", "dataset", "task", "metric", "other")


@dataclass(frozen=True, slots=True)
class Form:
    """One way of writing an entity: its key and (if case matters) exact forms."""

    entity: Entity
    case_sensitive: bool
    exact: frozenset[str] = frozenset()


@dataclass
class Gazetteer:
    entities: dict[str, Entity] = field(default_factory=dict)   # key of name -> entity
    index: dict[str, Form] = field(default_factory=dict)        # key of any form -> form
    prefixes: frozenset[str] = frozenset()
    collisions: list[str] = field(default_factory=list)
    max_key: int = 0

    def lookup(self, key: str) -> Form | None:
        return self.index.get(key)

    def entity(self, name: str) -> Entity | None:
        f = self.index.get(entity_key(name))
        return f.entity if f else None

    def __len__(self) -> int:
        return len(self.entities)


def gazetteer_dir() -> Path:
    return Path(str(files("kg") / "data" / "gazetteer"))


def read_entries(paths: list[Path]) -> list[JsonObject]:
    """Every entry of the given files, checked; a bad line is a KgError."""
    rows = []
    for path in paths:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path.name}:{lineno}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise KgError(f"{where}: invalid JSON in gazetteer: {exc.msg}") from None
            for req in ("name", "type", "source"):
                if not isinstance(row.get(req), str) or not row[req].strip():
                    raise KgError(f"{where}: gazetteer entry lacks '{req}'")
            if row["type"] not in TYPES:
                raise KgError(f"{where}: gazetteer type {row['type']!r} not in {TYPES}")
            aliases = row.get("aliases") or []
            if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
                raise KgError(f"{where}: 'aliases' must be a list of names")
            row["_where"] = where
            rows.append(row)
    return rows


_WORD_PARTS = re.compile(r"[^\W\d_]{2,}")


def _multiword(name: str) -> bool:
    """A name of two or more words (``Langevin Dynamics``, ``Fourier Neural
    Operator``). Such a name is no ordinary word, even when its entry is
    ``ambiguous`` because of a short alias: it matches under the ruler's
    general case rules (a capital needed, not from a sentence start), so
    ``Langevin dynamics`` and ``Gaussian processes`` count while
    ``optimal transport`` and a sentence-initial ``Optimal transport`` do not.
    A spelling written in lower case (``linear program``) is deliberate: its
    key keeps matching only as written.

    >>> [n for n in ("Langevin Dynamics", "GP", "The Pile", "Phi-2", "k-means") if _multiword(n)]
    ['Langevin Dynamics', 'The Pile']
    """
    return (len(_WORD_PARTS.findall(name)) >= 2 and any(c.isupper() for c in name)
            and bool(re.search(r"[A-Za-z]{2}[\s\-]+[A-Za-z]{2}", name)))


def build(rows: list[JsonObject]) -> Gazetteer:
    """Index entries. A name wins over an alias with the same key; an alias two
    entries share is dropped from both (and listed in ``collisions``)."""
    g = Gazetteer()
    by_name: dict[str, JsonObject] = {}
    for row in rows:
        key = entity_key(row["name"])
        if key in by_name:
            g.collisions.append(f"{row['_where']}: name {row['name']!r} repeats "
                                f"{by_name[key]['_where']}")
            continue
        by_name[key] = row
    names = {k: r["name"] for k, r in by_name.items()}
    for key, row in by_name.items():
        fam = row.get("family")
        g.entities[key] = Entity(
            canonical=row["name"], type=row["type"], key=key,
            family=names.get(entity_key(fam)) if fam else None,
            aliases=tuple(dict.fromkeys(a for a in row.get("aliases") or () if a != row["name"])),
            source=row["source"], kind=row.get("kind"),
        )
    alias_owner: dict[str, list[str]] = {}
    for key in by_name:
        for alias in g.entities[key].aliases:
            ak = entity_key(alias)
            if ak and ak != key:
                alias_owner.setdefault(ak, []).append(key)
    forms: dict[str, tuple[Entity, bool, set[str]]] = {}
    for key, ent in g.entities.items():
        amb = bool(by_name[key].get("ambiguous"))
        # case variants listed as aliases ("Bert" for BERT) are forms of the name too
        own = [ent.canonical, *(a for a in ent.aliases if entity_key(a) == key)]
        forms[key] = (ent, amb and not all(_multiword(f) for f in own), {compact(f) for f in own})
    for ak, owners in alias_owner.items():
        owners = list(dict.fromkeys(owners))
        if ak in g.entities:
            continue  # some entry's own name
        if len(owners) > 1:
            g.collisions.append(f"alias key {ak!r} shared by "
                                + ", ".join(g.entities[o].canonical for o in owners))
            continue
        ent = g.entities[owners[0]]
        spellings = [a for a in ent.aliases if entity_key(a) == ak]
        amb = bool(by_name[owners[0]].get("ambiguous")) and not all(map(_multiword, spellings))
        forms[ak] = (ent, amb, {compact(a) for a in spellings})
    for key, (ent, amb, exact) in forms.items():
        if amb:
            exact |= {e[:1].upper() + e[1:] for e in exact}
        g.index[key] = Form(ent, amb, frozenset(exact))
    g.prefixes = frozenset(k[:i] for k in g.index for i in range(1, len(k) + 1))
    g.max_key = max((len(k) for k in g.index), default=0)
    return g


@lru_cache(maxsize=4)
def load(directory: str | None = None) -> Gazetteer:
    """The gazetteer shipped with kg (or the one in ``directory``)."""
    from kg.util.cache import cached

    d = Path(directory) if directory else gazetteer_dir()
    paths = sorted(d.glob("*.jsonl"))
    return cached("gazetteer", paths, lambda: build(read_entries(paths)))
