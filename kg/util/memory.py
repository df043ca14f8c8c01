"""Handing freed memory back to the system between the stages of a build.

A build's processes free large structures as they go (the store's bulk
loader's buffers, the RDF mapping's tables, the
co-authorship analysis's scratch), but glibc's allocator keeps what was
freed for later use, so a process stays at its peak while the other
process of a parallel build reaches its own. :func:`give_back` asks the
allocator to return it (``malloc_trim``); elsewhere it does nothing.
"""
from __future__ import annotations

__all__ = ["give_back"]


def give_back() -> bool:
    """Return freed heap memory to the system; False where the C library has no
    ``malloc_trim`` (not glibc).

    >>> give_back() in (True, False)
    True
    """
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return False
    trim(0)
    return True
