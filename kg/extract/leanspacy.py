"""Importing spaCy without its command-line interface.

``import spacy`` imports ``spacy.cli`` for the one name ``spacy.info``, and
with it weasel, typer, httpx, requests and jinja2: about 360 modules and a
third of the import's time, none of which extraction uses. :func:`import_spacy`
imports spaCy with a stand-in for ``spacy.cli.info`` and removes the stand-in
at once, so a later ``import spacy.cli`` (or ``spacy.info()``) gets the real
one. Where spaCy is already imported, or the stand-in does not fit this
spaCy, spaCy is imported as usual.
"""
from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

__all__ = ["import_spacy"]

_STUBS = ("spacy.cli", "spacy.cli.info")


def _info(*args: Any, **kwargs: Any) -> Any:
    """``spacy.info``: the real one, imported when called."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


def import_spacy() -> types.ModuleType:
    """The ``spacy`` module, imported without ``spacy.cli`` if not imported yet.

    >>> import_spacy().blank("en")("a b").text
    'a b'
    """
    if "spacy" in sys.modules:
        return sys.modules["spacy"]
    spec = importlib.util.find_spec("spacy")
    if spec is None or not spec.submodule_search_locations or any(s in sys.modules
                                                                   for s in _STUBS):
        import spacy
        return spacy
    cli = types.ModuleType("spacy.cli")
    cli.__path__ = [str(Path(next(iter(spec.submodule_search_locations))) / "cli")]
    info = types.ModuleType("spacy.cli.info")
    info.info = _info  # type: ignore[attr-defined]  # a module made here: no declared names
    sys.modules.update({"spacy.cli": cli, "spacy.cli.info": info})
    try:
        import spacy
    except Exception:   # noqa: BLE001 - a spaCy the stand-in does not fit
        for name in [m for m in sys.modules if m == "spacy" or m.startswith("spacy.")]:
            del sys.modules[name]
        import spacy
    finally:
        for name in _STUBS:
            if sys.modules.get(name) in (cli, info):
                del sys.modules[name]
    if getattr(spacy, "cli", None) is cli:
        del spacy.cli  # type: ignore[attr-defined]  # spacy exports no cli to mypy
    return spacy
