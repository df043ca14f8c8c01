"""Curate kg's concept vocabulary from the open vocabularies in shared/vocab.

Not shipped: run by hand when the sources or the hand-written lists beside
this script change, then commit what it writes::

    PYTHONPATH=$PWD python tests/data/concepts/curate.py [VOCAB_DIR] [--report]

It reads ITO, AIO and the Papers with Code methods and tasks
(``VOCAB_DIR``, default ``/work/shared/vocab``), the gazetteer
(``kg/data/gazetteer``) and the data lists next to this file, and writes
``kg/data/concepts/{field,task,method,model_class,metric}.jsonl`` and
``links.jsonl``, sorted, so two runs give the same bytes. ``--report``
prints counts and the coverage of the author-keyword checklist.

The hand-written lists (each documented in its own header):

- ``extra.jsonl``: concepts curated here (source ``kg``), also the seed ids;
  an extra concept with the key of a source record replaces its fields.
- ``patches.jsonl``: changes to a curated concept by id (``type``,
  ``label``, ``broader``/``broader_add``, ``forms_add``/``forms_drop``,
  ``acronyms``/``acronyms_add``, ``entity``, ``drop``).
- ``exclude.txt``, ``exclude_patterns.txt``: source names that are no terms
  of art, by name and by pattern.
- ``one_word.tsv``: the one-word labels kept, and whether they match alone.
- ``proper_words.txt``: words that keep their capital in a label.
- ``bad_forms.txt``: source synonyms that are wrong or plain English.
- ``plain_english.txt``: words and vague phrases no concept may be (shared
  with ``tests/extract/test_concept_vocab.py``).
- ``kind_links.tsv``, ``entity_links.tsv``: gazetteer kinds and entities to
  concepts; ``no_entity.txt``: entries that stay named artefacts only.
- ``broader_map.tsv``: source groupings ("Vision process") to concepts;
  ``preferred_acronyms.tsv``: which concept keeps a shared acronym;
  ``method_heads.txt``: head words of the PwC technique names kept;
  ``english_words.txt``: words no acronym may spell.
- ``wrong_links.tsv``: broader links the papers do not bear out, dropped last
  (bench/hierarchy_links.py found them; two annotators judged them).
- ``other_senses.txt``: concepts ending in a one-word concept's word that
  are another sense of it (``vector quantization``), kept out of its subtree.
- ``not_terms.txt``: frequent author keywords that are no terms of art (for
  the coverage figure only).
"""
from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from kg.extract.concept_vocab import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OUT = ROOT / "kg" / "data" / "concepts"
GAZ = ROOT / "kg" / "data" / "gazetteer"
SOURCES = ("ito", "pwc-tasks", "aio", "pwc-methods")   # priority when records merge
TYPES = ("method", "model_class", "task", "field", "metric")
#: gazetteer kinds whose entries are concepts under a Title-Case name
CLASS_KINDS = {"model class", "learning paradigm", "classical model", "probabilistic model"}
_ACRONYM = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Za-z0-9][A-Za-z0-9+-]{1,9}$")
_TITLE_TOKEN = re.compile(r"^[A-Z][a-z]+$")
_PLAIN_TOKEN = re.compile(r"^[A-Za-z][a-z]*(?:-[A-Za-z][a-z]*)*$")
_PAREN_ACRONYM = re.compile(r"\s*\(([A-Za-z0-9-]{2,10})\)\s*$")


# -- the hand-written lists ---------------------------------------------------

def _lines(name: str) -> list[str]:
    out = []
    for line in (HERE / name).read_text(encoding="utf-8").splitlines():
        line = line.split("  #", 1)[0].rstrip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.startswith("//")]


def _tsv(name: str) -> list[list[str]]:
    return [[c.strip() for c in line.split("\t")] for line in _lines(name)]


def spelling_table() -> dict[str, str]:
    """British word -> US word: the one-word lines of ``kg/data/spelling.txt``."""
    from kg.extract.concept_finder import spelling

    return dict(spelling().words)


# -- normalisation --------------------------------------------------------------

_US: dict[str, str] = {}   # British -> US, filled from kg/data/spelling.txt


