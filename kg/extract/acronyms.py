"""Acronym definitions, after Schwartz & Hearst (2003): ``Long Form (LF)`` and
``LF (Long Form)``.

Pure functions over text in the style of scispaCy's abbreviation detector;
the spaCy component in :mod:`kg.extract.components` only calls them.

Examples
--------
>>> find_best_long_form("MoE", "into Mixture-of-Experts")
'Mixture-of-Experts'
>>> [(a.long, a.short) for a in find_acronyms(
...     "Large Language Models (LLMs) and RL from verifiable reward (RLVR).")]
[('Large Language Models', 'LLMs'), ('RL from verifiable reward', 'RLVR')]
>>> [(a.long, a.short) for a in find_acronyms("We use PPI (prediction-powered inference).")]
[('prediction-powered inference', 'PPI')]
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kg.extract.proposals.lexicon import Lexicon

_PARENS = re.compile(r"\(([^()]{1,160})\)")
_NAME_LIST = re.compile(r"[A-Z][\w\-+.]*(?:,\s*[A-Z][\w\-+.]*)+(?:,?\s+(?:and|or)\s+[A-Z][\w\-+.]*)?")


@dataclass(frozen=True, slots=True)
class AcronymPair:
    long: str
    short: str
    long_start: int
    long_end: int
    short_start: int
    short_end: int


def is_short_form(text: str) -> bool:
    """Could ``text`` be an acronym? (≤ 10 chars, ≤ 2 words, starts alnum, has a capital)."""
    if not (1 < len(text) <= 10) or text.count(" ") > 1:
        return False
    # a capital (hence a letter) is there when lower-casing changes the text
    return text[0].isalnum() and text.lower() != text


def find_best_long_form(short: str, long: str) -> str | None:
    """The shortest tail of ``long`` whose letters spell ``short`` (Schwartz–Hearst).

    Every character of the short form must appear in order in the long form;
    its first character must start a word.
    """
    s = len(short) - 1
    li = len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while li >= 0 and (long[li].lower() != c or (s == 0 and li > 0 and long[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return None
        li -= 1
        s -= 1
    start = long.rfind(" ", 0, li + 1) + 1
    while start < len(long) and long[start] in "\"“‘'«[":
        start += 1
    return long[start:]


_MINOR = frozenset([
    "of", "and", "for", "the", "with", "in", "on", "to", "a", "an", "by", "via", "from", "or",
])
_SUBWORD = re.compile(r"[A-Za-z0-9]+")


def initials_long_form(short: str, window: str) -> str | None:
    """A long form whose words' (or hyphen parts') initials spell ``short``.

    Tried before :func:`find_best_long_form`, which may take a letter from
    inside a word: for ``PPO`` it prefers ``Proximal Policy Optimization`` to
    ``Policy Optimization``.

    >>> initials_long_form("PPO", "with the Proximal Policy Optimization")
    'Proximal Policy Optimization'
    """
    letters = [c.lower() for c in short if c.isalpha()]
    if len(letters) < 2 or len(letters) != sum(1 for c in short if c.isalnum()):
        return None
    parts = list(_SUBWORD.finditer(window))
    k = len(letters) - 1
    i = len(parts) - 1
    start = None
    while i >= 0 and k >= 0:
        w = parts[i].group(0)
        if w[0].lower() == letters[k]:
            k -= 1
            start = parts[i].start()
        elif w.lower() not in _MINOR:
            return None
        i -= 1
    if k >= 0 or start is None:
        return None
    begin = window.rfind(" ", 0, start) + 1
    if begin < start and window[begin:start].strip("\"“‘'«[(").strip():
        return None  # the first letter is inside a hyphenated word: leave it to S-H
    return window[start:]


_ALIAS_LEAD = re.compile(r"(?:in short|for short|a\.?k\.?a\.?|hereafter|henceforth)[,:]?\s+")
_BAD_IN_LONG = re.compile(r"[(),;:]")
_NAMING_IN_LONG = (" called ", " named ", " termed ", " dubbed ")
_FIRST_ITEM = re.compile(r"[;,]\s")


def _valid(short: str, long: str) -> bool:
    if not long or len(long) <= len(short) or _BAD_IN_LONG.search(long):
        return False
    if any(w in long for w in _NAMING_IN_LONG):
        return False   # "a function called Multiset to Multiset GNN (M2M-GNN)"
    words = long.split()
    if len(words) == 1 and sum(c.isupper() for c in short) >= 3 and long.islower() and "-" not in long:
        return False   # "aggregation algorithm (AGR)" is not "algorithm"
    if len(words) > min(len(short) + 5, len(short) * 2):
        return False
    low, short_low = long.lower(), short.lower()
    if short_low in low and short_low in (w.strip(",.;:") for w in low.split()):
        return False
    return not low.startswith(("the ", "a ", "an ", "and ", "of ", "with "))


# a lower-case short form with a hyphen or a digit: "geodesically convex
# (g-convex)", "sequence-to-sequence (seq2seq)"
_LOWER_SHORT = re.compile(r"[a-z]+(?:-[a-z]+|\d[a-z]+)")
_TO = re.compile(r"(?<=[A-Za-z])2(?=[A-Za-z])")
_POWER = re.compile(r"([A-Za-z])([2-4])(?![0-9])")


def _powers_spelt(short: str) -> str | None:
    """An acronym with a letter's count written as a digit, spelt out ("M3FC" for
    Major-Minor Mean Field Control: MMMFC); None if it has none.

    >>> _powers_spelt("M3FC"), _powers_spelt("A2C"), _powers_spelt("LLM")
    ('MMMFC', 'AAC', None)
    """
    if not any(c in short for c in "234"):
        return None
    spelt = _POWER.sub(lambda m: m.group(1) * int(m.group(2)), short)
    return spelt if spelt != short else None


def _strip_plural(short: str) -> str:
    if len(short) > 2 and short.endswith("s") and short[:-1].isupper():
        return short[:-1]
    return short


def find_acronyms(text: str) -> list[AcronymPair]:
    """Every acronym the text defines, in order, with character offsets."""
    pairs: list[AcronymPair] = []
    for m in _PARENS.finditer(text):
        inside = m.group(1)
        if _NAME_LIST.fullmatch(inside):
            continue  # "(Adroit, MetaWorld, DMC)": a list of names, not a definition
        lead = _ALIAS_LEAD.match(inside) if inside[0] in "ifah" else None
        if lead:   # "Transformer in Transformer (in short, TINT)"
            inside = inside[lead.end():]
        first = _FIRST_ITEM.split(inside, maxsplit=1)[0].strip()
        in_start = (m.start(1) + (lead.end() if lead else 0)
                    + (inside.index(first) if first else 0))
        base = max(0, m.start() - 200)
        before = text[base: m.start()].rstrip()
        if lead is None and first != inside.strip() and (
                named := _namely_pair(inside, m.start(1))) is not None:
            pairs.append(named)   # "(namely projected character loss, PCL)"
            continue
        if is_short_form(first) or _LOWER_SHORT.fullmatch(first):
            # Long Form (LF): look back over at most min(|LF| + 5, 2|LF|) words
            pair = _long_before(text, first, base, m.start(), in_start)
            if pair is not None:
                pairs.append(pair)
        elif len(first.split()) >= 2 or first.count("-") >= 2:   # (or "Mixture-of-Experts")
            # LF (Long Form): the word just before the parenthesis is the acronym
            # the last word before the parenthesis (``before`` ends in no space); found
            # backwards: a "(\S+)\s*$" search would scan the whole window
            w_start = len(before)
            while w_start > 0 and not before[w_start - 1].isspace():
                w_start -= 1
            if w_start == len(before):
                continue
            short = before[w_start:].strip(",;:")
            if not is_short_form(short):
                continue
            long = find_best_long_form(_strip_plural(short), first)
            if long is None or not _valid(short, long) or long != first[len(first) - len(long):]:
                continue
            if not first.startswith(long):
                continue
            ss = base + w_start
            pairs.append(AcronymPair(long, short, in_start, in_start + len(long), ss, ss + len(short)))
    more = (_named_pairs(text) if ", " in text else []) + (_colon_pairs(text) if ": " in text else [])
    if more:
        seen = {p.short_start for p in pairs}
        pairs = sorted(pairs + [p for p in more if p.short_start not in seen],
                       key=lambda p: min(p.long_start, p.short_start))
    return pairs


def _long_before(text: str, short: str, base: int, end: int, s_start: int) -> AcronymPair | None:
    """The pair of ``short`` (at ``s_start``) and the long form that ends the
    text in ``[base, end)``: its last min(|LF| + 5, 2|LF|) words, read as
    :func:`find_acronyms` reads "Long Form (LF)"."""
    before = text[base: end].rstrip()
    n = min(len(short) + 5, len(short) * 2)
    parts = before.rsplit(None, n)   # the last n words (C speed, no match objects)
    window = before.lstrip() if len(parts) <= n else before[len(parts[0]):].lstrip()
    if not window:
        return None
    w0 = len(before) - len(window)
    window = before[w0:]
    # drop a trailing ":", "," or closing quote of the window; keep the long form's own text
    window = window.rstrip(",:;\"”’“‘«»'")
    long = initials_long_form(_strip_plural(short), window)
    if long is None or not _valid(short, long):
        long = find_best_long_form(_strip_plural(short), window)
    if long is None:
        long = find_best_long_form(short, window)
    if long is None and (spelt := _powers_spelt(_strip_plural(short))):
        # "Major-Minor Mean Field Control (M3FC)"
        long = initials_long_form(spelt, window) or find_best_long_form(spelt, window)
    if long is None and "2" in short and _TO.search(short):
        # "Learning to optimize (L2O)": a 2 between letters reads "to"
        long = initials_long_form(_TO.sub("", short), window)
    if long is None or not _valid(short, long):
        return None
    ls = base + w0 + window.rindex(long)
    return AcronymPair(long, short, ls, ls + len(long), s_start, s_start + len(short))


@lru_cache(maxsize=1)
def _colon() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str]]:
    """The patterns of "we propose the VoP: Long Form" (the words before the
    acronym; the long form after the colon) and the words that end a long form
    there (the lexicon's ``acronyms`` lists, ``kg/data/proposals/lexicon.toml``)."""
    lex = _lexicon()
    verbs = "|".join(map(re.escape, lex["acronyms.colon_verbs"]))
    return (re.compile(rf"\b(?:{verbs})\s+(?:(?:the|a|an|new|novel)\s+){{0,3}}$"),
            re.compile(r"[A-Z][^.,;:()]{3,160}"), lex.words("acronyms.colon_stops"))


def _colon_pairs(text: str) -> list[AcronymPair]:
    """"we propose the VoP: Text-Video Co-operative Prompt Tuning for efficient
    tuning": the acronym, a colon, and a long form whose letters spell it; the
    long form ends at a stop word before a lower-case word.

    >>> [(p.long, p.short) for p in _colon_pairs(
    ...     "Hence, we introduce PACO: Parts and Attributes of Common Objects. It spans")]
    [('Parts and Attributes of Common Objects', 'PACO')]
    """
    cue, after, stops = _colon()
    out = []
    at = text.find(": ")
    while at >= 0:   # (each colon, then the words around it: a scan for the cue is slower)
        colon, at = at, text.find(": ", at + 1)
        ss = text.rfind(" ", 0, colon) + 1
        short = text[ss: colon]
        if not (2 <= len(short) <= 10 and short[0].isupper()) or not re.fullmatch(r"[\w\-+]+", short):
            continue
        m = after.match(text, colon + 2)
        if m is None or cue.search(text, max(0, ss - 40), ss) is None:
            continue
        words = m.group(0).split(" ")
        n = 1
        while n < len(words) and words[n]:
            if words[n] in stops and not (n + 1 < len(words) and words[n + 1][:1].isupper()):
                break
            n += 1
        long = " ".join(words[:n])
        if " " not in long or find_best_long_form(_strip_plural(short), long) != long or not \
                _valid(short, long):
            continue
        ls = colon + 2
        out.append(AcronymPair(long, short, ls, ls + len(long), ss, colon))
    return out


def _lexicon() -> Lexicon:
    """The proposal lexicon, which holds the naming words (``kg/data/proposals/lexicon.toml``)."""
    from kg.extract.proposals.lexicon import load_lexicon

    return load_lexicon()


@lru_cache(maxsize=1)
def _leads() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns of an acronym defined without parentheses, from the lexicon's
    naming words (the participles and ``acronyms.naming_more``): "Long Form, termed
    LF" and "(namely long form, LF)"."""
    lex = _lexicon()
    alt = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(
        (*lex["naming.participles"], *lex["acronyms.naming_more"]), key=len, reverse=True))
    namely = "|".join(re.escape(w) for w in sorted(
        (*lex["naming.namely"], *lex["acronyms.namely_more"]), key=len, reverse=True))
    return (re.compile(rf",\s+(?:{alt})\s+[\"“‘']?(?P<short>[A-Za-z0-9][\w\-+]*[\w+])(?=[\"”’']?[\s,.;:)])"),
            re.compile(rf"(?:{namely})\s+(?P<long>[^,]+),\s+(?P<short>[^\s,]+)$"))


