"""Untrusted text on its way out: control characters and spreadsheet formulas.

A leaf module (standard library only), so any writer can use it cheaply:

- :func:`strip_controls` removes the control characters that never belong
  in a listing's text (C0 but tab, line feed and carriage return; DEL; C1).
  Inputs go through it when read, whatever their format.
- :func:`for_terminal` makes text safe to print: no escape sequence, bell,
  backspace, carriage return or bidirectional override reaches the terminal
  (only tab and line feed are kept).
- :func:`one_line` turns a message from elsewhere (a server's error page)
  into one short line: tags, escapes, control and invisible characters gone.
- :func:`guard_formula` prefixes a spreadsheet cell that a spreadsheet
  would run as a formula (``=``, ``+``, ``-``, ``@``) with ``'``.

Examples
--------
>>> for_terminal("\\x1b[31mred\\x1b[0m\\x07")
'[31mred[0m'
>>> guard_formula("=HYPERLINK(1)"), guard_formula("Ada")
("'=HYPERLINK(1)", 'Ada')
"""
from __future__ import annotations

import re

__all__ = ["CONTROL", "UNPRINTABLE", "strip_controls", "count_controls", "for_terminal", "json_for_terminal",
           "one_line", "guard_formula", "FORMULA_PREFIXES"]

# Control characters that never belong in a listing's text (tab, LF, CR kept).
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# ... and what a terminal must not see (CR too: it overwrites the line; the
# bidirectional overrides and isolates, which reorder what is shown).
_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# ... and what a one-line message drops as well: all line breaks, zero-width marks.
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_MARKUP = re.compile(r"<[^<>]{0,200}>|\x1b\[[0-9;?]{0,32}[ -/]{0,8}[@-~]")

_C1 = re.compile("[\x7f-\x9f]")

FORMULA_PREFIXES = ("=", "+", "-", "@")


def strip_controls(text: str) -> str:
    """``text`` without control characters other than tab, LF and CR.

    Examples
    --------
    >>> strip_controls("a\\x00b\\x1b[0mc\\u009bd\\te")
    'ab[0mcd\\te'
    """
    return CONTROL.sub("", text) if CONTROL.search(text) else text


def count_controls(text: str) -> int:
    """How many characters :func:`strip_controls` would remove.

    Examples
    --------
    >>> count_controls("\\x1b[1m\\x07")
    2
    """
    return len(CONTROL.findall(text))


def for_terminal(text: str) -> str:
    """``text`` safe to print on a terminal: control characters but tab and LF removed.

    Examples
    --------
    >>> for_terminal("ok\\rfake\\x08\\u009b2J")
    'okfake2J'
    """
    return _TERMINAL.sub("", text) if _TERMINAL.search(text) else text


def json_for_terminal(text: str) -> str:
    """JSON text (``ensure_ascii=False``) with DEL and C1 written as ``\\u`` escapes.

    JSON always escapes C0; DEL and C1 may only stand in strings, so the
    escaped text decodes to the same value.

    Examples
    --------
    >>> json_for_terminal('"a' + chr(0x9b) + '2J"')
    '"a\\\\u009b2J"'
    """
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _C1.search(text) else text


def one_line(text: str, limit: int = 200) -> str:
    """``text`` as one short line: tags, control and bidi characters gone, at most ``limit``.

    Only the first ``64 * limit`` characters are read, so a huge page costs little.

    Examples
    --------
    >>> one_line("<h1>Forbidden</h1>\\x1b[31m no\\nwrite\\x00 access")
    'Forbidden no write access'
    >>> one_line("x" * 300, limit=10)
    'xxxxxxxxx…'
    """
    text = _MARKUP.sub(" ", text[: 64 * limit])
    text = " ".join(UNPRINTABLE.sub(" ", text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def guard_formula(text: str) -> str:
    """A spreadsheet cell that cannot run: a leading ``'`` before ``= + - @``.

    Examples
    --------
    >>> guard_formula("-1+2"), guard_formula("@SUM(A1)"), guard_formula("a=b")
    ("'-1+2", "'@SUM(A1)", 'a=b')
    """
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text