def norm(text: str) -> str:
    """The key two surface forms share when the matcher treats them alike.

    Case, separators, a final plural and British spellings are folded.
    """
    words = re.split(r"[\s\-_/]+", text.lower().strip())
    words = [_US.get(w, w) for w in words if w]
    if words:
        last = words[-1]
        if last.endswith("ies") and len(last) > 4:
            last = last[:-3] + "y"
        elif last.endswith("s") and not last.endswith(("ss", "us", "is", "ics")) and len(last) > 3:
            last = last[:-1]
        words[-1] = last
    return "".join(words)


def is_acronym(text: str) -> bool:
    """A short form written with capitals (``LLM``, ``ConvNet``), not capitalised words (``Few-Shot``)."""
    return (bool(_ACRONYM.match(text)) and " " not in text
            and not any(_TITLE_TOKEN.match(p) and len(p) > 2 for p in text.split("-")))


def make_label(name: str, proper: set[str]) -> str:
    """A source name as running text writes it: Title-Case words lower-cased."""
    def tok(t: str) -> str:
        parts = t.split("-")
        parts = [p.lower() if _TITLE_TOKEN.match(p) and p not in proper else p for p in parts]
        return "-".join(_US.get(p, p) for p in parts)
    name = re.sub(r"\s+", " ", name.strip())
    return " ".join(tok(t) for t in name.split(" "))


def singular_label(label: str) -> str:
    """A plural collection name in the singular (``generative models``)."""
    words = label.split(" ")
    last = words[-1]
    irregular = {"mechanisms": "mechanism", "strategies": "strategy", "processes": "process",
                 "classes": "class", "losses": "loss", "searches": "search", "methods": "method"}
    if last in irregular:
        last = irregular[last]
    elif last in _NOT_PLURAL or last[:1].isupper():
        pass
    elif last in irregular:
        last = irregular[last]
    elif last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif last.endswith(("ches", "shes", "xes", "sses")):
        last = last[:-2]
    elif last.endswith("s") and not last.endswith(("ss", "us", "is", "ics")):
        last = last[:-1]
    words[-1] = last
    return " ".join(words)


_NOT_PLURAL = {"series", "species", "news", "bias", "lens", "gas", "chaos", "physics", "analysis",
               "graphics", "dynamics", "robotics", "statistics", "ethics", "kinematics",
               "diagnosis", "synthesis", "basis", "thesis", "corpus", "consensus", "calculus",
               "status", "focus", "radius", "bandits", "alias", "axis", "hypothesis", "class"}


def slug(label: str) -> str:
    label = "".join(ch for ch in unicodedata.normalize("NFKD", label) if not unicodedata.combining(ch))
    s = re.sub(r"[^a-z0-9]+", "-", label.lower().replace("+", "plus")).strip("-")
    return s


# -- the concepts being built ----------------------------------------------------

@dataclass
class Draft:
    id: str
    label: str
    type: str
    source: str
    source_id: str | None = None
    forms: list[str] = field(default_factory=list)
    acronyms: list[str] = field(default_factory=list)
    broader_names: list[str] = field(default_factory=list)   # source names, resolved later
    broader: list[str] = field(default_factory=list)
    single: bool = False
    entity: str | None = None

    keep_kg: bool = False    # a hand-curated concept that keeps source "kg" though a record matches
    hand: bool = False       # from extra.jsonl: never dropped as an artefact

    def row(self) -> dict:
        d: dict = {"id": self.id, "label": self.label, "type": self.type}
        if self.forms:
            d["forms"] = self.forms
        if self.acronyms:
            d["acronyms"] = self.acronyms
        if self.broader:
            d["broader"] = self.broader
        if self.single:
            d["single"] = True
        if self.entity:
            d["entity"] = self.entity
        d["source"] = self.source
        if self.source_id:
            d["source_id"] = self.source_id
        return d


