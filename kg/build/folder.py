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
   A folder is a kg build only by a manifest kg wrote (:data:`MANIFEST_FORMAT`),
   every entry of which is one of kg's output names; never by the look of
   its file names.
2. :func:`locked` serialises builds of one folder (``fcntl.flock`` on
   :data:`kg.outputs.LOCK`, released by the system when a build dies, even by SIGKILL).
   The lock is never followed through a link, nor written when it is not a
   plain file of its own.
3. :func:`recover` finishes or removes what a dead build left: a complete
   staging folder (it holds its manifest) is published, an incomplete one
   is removed, as are the leftovers of a publish. Only folders holding kg's
   marker (:data:`OWNER`) are removed; anything else is left alone.
4. :func:`publish` moves a finished staging folder's outputs into place; its
   manifest is moved last, so it is written only once every output is.
   While it runs, :data:`PUBLISHING` stands in the folder, and readers
   (:func:`reading`) refuse the folder: they never read a mix of two builds.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from kg import __version__
from kg.errors import OutputFolderError
from kg.outputs import (
    KNOWN_OUTPUTS,
    LOCK,
    MANIFEST,
    OWNER,
    PLACEHOLDERS,
    PUBLISHING,
    STAGING_PREFIX,
    SUMMARY,
    TRASH_PREFIX,
    check_readable,
)
from kg.util import fsio
from kg.util.safetext import one_line

