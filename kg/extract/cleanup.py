"""Abstract clean-up: from the abstract as written to the text a reader expects.

LaTeX (``\\textbf{x}``, ``$\\mathcal{S}_{d-1}$``, ``\\%``, ````quotes''``,
``--``) becomes plain Unicode through pylatexenc; Markdown emphasis and HTML
entities are removed; hyphenation breaks from PDF copy are joined
(``com- munity``), run-together sentences are split (``time.A major``) and
whitespace is folded. URLs are left exactly as written. The raw text is kept
elsewhere for provenance; this is the text for extraction and display.

Examples
--------
>>> clean("We propose \\\\textbf{ToMoE}, with $\\\\mathcal{S}_{d-1}$ and 5\\\\% less.")
'We propose ToMoE, with 𝒮_d-1 and 5% less.'
>>> clean("the graph ML com- munity and pseudo- and gold-standard labels")
'the graph ML community and pseudo- and gold-standard labels'
>>> clean("over time.A major **gain** (e.g.The case) on Qwen2.5 at x.org/A")
'over time. A major gain (e.g.The case) on Qwen2.5 at x.org/A'
"""
from __future__ import annotations

import html
import re
from bisect import bisect_left
from functools import lru_cache
from typing import Any

# A bare domain starts only where its label does (not after "x-", which the
# start before it covers), and its labels are at most 63 characters (DNS):
# "a-a-a-..." or "a.a.a...." would otherwise be rescanned from every letter.
URL = re.compile(r"(?:https?://|ftp://|www\.)[^\s<>\"'{}|\\^`]+[^\s<>\"'{}|\\^`.,;:!?)\]]"
                  r"|\b(?<!\w)(?<!\w-)(?<!\w--)(?<!\w---)"
                  r"[\w-]{1,63}+(?:\.[\w-]{1,63}+){0,8}\.(?:com|org|io|net|ai|edu|dev)/"
                  r"[^\s)\]]*[^\s.,;:!?)\]]")
_LATEX_CHARS = ("\\", "$", "``", "''", "--", "~")   # cheap tests before the regex
_LATEX_TRIGGER = re.compile(r"\\[A-Za-z@]|\\[%&#_${}~^\\ ,;:!]|\$|``|''|---?|~")
_HTML_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{1,31});")
_BARE_PERCENT = re.compile(r"(?<!\\)%")
_BARE_SPECIALS = re.compile(r"(?<!\\)([&#])")
_MD_STRONG = re.compile(r"(?<![\w*\\])(\*\*|__)(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_MD_EM = re.compile(r"(?<![\w*\\])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_MD_EM_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w])")
# "com- munity" -> "community"; "LLM- based" -> "LLM-based"; "pseudo- and" stays.
_HYPHEN_BREAK = re.compile(r"(?<=\w)- (?=([a-z]+)\b)")
_KEEP_AFTER_HYPHEN = frozenset([
    "and", "or", "nor", "but", "to", "vs", "versus", "as", "with", "than", "the", "a", "an",
    "of", "for", "in", "on", "via", "from", "by", "respectively",
])
# "time.A major" -> "time. A major" (two lower-case letters before the stop,
# so "e.g.The" and "Qwen2.5" are untouched)
_RUN_ON = re.compile(r"(?<=[a-z]{2})([.!?])(?=[A-Z][a-z]|[A-Z] )"
                     r"|(?<=[a-z]{2}[)\]])([.!?])(?=[A-Z][a-z]|[A-Z] )")
_RUN_ON_HINT = re.compile(r"[.!?][A-Z]")   # a cheap superset of _RUN_ON
# a word glued to the name that follows it: LaTeX's tie ("called~NeuroBack"),
# or a naming cue with no space ("calledNeuroBack", from "called\\textsc{NeuroBack}"
# or the source itself): the cue and the name are two words
#: the naming cues a name may be glued to
NAMING_CUES = ("called", "named", "dubbed", "termed", "coined", "namely", "entitled")
_GLUED = re.compile(rf"(?<=[A-Za-z])~(?=[A-Za-z])|(?<![\w-])({'|'.join(NAMING_CUES)})(?=[A-Z])")
_GLUED_HINT = re.compile(rf"~|(?:{'|'.join(c[1:] for c in NAMING_CUES)})[A-Z]")
_WS = re.compile(r"\s+")
_WS_HINT = re.compile(r"\s\s|[^\S ]")
URL_HINT = re.compile(r"://|www\.|\.(?:com|org|io|net|ai|edu|dev)/")
_STRAY_DOLLAR = re.compile(r"(?<!\\)\$")


