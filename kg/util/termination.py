"""SIGTERM as an exception that clean-up code sees, and a record of it.

:func:`on_sigterm` raises :class:`Terminated` wherever the program is, so
``finally`` blocks and ``except BaseException`` clean-ups run as for Ctrl-C.
An exception raised while Python runs a finaliser (``__del__``, a weakref
callback, the collector) is printed and dropped, not propagated, so the
handler also records the signal: :func:`check` raises it again at the points
that must not go on after it (a build checks before it publishes its output).
:func:`unraisable` keeps such a dropped :class:`Terminated` from printing a
traceback (``Exception ignored in: <function _releaseLock ...>``, seen when
the signal lands in the logging module's fork handler): the program says
"terminated" once, when it ends.

>>> reset(); check()          # nothing received: nothing raised
>>> try:
...     on_sigterm(15, None)
... except Terminated:
...     pass
>>> try:
...     check()
... except Terminated:
...     print("still terminated")
still terminated
>>> reset()
"""
from __future__ import annotations

import sys
from types import FrameType
from typing import Any

__all__ = ["Terminated", "check", "on_sigterm", "reset", "unraisable"]

_received = False


class Terminated(BaseException):
    """SIGTERM, raised where the program is so that clean-up code runs."""


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    """The SIGTERM handler: record the signal, raise :class:`Terminated`."""
    global _received
    _received = True
    raise Terminated()


def check() -> None:
    """Raise :class:`Terminated` if SIGTERM was received (even if swallowed since)."""
    if _received:
        raise Terminated()


def reset() -> None:
    """Forget a SIGTERM received before (a new command in the same process)."""
    global _received
    _received = False


def unraisable(hook_args: Any) -> None:
    """A :data:`sys.unraisablehook` that drops :class:`Terminated` (recorded
    already, raised again by :func:`check`) and passes anything else on."""
    if isinstance(hook_args.exc_value, Terminated):
        return
    sys.__unraisablehook__(hook_args)