@dataclass
class Lists:
    proper: set[str]
    plain: set[str]
    exclude: set[str]
    patterns: list[re.Pattern[str]]
    one_word: dict[str, bool]
    bad_forms: set[str]
    heads: set[str]

    @classmethod
    def read(cls) -> Lists:
        return cls(proper=set(_lines("proper_words.txt")),
                   plain={norm(w) for w in _lines("plain_english.txt")},
                   exclude={norm(w) for w in _lines("exclude.txt")},
                   patterns=[re.compile(p) for p in _lines("exclude_patterns.txt")],
                   one_word={r[0]: r[1] == "yes" for r in _tsv("one_word.tsv")},
                   bad_forms={norm(w) for w in _lines("bad_forms.txt")},
                   heads=set(_lines("method_heads.txt")))


def _keep_name(name: str, rec: dict, lists: Lists) -> bool:
    if any(p.search(name) for p in lists.patterns):
        return False
    key = norm(name)
    if key in lists.exclude or key in lists.plain:
        return False
    if len(name.split()) > 7 or len(name) > 70:
        return False
    if rec["source"] == "pwc-methods" and rec["type"] == "method":
        # PwC methods are mostly named artefacts (ResNet, CARAFE): keep descriptive
        # multi-word technique names whose head word names a technique family
        toks = name.split()
        if len(toks) < 2 or not all(_PLAIN_TOKEN.match(t) for t in toks):
            return False
        if toks[-1].lower() not in lists.heads and singular_label(toks[-1].lower()) not in lists.heads:
            return False
    return True


def _split_aliases(label: str, aliases: list[str], lists: Lists) -> tuple[list[str], list[str]]:
    forms, acronyms = [], []
    lk = norm(label)
    for a in aliases:
        a = a.strip()
        if not a or norm(a) == lk:
            continue
        if is_acronym(a):
            acronyms.append(a)
        elif (norm(a) not in lists.bad_forms and norm(a) not in lists.plain
              and " " in a.strip() and len(a.split()) <= 8 and re.match(r"^[\w\s\-'.]+$", a)):
            forms.append(make_label(a, lists.proper))
    return forms, acronyms


def from_sources(vocab: Path, lists: Lists) -> list[Draft]:
    drafts = []
    for src in SOURCES:
        for rec in _jsonl(vocab / f"{src}.jsonl"):
            name = rec["name"]
            aliases = list(rec.get("aliases", []))
            m = _PAREN_ACRONYM.search(name)
            if m:
                name = name[:m.start()]
                aliases.append(m.group(1))
            if rec["source"] == "pwc-tasks" and " " not in name and name.count("-") >= 2 \
                    and "-to-" not in name:
                name = name.replace("-", " ")    # a PwC slug ("single-image-generation")
            if not _keep_name(name, rec, lists):
                continue
            label = singular_label(make_label(name, lists.proper))
            ctype = rec["type"]
            if rec["source"] == "pwc-methods" and ctype == "model_class":
                label = singular_label(label)
                ctype = "model_class" if label.split()[-1] in MODEL_HEADS else "method"
            elif ctype == "task" and label.split()[-1] in TASK_LIST_MODEL_HEADS:
                ctype = "model_class"   # a task list's "stochastic block model" is a model
            if " " not in label and "-" not in label and label.lower() not in lists.one_word:
                continue
            forms, acronyms = _split_aliases(label, aliases, lists)
            drafts.append(Draft(id=slug(label), label=label, type=ctype, source=rec["source"],
                                source_id=rec.get("source_id"), forms=forms, acronyms=acronyms,
                                broader_names=list(rec.get("broader", []))))
    return drafts


# the heads that make a task list's entry a model ("stochastic block model")
TASK_LIST_MODEL_HEADS = {"model", "network", "classifier", "autoencoder", "transformer"}
MODEL_HEADS = {"network", "model", "transformer", "autoencoder", "machine", "flow", "process",
               "gan", "rnn", "cnn", "encoder", "decoder", "embedding", "classifier", "tree",
               "detector", "field", "forest", "perceptron", "regressor", "backbone",
               "architecture", "operator"}


