"""The output folder of ``kg build``: kg's only where kg wrote it.

A build never deletes or changes a file it did not write. It writes into a
staging folder *inside* the output folder, then moves each of its outputs
into place and records them in a manifest (:data:`kg.outputs.MANIFEST`): the next
build replaces exactly what the manifest lists and leaves everything else
(a saved view, the user's notes) alone. The output folder itself is never
renamed, removed or chmod-ed, so ``-o .``, a mount point or a symbolic link
to a folder work like any other folder. The names of the outputs and of the
bookkeeping files are :mod:`kg.outputs`'s; :mod:`kg.build.read` reads a build back.

The steps, each a small function:

1. :func:`check_target` refuses, before any work, a target that is a file, a
   broken link, not writable, or a folder that holds files kg did not write
   (unless it is a kg build: those files are the user's, kept as they are).
2. :func:`locked` serialises builds of one folder (``fcntl.flock`` on
   :data:`kg.outputs.LOCK`, released by the system when a build dies, even by SIGKILL).
3. :func:`recover` finishes or removes what a dead build left: a complete
   staging folder (it holds its manifest) is published, an incomplete one
   is removed, as are the leftovers of a publish.
4. :func:`publish` moves a finished staging folder's outputs into place; its
   manifest is moved last, so it is written only once every output is.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from kg import __version__
from kg.errors import OutputFolderError
from kg.outputs import KNOWN_OUTPUTS, LOCK, MANIFEST, PLACEHOLDERS, STAGING_PREFIX, TRASH_PREFIX
from kg.util import fsio


@dataclass(frozen=True)
class Manifest:
    """What one build wrote: top-level names in the output folder, folders ending in ``/``."""

    entries: tuple[str, ...]
    version: str = __version__

    def to_json(self) -> str:
        return json.dumps({"kg": self.version, "entries": list(self.entries)}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "Manifest":
        """
        >>> m = Manifest(("graph.ttl", "store/"))
        >>> Manifest.from_json(m.to_json()) == m
        True
        """
        data = json.loads(text)
        entries = data["entries"]
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise ValueError("entries is not a list of names")
        return cls(tuple(entries), str(data.get("kg", "")))


def is_bookkeeping(name: str) -> bool:
    """kg's own hidden files in an output folder (manifest, lock, staging, leftovers).

    >>> [is_bookkeeping(n) for n in (".kg-lock", ".kg-staging-1a2b", "notes.md")]
    [True, True, False]
    """
    return name in (MANIFEST, LOCK) or name.startswith((STAGING_PREFIX, TRASH_PREFIX))


def entry_name(path: Path) -> str:
    """A top-level entry as the manifest writes it: folders (not links to them) end in ``/``."""
    return path.name + "/" if path.is_dir() and not path.is_symlink() else path.name


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of the build in ``folder``, or None where there is none.

    A folder without a manifest whose every entry is a name kg writes is a
    build of an earlier kg, and reads as one.
    """
    path = folder / MANIFEST
    if path.is_file():
        try:
            return Manifest.from_json(path.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise OutputFolderError(f"{path}: not a kg manifest ({exc}); remove it or choose "
                                    "another folder") from None
    names = {entry_name(p) for p in folder.iterdir()
             if not is_bookkeeping(p.name) and p.name not in PLACEHOLDERS}
    if names and names <= KNOWN_OUTPUTS:
        return Manifest(tuple(sorted(names)), version="")
    return None


def foreign_entries(folder: Path, manifest: Manifest | None = None) -> list[str]:
    """Names in ``folder`` that the build ``manifest`` lists not, sorted (placeholders
    and kg's bookkeeping left out)."""
    ours = set(manifest.entries) if manifest else set()
    return sorted(entry_name(p) for p in folder.iterdir()
                  if not is_bookkeeping(p.name) and p.name not in PLACEHOLDERS
                  and entry_name(p) not in ours)


def _names(items: list[str], most: int = 3) -> str:
    """
    >>> _names(["a", "b", "c", "d"])
    'a, b, c, ...'
    """
    return ", ".join(items[:most]) + (", ..." if len(items) > most else "")


def check_target(path: str | Path) -> Path:
    """Refuse, before any work, an output folder kg must not write into.

    Returns the folder as given. A missing folder is fine if it can be made;
    a folder is fine if it is empty (placeholders aside) or a kg build.
    """
    folder = Path(path)
    shown = str(path)
    if folder.is_symlink() and not folder.exists():
        raise OutputFolderError(f"{shown} is a symbolic link to {os.readlink(folder)}, "
                                "which does not exist")
    if folder.exists():
        if not folder.is_dir():
            raise OutputFolderError(f"{shown} is a file, not a folder; choose a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputFolderError(f"{shown} is not writable")
        if read_manifest(folder) is None:
            foreign = foreign_entries(folder)
            if foreign:
                raise OutputFolderError(f"{shown} holds files kg did not write "
                                        f"({_names(foreign)}); choose an empty folder")
        return folder
    parent = folder.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise OutputFolderError(f"cannot make {shown}: {parent} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputFolderError(f"cannot make {shown}: {parent} is not writable")
    return folder


@contextmanager
def locked(folder: Path) -> Iterator[bool]:
    """Hold the build lock of ``folder`` (made if missing); yields whether kg made the folder.

    A second build of the same folder fails at once with the holder's pid.
    If kg made the folder and leaves it with nothing but the lock, the
    folder is removed again.
    """
    created = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, fsio.file_mode())
    except OSError as exc:
        raise OutputFolderError(f"cannot write in {folder}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise OutputFolderError(f"{folder} is being built by another kg (pid {holder}); "
                                    "wait for it to end or choose another folder") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        try:
            yield created
        finally:
            os.ftruncate(fd, 0)
            if created and {p.name for p in folder.iterdir()} <= {LOCK}:
                os.unlink(folder / LOCK)
                folder.rmdir()
    finally:
        os.close(fd)


def new_staging(folder: Path) -> Path:
    """A fresh staging folder inside ``folder`` (same file system: moves are renames)."""
    return fsio.fresh_dir(folder, STAGING_PREFIX)


def seal(staged: Path) -> Manifest:
    """Write the manifest of a finished staging folder: it is now complete."""
    manifest = Manifest(tuple(sorted(entry_name(p) for p in staged.iterdir()
                                     if not p.name.startswith("."))))
    fsio.write_text(staged / MANIFEST, manifest.to_json())
    return manifest


def publish(staged: Path, folder: Path) -> None:
    """Move a sealed staging folder's outputs into ``folder``; the manifest last.

    Outputs of the previous build that this one does not write are removed;
    anything the previous manifest does not list is never touched. An output
    whose name is taken by a file kg did not write stops the publish before
    anything moves. Safe to run again on a staging folder a dead build
    left half-published (what was moved already is skipped).
    """
    new = Manifest.from_json((staged / MANIFEST).read_text(encoding="utf-8"))
    old = read_manifest(folder)
    old_entries = set(old.entries) if old else set()
    ours = {e.rstrip("/") for e in old_entries}
    moves = [e.rstrip("/") for e in new.entries if os.path.lexists(staged / e.rstrip("/"))]
    taken = sorted(n for n in moves if os.path.lexists(folder / n) and n not in ours)
    if taken:
        raise OutputFolderError(f"{folder} holds files kg did not write with the names of "
                                f"its outputs ({_names(taken)}); move them away")
    trash = folder / f"{TRASH_PREFIX}{os.getpid()}"
    for name in moves:
        src, dst = staged / name, folder / name
        if os.path.lexists(dst) and (dst.is_dir() or src.is_dir()):
            trash.mkdir(exist_ok=True)
            os.replace(dst, trash / name)
        os.replace(src, dst)
    for entry in sorted(old_entries - set(new.entries)):
        gone = folder / entry.rstrip("/")
        if os.path.lexists(gone):
            trash.mkdir(exist_ok=True)
            os.replace(gone, trash / gone.name)
    os.replace(staged / MANIFEST, folder / MANIFEST)
    shutil.rmtree(staged, ignore_errors=True)
    shutil.rmtree(trash, ignore_errors=True)


def recover(folder: Path) -> None:
    """Finish or remove what dead builds left in ``folder`` (call with the lock held)."""
    for path in sorted(folder.glob(STAGING_PREFIX + "*")):
        if (path / MANIFEST).is_file():
            publish(path, folder)
        else:
            shutil.rmtree(path, ignore_errors=True)
    for path in sorted(folder.glob(TRASH_PREFIX + "*")):
        shutil.rmtree(path, ignore_errors=True)
    for path in legacy_leftovers(folder):
        shutil.rmtree(path, ignore_errors=True)


def legacy_leftovers(folder: Path) -> list[Path]:
    """What killed builds of earlier kg (before the manifest) left beside ``folder``:
    hidden staging (``.NAME.building-*``) and swap (``.NAME.old-*``) folders holding
    nothing but kg's outputs. Anything else there is not kg's and is not listed."""
    folder = Path(os.path.abspath(folder))
    if not folder.name:
        return []
    found = []
    for pattern in (f".{folder.name}.building-*", f".{folder.name}.old-*"):
        for path in sorted(folder.parent.glob(pattern)):
            if path.is_dir() and not path.is_symlink() and all(
                    entry_name(p) in KNOWN_OUTPUTS or p.name in PLACEHOLDERS
                    or p.name.startswith(".") and p.name.endswith(".tmp")
                    for p in path.iterdir()):
                found.append(path)
    return found
