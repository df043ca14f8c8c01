"""How much of the machine a run uses: one :class:`Parallelism` value, made once.

The command line makes it from ``--workers`` (:meth:`Parallelism.of`) and hands it
down: extraction spreads over ``cores`` processes, and a build with more than one
core runs its stages side by side, the RDF stage's files written beside the store
from the moment :attr:`overlap` says.

>>> Parallelism.of(1)
Parallelism(cores=1, overlap=<Overlap.NONE: 'none'>)
>>> Parallelism.of(4).overlap, Parallelism.of(4).side_by_side
(<Overlap.AUTO: 'auto'>, True)
>>> Parallelism.of(None).cores == cpu_count()
True
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

__all__ = ["SERIAL", "Overlap", "Parallelism", "cpu_count"]


def cpu_count() -> int:
    """The cores this process may run on (``--workers``' default).

    >>> cpu_count() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Overlap(Enum):
    """When a build's RDF stage writes ``graph.ttl`` (and ``graph.jsonld``) on a thread
    beside the store, and hands the other stages their input.

    ``NONE``: after the store is done, every stage one after another; ``LOAD``: from
    the start of the bulk load; ``COMPACT``: from compaction (after validation; the
    other stages get their input once the load is done); ``AUTO``: ``LOAD`` for a small
    build, ``COMPACT`` for a large one (:func:`kg.build.pipeline.handover_after_load`).
    The files are the same with each.
    """

    NONE = "none"
    LOAD = "load"
    COMPACT = "compact"
    AUTO = "auto"


@dataclass(frozen=True)
class Parallelism:
    """The cores a run may use and how a build's stages overlap."""

    cores: int
    overlap: Overlap = Overlap.AUTO

    def __post_init__(self) -> None:
        if self.cores < 1:
            raise ValueError(f"cores must be at least 1, not {self.cores}")
        if self.cores == 1 and self.overlap is not Overlap.NONE:
            object.__setattr__(self, "overlap", Overlap.NONE)   # one core: nothing beside

    @classmethod
    def of(cls, workers: int | None = None, overlap: Overlap = Overlap.AUTO) -> Parallelism:
        """``workers`` cores (default: every usable one, :func:`cpu_count`)."""
        return cls(workers or cpu_count(), overlap)

    @property
    def side_by_side(self) -> bool:
        """Whether a build runs its stages in two processes."""
        return self.cores > 1 and self.overlap is not Overlap.NONE


#: one core, one stage after another (the library's default)
SERIAL = Parallelism(1, Overlap.NONE)