# LaTeX that needs a real converter: math, and commands with their arguments
# (a \( or \[ span stops at the next opener, and an optional argument is at
# most 200 characters: each failing opener would otherwise rescan the line,
# quadratic on a line of openers). Every alternative starts with a
# "$" or a "\" as written (the unescaped "$" is checked after it, not before):
# the regex engine then skips to those characters instead of trying each
# alternative at every character (faster on real abstracts; bench/RESULTS.md).
_LATEX_SPAN = re.compile(
    r"\$\$.+?\$\$|\$(?<!\\\$)(?:[^$\\]|\\.)+?\$|\\\((?:(?!\\\().)+?\\\)|\\\[(?:(?!\\\[).)+?\\\]"
    r"|\\[A-Za-z]+\*?(?:\s*\[[^\]{}]{0,200}+\])?(?:\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"
    r"|\\[^A-Za-z\s]"
)
# Font commands around a word are no markup a reader sees: the word is a name
# ("$\\mathsf{FedRo}$", "{\\sf LasF}"), and pylatexenc turns math alphabets into
# styled letters (𝙵𝚎𝚍𝚁𝚘) no name is written in. A one-letter argument of a math
# alphabet stays math ($\\mathbf{x}$ is the bold 𝐱).
_FONT_WORD = re.compile(
    r"\\(?:text(?:tt|sf|up|normal|rm|md|bf|it|sc|sl)|math(?:tt|sf|rm|it|bf)|mbox|textsubscript)"
    r"\s*\{([A-Za-z][\w.+\-]*[\w+])\}")
_FONT_SWITCH = re.compile(
    r"\{\\(?:sf|tt|bf|it|rm|sc|sl|em|up|bfseries|itshape|ttfamily|sffamily|scshape|rmfamily)"
    r"\s+([A-Za-z](?:[\w.+\-]*[\w+])?)\s*\}")
_TYPOGRAPHY = (("---", "\u2014"), ("--", "\u2013"), ("``", "\u201c"), ("''", "\u201d"))


@lru_cache(maxsize=1)
def _latex_converter() -> Any:   # pylatexenc has no types: a LatexNodes2Text
    import logging

    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    # pylatexenc logs a line per failed macro ("WARNING: ... macro '\\frac' failed
    # its substitution!") straight to stderr, even under -q: keep it quiet
    log = logging.getLogger("pylatexenc")
    log.addHandler(logging.NullHandler())
    log.propagate = False
    # pylatexenc drops the argument of these font commands: keep it
    db = get_default_latex_context_db()
    db.add_context_category("kg-fonts", prepend=True, macros=[
        MacroTextSpec(name, "%(1)s") for name in ("texttt", "textsf", "textup", "mbox")])
    return LatexNodes2Text(latex_context=db, math_mode="text", strict_latex_spaces=False)


@lru_cache(maxsize=1)
def _walker_context() -> Any:   # a pylatexenc LatexContextDb
    """The parser's default macro table, built once: ``LatexWalker`` builds
    a new one (~7 categories of specs) for every span it is not given one."""
    from pylatexenc.latexwalker import get_default_latex_context_db

    return get_default_latex_context_db()


def _latex_to_text(span: str) -> str:
    """``LatexNodes2Text.latex_to_text(span)``, with the parser's table built once."""
    from pylatexenc.latexwalker import LatexWalker

    walker = LatexWalker(span, latex_context=_walker_context())
    text: str = _latex_converter().nodelist_to_text(walker.get_latex_nodes()[0])
    return text


# pylatexenc is exponential in unclosed macro arguments (a run of "$\\frac{"
# takes seconds); real abstracts nest braces 3 deep with at most one left open, in
# spans of at most a few hundred characters. Past these a span stays as written.
_MAX_SPAN = 2000
_MAX_DEPTH = 8
_MAX_UNCLOSED = 2


