"""notebooks/explore.ipynb runs from top to bottom (so it cannot rot)."""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "explore.ipynb"


def test_explore_notebook_runs(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.get("outputs", []) if o.get("output_type") == "stream")
    assert "papers from" in text
    assert "# prolific-authors" in text
    assert "coauthor pairs in" in text and "ego network of" in text
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 4
    # the interactive view: one iframe whose srcdoc is the escaped, self-contained page
    frames = [o["data"]["text/html"] for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if "text/html" in o.get("data", {})]
    assert len(frames) == 1
    frame = "".join(frames[0])
    assert frame.startswith('<iframe srcdoc="') and "vis.Network" in frame
    assert "<script" not in frame and "&lt;script" in frame
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