def merge(drafts: list[Draft], extras: list[Draft]) -> dict[str, Draft]:
    """One concept per key: the first source in priority order wins, the rest add forms."""
    by_key: dict[str, Draft] = {}
    extra_keys = {norm(e.label): e for e in extras}
    for e in extras:
        by_key[norm(e.label)] = e
    for d in drafts:
        k = norm(d.label)
        have = by_key.get(k)
        if have is None:
            by_key[k] = d
            continue
        # an extra that refines a source record keeps the record's provenance
        if (k in extra_keys and have.source == "kg" and have.source_id is None
                and d.source != "kg" and not have.keep_kg):
            have.source, have.source_id = d.source, d.source_id
        for f in d.forms:
            if f not in have.forms and norm(f) != k:
                have.forms.append(f)
        for a in d.acronyms:
            if a not in have.acronyms:
                have.acronyms.append(a)
        if not have.hand:       # a hand-curated concept's broader links are its own
            have.broader_names += [b for b in d.broader_names if b not in have.broader_names]
    # a source concept whose label a hand-curated concept lists as a form is that concept
    for k in sorted(extra_keys):
        e = by_key[k]
        for f in list(e.forms):
            fk = norm(f)
            other = by_key.get(fk)
            if other is None or other is e or other.source == "kg" or fk in extra_keys:
                continue
            e.acronyms += [a for a in other.acronyms if a not in e.acronyms]
            e.forms += [x for x in other.forms if x not in e.forms]
            del by_key[fk]
            REDIRECT[fk] = k
    return by_key


def read_extras(lists: Lists) -> list[Draft]:
    out = []
    for obj in _jsonl(HERE / "extra.jsonl"):
        d = Draft(id=obj.get("id") or slug(obj["label"]), label=obj["label"], type=obj["type"],
                  source=obj.get("source", "kg"), source_id=obj.get("source_id"),
                  forms=list(obj.get("forms", [])), acronyms=list(obj.get("acronyms", [])),
                  broader=list(obj.get("broader", [])), single=bool(obj.get("single", False)),
                  entity=obj.get("entity"))
        d.keep_kg = bool(obj.get("source"))
        d.hand = True
        out.append(d)
    return out


# -- the gazetteer ---------------------------------------------------------------

def gazetteer() -> list[dict]:
    rows = []
    for p in sorted(GAZ.glob("*.jsonl")):
        rows.extend(_jsonl(p))
    return rows


def plain_phrase(text: str) -> bool:
    """Two or more plain words (``Batch Normalization``): a phrase running text writes in lower case."""
    parts = re.split(r"[\s-]+", text.strip())
    return len(parts) >= 2 and all(p.isalpha() and (len(p) == 1 or p[1:].islower()) for p in parts)


def concept_like(entry: dict, surface: str) -> bool:
    """Whether a gazetteer entry, met under ``surface``, is a concept rather than an artefact.

    Classes and paradigms are; so is a model, method or metric met under a
    plain multi-word phrase (``batch normalization`` for BatchNorm, ``expected
    calibration error``), which running text writes in lower case.
    """
    if entry["kind"] in CLASS_KINDS or entry["type"] == "other":
        return True
    return entry["type"] in ("method", "model", "metric") and plain_phrase(surface)


def attach_gazetteer(concepts: dict[str, Draft], gaz: list[dict], lists: Lists) -> list[str]:
    """Name each concept's gazetteer entry (``entity``), or drop concepts that are artefacts.

    Returns the log of what was done.
    """
    log = []
    by_key: dict[str, list[tuple[dict, str]]] = {}
    for e in gaz:
        for s in [e["name"], *e.get("aliases", [])]:
            by_key.setdefault(norm(s), []).append((e, s))
    claimed = {c.entity: c for c in concepts.values() if c.entity}
    artefacts = set(_lines("no_entity.txt"))
    for k in sorted(concepts):
        c = concepts[k]
        if c.entity:
            continue
        hits = {e["name"]: (e, s) for e, s in by_key.get(k, [])}
        if not hits:
            continue
        e, surface = sorted(hits.values(), key=lambda x: x[0]["name"])[0]
        _attach_one(concepts, k, e, surface, claimed, artefacts, log)
    _add_gazetteer_classes(concepts, gaz, lists, claimed, artefacts, log)
    return log