def _too_hard(span: str) -> bool:
    """Is a LaTeX span too long, too deep or too open to give pylatexenc?

    >>> _too_hard("$\\frac{a}{b}$"), _too_hard("$" + "\\frac{" * 17 + "$")
    (False, True)
    """
    if len(span) > _MAX_SPAN:
        return True
    if span.count("{") <= _MAX_UNCLOSED:
        return False
    depth = deepest = 0
    for c in span:
        if c == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif c == "}" and depth:
            depth -= 1
    return deepest > _MAX_DEPTH or depth > _MAX_UNCLOSED


@lru_cache(maxsize=65536)
def _convert_span(span: str) -> str:
    if len(span) == 2 and span[0] == "\\":
        return span[1] if span[1] in "%&#_${}~^,;:! \\" else span
    if span.startswith("\\url{") or span.startswith("\\href{"):
        return span[span.index("{") + 1: span.index("}")]
    if _too_hard(span):
        return span
    try:
        out = _latex_to_text(span)
    except Exception:  # pylatexenc is tolerant; never let markup lose the text
        return span
    return out.strip() if span.startswith("$") else out


def formulas_left(text: str) -> int:
    r"""How many LaTeX spans of ``text`` cleaning leaves as written: too long,
    too deeply nested or too open for pylatexenc (see :func:`_too_hard`).

    >>> formulas_left(r"We bound $" + r"\frac{" * 17 + "$ and $x^2$."), formulas_left("plain")
    (1, 0)
    """
    if not (any(c in text for c in _LATEX_CHARS) and _LATEX_TRIGGER.search(text)):
        return 0
    return sum(1 for m in _LATEX_SPAN.finditer(text) if _too_hard(m.group(0)))


def latex_to_text(text: str) -> str:
    r"""LaTeX markup to Unicode, leaving plain text unchanged.

    Only the spans that are LaTeX (math, commands with their arguments,
    escapes) go through pylatexenc; ``%``, ``&`` and ``~`` elsewhere are
    text. A lone ``$`` before a number is a currency sign and stays.

    >>> latex_to_text(r"``Shortcut'' --- 5% of $O(\sqrt{T})$ and \revise{kept}")
    '“Shortcut” — 5% of O(√(T)) and kept'

    A word in a font command is a name, kept as written:

    >>> latex_to_text(r"\texttt{DSGT}, $\mathsf{FedRo}$, {\it LasF} and $\mathbf{x}$")
    'DSGT, FedRo, LasF and 𝐱'
    >>> latex_to_text(r"\textsf{ScaledGD($\lambda$)} and {\sf B}")
    'ScaledGD(λ) and B'
    """
    if not (any(c in text for c in _LATEX_CHARS) and _LATEX_TRIGGER.search(text)):
        return text
    if "$" in text and (text.count("$") - text.count("\\$")) & 1:
        m = list(_STRAY_DOLLAR.finditer(text))[-1]
        if text[m.end(): m.end() + 1].isdigit():
            text = text[: m.start()] + "\\$" + text[m.end():]
    if "{" in text:
        text = _FONT_SWITCH.sub(r"\1", _FONT_WORD.sub(r"\1", text))
    out = _LATEX_SPAN.sub(lambda m: _convert_span(m.group(0)), text)
    for a, b in _TYPOGRAPHY:
        if a in out:
            out = out.replace(a, b)
    return out


_MD_STRONG_ANY = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")

# The emphasis patterns above, as (opener, closer, delimiter length): where a
# span may open and where it may close. A regex rescans the rest of the line
# from every opener that has no closer ("**a **a **a ..." is quadratic);
# :func:`_unwrap` finds the same spans with a binary search per opener.
_EMPHASIS = {
    "strong_any": (re.compile(r"(?=\*\*\S)"), {"*": re.compile(r"(?<=\S)(?=\*\*)")}, 2),
    "strong": (re.compile(r"(?<![\w*\\])(?=(\*\*|__)\S)"),
               {"*": re.compile(r"(?<=\S)(?=\*\*(?![\w*]))"),
                "_": re.compile(r"(?<=\S)(?=__(?![\w*]))")}, 2),
    "em": (re.compile(r"(?<![\w*\\])(?=\*[^\s*])"),
           {"*": re.compile(r"(?<=[^\s*])(?=\*(?![\w*]))")}, 1),
}


