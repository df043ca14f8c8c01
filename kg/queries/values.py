"""Parameter values checked against the graph: a name it does not hold is an error.

A query's answer to a name the graph does not hold is empty, which reads as
"nothing matches" when the name was only misspelt. Before a library query
runs, :func:`resolve_values` looks each name parameter up in the store (one
index lookup each: a search key, a name key, an id) and raises a
:class:`~kg.errors.QueryError` naming the closest names the graph does hold
when there is none (``no concept named 'difusion model'; did you mean:
diffusion model?``). The candidates are only read on that error path.

Two kinds of value are made canonical before the query runs, so that it
looks them up exactly:

* a ``track`` is found by its full label, its area or its subarea, ignoring
  case and spacing, and bound to its full label (``Large Language Models`` ->
  ``Deep Learning · Large Language Models``); a subarea two areas share is an
  error listing both;
* a ``paper`` is found by its id (16 hex digits), its label (the title where
  the listing has one) or a name it proposes (``kgo:proposes``), and bound to
  its id; a name several papers answer to is an error listing them.

The similarity is :class:`difflib.SequenceMatcher`'s ratio on the names in
lower case, after its two cheap upper bounds (``real_quick_ratio``,
``quick_ratio``) have ruled most candidates out.

>>> closest("difusion model", ["diffusion model", "fusion", "vision model"])
['diffusion model']
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg.errors import QueryError

if TYPE_CHECKING:  # pragma: no cover
    from kg.store.sparql import SparqlStore

__all__ = ["ENTITY_TYPES", "Track", "closest", "find_track", "resolve_values", "tracks"]

# the entity classes a `type` parameter names (kgo:Model is "model", ...)
ENTITY_TYPES = ("model", "method", "dataset", "task", "metric", "other")

_NEAR = 0.1  # how far below the best a suggestion may be
_HEX_ID = re.compile(r"[0-9a-fA-F]{16}")
_RDFS = "http://www.w3.org/2000/01/rdf-schema#"
_SKOS = "http://www.w3.org/2004/02/skos/core#"
_SCHEMA = "https://schema.org/"
_DCT = "http://purl.org/dc/terms/"
_KGO = "https://w3id.org/paper-kg/ontology#"
_PREFIXES = (f"PREFIX rdfs: <{_RDFS}>\nPREFIX skos: <{_SKOS}>\nPREFIX schema: <{_SCHEMA}>\n"
             f"PREFIX dcterms: <{_DCT}>\nPREFIX kgo: <{_KGO}>\n")


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def closest(text: str, names: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """The (at most) ``n`` names most similar to ``text``, best first.

    Similarity is :meth:`difflib.SequenceMatcher.ratio` of the names in lower
    case with spaces collapsed; names below ``cutoff`` are left out, and so are
    those more than 0.1 below the best one (``vision model`` is 0.85 like
    ``difusion model``, ``diffusion model`` 0.97); ties go to the name first in
    alphabetical order, and a name given twice counts once.
    """
    want = _fold(text)
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(want)  # seq2 is the one SequenceMatcher indexes: index the query once
    scored: dict[str, float] = {}
    seen: set[str] = set()
    floor = cutoff  # rises with the best ratio so far: the upper bounds then rule out more
    for name in names:
        if name in seen:
            continue
        seen.add(name)
        matcher.set_seq1(_fold(name))
        if (matcher.real_quick_ratio() >= floor and matcher.quick_ratio() >= floor
                and (r := matcher.ratio()) >= floor):
            scored[name] = r
            floor = max(floor, r - _NEAR)
    ranked = sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))
    return [name for name, r in ranked[:n] if r >= floor]


def _suggest(kind: str, value: str, names: Iterable[str], where: str = "") -> QueryError:
    near = closest(value, names)
    hint = f"; did you mean: {', '.join(near)}?" if near else where
    return QueryError(f"no {kind} {value!r}{hint}")


def _select(store: SparqlStore, sparql: str, bindings: Mapping[str, Any] | None = None
            ) -> list[tuple[str, ...]]:
    res = store.query(_PREFIXES + sparql, dict(bindings or {}))
    return [tuple("" if t is None else str(t.value) for t in row) for row in res.rows]


def _exists(store: SparqlStore, pattern: str, bindings: Mapping[str, Any]) -> bool:
    # a SELECT with LIMIT 1 rather than ASK: every store here answers SELECTs alike
    return bool(_select(store, f"SELECT ?x WHERE {{ {pattern} }} LIMIT 1", bindings))


# ------------------------------------------------------------------ tracks

class AmbiguousTrack(QueryError):
    """A subarea name that several areas share (:func:`find_track`)."""


@dataclass(frozen=True)
class Track:
    """A track of the graph: its full label, its own short name and its area's label."""

    label: str
    short: str
    area: str  # "" for an area itself


