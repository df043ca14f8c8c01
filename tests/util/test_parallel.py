"""kg.util.parallel: one Parallelism value, made once."""
from __future__ import annotations

import pytest

from kg.util.parallel import SERIAL, Overlap, Parallelism, cpu_count


def test_default_is_every_usable_core():
    p = Parallelism.of()
    assert p.cores == cpu_count() >= 1 and p.overlap is (Overlap.AUTO if p.cores > 1
                                                          else Overlap.NONE)


def test_one_core_never_overlaps():
    assert Parallelism(1, Overlap.LOAD).overlap is Overlap.NONE
    assert not Parallelism(1, Overlap.COMPACT).side_by_side
    assert Parallelism(1) == SERIAL


def test_two_cores_side_by_side_unless_told_not_to():
    assert Parallelism(2).side_by_side and Parallelism(2, Overlap.LOAD).side_by_side
    assert not Parallelism(2, Overlap.NONE).side_by_side


@pytest.mark.parametrize("cores", [0, -3])
def test_no_fewer_than_one_core(cores):
    with pytest.raises(ValueError, match="at least 1"):
        Parallelism(cores)


def test_it_is_frozen():
    with pytest.raises(AttributeError):
        Parallelism(2).cores = 3  # type: ignore[misc]