def _attach_one(concepts: dict[str, Draft], k: str, e: dict, surface: str,
                claimed: dict[str, Draft], artefacts: set[str], log: list[str]) -> None:
    """Concept ``k`` spelled like gazetteer entry ``e``: merged into the concept that
    claims ``e``, named by ``e``, kept as a twin (by hand) or dropped as an artefact."""
    c = concepts[k]
    if e["name"] in claimed and not c.hand:
        other = claimed[e["name"]]
        if c.label not in other.forms:
            other.forms.append(c.label)
        other.acronyms += [a for a in c.acronyms if a not in other.acronyms]
        del concepts[k]
        log.append(f"merged  {c.id} into {other.id} (both {e['name']})")
    elif concept_like(e, surface) and e["name"] not in claimed and e["name"] not in artefacts:
        c.entity = e["name"]
        claimed[e["name"]] = c
        for a in e.get("aliases", []):
            if is_acronym(a) and a not in c.acronyms:
                c.acronyms.append(a)
        if is_acronym(e["name"]) and e["name"] not in c.acronyms:
            c.acronyms.append(e["name"])
        log.append(f"entity  {c.id} = {e['name']}")
    elif c.hand:
        log.append(f"twin    {c.id}: spelled like gazetteer {e['name']} ({e['kind']})")
    else:
        del concepts[k]
        log.append(f"artefact {c.id}: gazetteer {e['name']} ({e['kind']})")


def _add_gazetteer_classes(concepts: dict[str, Draft], gaz: list[dict], lists: Lists,
                           claimed: dict[str, Draft], artefacts: set[str],
                           log: list[str]) -> None:
    """Every class / paradigm entry of the gazetteer is a concept."""
    for e in gaz:
        if e["kind"] not in CLASS_KINDS and e["type"] != "other" or e["name"] in artefacts:
            continue
        if e["name"] in claimed:
            continue
        longs = [a for a in [e["name"], *e.get("aliases", [])] if not is_acronym(a)]
        if not longs:
            continue
        label = make_label(next((a for a in longs if plain_phrase(a)), longs[0]), lists.proper)
        k = norm(label)
        if k in lists.plain:
            continue
        if k in concepts:
            if concepts[k].entity is None:
                concepts[k].entity = e["name"]
                claimed[e["name"]] = concepts[k]
            continue
        ctype = "method" if e["type"] in ("method", "other") else "model_class"
        acr = [a for a in [e["name"], *e.get("aliases", [])] if is_acronym(a)]
        forms = [make_label(a, lists.proper) for a in longs[1:]]
        concepts[k] = Draft(id=slug(label), label=label, type=ctype, source="gazetteer",
                            source_id=e["name"], forms=forms, acronyms=acr, entity=e["name"])
        claimed[e["name"]] = concepts[k]
        log.append(f"new     {slug(label)} from gazetteer {e['name']}")


# -- resolving names, cleaning forms -----------------------------------------------

def resolve_broader(concepts: dict[str, Draft]) -> None:
    ids = {c.id for c in concepts.values()}
    groups = {r[0]: (r[1] if len(r) > 1 else "") for r in _tsv("broader_map.tsv")}
    for c in concepts.values():
        for b in c.broader_names:
            if b in groups:
                if groups[b] and groups[b] != c.id and groups[b] not in c.broader:
                    c.broader.append(groups[b])
                continue
            k = norm(make_label(b, set()))
            k = REDIRECT.get(k, k)
            bid: str | None
            if k in concepts:
                bid = concepts[k].id
            else:
                k2 = norm(singular_label(make_label(b, set()).lower()))
                bid = concepts[k2].id if k2 in concepts else None
            if bid and bid != c.id and bid in ids and bid not in c.broader:
                c.broader.append(bid)


def drop_wrong_links(concepts: dict[str, Draft]) -> list[str]:
    """Drop the broader links ``wrong_links.tsv`` names (after every source and patch)."""
    by_id = {c.id: c for c in concepts.values()}
    log = []
    for narrower, broader, *_ in _tsv("wrong_links.tsv"):
        c = by_id.get(narrower)
        if c is None or broader not in c.broader:
            raise SystemExit(f"wrong_links.tsv: no link {narrower} -> {broader}")
        c.broader = [b for b in c.broader if b != broader]
        log.append(f"link    {narrower} -> {broader} dropped (wrong_links.tsv)")
    return log