def tracks(store: SparqlStore) -> tuple[Track, ...]:
    """Every track the graph holds, by label."""
    rows = _select(store, "SELECT ?label ?short ?area WHERE { ?t a kgo:Track ; rdfs:label ?label "
                          "OPTIONAL { ?t skos:prefLabel ?short } "
                          "OPTIONAL { ?t skos:broader ?a . ?a rdfs:label ?area } }")
    return tuple(sorted({Track(label, short or label, area) for label, short, area in rows},
                        key=lambda t: t.label))


def find_track(value: str, known: Iterable[Track]) -> str:
    """The full label of the track ``value`` names: its full label, its area or its
    subarea (ignoring case and spacing).

    Raises
    ------
    QueryError
        When no track has that name (with the closest ones), or when it is a
        subarea of several areas (listing them).

    >>> ts = [Track("Deep Learning", "Deep Learning", ""),
    ...       Track("Deep Learning · Robustness", "Robustness", "Deep Learning"),
    ...       Track("Social Aspects · Robustness", "Robustness", "Social Aspects")]
    >>> find_track("deep  learning", ts)
    'Deep Learning'
    >>> find_track("robustness", ts)
    Traceback (most recent call last):
    ...
    kg.queries.values.AmbiguousTrack: track 'robustness' is ambiguous: it is a subarea of Deep Learning · Robustness; Social Aspects · Robustness (give the full label)
    """
    known = tuple(known)
    want = _fold(value)
    full = sorted({t.label for t in known if _fold(t.label) == want})
    if not full:
        full = sorted({t.area for t in known if t.area and _fold(t.area) == want})
    if full:
        return full[0]
    subs = sorted({t.label for t in known if t.area and _fold(t.short) == want})
    if len(subs) > 1:
        raise AmbiguousTrack(f"track {value!r} is ambiguous: it is a subarea of "
                             f"{'; '.join(subs)} (give the full label)")
    if subs:
        return subs[0]
    names = {t.label for t in known} | {t.short for t in known}
    return _raise(_suggest("track named", value, names,
                           "" if known else " (the graph has no tracks)"))


def _raise(exc: QueryError) -> str:
    raise exc


# ------------------------------------------------------------------ the other kinds

@dataclass(frozen=True)
class _Named:
    """A kind of thing the graph holds by name: how a value is found (``?v`` the
    value bound), where the names to suggest come from, and what the error calls it."""

    exists: str
    names: str
    what: str

    def __call__(self, store: SparqlStore, value: str, term: Any) -> Any:
        if _exists(store, self.exists, {"v": term}):
            return term
        raise _suggest(self.what, value, (r[0] for r in _select(store, self.names)))


_check_person = _Named("?x kgo:nameKey ?v",
                       "SELECT ?n WHERE { ?x kgo:nameKey ?k ; schema:name ?n }", "author named")
_check_concept = _Named("?x skos:hiddenLabel ?v ; a kgo:Concept",
                        "SELECT ?n WHERE { ?x a kgo:Concept ; skos:prefLabel ?n }",
                        "concept named")
_check_entity = _Named("?x skos:hiddenLabel ?v",
                       "SELECT ?n WHERE { ?x skos:hiddenLabel ?k ; skos:prefLabel ?n }",
                       "entity or concept named")


def _check_type(store: SparqlStore, value: str, term: Any) -> Any:
    if term.value in ENTITY_TYPES:
        return term
    raise _suggest("entity type", value, ENTITY_TYPES,
                   f" (types: {', '.join(ENTITY_TYPES)})")


