"""Work in forked processes: kg's one process mechanism.

:class:`Child` runs a stage of a build in a process of its own, its result or its
error sent back; :func:`ordered_map` spreads a list of items over a few processes
(extraction's chunks) and yields the results in order. Both fork, and their
processes behave alike: they ignore Ctrl-C (the parent stops them), SIGTERM ends
them quietly, and they die with their parent.

:class:`Child` forks (the child sees everything the parent had made: the
corpus, the loaded modules) and runs a function there. The function may
wait for one more input with ``receive()`` (what the parent sends later
with :meth:`Child.send`, through a queue whose feeder thread never blocks
the parent). :meth:`Child.result` returns what the function returned, or
raises in the parent what it raised: a :class:`kg.errors.KgError` stays
itself, so the command line prints it as one line as usual; a child that
dies without a word (killed, out of memory) is a :class:`WorkerError`.

A child ignores Ctrl-C (the parent stops it) and dies with its parent
(``PR_SET_PDEATHSIG`` on Linux), so a killed build leaves no stage running.

>>> list(ordered_map(abs, [-3, 1, -2], workers=2))
[3, 1, 2]
"""
from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from kg.errors import KgError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.queues import Queue

__all__ = ["Child", "WorkerError", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")


class WorkerError(KgError):
    """A stage's process ended without a result."""


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when its parent dies (no orphaned stage), and end
    it now if the parent died before it could ask for that."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() != parent:          # killed between the fork and the prctl
        os._exit(1)


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a :class:`KgError` (or RuntimeError) saying it."""
    try:
        back = pickle.loads(pickle.dumps(exc))
        if isinstance(back, BaseException) and str(back) == str(exc):
            return back
    except Exception:  # noqa: BLE001 - any failure to pickle means: send a stand-in
        pass
    kind = KgError if isinstance(exc, KgError) else RuntimeError
    return kind(str(exc) if isinstance(exc, KgError) else f"{type(exc).__name__}: {exc}")


def _receive(inbox: Queue[Any], parent: int) -> Any:
    """The parent's input; this process ends if the parent is gone meanwhile."""
    import queue

    while True:
        try:
            return inbox.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:
                os._exit(1)


def _start(parent: int) -> None:
    """In a forked process, first: Ctrl-C is the parent's to handle, SIGTERM ends this
    process quietly (the parent's handler raises instead), and so does the parent's death."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)


def _main(parent: int, fn: Callable[..., Any], args: tuple[Any, ...], inbox: Queue[Any] | None,
          conn: Connection) -> None:
    _start(parent)
    try:
        result = fn(*args, lambda: _receive(inbox, parent)) if inbox is not None else fn(*args)
        message: tuple[Any, ...] = ("ok", result)
    except BaseException as exc:  # noqa: BLE001 - every error goes back to the parent
        message = ("error", _portable(exc), traceback.format_exc())
    conn.send(message)
    conn.close()


class Child:
    """``fn(*args)`` (``fn(*args, receive)`` with ``inbox=True``) in a forked process."""

    def __init__(self, fn: Callable[..., Any], *args: Any, inbox: bool = False) -> None:
        ctx = mp.get_context("fork")
        self._inbox = ctx.Queue() if inbox else None
        self._conn, child_conn = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_main,
                                 args=(os.getpid(), fn, args, self._inbox, child_conn),
                                 daemon=True)
        self._proc.start()
        child_conn.close()

    def send(self, item: Any) -> None:
        """Give the child what its ``receive()`` returns (returns at once)."""
        assert self._inbox is not None, "this child takes no input"
        self._inbox.put(item)

    def result(self) -> Any:
        """Wait for the child; its return value, or its exception raised here."""
        from multiprocessing.connection import wait

        wait([self._conn, self._proc.sentinel])
        try:
            status, *rest = self._conn.recv()
        except EOFError:
            self._proc.join()
            raise WorkerError(f"a build stage's process ended without a result (exit status "
                              f"{self._proc.exitcode})") from None
        self._proc.join()
        self._close()
        if status == "ok":
            return rest[0]
        exc, text = rest
        if not isinstance(exc, KgError):
            exc.add_note("in a build stage's process:\n" + text)
        raise exc

    def stop(self) -> None:
        """End the child now (the build failed elsewhere)."""
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join()
        self._close()

    def _close(self) -> None:
        self._conn.close()
        if self._inbox is not None:
            self._inbox.cancel_join_thread()   # what the child did not read is dropped
            self._inbox.close()


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[R]:
    """``fn`` of each item, in the items' order, computed on ``workers`` forked processes
    (here, one after another, with one worker or one item). ``fn`` must be a module's
    function; what the parent had made before the call, the workers see.

    An error in ``fn``, Ctrl-C or SIGTERM in the parent, or the caller stopping early
    ends the workers at once."""
    todo = list(items)
    if workers <= 1 or len(todo) <= 1:
        yield from map(fn, todo)
        return
    pool = mp.get_context("fork").Pool(workers, initializer=_start, initargs=(os.getpid(),))
    try:
        yield from pool.imap(fn, todo)
    except BaseException:
        pool.terminate()
        raise
    pool.close()
    pool.join()
