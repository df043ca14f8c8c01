from __future__ import annotations

import threading

from kg.util.threads import thread_map


def test_results_come_in_the_order_of_the_items_from_the_named_threads():
    def where(i: int) -> tuple[int, str]:
        return i * i, threading.current_thread().name

    got = thread_map(where, list(range(20)), 3, name="kg-test")
    assert [r for r, _ in got] == [i * i for i in range(20)]
    assert all(name.startswith("kg-test") for _, name in got)


def test_one_thread_or_one_item_runs_in_the_calling_thread():
    here = threading.current_thread().name
    assert thread_map(lambda _: threading.current_thread().name, [1, 2], 1) == [here, here]
    assert thread_map(lambda _: threading.current_thread().name, [1], 4) == [here]
