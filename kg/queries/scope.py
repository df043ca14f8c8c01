"""Scoping a query to the papers of a track and/or about a concept.

A library query says where its papers are with a directive comment, a line of
its own::

    #scope ?p track concept

which names the paper variable and the parameters that narrow it (a parameter
of type ``track``: the papers filed under the track or one of its subareas; of
type ``concept``: the papers about the concept, as ``papers-about`` finds them:
mentioning it, a narrower concept or an entity under one). When none of those
parameters is given the line stays a comment, so the query runs exactly as
written; when some are, :func:`scoped_text` puts in its place one sub-select
per parameter given, each of which finds the papers first and is joined with
the rest by hash. Each sub-select projects its parameter, and so must every
sub-select the directive is in: the embedded store's engine substitutes a
parameter only into the sub-selects that project it (elsewhere it is another,
unbound variable). ``#scope!`` is a scope that must be given (at least one of
its parameters). The values are bound as RDF terms, never written into the text
(only the fixed patterns below are).

A query whose unscoped form reads precomputed counts (``kgo:paperCount``)
needs another form when scoped; it writes that form on lines starting
``#+`` (comments, used only when scoped) and encloses the unscoped form in
``#if unscoped`` ... ``#end`` lines (dropped when scoped). The file stays
plain SPARQL that any store runs unscoped.

>>> text = "SELECT ?p WHERE {\\n  #scope ?p track\\n  ?p a schema:ScholarlyArticle\\n}"
>>> print(scoped_text(text, {"track": "track"}, {"track"}))
SELECT ?p WHERE {
  { SELECT DISTINCT ?p ?track WHERE {  # the papers of the track ?track or of one of its subareas
      ?scope1_t rdfs:label ?track ;
                a kgo:Track .
      { ?p dcterms:subject ?scope1_t }
      UNION { ?scope1_s skos:broader ?scope1_t . ?p dcterms:subject ?scope1_s } } }
  ?p a schema:ScholarlyArticle
}
"""
from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from kg.errors import QueryError

__all__ = ["scope_params", "scoped_text"]

_DIRECTIVE = re.compile(r"^(?P<indent>\s*)#scope(?P<must>!?)\s+\?(?P<var>[A-Za-z_]\w*)"
                        r"(?P<params>(?:\s+[A-Za-z_]\w*)+)\s*$")
_SCOPED_LINE = re.compile(r"^(?P<indent>\s*)#\+ ?(?P<text>.*)$")

_TRACK = """{{ SELECT DISTINCT ?{v} ?{p} WHERE {{  # the papers of the track ?{p} or of one of its subareas
    ?{s}_t rdfs:label ?{p} ;
    {pad}  a kgo:Track .
    {{ ?{v} dcterms:subject ?{s}_t }}
    UNION {{ ?{s}_s skos:broader ?{s}_t . ?{v} dcterms:subject ?{s}_s }} }} }}"""

_CONCEPT = """{{ SELECT DISTINCT ?{v} ?{p} WHERE {{  # the papers about the concept ?{p}
    {{ ?{s}_c skos:hiddenLabel ?{p} ; a kgo:Concept .
      ?{v} schema:mentions ?{s}_c }}
    UNION {{ ?{s}_c skos:hiddenLabel ?{p} ; a kgo:Concept .  # a narrower concept
            ?{s}_x skos:broader+ ?{s}_c .
            ?{v} schema:mentions ?{s}_x }}
    UNION {{ ?{s}_c skos:hiddenLabel ?{p} ; a kgo:Concept .  # an entity under it
            ?{s}_x kgo:instanceOf ?{s}_c .
            ?{v} schema:mentions ?{s}_x }}
    UNION {{ ?{s}_c skos:hiddenLabel ?{p} ; a kgo:Concept .  # under a narrower one
            ?{s}_y skos:broader+ ?{s}_c .
            ?{s}_x kgo:instanceOf ?{s}_y .
            ?{v} schema:mentions ?{s}_x }} }} }}"""

_PATTERNS = {"track": _TRACK, "concept": _CONCEPT}


def scope_params(sparql: str) -> tuple[str, ...]:
    """The parameters the query's ``#scope`` lines name, in order of first use."""
    out: dict[str, None] = {}
    for line in sparql.splitlines():
        m = _DIRECTIVE.match(line)
        if m:
            out.update(dict.fromkeys(m["params"].split()))
    return tuple(out)


def scoped_text(sparql: str, types: Mapping[str, str], given: Collection[str]) -> str:
    """``sparql`` with its scope directives filled in for the parameters ``given``.

    Parameters
    ----------
    sparql : str
        The query text.
    types : mapping of str to str
        The declared type of each parameter (``track`` or ``concept`` for those
        the directives name).
    given : collection of str
        The parameters given a (non-empty) value.

    Raises
    ------
    QueryError
        When a ``#scope!`` directive gets none of its parameters, or names a
        parameter that is neither of type ``track`` nor ``concept``.
    """
    named = scope_params(sparql)
    scoped = any(p in given for p in named)
    out: list[str] = []
    skipping = False
    count = 0
    for line in sparql.splitlines():
        stripped = line.strip()
        if stripped == "#if unscoped":
            skipping = scoped
            if not scoped:
                out.append(line)
            continue
        if stripped == "#end" and skipping:
            skipping = False
            continue
        if skipping:
            continue
        m = _DIRECTIVE.match(line)
        if m:
            params = m["params"].split()
            for p in params:
                if types.get(p) not in _PATTERNS:
                    raise QueryError(f"#scope names {p!r}, not a track or concept parameter")
            wanted = [p for p in params if p in given]
            if m["must"] and not wanted:
                raise QueryError(f"needs --param {'=... or --param '.join(params)}=...")
            if not wanted:
                out.append(line)
            for p in wanted:
                count += 1
                block = _PATTERNS[types[p]].format(v=m["var"], p=p, s=f"scope{count}",
                                                   pad=" " * (len(f"scope{count}") + 2))
                out.extend(m["indent"] + b for b in block.splitlines())
            continue
        s = _SCOPED_LINE.match(line)
        if s and scoped:
            out.append(s["indent"] + s["text"])
            continue
        out.append(line)
    return "\n".join(out) + ("\n" if sparql.endswith("\n") else "")
