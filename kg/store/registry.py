"""Where a pushed graph's triples are: the version registry ``kg push`` keeps on Virtuoso.

On Virtuoso, ``kg push`` loads a graph ``G`` into a *version* graph
(``VERSION_PREFIX<time>-<uuid>``) and makes ``G`` a graph group whose one
member is that version (:mod:`kg.store.virtuoso`). The registry graph
:data:`REGISTRY` names ``G``'s versions (``<G> kg:version <V>``): while a push
switches, for a moment, two; the newest is complete (it is registered only
after it was loaded and counted).

kg reads a pushed graph from its newest version graph, not through the group:
Virtuoso 7.2 answered ``models-of-proposers`` scoped to a track with 9 rows
through the group where the version graph itself (the same triples) gives
the right 4, once a few graph groups existed (tests/store/test_remote.py).

>>> print(version_lookup("https://example.org/g"))
SELECT DISTINCT ?v WHERE { GRAPH <https://w3id.org/paper-kg/push-versions> { <https://example.org/g> <https://w3id.org/paper-kg/ns#version> ?v } }
>>> newest(["https://w3id.org/paper-kg/push-version/1796479606-b", "https://w3id.org/paper-kg/push-version/1796479607-a"])
'https://w3id.org/paper-kg/push-version/1796479607-a'
>>> newest([]) is None
True
"""
from __future__ import annotations

from collections.abc import Iterable

import pyoxigraph as ox

from kg.store.sparql_text import sparql_term

__all__ = ["REGISTRY", "VERSION", "VERSION_PREFIX", "newest", "version_lookup"]

#: the prefix of the version graphs a Virtuoso push loads into
VERSION_PREFIX = "https://w3id.org/paper-kg/push-version/"
#: the graph that says which version graph each pushed graph reads
REGISTRY = "https://w3id.org/paper-kg/push-versions"
#: the property of the registry: ``<G> VERSION <V>``
VERSION = "https://w3id.org/paper-kg/ns#version"


def version_lookup(graph: str | None) -> str:
    """The query for the versions the registry names for ``graph`` (or for any graph),
    the graph written as an RDF term (:func:`kg.store.sparql_text.sparql_term`).

    Raises ValueError when ``graph`` is no IRI.
    """
    subject = sparql_term(ox.NamedNode(graph)) if graph else "?g"
    return (f"SELECT DISTINCT ?v WHERE {{ GRAPH <{REGISTRY}> "
            f"{{ {subject} <{VERSION}> ?v }} }}")


def newest(versions: Iterable[str]) -> str | None:
    """The newest of ``versions`` (their names start with the time of the push), or None."""
    ours = sorted(v for v in versions if v.startswith(VERSION_PREFIX))
    return ours[-1] if ours else None
