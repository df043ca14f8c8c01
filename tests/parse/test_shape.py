"""kg.parse.shape: a file read as a listing that is no listing is refused."""
from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import ParseError
from kg.models import Source
from kg.parse import parse_text, read_corpus
from kg.parse.records import Entry
from kg.parse.shape import first_markup, looks_like_paper, markup_line, not_a_listing

ROOT = Path(__file__).resolve().parents[2]
SRC = Source("x.txt", 1)
ABSTRACT = "We propose FooNet, a convolutional network for image classification on ImageNet."


@pytest.mark.parametrize("line", ["# kg", "### Inputs", "```sh", "- a bullet", "1. first",
                                  "| a | b |", "[link](x)", "![img](x.png)", "<div>",
                                  "<!-- note -->", "import os;", "def f(x):", "> quoted"])
def test_markup_lines(line):
    assert markup_line(line)


@pytest.mark.parametrize("line", ["Deep Learning · Robustness", "Ada Lovelace, Alan Turing 等",
                                  ABSTRACT, "论文检索", "<img src=x onerror=alert(1)>, Ada",
                                  "(1) we study", "From theory to practice, we study it."])
def test_listing_lines_are_no_markup(line):
    assert not markup_line(line)


def test_two_markup_lines_in_a_listing_are_tolerated():
    lines = [(1, "# a"), (2, "Ada Lovelace"), (3, ABSTRACT), (4, "- b"), (5, "Alan Turing"),
             (6, ABSTRACT)]
    assert first_markup(lines) is None
    assert first_markup(lines + [(7, "- c")]) == (1, "# a")


def test_a_paper_needs_a_name_and_some_words():
    assert looks_like_paper(Entry(("mengyang zhang",), ABSTRACT, SRC))
    assert not looks_like_paper(Entry(("Ada Lovelace",), "too short to be one", SRC))
    assert not looks_like_paper(Entry(("x = 1",), ABSTRACT, SRC))
    # a file of abstracts alone is read (with warnings), so a long bare abstract counts
    assert looks_like_paper(Entry((), ABSTRACT + " It beats every baseline we tried.", SRC))
    assert not looks_like_paper(Entry((), ABSTRACT, SRC))


def test_not_a_listing_names_the_first_offending_line():
    lines = [(3, "## Usage"), (5, "- one"), (6, "- two"), (8, "Some prose here.")]
    line, why = not_a_listing(lines, [])
    assert line == 3 and "Markdown or code" in why and "## Usage" in why
    assert not_a_listing([], []) is None


def test_printf_junk_is_one_error():
    with pytest.raises(ParseError, match=r"^<text>:1: no entry has an author line"):
        parse_text("hello world\nthis is not a listing\n")


def test_the_readme_is_refused():
    with pytest.raises(ParseError, match=r"README\.md:1: Markdown or code, not a listing"):
        read_corpus([ROOT / "README.md"])


def test_real_listings_pass():
    c = parse_text("Deep Learning\n\nmengyang zhang, Ada Lovelace\n\n" + ABSTRACT + "\n")
    assert len(c.papers) == 1
