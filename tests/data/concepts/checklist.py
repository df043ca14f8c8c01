"""Terms of art from the author-keyword checklist, for curate.py (not shipped).

``../shared/vocab/author_keywords_2019_2023.tsv`` lists the keywords authors of
ICLR 2019-2023 and NeurIPS 2021-2023 gave their papers. A keyword becomes a
concept (source ``kg``) when it is a term of art the vocabulary lacks, decided
by rules rather than one by one:

- used by 3+ papers, two to five plain words, no gazetteer name, no concept's
  label, form or acronym already, not in ``plain_english.txt``,
  ``exclude.txt`` or ``not_terms.txt``;
- not vague (``checklist_vague.txt``) and not a narrowing modifier
  ("semi-supervised", "task-agnostic": those narrow a concept, see
  ``kg/data/concept_modifiers.txt``);
- used as a noun phrase in real abstracts (the corpus ``curate.py`` reads for
  English words, ICML 2024 by default): at least twice, and at least as often
  as a modifier of a following word ("least-squares problem", "black-box attacks").

Its label is its most frequent spelling in the corpus, in the singular; its
broader concept the concept its last words name ("constrained reinforcement
learning" under reinforcement learning). Only the terms are kept, no counts.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIN_PAPERS = 3
_FUNCTION = frozenset("""of for and or in on to with by from via at as into over under is are
was were be that which this these we our it its can while than""".split())


def _words_of(name: str) -> list[str]:
    return [w for w in re.split(r"[\s\-]+", name.strip()) if w]


def candidates(tsv: Path, min_papers: int = MIN_PAPERS) -> list[str]:
    """The checklist's keywords used by ``min_papers`` or more papers, two to
    five lower-case words, in the file's order (most used first)."""
    out = []
    for line in tsv.read_text(encoding="utf-8").splitlines()[1:]:
        kw, _, n = line.rpartition("\t")
        words = _words_of(kw)
        if int(n) >= min_papers and 2 <= len(words) <= 5 and all(
                re.fullmatch(r"[a-z][a-z0-9]*", w) for w in words):
            out.append(kw)
    return out


def usage(term: str, text: str) -> tuple[int, int, str | None]:
    """How a corpus writes a term: (uses as a noun phrase, uses as a modifier
    of a following word, its most frequent spelling outside a sentence start)."""
    words = _words_of(term)
    pat = re.compile(r"(?<![\w-])(" + r"[\s\-]".join(map(re.escape, words))
                     + r")(?:s|es)?(?![\w])([\s\-]?)(\S*)", re.IGNORECASE)
    noun = mod = 0
    forms: Counter = Counter()
    for m in pat.finditer(text):
        nxt = re.sub(r"^\W+|\W+$", "", m.group(3)).lower()
        if m.group(2) == "-" or (m.group(3)[:1].isalpha() and nxt.isalpha()
                                 and nxt not in _FUNCTION):
            mod += 1
        else:
            noun += 1
        before = text[max(0, m.start() - 2):m.start()]
        if not before.strip() or before.rstrip()[-1:] not in ".!?":
            forms[m.group(1)] += 1
    best = min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0] if forms else None
    return noun, mod, best


def vague(term: str, vague_words: set[str], plain: set[str], modifiers) -> bool:
    """Is a keyword too vague, or a modifier rather than a term?"""
    words = _words_of(term)
    if words[0] in vague_words or words[-1] in vague_words:
        return True
    if all(w in plain or w.rstrip("s") in plain or w in vague_words for w in words):
        return True
    return modifiers.narrows("-".join(words)) or any(
        w in modifiers.extend or w in modifiers.never for w in words)


def vague_words() -> set[str]:
    return {w for line in (HERE / "checklist_vague.txt").read_text(encoding="utf-8").splitlines()
            if not line.startswith("#") for w in line.split()}
