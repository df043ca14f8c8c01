"""Is a text read as a listing a listing at all?

The listing parser is forgiving by design: it keeps what it can of a damaged
listing. That makes it read anything: two lines of ``printf`` become a paper
by "hello world", a README becomes papers whose authors are its headings. A
build from such a file replaces a good build with nonsense, so a file is
refused when nothing in it has the shape of a listing:

* **markup**: Markdown or source code (headings, fences, bullets, tables,
  HTML tags, ``def``/``import`` lines) make up a tenth of its lines or more;
* **no paper**: no entry has an author line of person-shaped names and an
  abstract of at least :data:`MIN_ABSTRACT_WORDS` words (or
  :data:`MIN_ABSTRACT_CHARS` characters), nor an abstract of
  :data:`MIN_BARE_WORDS` words or more with a full stop (whatever its author
  line: a file of abstracts alone is read, with warnings, and a real abstract
  is never dropped).

A listing with some damage passes; its bad entries are warned about by the
parser, as before. Both checks are pure functions of the text and entries.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from kg.parse.listing import SENTENCE_END, name_like
from kg.parse.records import Entry

#: words an abstract needs for its entry to count as a paper here ...
MIN_ABSTRACT_WORDS = 6
#: ... or characters (one long formula or identifier is an abstract too)
MIN_ABSTRACT_CHARS = 40
#: words an abstract needs to count as a paper whatever its author line
MIN_BARE_WORDS = 15
#: share of non-blank lines that are markup for the file to count as markup
MARKUP_SHARE = 0.1
#: fewest markup lines that make a file markup (a listing may quote one or two)
MARKUP_LINES = 3

_MARKUP = re.compile(
    r"""^(?:
        \#{1,6}\s               # Markdown heading
      | (?:```|~~~)             # code fence
      | [-*+]\s+\S              # bullet
      | \d{1,3}[.)]\s+\S        # numbered item
      | >\s                     # quote
      | \|.*\|\s*$              # table row
      | !?\[[^\]]*\]\(          # link or image
      | <(?:!--|!DOCTYPE|/?(?:html|head|body|div|p|h[1-6]|ul|ol|li|table|tr|td|pre|br|hr)\b)
                                # an HTML block tag
      | (?:def|class|import|from|return|if|for|while|fn|let|const|var|function
          |public|private|package|\#include)\b.*[:;({=]\s*$   # a line of code
    )""",
    re.VERBOSE,
)


def markup_line(line: str) -> bool:
    """Whether one stripped line is Markdown or code rather than listing text.

    Examples
    --------
    >>> markup_line("## Installation"), markup_line("- item"), markup_line("import os;")
    (True, True, True)
    >>> markup_line("Deep Learning · Robustness"), markup_line("Ada Lovelace, Alan Turing")
    (False, False)
    """
    return bool(_MARKUP.match(line))


def first_markup(lines: Sequence[tuple[int, str]]) -> tuple[int, str] | None:
    """The first markup line, if markup is :data:`MARKUP_SHARE` of the lines.

    ``lines`` are the non-blank lines as (line number, stripped text).

    Examples
    --------
    >>> first_markup([(1, "# kg"), (3, "Some text."), (5, "- a"), (6, "- b")])
    (1, '# kg')
    >>> first_markup([(1, "# kg"), (3, "Ada Lovelace"), (5, "We study it.")]) is None
    True
    """
    hits = [(n, text) for n, text in lines if markup_line(text)]
    if len(hits) >= MARKUP_LINES and len(hits) >= MARKUP_SHARE * len(lines):
        return hits[0]
    return None


def looks_like_paper(entry: Entry) -> bool:
    """An entry with a person-shaped author and an abstract of some length, or
    an abstract of a few sentences' length (with any author line, or none).

    Examples
    --------
    >>> from kg.models import Source
    >>> src = Source("x.txt", 1)
    >>> looks_like_paper(Entry(("Ada Lovelace",), "We propose FooNet, a network for "
    ...                        "image classification on ImageNet.", src))
    True
    >>> looks_like_paper(Entry(("hello world",), "this is not a listing", src))
    False
    >>> looks_like_paper(Entry(("x = 1",), "We propose FooNet, a network for image "
    ...                        "classification on ImageNet.", src))
    False
    >>> looks_like_paper(Entry((), "this is not a listing", src))
    False
    """
    words = len(entry.abstract.split())
    if words >= MIN_BARE_WORDS and SENTENCE_END.search(entry.abstract):
        return True  # an abstract of real length is a paper, whatever its author line
    long_enough = words >= MIN_ABSTRACT_WORDS or len(entry.abstract) >= MIN_ABSTRACT_CHARS
    return long_enough and any(name_like(a) for a in entry.authors)


def not_a_listing(lines: Sequence[tuple[int, str]],
                  entries: Sequence[Entry]) -> tuple[int, str] | None:
    """Why a text read as a listing is none: (line, reason), or None if it may be one.

    Examples
    --------
    >>> from kg.models import Source
    >>> junk = Entry(("hello world",), "this is not a listing", Source("-", 1))
    >>> not_a_listing([(1, "hello world"), (2, "this is not a listing")], [junk])
    (1, 'no entry has an author line and an abstract of 6 words or more')

    A text with no entry at all is left to the parser, which warns about each
    line it skipped.
    """
    if not lines:
        return None  # an empty file: the parser says "no papers found"
    markup = first_markup(lines)
    if markup is not None:
        text = markup[1] if len(markup[1]) <= 40 else markup[1][:39] + "…"
        return markup[0], f"Markdown or code, not a listing ({text!r})"
    if entries and not any(looks_like_paper(e) for e in entries):
        return lines[0][0], (f"no entry has an author line and an abstract of "
                             f"{MIN_ABSTRACT_WORDS} words or more")
    return None