def _closing(text: str, closer: re.Pattern[str], delimiter: str) -> list[int]:
    """Where ``closer`` (one of the zero-width closing patterns above, which
    look ahead at ``delimiter``) matches in ``text``: tried only where the
    delimiter is (``finditer`` tried every character of every abstract with
    a ``*``).

    >>> _closing("a **b** c** **", _EMPHASIS["strong_any"][1]["*"], "**")
    [5, 9]
    """
    out = []
    i = text.find(delimiter)
    while i >= 0:
        if closer.match(text, i):
            out.append(i)
        i = text.find(delimiter, i + 1)
    return out


def _unwrap(text: str, kind: str) -> str:
    """``text`` with each emphasis span of ``kind`` replaced by its content:
    what ``.sub`` of the pattern above does (same spans, leftmost first, the
    content at least one character and within one line), in linear time.

    >>> _unwrap("a **b** c **d", "strong_any"), _unwrap("**a **a **a", "strong_any")
    ('a b c **d', '**a **a **a')
    """
    opener, closers, width = _EMPHASIS[kind]
    ends = {d: _closing(text, rx, d * width) for d, rx in closers.items()}
    newlines = [i for i, c in enumerate(text) if c == "\n"] if "\n" in text else []
    out: list[str] = []
    pos = 0
    for m in opener.finditer(text):
        p = m.start()
        if p < pos:
            continue
        close = ends[text[p]]
        i = bisect_left(close, p + width + 1)   # (one character of content at least)
        if i == len(close):
            continue
        q = close[i]
        j = bisect_left(newlines, p)
        if j < len(newlines) and newlines[j] < q:
            continue   # ("." stops at a line end)
        out.append(text[pos:p])
        out.append(text[p + width:q])
        pos = q + width
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def _strip_markdown(text: str) -> str:
    """Markdown emphasis (``*x*``, ``**x**``, ``_x_``), also inside words
    (``**L**ow-rank``), which abstracts use to mark an acronym's letters."""
    if "*" in text:
        text = _unwrap(text, "strong_any")
        text = text.replace("**", "")
        text = _unwrap(text, "em")
        if "*" in text:
            text = re.sub(r"(?<=\w)\*(?=\w)", "", text)
    if "__" in text:
        text = _unwrap(text, "strong")
    if "_" in text:
        text = _MD_EM_UNDERSCORE.sub(r"\1", text)
    return text


def _join_hyphenation(text: str) -> str:
    if "- " not in text:
        return text

    def repl(m: re.Match[str]) -> str:
        nxt = m.group(1)
        if nxt in _KEEP_AFTER_HYPHEN:
            whole: str = m.group(0)
            return whole
        prev = text[m.start() - 1]
        return "-" if (prev.isupper() or prev.isdigit()) else ""

    return _HYPHEN_BREAK.sub(repl, text)


def _clean_segment(text: str) -> str:
    if "&" in text:
        text = html.unescape(text) if _HTML_ENTITY.search(text) else text
    text = latex_to_text(text)
    if "&" in text and _HTML_ENTITY.search(text):
        text = html.unescape(text)
    text = _strip_markdown(text)
    text = _join_hyphenation(text)
    if _RUN_ON_HINT.search(text):
        text = _RUN_ON.sub(lambda m: (m.group(1) or m.group(2)) + " ", text)
    if _GLUED_HINT.search(text):
        text = _GLUED.sub(lambda m: f"{m.group(1)} " if m.group(1) else " ", text)
    return text


_ASCII_WS = ("  ", "\n", "\t", "\r", "\x0b", "\x0c")


def _needs_folding(text: str) -> bool:
    """Whether whitespace needs folding (``str`` tests first: the regex is slow)."""
    if text.isascii():
        return any(w in text for w in _ASCII_WS)
    return bool(_WS_HINT.search(text))


def clean(raw: str) -> str:
    """The clean text of an abstract as written (see the module docstring)."""
    if ("/" in raw or "www." in raw) and URL_HINT.search(raw):
        pieces: list[str] = []
        last = 0
        for m in URL.finditer(raw):
            pieces.append(_clean_segment(raw[last:m.start()]))
            pieces.append(m.group(0))
            last = m.end()
        pieces.append(_clean_segment(raw[last:]))
        text = "".join(pieces)
    else:
        text = _clean_segment(raw)
    if _needs_folding(text):
        text = _WS.sub(" ", text)
    return text.strip()
