"""Progress reporting: a rich bar on a terminal, silence elsewhere.

On a terminal each stage shows a spinner while it runs and leaves one line
with its time when it ends. Stages that run side by side (a parallel
build, :meth:`Progress.side_by_side`) show no spinner, only their lines.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class Progress:
    """Wraps long loops in a progress bar when stderr is a terminal.

    ``Progress(quiet=True)`` and non-terminal stderr show nothing, so logs
    and tests stay clean.
    """

    def __init__(self, quiet: bool = False, verbose: bool = False, enabled: bool | None = None,
                 spinner: bool = True):
        self.quiet = quiet
        self.verbose = verbose
        self.enabled = (not quiet and sys.stderr.isatty()) if enabled is None else enabled
        self.spinner = spinner

    def side_by_side(self) -> Progress:
        """This progress for stages running at the same time: lines, no spinner or bar."""
        return Progress(self.quiet, self.verbose, self.enabled, spinner=False)

    def track(self, items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
        if not self.enabled or not self.spinner:
            yield from items
            return
        from rich.progress import track

        yield from track(items, description=description, total=total, transient=True)

    @contextmanager
    def stage(self, description: str) -> Iterator[None]:
        """Run a stage: a spinner while it runs, then one line with its time."""
        if not self.enabled:
            yield
            return
        t0 = time.perf_counter()
        if self.spinner:
            from rich.console import Console

            with Console(stderr=True).status(description):
                yield
        else:
            yield
        self.done(description, time.perf_counter() - t0)

    def done(self, description: str, seconds: float) -> None:
        """The line a stage leaves when it ends (on a terminal)."""
        if self.enabled:
            # one write, so that lines of stages running side by side do not mix
            sys.stderr.write(f"kg: {description}: {seconds:.1f} s\n")
            sys.stderr.flush()

    def info(self, message: str) -> None:
        if self.verbose:
            print(f"kg: {message}", file=sys.stderr)


QUIET = Progress(quiet=True)
