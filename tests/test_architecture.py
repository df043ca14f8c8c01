"""ARCHITECTURE.md against the tree: its folders are kg's, its order is the one enforced."""
from __future__ import annotations

import re
from pathlib import Path

from tests.test_imports import LAYERS

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "kg"
DOC = ROOT / "ARCHITECTURE.md"
README = ROOT / "README.md"


def _folders() -> set[str]:
    return {p.parent.name for p in PKG.glob("*/__init__.py")}


def stated_order(text: str) -> tuple[str, ...]:
    """The layers of the one line that starts with ``LAYERS:``, lowest first."""
    (line,) = [ln for ln in text.splitlines() if ln.startswith("LAYERS:")]
    return tuple(name.strip() for name in line.removeprefix("LAYERS:").split("<"))


def test_the_stated_order_is_the_enforced_one():
    text = DOC.read_text(encoding="utf-8")
    assert stated_order(text) == LAYERS
    # and the table of layers lists them in that order
    rows = [ln.split("|")[1].strip() for ln in text.splitlines()
            if ln.startswith("| ") and not ln.startswith(("| layer", "| seam"))]
    layer_rows = [r for r in rows if r in LAYERS]
    assert tuple(layer_rows) == LAYERS


def test_every_folder_is_named_and_every_name_exists():
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`kg/([a-z_]+)/`", text))
    assert named == _folders()
    for path in set(re.findall(r"`(kg/[\w/]+\.py)`", text)):
        assert (ROOT / path).is_file(), path
    # the main modules of each folder's row are modules (or folders) of that folder
    rows = set()
    for row in text.splitlines():
        m = re.match(r"\| [a-z]+ \| `kg/([a-z_]+)/` \| [^|]+ \| (.+) \|$", row)
        if m:
            folder, modules = m.group(1), m.group(2)
            rows.add(folder)
            for name in re.findall(r"`([a-z_]+)/?`", modules):
                assert ((PKG / folder / f"{name}.py").is_file()
                        or (PKG / folder / name).is_dir()), (folder, name)
    assert rows == _folders()


def test_the_readme_lists_the_folders_and_links_the_architecture():
    text = README.read_text(encoding="utf-8")
    section = text.split("### Folders", 1)[1].split("\n## ", 1)[0]
    assert "(ARCHITECTURE.md)" in section
    listed = re.findall(r"^- `kg/([a-z_]+)/`", section, re.M)
    assert listed == [f for f in LAYERS if f in _folders()]  # in the layer order
    assert "DESIGN.md" not in text