def apply_patches(concepts: dict[str, Draft]) -> None:
    by_id = {c.id: (k, c) for k, c in concepts.items()}
    for p in _jsonl(HERE / "patches.jsonl"):
        if p["id"] not in by_id:
            raise SystemExit(f"patches.jsonl: unknown concept {p['id']!r}")
        k, c = by_id[p["id"]]
        if p.get("drop"):
            del concepts[k]
            continue
        for f in ("type", "label", "entity", "single"):
            if f in p:
                setattr(c, f, p[f])
        if "broader" in p:
            c.broader = list(p["broader"])
        c.broader += [b for b in p.get("broader_add", []) if b not in c.broader]
        c.broader = [b for b in c.broader if b not in p.get("broader_drop", [])]
        if "acronyms" in p:
            c.acronyms = list(p["acronyms"])
        c.acronyms += [a for a in p.get("acronyms_add", []) if a not in c.acronyms]
        if "forms" in p:
            c.forms = list(p["forms"])
        c.forms += [f for f in p.get("forms_add", []) if f not in c.forms]
        drop = {norm(f) for f in p.get("forms_drop", [])}
        c.forms = [f for f in c.forms if norm(f) not in drop]


def head_broader(concepts: dict[str, Draft], lists: Lists) -> list[str]:
    """A concept whose label ends in the word of a one-word ``single`` concept
    goes under it ("channel pruning" under pruning, "weight quantization" under
    quantization), unless ``other_senses.txt`` says it is another sense or the
    two are related already. Returns the log."""
    names = _lines("other_senses.txt")
    skip = {n for n in names if not n.startswith("re:")}
    pats = [re.compile(n[3:].strip()) for n in names if n.startswith("re:")]
    by_id = {c.id: c for c in concepts.values()}
    single = {c.label.lower(): c.id for c in concepts.values() if " " not in c.label
              and (c.single or lists.one_word.get(c.label.lower(), False))}

    def above(cid: str) -> set[str]:
        seen: set[str] = set()
        todo = list(by_id[cid].broader) if cid in by_id else []
        while todo:
            b = todo.pop()
            if b not in seen and b in by_id:
                seen.add(b)
                todo.extend(by_id[b].broader)
        return seen

    log = []
    for c in sorted(by_id.values(), key=lambda c: c.id):
        words = c.label.split()
        head = single.get(words[-1].lower()) if len(words) > 1 else None
        if head is None or head == c.id or c.id in skip or any(p.search(c.id) for p in pats):
            continue
        if head in above(c.id) or c.id in above(head):
            continue
        c.broader.append(head)
        log.append(f"broader {c.id} -> {head} (its head word)")
    return log


def clean(concepts: dict[str, Draft], lists: Lists, english: set[str],
          gaz: list[dict]) -> list[str]:
    """Drop dangling broader ids, plain forms and clashing forms and acronyms.

    A form or acronym that spells another gazetteer entry (AIO's ``BERT`` for
    "bidirectional transformer language model") is that entry's, not the concept's.
    """
    log: list[str] = []
    _drop_forms_spelled_elsewhere(concepts, gaz, log)
    _tidy_forms_and_acronyms(concepts, lists, english, log)
    _drop_forms_of_others(concepts, log)
    _drop_shared_acronyms(concepts, log)
    return log


def _drop_forms_spelled_elsewhere(concepts: dict[str, Draft], gaz: list[dict],
                                  log: list[str]) -> None:
    """Drop the forms and acronyms that spell another gazetteer entry."""
    spelled: dict[str, set[str]] = {}
    for e in gaz:
        for s in [e["name"], *e.get("aliases", [])]:
            spelled.setdefault(norm(s), set()).add(e["name"])
    for c in concepts.values():
        for attr in ("forms", "acronyms"):
            keep = []
            for f in getattr(c, attr):
                others = spelled.get(norm(f), set()) - {c.entity}
                if others and c.entity not in spelled.get(norm(f), set()):
                    log.append(f"{attr[:-1]} {f!r} of {c.id}: the gazetteer's {sorted(others)[0]}")
                    continue
                keep.append(f)
            setattr(c, attr, keep)


