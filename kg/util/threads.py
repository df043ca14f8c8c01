"""Work on a few threads: queries that release the GIL (pyoxigraph's) run side by side."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def thread_map(fn: Callable[[T], R], items: Sequence[T], threads: int,
               name: str = "kg") -> list[R]:
    """``[fn(x) for x in items]`` on ``threads`` threads named ``name-...``, results in
    the order of ``items``; with one thread (or one item) in the calling thread.

    >>> thread_map(len, ["a", "bb", "ccc"], 2)
    [1, 2, 3]
    """
    if threads <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name) as pool:
        return list(pool.map(fn, items))
