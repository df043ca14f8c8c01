"""What ``kg push`` did: :class:`PushResult` (:func:`kg.store.push.push` returns it)."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PushResult"]


@dataclass(frozen=True)
class PushResult:
    """What :func:`push` did."""

    graph: str          #: the named graph pushed into
    triples: int        #: triples sent
    method: str         #: "graph-store", "update" (SPARQL Update) or "bulk" (Virtuoso's loader)
    requests: int       #: requests made
    count: int | None   #: triples in the graph afterwards as the server counts (None: unknown)
    orphans: int = 0    #: temporary graphs of interrupted pushes dropped on the way
    switch: str = "move"        #: "move" (SPARQL MOVE) or "graph-group" (Virtuoso)
    load_seconds: float = 0.0   #: the upload (or bulk load)
    switch_seconds: float = 0.0  #: the one request that switched what users read

    def summary(self) -> str:
        """One line saying what the push did (``kg push`` prints it)."""
        count = ("the server did not say how many triples the graph holds now"
                 if self.count is None else f"{self.count:,} triples in the graph now")
        orphans = (f"; dropped {self.orphans} temporary graphs of interrupted pushes"
                   if self.orphans else "")
        how = {"graph-store": "the Graph Store Protocol", "update": "SPARQL Update"}.get(
            self.method, "Virtuoso's bulk loader")
        return (f"pushed {self.triples:,} triples into <{self.graph}> by {how} in "
                f"{self.load_seconds:.1f} s, switched in {self.switch_seconds:.2f} s "
                f"({count}{orphans})")