def _tidy_forms_and_acronyms(concepts: dict[str, Draft], lists: Lists, english: set[str],
                             log: list[str]) -> None:
    """Dangling broader ids, plain and repeated forms, acronyms that are English words."""
    ids = {c.id for c in concepts.values()}
    for c in concepts.values():
        c.broader = sorted({b for b in c.broader if b in ids and b != c.id})
        seen = {norm(c.label)}
        forms = []
        for f in c.forms:
            k = norm(f)
            if k in seen or k in lists.plain or k in lists.bad_forms:
                continue
            if " " not in f.strip() and "-" not in f and not lists.one_word.get(f.lower(), False):
                continue
            seen.add(k)
            forms.append(f)
        c.forms = sorted(forms)
        acr = []
        for a in c.acronyms:
            if a.isupper() and a.lower() in english or norm(a) in lists.plain:
                log.append(f"acronym {a} of {c.id}: an English word")
                continue
            if a not in acr:
                acr.append(a)
        c.acronyms = sorted(acr)
        c.single = c.single or (" " not in c.label and lists.one_word.get(c.label.lower(), False))


def _drop_forms_of_others(concepts: dict[str, Draft], log: list[str]) -> None:
    """A form that is another concept's label belongs to that concept; a form two
    concepts share is dropped from both."""
    labels = {norm(c.label): c.id for c in concepts.values()}
    owners: dict[str, list[str]] = {}
    for c in concepts.values():
        keep = []
        for f in c.forms:
            k = norm(f)
            if k in labels and labels[k] != c.id:
                log.append(f"form {f!r} of {c.id}: the label of {labels[k]}")
                continue
            keep.append(f)
            owners.setdefault(k, []).append(c.id)
        c.forms = keep
    for k, who in sorted(owners.items()):
        if len(who) > 1:
            for cid in who:
                c = next(x for x in concepts.values() if x.id == cid)
                c.forms = [f for f in c.forms if norm(f) != k]
            log.append(f"form {k}: shared by {', '.join(who)}, dropped from all")


def _drop_shared_acronyms(concepts: dict[str, Draft], log: list[str]) -> None:
    """An acronym two concepts claim is dropped from both (patches may assign it)."""
    acr_owners: dict[str, list[Draft]] = {}
    for c in concepts.values():
        for a in c.acronyms:
            acr_owners.setdefault(a, []).append(c)
    for a, claimers in sorted(acr_owners.items()):
        if len(claimers) > 1:
            owner = PREFERRED_ACRONYMS.get(a) or next((c.id for c in claimers if c.entity == a), None)
            for c in claimers:
                if c.id != owner:
                    c.acronyms = [x for x in c.acronyms if x != a]
            log.append(f"acronym {a}: {', '.join(sorted(c.id for c in claimers))} -> {owner}")


PREFERRED_ACRONYMS: dict[str, str] = {}
REDIRECT: dict[str, str] = {}   # key of a merged-away source concept -> key of its concept


def english_words(corpus: Path | None) -> set[str]:
    """Lower-case words of running text (``use``, ``node``): no acronym may be one."""
    words = set(_lines("english_words.txt"))
    if corpus and corpus.exists():
        counts = Counter(re.findall(r"\b[a-z]{2,}\b", corpus.read_text(encoding="utf-8")))
        words |= {w for w, n in counts.items() if n >= 3}
    return words


# -- links ---------------------------------------------------------------------------

def _link_rows(file: str, field: str, known: set[str], what: str, ids: set[str]) -> list[dict]:
    """The rows of one links file (``field`` -> concept ids), each side checked."""
    rows = []
    for name, *targets in _tsv(file):
        tl = targets[0].split()
        if name not in known:
            raise SystemExit(f"{file}: {name!r} is no gazetteer {what}")
        bad = [t for t in tl if t not in ids]
        if bad:
            raise SystemExit(f"{file}: {name}: unknown concepts {bad}")
        rows.append({field: name, "concepts": tl})
    return rows


