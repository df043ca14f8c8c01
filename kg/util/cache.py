"""Start-up work done once: results kept in a cache inside the package.

Loading the extraction pipeline builds the gazetteer's index from its JSON
Lines files and tokenises every spelling of every name to know which tokens
a name can start with: the same work, with the same result, at every start.
:func:`cached` keeps such a result as a pickle in ``kg/.cache/`` (or, where
the package is not writable, ``$XDG_CACHE_HOME/kg``; nowhere if neither is),
made at first run, never fetched. Its name holds a digest of everything the
result depends on: kg's own source files, the data files it reads, the
Python and library versions given, so an edit of any of them makes a new
entry (older entries of the same name are removed). ``KG_NO_CACHE=1`` turns
the cache off. A cache file that cannot be read is ignored and rewritten.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

__all__ = ["cache_dir", "cached", "digest"]

T = TypeVar("T")
PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def _source_digest() -> str:
    """Digest of every Python file of the package (a code change is a new cache)."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(path.relative_to(PACKAGE).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def digest(files: Iterable[Path], extra: str = "") -> str:
    """Digest of kg's sources, ``files``' names and contents, ``extra`` and Python's version.

    >>> digest([], "a") == digest([], "a") != digest([], "b")
    True
    """
    h = hashlib.sha256()
    h.update(f"{sys.version}\0{extra}\0{_source_digest()}\0".encode())
    for path in files:
        h.update(f"{Path(path).name}\0".encode())
        h.update(Path(path).read_bytes())
    return h.hexdigest()[:20]


def cache_dir() -> Path | None:
    """Where the cache lives: the package's ``.cache``, else the user's, else nowhere."""
    if os.environ.get("KG_NO_CACHE"):
        return None
    xdg = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kg"
    for folder in (PACKAGE / ".cache", xdg):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK | os.X_OK):
            return folder
    return None


def cached(name: str, files: Iterable[Path], make: Callable[[], T], extra: str = "") -> T:
    """``make()``, from the cache when an entry for the same inputs is there.

    ``name`` names the entry (a word); ``files`` and ``extra`` are what the
    result depends on besides kg's own code.
    """
    folder = cache_dir()
    if folder is None:
        return make()
    path = folder / f"{name}-{digest(files, extra)}.pickle"
    try:
        value: T = pickle.loads(path.read_bytes())   # what make() gave when it was stored
        return value
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 - a damaged entry is made again
        pass
    value = make()
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        tmp = None
        for old in folder.glob(f"{name}-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    return value
