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
from functools import lru_cache

_URL = re.compile(r"(?:https?://|ftp://|www\.)[^\s<>\"'{}|\\^`]+[^\s<>\"'{}|\\^`.,;:!?)\]]"
                  r"|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|io|net|ai|edu|dev)/[^\s)\]]*[^\s.,;:!?)\]]")
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
_KEEP_AFTER_HYPHEN = frozenset(
    "and or nor but to vs versus as with than the a an of for in on via from by "
    "respectively".split())
# "time.A major" -> "time. A major" (two lower-case letters before the stop,
# so "e.g.The" and "Qwen2.5" are untouched)
_RUN_ON = re.compile(r"(?<=[a-z]{2})([.!?])(?=[A-Z][a-z]|[A-Z] )"
                     r"|(?<=[a-z]{2}[)\]])([.!?])(?=[A-Z][a-z]|[A-Z] )")
_RUN_ON_HINT = re.compile(r"[.!?][A-Z]")   # a cheap superset of _RUN_ON
_WS = re.compile(r"\s+")
_WS_HINT = re.compile(r"\s\s|[^\S ]")
_URL_HINT = re.compile(r"://|www\.|\.(?:com|org|io|net|ai|edu|dev)/")
_STRAY_DOLLAR = re.compile(r"(?<!\\)\$")


# LaTeX that needs a real converter: math, and commands with their arguments
_LATEX_SPAN = re.compile(
    r"\$\$.+?\$\$|(?<!\\)\$(?:[^$\\]|\\.)+?\$|\\\(.+?\\\)|\\\[.+?\\\]"
    r"|\\[A-Za-z]+\*?(?:\s*\[[^\]{}]*\])?(?:\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"
    r"|\\[^A-Za-z\s]"
)
_TYPOGRAPHY = (("---", "\u2014"), ("--", "\u2013"), ("``", "\u201c"), ("''", "\u201d"))


@lru_cache(maxsize=1)
def _latex_converter():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


@lru_cache(maxsize=65536)
def _convert_span(span: str) -> str:
    if len(span) == 2 and span[0] == "\\":
        return span[1] if span[1] in "%&#_${}~^,;:! \\" else span
    if span.startswith("\\url{") or span.startswith("\\href{"):
        return span[span.index("{") + 1: span.index("}")]
    try:
        out = _latex_converter().latex_to_text(span)
    except Exception:  # pylatexenc is tolerant; never let markup lose the text
        return span
    return out.strip() if span.startswith("$") else out


def latex_to_text(text: str) -> str:
    r"""LaTeX markup to Unicode, leaving plain text unchanged.

    Only the spans that are LaTeX (math, commands with their arguments,
    escapes) go through pylatexenc; ``%``, ``&`` and ``~`` elsewhere are
    text. A lone ``$`` before a number is a currency sign and stays.

    >>> latex_to_text(r"``Shortcut'' --- 5% of $O(\sqrt{T})$ and \revise{kept}")
    '“Shortcut” — 5% of O(√(T)) and kept'
    """
    if not (any(c in text for c in _LATEX_CHARS) and _LATEX_TRIGGER.search(text)):
        return text
    if "$" in text and (text.count("$") - text.count("\\$")) & 1:
        m = list(_STRAY_DOLLAR.finditer(text))[-1]
        if text[m.end(): m.end() + 1].isdigit():
            text = text[: m.start()] + "\\$" + text[m.end():]
    out = _LATEX_SPAN.sub(lambda m: _convert_span(m.group(0)), text)
    for a, b in _TYPOGRAPHY:
        if a in out:
            out = out.replace(a, b)
    return out


_MD_STRONG_ANY = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")


def _strip_markdown(text: str) -> str:
    """Markdown emphasis (``*x*``, ``**x**``, ``_x_``), also inside words
    (``**L**ow-rank``), which abstracts use to mark an acronym's letters."""
    if "*" in text:
        text = _MD_STRONG_ANY.sub(r"\1", text)
        text = text.replace("**", "")
        text = _MD_EM.sub(r"\1", text)
        if "*" in text:
            text = re.sub(r"(?<=\w)\*(?=\w)", "", text)
    if "__" in text:
        text = _MD_STRONG.sub(r"\2", text)
    if "_" in text:
        text = _MD_EM_UNDERSCORE.sub(r"\1", text)
    return text


def _join_hyphenation(text: str) -> str:
    if "- " not in text:
        return text

    def repl(m: re.Match) -> str:
        nxt = m.group(1)
        if nxt in _KEEP_AFTER_HYPHEN:
            return m.group(0)
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
    return text


_ASCII_WS = ("  ", "\n", "\t", "\r", "\x0b", "\x0c")


def _needs_folding(text: str) -> bool:
    """Whether whitespace needs folding (``str`` tests first: the regex is slow)."""
    if text.isascii():
        return any(w in text for w in _ASCII_WS)
    return bool(_WS_HINT.search(text))


def clean(raw: str) -> str:
    """The clean text of an abstract as written (see the module docstring)."""
    if ("/" in raw or "www." in raw) and _URL_HINT.search(raw):
        pieces: list[str] = []
        last = 0
        for m in _URL.finditer(raw):
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
