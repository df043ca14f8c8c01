"""Count issue 30's classes of misread proposals in two ``kg extract`` outputs, side by side.

    .venv/bin/python bench/proposal_classes.py BEFORE.jsonl AFTER.jsonl [BEFORE2 AFTER2 ...]

(``kg extract --workers 1 -q LISTING > X.jsonl`` with each kg.) For each pair it
prints, before -> after, the proposed mentions of each class, and the papers a
proposed name labels and those labels by class. The paper label of "before" is
the old rule (the first proposed name); of "after" :func:`kg.extract.labels.
sure_name` of the record. The classes:

- ``concept``: a proposed mention of a concept (ALAM as "large language model");
- ``known_other_words``: a gazetteer entry reached from words that are none of
  its names ("low-rank" as LoRA; often the paper's own long form of a name the
  gazetteer knows without it, which is right: Moirai, UniAD);
- ``known_in_coined``: a gazetteer entry proposed beside a coined name that puts
  words before it (LoRA beside AutoLoRa);
- ``glued``: a naming cue glued to the name ("calledNeuroBack");
- ``hyphen``: a hyphenated adjective or a fragment ("GNN-based", "quasi-Monte");
- ``generic``: a short acronym of a class of models or a concept (NN, GNNs);
- ``short`` (labels only): an acronym of one or two letters;
- ``phrase`` (labels only): a lower-case phrase ("attention with dynamic priming").
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from kg.extract.gazetteer import Form, load
from kg.extract.labels import sure_name
from kg.identity import entity_key, singular_key
from kg.models import Extraction

_GLUED = re.compile(r"(?:called|named|dubbed|termed|coined|namely|entitled)[A-Z~]")
_HYPHEN = re.compile(r"-(?i:based|aware|driven|guided|free|like|level|wise|specific|agnostic"
                     r"|oriented|inspired|centric|conditioned|dependent|informed)$"
                     r"|^(?:quasi|semi|pseudo|non|anti|bi|sub|super|multi|post|pre|self|cross)"
                     r"-[A-Z][a-z]+$")
MENTION_CLASSES = ("concept", "known_other_words", "known_in_coined", "glued", "hyphen", "generic")
LABEL_CLASSES = (*MENTION_CLASSES, "short", "phrase")


def _entry(m: dict) -> Form | None:
    """The gazetteer entry a mention is (its key is the entry's), or None."""
    name = m["canonical"]
    key = entity_key(name)
    f = load().lookup(key) or (None if name.isupper() else load().lookup(singular_key(key)))
    return f if f is not None and f.entity.key == m["key"] else None


def classes(m: dict, proposed: list[dict]) -> set[str]:
    """The classes of one proposed mention (``proposed``: all of its paper's)."""
    text, name, f = m["text"], m["canonical"], _entry(m)
    out = set()
    if m["layer"] == "concept":
        out.add("concept")
    if f is not None and entity_key(text) not in (entity_key(name), singular_key(entity_key(name))) \
            and not any(entity_key(text) == entity_key(a) for a in f.entity.aliases):
        out.add("known_other_words")
    if f is not None and any(entity_key(name) in entity_key(o["canonical"])[1:]
                             for o in proposed if o is not m and _entry(o) is None):
        out.add("known_in_coined")
    if _GLUED.match(text) or _GLUED.match(name):
        out.add("glued")
    if _HYPHEN.search(name):
        out.add("hyphen")
    if re.fullmatch(r"[A-Z]{2,4}s?", text) and (
            m["layer"] == "concept" or (f is not None and f.entity.kind == "model class")):
        out.add("generic")
    if re.fullmatch(r"[A-Z]{1,2}s?", name):
        out.add("short")
    if " " in name and name[:1].islower():
        out.add("phrase")
    return out


def count(path: Path, new_rule: bool) -> tuple[Counter[str], Counter[str], int]:
    """(proposed mentions by class, labels by class, papers labelled by a name)."""
    mentions: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    named = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        proposed = [m for m in r["mentions"] if m["proposed"]]
        mentions["all"] += len(proposed)
        for m in proposed:
            mentions.update(classes(m, proposed) & set(MENTION_CLASSES))
        if new_rule:
            name = sure_name(Extraction.from_json(r))
            first = next((m for m in proposed if m["canonical"] == name), None) if name else None
        else:
            first = proposed[0] if proposed else None
        if first is not None:
            named += 1
            labels.update(classes(first, proposed))
    return mentions, labels, named


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 2:
        print(__doc__)
        return 2
    for before, after in zip(argv[::2], argv[1::2], strict=True):
        mb, lb, nb = count(Path(before), False)
        ma, la, na = count(Path(after), True)
        print(f"{Path(before).name} -> {Path(after).name}")
        print(f"  proposed mentions {mb['all']:,} -> {ma['all']:,}: "
              + ", ".join(f"{c} {mb[c]} -> {ma[c]}" for c in MENTION_CLASSES))
        print(f"  papers labelled by a proposed name {nb:,} -> {na:,}: "
              + ", ".join(f"{c} {lb[c]} -> {la[c]}" for c in LABEL_CLASSES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
