"""Writing files safely: every output goes to a temporary name, then is renamed.

An interrupted build therefore never leaves a half-written file behind.
Files and folders kg makes get the modes the user's umask gives (as
``open`` and ``mkdir`` would), not the private modes of :mod:`tempfile`.
"""
from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import IO, Any


@lru_cache(maxsize=1)
def umask() -> int:
    """The process's umask, read without changing it where the system allows.

    >>> 0 <= umask() <= 0o777
    True
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)          # no other way to read it: set and restore at once
    os.umask(old)
    return old


def file_mode() -> int:
    """The mode a new file gets from ``open``: ``0o666`` less the umask."""
    return 0o666 & ~umask()


def fresh_dir(parent: str | Path, prefix: str) -> Path:
    """A new, uniquely named folder in ``parent``, with the umask's mode (unlike ``mkdtemp``)."""
    parent = Path(parent)
    for _ in range(100):
        path = parent / f"{prefix}{secrets.token_hex(4)}"
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"no free name for a folder {prefix}* in {parent}")


@contextmanager
def atomic_open(path: str | Path, mode: str = "w", encoding: str | None = "utf-8"
                ) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; rename it over ``path`` on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, file_mode())
        if "b" in mode:
            fh = os.fdopen(fd, mode)
        else:
            fh = os.fdopen(fd, mode, encoding=encoding, newline="\n")
        with fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> None:
    with atomic_open(path, "w") as fh:
        fh.write(text)


def write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_open(path, "wb", encoding=None) as fh:
        fh.write(data)
