"""Progress reporting: a rich bar on a terminal, silence elsewhere."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


class Progress:
    """Wraps long loops in a progress bar when stderr is a terminal.

    ``Progress(quiet=True)`` and non-terminal stderr show nothing, so logs
    and tests stay clean.
    """

    def __init__(self, quiet: bool = False, verbose: bool = False, enabled: bool | None = None):
        self.quiet = quiet
        self.verbose = verbose
        self.enabled = (not quiet and sys.stderr.isatty()) if enabled is None else enabled

    def track(self, items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
        if not self.enabled:
            yield from items
            return
        from rich.progress import track

        yield from track(items, description=description, total=total, transient=True)

    @contextmanager
    def stage(self, description: str) -> Iterator[None]:
        if self.enabled:
            from rich.console import Console

            with Console(stderr=True).status(description):
                yield
        else:
            yield

    def info(self, message: str) -> None:
        if self.verbose:
            print(f"kg: {message}", file=sys.stderr)


QUIET = Progress(quiet=True)