def _check_track(store: SparqlStore, value: str, term: Any) -> Any:
    import pyoxigraph as ox

    return ox.Literal(find_track(value, tracks(store)))


def _check_paper(store: SparqlStore, value: str, term: Any) -> Any:
    import pyoxigraph as ox

    from kg.identity import search_key

    text = value.strip()
    if _HEX_ID.fullmatch(text):
        if _exists(store, "?x dcterms:identifier ?v ; a schema:ScholarlyArticle",
                   {"v": ox.Literal(text.lower())}):
            return ox.Literal(text.lower())
        raise QueryError(f"no paper with the id {text!r}")
    # its label as written, or a name it proposes: index lookups both
    found = _select(store, "SELECT DISTINCT ?id ?label WHERE { "
                           "{ ?p rdfs:label ?v ; a schema:ScholarlyArticle } "
                           "UNION { ?e skos:hiddenLabel ?k . ?p kgo:proposes ?e } "
                           "?p dcterms:identifier ?id ; rdfs:label ?label }",
                    {"v": ox.Literal(text), "k": ox.Literal(search_key(text))})
    if not found:  # its label in another case: the labels are read (this path only)
        labels = _select(store, "SELECT ?id ?label WHERE { ?p a schema:ScholarlyArticle ; "
                                "dcterms:identifier ?id ; rdfs:label ?label }")
        found = [r for r in labels if _fold(r[1]) == _fold(text)]
        if not found:
            proposed = (r[0] for r in _select(store, "SELECT ?n WHERE { ?p kgo:proposes ?e . "
                                                     "?e skos:prefLabel ?n }"))
            raise _suggest("paper with the id, title or proposed name", value,
                           [*proposed, *(r[1] for r in labels)])
    ids = sorted(set(found))
    if len({i for i, _ in ids}) > 1:
        listed = "; ".join(f"{i} ({label})" for i, label in ids[:10])
        more = f"; … ({len(ids) - 10} more)" if len(ids) > 10 else ""
        raise QueryError(f"{len(ids)} papers answer to {value!r}: {listed}{more} "
                         "(give the id)")
    return ox.Literal(ids[0][0])


_CHECKS: dict[str, Callable[[SparqlStore, str, Any], Any]] = {
    "person-name": _check_person,
    "concept": _check_concept,
    "entity": _check_entity,
    "entity-type": _check_type,
    "track": _check_track,
    "paper": _check_paper,
}


# made canonical before the query runs: the query looks the canonical value up exactly
_CANONICAL = ("track", "paper")


def resolve_values(store: SparqlStore, types: Mapping[str, str], given: Mapping[str, str],
                   bindings: Mapping[str, Any], *, check: bool = True) -> dict[str, Any]:
    """``bindings`` with the given name parameters made canonical against ``store`` (a
    track's full label, a paper's id) and, with ``check``, every one of them checked.

    :func:`kg.queries.run` makes them canonical before the query and checks the rest
    only when the answer is empty: a name the graph holds costs no lookup then, and a
    name it does not hold gives no rows.

    Parameters
    ----------
    store : SparqlStore
        The graph the names must be in.
    types : mapping of str to str
        Each parameter's declared type (``track``, ``concept``, ``paper``, ...).
    given : mapping of str to str
        The values as the user wrote them (defaults are not checked).
    bindings : mapping of str to RDF term
        The values as :func:`kg.queries.prepare` bound them.
    check : bool
        Check the names that need no canonical form too.

    Raises
    ------
    QueryError
        When a name is not in the graph (with the closest names it holds), or
        names several papers or tracks.
    """
    out = dict(bindings)
    for name, value in given.items():
        kind = types.get(name, "")
        fn = _CHECKS.get(kind)
        if fn is None or name not in out or not value.strip():
            continue
        if check or (kind in _CANONICAL and not (kind == "paper" and _HEX_ID.fullmatch(
                value.strip()) and value.strip() == value.strip().lower())):
            out[name] = fn(store, value, out[name])
    return out
