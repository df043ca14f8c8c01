"""The name the paper's own code repository carries: a repository named like a
word of the abstract ("... at github.com/x/OSSCAR") names what the paper makes.
"""
from __future__ import annotations

import re

from kg.extract.proposals.lexicon import load_lexicon
from kg.identity import entity_key

_HOSTS = ("github.com/", "gitlab.com/")
_REPOSITORY = re.compile(r"(?:github|gitlab)\.com/[\w.\-]+/([\w.\-]*\w)")
_NAME_WORD = re.compile(r"(?<![\w\-/.])[A-Za-z0-9][\w\-+]*[\w+](?![\w\-+/])")
#: repository links read per abstract: a paper links its own code once or twice, and each
#: link costs a pass over the text (an abstract of thousands of links stays linear)
MAX_LINKS = 8


def repository_names(text: str, words: list[str] | None = None,
                     offsets: list[int] | None = None,
                     not_names: frozenset[str] | None = None) -> list[tuple[str, int, int]]:
    """Where the text names the code repository it links to (its first use).

    A repository named like a word of the abstract names what the paper
    makes ("Our code is available at https://github.com/x/OSSCAR": OSSCAR is
    the paper's own). The word must look like a name (a capital or a digit)
    and match the repository's name up to case and separators. ``words`` and
    ``offsets`` are the text's tokens, when there are (cheaper than finding
    the words again); ``not_names`` are words that never name anything
    (default: the lexicon's ``guards.not_names``).

    >>> repository_names("OSSCAR prunes. Code: https://github.com/lab/osscar.")
    [('OSSCAR', 0, 6)]
    >>> repository_names("We use transformers: https://github.com/x/transformers")
    []
    """
    if not_names is None:
        not_names = load_lexicon().words("guards.not_names")
    out = []
    seen: set[str] = set()
    low: str | None = None
    for host in _HOSTS:
        at = text.find(host)   # (found by str.find: a regex scan for the host is slower)
        while at >= 0 and len(seen) < MAX_LINKS:
            m = _REPOSITORY.match(text, at)
            at = text.find(host, at + 1)
            if m is None:
                continue
            key = entity_key(m.group(1))
            if len(key) < 3 or key in seen:
                continue
            seen.add(key)
            end = text.rfind("http", 0, m.start())
            low = text.lower() if low is None else low
            found = _word_with_key(text, key, end if end >= 0 else m.start(), words, offsets,
                                   not_names, low)
            if found:
                out.append(found)
    return out


def _word_with_key(text: str, key: str, end: int, words: list[str] | None,
                   offsets: list[int] | None, not_names: frozenset[str],
                   low: str) -> tuple[str, int, int] | None:
    """The first name-shaped word before ``end`` whose key is ``key``.

    ``str.find`` on the lower-cased text first, for the key's own letters and
    for its first three with a separator inside ("Med-ST" for medst); only a
    hit is looked at word by word (a loop over every word, or a regex made
    for each key, costs several times more). ``low`` is ``text`` lower-cased.
    """
    def name_at(i: int) -> tuple[str, int, int] | None:
        w = _NAME_WORD.match(text, i)
        word = w.group(0) if w else ""
        if word.lower() != word and word not in not_names and entity_key(word) == key:
            return word, i, i + len(word)
        return None

    if len(low) == len(text):   # ("İ" lowers to two characters: offsets would shift)
        i = low.find(key, 0, end)
        while i >= 0:
            found = name_at(i)
            if found:
                return found
            i = low.find(key, i + 1, end)
        head = key[:3]
        if not any(low.find(v, 0, end) >= 0 for v in
                   [head] + [head[0] + sep + head[1:] for sep in "-_. "] +
                   [head[:2] + sep + head[2:] for sep in "-_. "]):
            return None   # no spelling of its first letters: the name is not there
    first = {key[0], key[0].upper()}
    spans = zip(words, offsets, strict=True) if words is not None and offsets is not None else (
        (w.group(0), w.start()) for w in _NAME_WORD.finditer(text, 0, end))
    for word, start in spans:
        if start >= end:
            break
        if word[0] in first:   # (name_at reads the whole word: the tokenizer may split it)
            found = name_at(start)
            if found:
                return found
    return None