def links(concepts: dict[str, Draft], gaz: list[dict]) -> list[dict]:
    ids = {c.id for c in concepts.values()}
    rows = (_link_rows("entity_links.tsv", "entity", {e["name"] for e in gaz}, "name", ids)
            + _link_rows("kind_links.tsv", "kind", {e["kind"] for e in gaz}, "kind", ids))
    return sorted(rows, key=lambda r: (0 if "entity" in r else 1, r.get("entity") or r["kind"]))


# -- main ----------------------------------------------------------------------------

def build(vocab: Path, corpus: Path | None) -> tuple[list[Draft], list[dict], list[str]]:
    _US.update(spelling_table())
    lists = Lists.read()
    for a, b in _tsv("preferred_acronyms.tsv"):
        PREFERRED_ACRONYMS[a] = b
    extras = read_extras(lists)
    concepts = merge(from_sources(vocab, lists), extras)
    gaz = gazetteer()
    log = attach_gazetteer(concepts, gaz, lists)
    resolve_broader(concepts)
    apply_patches(concepts)
    log += head_broader(concepts, lists)
    log += drop_wrong_links(concepts)
    log += clean(concepts, lists, english_words(corpus), gaz)
    for k in [k for k, c in concepts.items() if norm(c.label) in lists.plain]:
        log.append(f"plain   {concepts[k].label!r} dropped")
        del concepts[k]
    # ids must be unique: a clash of slugs keeps the first in key order
    seen: set[str] = set()
    out = []
    for k in sorted(concepts, key=lambda k: (concepts[k].source != "kg", k)):
        c = concepts[k]
        if c.id in seen:
            log.append(f"slug clash {c.id}: {c.label!r} dropped")
            continue
        seen.add(c.id)
        out.append(c)
    keep = {c.id for c in out}
    for c in out:
        c.broader = [b for b in c.broader if b in keep]
    return sorted(out, key=lambda c: c.id), links({c.id: c for c in out}, gaz), log


def write(concepts: list[Draft], link_rows: list[dict]) -> None:
    for t in TYPES:
        rows = [c.row() for c in concepts if c.type == t]
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        (OUT / f"{t}.jsonl").write_text(text, encoding="utf-8")
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in link_rows)
    (OUT / "links.jsonl").write_text(text, encoding="utf-8")


def coverage(concepts: list[Draft], vocab: Path, top: int = 300) -> tuple[int, int, list[str]]:
    """How many of the checklist's top ``top`` terms of art a concept covers."""
    keys = set()
    for c in concepts:
        keys.add(norm(c.label))
        keys.update(norm(f) for f in c.forms)
        keys.update(norm(a) for a in c.acronyms)
    not_terms = {norm(w) for w in _lines("not_terms.txt")}
    terms = []
    for line in (vocab / "author_keywords_2019_2023.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        kw = line.split("\t")[0]
        if norm(kw) in not_terms:
            continue
        terms.append(kw)
        if len(terms) == top:
            break
    missing = [t for t in terms if norm(t) not in keys]
    return top - len(missing), top, missing


def entity_keys() -> set[str]:
    return {norm(s) for e in gazetteer() for s in [e["name"], *e.get("aliases", [])]}


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    vocab = Path(args[0]) if args else Path("/work/shared/vocab")
    corpus = Path(args[1]) if len(args) > 1 else Path("/work/shared/corpora/icml_2024_all.txt")
    concepts, link_rows, log = build(vocab, corpus)
    write(concepts, link_rows)
    load.cache_clear()      # the loader's own checks: unique ids, known broader, acyclic
    load(str(OUT))
    if "--report" in argv:
        print("\n".join(log), file=sys.stderr)
        print(Counter(c.type for c in concepts), Counter(c.source for c in concepts))
        got, top, missing = coverage(concepts, vocab)
        ents = entity_keys()
        named = [t for t in missing if norm(t) in ents]
        print(f"checklist coverage: {got}/{top} terms of art are concepts;"
              f" {len(named)} more are gazetteer entities ({', '.join(named)})")
        print("missing:", "; ".join(t for t in missing if t not in named))
    print(f"{len(concepts)} concepts, {len(link_rows)} links")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