#: the marker of a manifest kg writes (a user's JSON would not hold it by chance)
MANIFEST_FORMAT = "kg-build-manifest/2"
#: what kg writes in :data:`~kg.outputs.OWNER` inside its staging and trash folders
OWNER_TEXT = "made by kg: a build's staging or trash folder; kg removes it\n"
MANIFEST_MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class Manifest:
    """What one build wrote: top-level names in the output folder, folders ending in ``/``."""

    entries: tuple[str, ...]
    version: str = __version__

    def to_json(self) -> str:
        return json.dumps({"format": MANIFEST_FORMAT, "kg": self.version,
                           "entries": list(self.entries)}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        """A manifest kg wrote, every entry checked; ValueError for anything else.

        The manifests of kg 0.1 (no ``format``) are read too, under the same checks.

        >>> m = Manifest(("graph.ttl", "store/"))
        >>> Manifest.from_json(m.to_json()) == m
        True
        >>> Manifest.from_json('{"kg": "0.1", "entries": ["../victim.txt"]}')
        Traceback (most recent call last):
        ...
        ValueError: '../victim.txt' is not a name kg writes
        """
        data = json.loads(text)
        if not isinstance(data, dict) or "entries" not in data or "kg" not in data:
            raise ValueError("no kg and entries fields")
        if data.get("format", MANIFEST_FORMAT) != MANIFEST_FORMAT:
            raise ValueError(f"format {str(data['format'])[:40]!r} is not {MANIFEST_FORMAT!r}")
        entries = data["entries"]
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise ValueError("entries is not a list of names")
        for entry in entries:
            if entry not in KNOWN_OUTPUTS:
                raise ValueError(f"{entry[:80]!r} is not a name kg writes")
        return cls(tuple(entries), str(data.get("kg", "")))


def is_bookkeeping(name: str) -> bool:
    """kg's own hidden files in an output folder (manifest, lock, staging, leftovers).

    >>> [is_bookkeeping(n) for n in (".kg-lock", ".kg-staging-1a2b", "notes.md")]
    [True, True, False]
    """
    return name in (MANIFEST, LOCK, PUBLISHING) or name.startswith((STAGING_PREFIX, TRASH_PREFIX))


def entry_name(path: Path) -> str:
    """A top-level entry as the manifest writes it: folders (not links to them) end in ``/``."""
    return path.name + "/" if path.is_dir() and not path.is_symlink() else path.name


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of the build in ``folder``, or None where there is none.

    Only a manifest proves a folder is kg's: files that merely carry the
    names of kg's outputs are the user's. A manifest that is a link, not a
    plain file, or not one kg wrote (:meth:`Manifest.from_json`) is refused.
    """
    path = folder / MANIFEST
    if not os.path.lexists(path):
        return None
    if path.is_symlink() or not path.is_file():
        raise OutputFolderError(f"{path}: not a kg manifest (not a plain file); remove it or "
                                "choose another folder")
    try:
        if path.stat().st_size > MANIFEST_MAX_BYTES:
            raise ValueError("too large")
        return Manifest.from_json(path.read_text(encoding="utf-8"))
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
        raise OutputFolderError(f"{path}: not a kg manifest ({one_line(str(exc), 120)}); "
                                "remove it or choose another folder") from None


def previous_papers(folder: Path) -> int | None:
    """The paper count of the build in ``folder`` (its ``summary.json``, of any
    version, read by :func:`kg.build.read.read_paper_count`), or None where there
    is no kg build or its summary cannot be read; never raises."""
    from kg.build.read import read_paper_count
    from kg.errors import KgError

    try:
        manifest = read_manifest(folder)
        path = folder / SUMMARY
        if manifest is None or SUMMARY not in manifest.entries or path.is_symlink():
            return None
        return read_paper_count(folder)
    except (KgError, OSError, RecursionError):
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


def _open_lock(folder: Path) -> int:
    """Open (make if missing) the lock file of ``folder``: never through a link, and
    only a plain file with no other name (a planted link must not be truncated)."""
    path = folder / LOCK
    flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, fsio.file_mode())
    except FileExistsError:
        try:
            fd = os.open(path, flags)
        except OSError as exc:
            if exc.errno == errno.ELOOP or os.path.islink(path):
                raise OutputFolderError(f"{path} is a symbolic link, not kg's lock; remove it "
                                        "or choose another folder") from None
            raise
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_size > 64:
            os.close(fd)
            raise OutputFolderError(f"{path} is not kg's lock (not a small plain file of its "
                                    "own); remove it or choose another folder") from None
    return fd


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
        fd = _open_lock(folder)
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


def _owned_dir(parent: Path, prefix: str) -> Path:
    """A fresh folder in ``parent`` holding kg's :data:`OWNER` marker."""
    path = fsio.fresh_dir(parent, prefix)
    (path / OWNER).write_text(OWNER_TEXT, encoding="utf-8")
    return path


def is_owned(path: Path) -> bool:
    """Whether ``path`` is a folder kg made (a real folder holding kg's marker)."""
    marker = path / OWNER
    try:
        return (path.is_dir() and not path.is_symlink() and marker.is_file()
                and not marker.is_symlink()
                and marker.read_text(encoding="utf-8") == OWNER_TEXT)
    except (OSError, UnicodeDecodeError):
        return False


def new_staging(folder: Path) -> Path:
    """A fresh staging folder inside ``folder`` (same file system: moves are renames)."""
    return _owned_dir(folder, STAGING_PREFIX)


def seal(staged: Path) -> Manifest:
    """Write the manifest of a finished staging folder: it is now complete."""
    manifest = Manifest(tuple(sorted(entry_name(p) for p in staged.iterdir()
                                     if not p.name.startswith("."))))
    unknown = [e for e in manifest.entries if e not in KNOWN_OUTPUTS]
    if unknown:  # a stage wrote a name this module does not list: a bug, caught before publish
        raise OutputFolderError(f"{staged}: outputs kg does not list ({_names(unknown)})")
    fsio.write_text(staged / MANIFEST, manifest.to_json())
    return manifest


def _check_kinds(folder: Path, entries: set[str]) -> None:
    """Refuse, before anything moves, an old output whose kind changed on disk: a folder
    where kg wrote a file (or a link where it wrote a folder) is the user's now."""
    changed = []
    for entry in sorted(entries):
        path = folder / entry.rstrip("/")
        if not os.path.lexists(path):
            continue
        real_dir = path.is_dir() and not path.is_symlink()
        if real_dir != entry.endswith("/"):
            changed.append(entry.rstrip("/"))
    if changed:
        raise OutputFolderError(f"{folder}: {_names(changed)} changed kind since kg wrote it "
                                "(a folder for a file or a link for a folder); move it away")


def publish(staged: Path, folder: Path) -> None:
    """Move a sealed staging folder's outputs into ``folder``; the manifest last.

    Outputs of the previous build that this one does not write are removed;
    anything the previous manifest does not list is never touched. An output
    whose name is taken by a file kg did not write stops the publish before
    anything moves. While outputs move, :data:`PUBLISHING` marks the folder
    (readers refuse it). Safe to run again on a staging folder a dead build
    left half-published (what was moved already is skipped).
    """
    new = Manifest.from_json((staged / MANIFEST).read_text(encoding="utf-8"))
    old = read_manifest(folder)
    old_entries = set(old.entries) if old else set()
    _check_kinds(folder, old_entries)
    ours = {e.rstrip("/") for e in old_entries}
    moves = [e.rstrip("/") for e in new.entries if os.path.lexists(staged / e.rstrip("/"))]
    taken = sorted(n for n in moves if os.path.lexists(folder / n) and n not in ours)
    if taken:
        raise OutputFolderError(f"{folder} holds files kg did not write with the names of "
                                f"its outputs ({_names(taken)}); move them away")
    fsio.write_text(folder / PUBLISHING, f"{os.getpid()}\n")
    trash: Path | None = None
    for name in moves:
        src, dst = staged / name, folder / name
        if os.path.lexists(dst) and (dst.is_dir() or src.is_dir()):
            trash = trash or _owned_dir(folder, TRASH_PREFIX)
            os.replace(dst, trash / name)
        os.replace(src, dst)
    for entry in sorted(old_entries - set(new.entries)):
        gone = folder / entry.rstrip("/")
        if os.path.lexists(gone):
            trash = trash or _owned_dir(folder, TRASH_PREFIX)
            os.replace(gone, trash / gone.name)
    os.replace(staged / MANIFEST, folder / MANIFEST)
    shutil.rmtree(staged, ignore_errors=True)
    if trash is not None:
        shutil.rmtree(trash, ignore_errors=True)
    os.unlink(folder / PUBLISHING)


def recover(folder: Path) -> None:
    """Finish or remove what dead builds left in ``folder`` (call with the lock held).

    Only folders holding kg's marker are removed (an empty one is too: a build
    killed before it wrote the marker); a folder of the user's that carries
    kg's prefix is left as it is.
    """
    for path in sorted(folder.glob(STAGING_PREFIX + "*")):
        if is_owned(path) and (path / MANIFEST).is_file():
            publish(path, folder)
        else:
            _remove_owned(path)
    for path in sorted(folder.glob(TRASH_PREFIX + "*")):
        _remove_owned(path)
    if os.path.lexists(folder / PUBLISHING) and not (folder / PUBLISHING).is_dir():
        os.unlink(folder / PUBLISHING)  # the publish it marked was finished above


def _remove_owned(path: Path) -> None:
    if is_owned(path):
        shutil.rmtree(path, ignore_errors=True)
    elif path.is_dir() and not path.is_symlink():
        # empty: a build killed before it wrote its marker; not empty, not kg's: left alone
        with suppress(OSError):
            path.rmdir()


def _manifest_stamp(folder: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(folder / MANIFEST)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


@contextmanager
def reading(folder: str | Path) -> Iterator[Path]:
    """Read a build folder as one build: refused mid-publish, and checked again after.

    A build that publishes while the reader reads replaces the manifest; the
    reader is then told to run again rather than use what it read.
    """
    root = Path(folder)
    check_readable(root)
    before = _manifest_stamp(root)
    yield root
    if os.path.lexists(root / PUBLISHING) or _manifest_stamp(root) != before:
        raise OutputFolderError(f"{root} was replaced by a build while kg read it; run the "
                                "command again")
