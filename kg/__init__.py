"""kg: knowledge graphs from research-paper listings."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rdflib

__version__ = "0.1.0"

__all__ = ["__version__", "load_graph"]


def __getattr__(name: str) -> Callable[..., rdflib.Graph]:
    # loaded on first use, so that `import kg` stays light (no rdflib, no pyoxigraph)
    if name == "load_graph":
        from kg.rdf.load import load_graph

        return load_graph
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