def _named_pairs(text: str) -> list[AcronymPair]:
    """Acronyms defined by a naming word after the long form's comma: "an
    Unsupervised Symmetric Shape-Preserving Autoencoding Network, termed USSPA",
    "discriminator-cooperated distillation, abbreviated as DCD".

    >>> [(p.long, p.short) for p in _named_pairs(
    ...     "We present discriminator-cooperated distillation, abbreviated as DCD, for GANs.")]
    [('discriminator-cooperated distillation', 'DCD')]
    """
    out = []
    for m in _leads()[0].finditer(text):
        short = m.group("short")
        if not is_short_form(short) or sum(c.isupper() for c in short) < 2:
            continue
        base = max(0, m.start() - 200)
        found = _initials_before(_strip_plural(short), text[base: m.start()])
        if found is None or not _valid(short, found[0]):
            continue
        long, ls = found[0], base + found[1]
        out.append(AcronymPair(long, short, ls, ls + len(long), m.start("short"), m.end("short")))
    return out


def _initials_before(short: str, before: str) -> tuple[str, int] | None:
    """The long form right before a naming word's comma, stricter than in
    parentheses: its words' initials spell ``short`` (no letters from inside
    words: "blob-grounded ... model, termed BlobGEN" is no pair). A last word
    whose initial is not in ``short`` belongs to the name when it is capitalised
    like it ("... Autoencoding Network, termed USSPA") and is the thing named
    when it is not ("Candidate Pseudolabel Learning method, termed CPL").
    Returns the long form and where it starts in ``before``."""
    parts = before.rsplit(None, len(short) + 4)
    window = " ".join(parts[1:] if len(parts) > len(short) + 4 else parts)
    long = initials_long_form(short, window)
    if long is not None:
        return (long, len(before) - len(long)) if before.endswith(long) else None
    head, _, last = window.rpartition(" ")
    core = initials_long_form(short, head) if head else None
    if core is None or not before.endswith(f"{core} {last}"):
        return None
    at = len(before) - len(core) - 1 - len(last)
    return (f"{core} {last}" if last[:1].isupper() and core[:1].isupper() else core), at


def _namely_pair(inside: str, at: int) -> AcronymPair | None:
    """"(namely projected character loss, PCL)": the whole long form, then its
    acronym, in one parenthesis opening with a word of ``[namely]``."""
    m = _leads()[1].match(inside)
    if m is None or not is_short_form(m.group("short")):
        return None
    long: str = m.group("long").strip()
    short: str = m.group("short")
    if find_best_long_form(_strip_plural(short), long) != long or not _valid(short, long):
        return None
    return AcronymPair(long, short, at + m.start("long"), at + m.start("long") + len(long),
                       at + m.start("short"), at + m.end("short"))
