"""kg.util.memory: freed heap memory goes back to the system."""
from __future__ import annotations

import subprocess
import sys

import pytest

CHILD = """
from kg.util.memory import give_back

def rss_mib():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 2**20

chunks = [bytearray(1500) for _ in range(200_000)]   # ~300 MB of malloc'd chunks
keep = chunks[-1]                                       # the heap's top stays in use
del chunks
before = rss_mib()
print(give_back(), round(before), round(rss_mib()))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's")
def test_freed_memory_goes_back_to_the_system():
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         check=True).stdout.split()
    trimmed, before, after = out[0] == "True", int(out[1]), int(out[2])
    assert trimmed
    assert before - after > 200, (before, after)   # the freed chunks left the process
