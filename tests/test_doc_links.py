"""Every relative link of the repository's Markdown pages leads to a file that is there.

(The README once linked a DESIGN.md the repository does not hold.)
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "ARCHITECTURE.md", "docs/SCHEMA.md", "queries/README.md",
         "output/README.md", "kg/data/concepts/README.md", "kg/data/proposals/README.md",
         "tests/data/devset/README.md")
# [text](target) and [text](target "title"), not images' data or code spans
_LINK = re.compile(r"(?<!`)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_MD_NAME = re.compile(r"`([\w./-]+\.md)`")


def relative_links(text: str) -> list[str]:
    """The link targets of ``text`` that point into the repository (no scheme, no bare anchor).

    >>> relative_links("[a](docs/A.md#x) [b](https://e.org) [c](#top) `[d](no.md)`")
    ['docs/A.md']
    """
    out = []
    for m in _LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        out.append(target.split("#", 1)[0])
    return out


def test_relative_links_resolve():
    checked = 0
    for page in PAGES:
        path = ROOT / page
        if not path.exists():
            continue
        for target in relative_links(path.read_text(encoding="utf-8")):
            assert (path.parent / target).exists(), f"{page} links {target}, which is missing"
            checked += 1
    assert checked >= 2  # the README links ARCHITECTURE.md and docs/SCHEMA.md at least


def test_readme_names_only_pages_that_exist():
    """A Markdown page of the repository the README names in code (`dir/NAME.md`) is there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    names = [n for n in _MD_NAME.findall(text) if "/" in n and not n.startswith("../")]
    assert names
    missing = [n for n in names if not (ROOT / n).exists()]
    assert missing == []
