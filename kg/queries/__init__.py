"""The named query library: load, list and run the SPARQL queries in this folder.

Every ``*.rq`` file of the project's top-level ``queries/`` folder is one
named query (its name is the file name without ``.rq``). The build copies
them into the package, so an installed ``kg`` finds them (see
:func:`folder`); they are plain SPARQL 1.1 that any store can run. Each
opens with a header comment::

    # One line saying what the query answers.
    # More lines of explanation (optional).
    #
    # param: author — the author's name, matched case-insensitively (string)
    # param: min_papers — the least number of papers (integer, default 2)
    # param: type — only this type (string, optional)
    # columns: author, paper, label

Parameters are bound as RDF terms by the engine (pyoxigraph substitution,
SEP-0007), never pasted into the query text, so a value is always just a
value. A parameter may be any variable the query mentions; the library's
queries project theirs (which is why parameters show up as result
columns): the engine substitutes a projected variable itself, and the
embedded store binds any other one through a ``VALUES`` clause. Writing
queries for it:

* an optional parameter is tested through ``COALESCE(?param, "")``, which
  is ``""`` when it is not set (the engine does not make ``BOUND(?param)``
  true for a substituted value, and some servers evaluate an error inside
  ``COALESCE`` differently);
* a name is looked up, not filtered for: a ``person-name`` parameter is
  bound to the key of the text (lower case, spaces collapsed; what
  ``kgo:nameKey`` holds) and an ``entity``, ``concept`` or ``entity-name`` to
  its search key (lower case, no spaces, hyphens or dots; what
  ``skos:hiddenLabel`` holds), so ``?person kgo:nameKey ?author`` is one index
  lookup and ``Llama 2`` finds ``LLaMA-2`` (the parameter's column shows the
  key); a ``track`` is bound to its full label and a ``paper`` to its id
  (:mod:`kg.queries.values`, which also turns a name the graph does not hold
  into an error naming the closest ones);
* a ``#scope ?p track concept`` line narrows ``?p`` to the papers of a track
  and/or about a concept when those parameters are given
  (:mod:`kg.queries.scope`);
* a filter on a parameter goes in a group of its own (``{ ?e ... FILTER
  (...) }``), so it runs before the joins rather than after them;
* big joins go through sub-selects of one triple pattern each, which the
  engine joins with hash tables instead of probing the on-disk index once
  per row, and ``sameTerm`` rather than ``=``/``!=`` compares IRIs without
  reading their text;
* top-N questions first find the N-th highest precomputed count
  (``kgo:paperCount`` and friends, see :mod:`kg.rdf`) and keep what reaches
  it, so that only a few rows are joined with names and sorted by text;
* a value needed for a few thousand rows only (a paper's label, its first
  author through ``kgo:firstAuthorship``) is fetched in an ``OPTIONAL``,
  which looks it up row by row, rather than joined with every node's;
* ``ORDER BY`` a long text (more than 15 bytes: labels, paper ids) is
  written ``ORDER BY CONCAT("~", ?x)``: the same order, but the engine then
  compares values held in memory instead of reading both strings from the
  store at every comparison (faster on long results); ties are
  broken by a unique key so that limits and order are deterministic.

Examples
--------
>>> q = get("coauthors")
>>> [p.name for p in q.params], q.columns
(['author', 'track', 'concept'], ('author', 'track', 'concept', 'coauthor', 'papers'))
>>> len(library()) >= 15
True
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from kg.errors import QueryError
from kg.rdf.vocab import PREFIXES

if TYPE_CHECKING:  # pragma: no cover
    import pyoxigraph as ox

    from kg.store.sparql import QueryResult, SparqlStore

__all__ = ["BoundQuery", "NamedQuery", "Param", "folder", "get", "library", "listing",
           "parse_header", "prepare", "resolve", "run", "with_prefixes"]

PARAM_TYPES = ("string", "integer", "decimal", "boolean", "iri", "person-name", "entity-name",
               "entity", "concept", "track", "paper", "entity-type")

_PARAM = re.compile(
    r"^param:\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s+(?:—|--|-)\s+(?P<desc>.*?)\s*"
    r"\((?P<type>[a-z-]+)(?:,\s*(?P<opt>optional|default\s+(?P<default>.+?)))?\)\s*$")
_COLUMNS = re.compile(r"^columns:\s*(?P<cols>.+)$")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Param:
    """A parameter of a named query: its variable, type, meaning and default."""

    name: str
    type: str
    description: str
    default: str | None = None
    optional: bool = False

    @property
    def required(self) -> bool:
        return self.default is None and not self.optional


@dataclass(frozen=True)
class NamedQuery:
    """A query of the library (or a query file / inline SPARQL given by the user)."""

    name: str
    description: str  # the first header line
    details: str  # the rest of the header's prose
    params: tuple[Param, ...]
    columns: tuple[str, ...]
    sparql: str
    path: str | None = None

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


def parse_header(text: str, name: str, path: str | None = None, *, strict: bool = True
                 ) -> NamedQuery:
    """Read a query's header comment.

    With ``strict`` (library files), a missing description or ``columns``
    line or a malformed ``param`` line raises :class:`QueryError`.
    """
    prose: list[str] = []
    params: list[Param] = []
    columns: tuple[str, ...] = ()
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if prose and prose[-1] != "":
                prose.append("")
            continue
        if not line.startswith("#"):
            break
        body = line.lstrip("#").strip()
        if body.startswith("param:"):
            m = _PARAM.match(body)
            if m is None or m["type"] not in PARAM_TYPES:
                raise QueryError(f"{path or name}:{lineno}: malformed parameter line "
                                 "(expected '# param: name — meaning (type[, default X|, optional])')")
            params.append(Param(m["name"], m["type"], m["desc"], m["default"],
                                (m["opt"] or "") == "optional"))
        elif body.startswith("columns:"):
            m = _COLUMNS.match(body)
            columns = tuple(c.strip() for c in m["cols"].split(",") if c.strip()) if m else ()
        else:
            prose.append(body)
    text_lines = [p for p in prose]
    while text_lines and text_lines[-1] == "":
        text_lines.pop()
    paras = "\n".join(text_lines).split("\n\n")
    description = " ".join(paras[0].split()) if paras and paras[0] else ""
    details = "\n\n".join(" ".join(p.split()) for p in paras[1:])
    if strict and (not description or not columns):
        raise QueryError(f"{path or name}: the header must say what the query answers and "
                         "list its columns ('# columns: a, b')")
    return NamedQuery(name, description, details, tuple(params), columns, text, path)


def folder() -> Path:
    """The folder of the named queries' ``.rq`` files.

    In an installed ``kg`` they sit beside this module (the build copies
    them there); in a source checkout or an editable install, in the
    project's top-level ``queries/`` folder.
    """
    here = Path(str(files("kg.queries")))
    if any(here.glob("*.rq")):
        return here
    return Path(__file__).resolve().parents[2] / "queries"


def library() -> tuple[NamedQuery, ...]:
    """Every named query shipped with kg, sorted by name."""
    out = []
    for path in sorted(folder().glob("*.rq")):
        out.append(parse_header(path.read_text(encoding="utf-8"), path.stem, path.name))
    return tuple(out)


def get(name: str) -> NamedQuery:
    """The named query ``name``; raises :class:`QueryError` if there is none."""
    if _NAME.match(name):
        path = folder() / f"{name}.rq"
        if path.is_file():
            return parse_header(path.read_text(encoding="utf-8"), name, path.name)
    from kg.queries.values import closest

    names = [q.name for q in library()]
    near = closest(name, names)
    hint = f"did you mean: {', '.join(near)}?" if near else f"named queries: {', '.join(names)}"
    raise QueryError(f"unknown query {name!r}; {hint} (kg queries lists them)")


_SPARQL_START = re.compile(r"^\s*(#[^\n]*\n\s*)*(PREFIX|BASE|SELECT|ASK|CONSTRUCT|DESCRIBE)\b",
                           re.IGNORECASE)


def resolve(spec: str) -> NamedQuery:
    """A named query, a ``.rq`` file, or inline SPARQL text, as a :class:`NamedQuery`."""
    if _NAME.match(spec) and not spec.endswith(".rq"):
        return get(spec)
    if spec.endswith(".rq") and "\n" not in spec:
        path = Path(spec)
        if not path.is_file():
            raise QueryError(f"{spec}: no such query file")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise QueryError(f"{spec}: cannot read: {exc}") from None
        return parse_header(text, path.stem, str(path), strict=False)
    if _SPARQL_START.match(spec):
        return parse_header(spec, "(inline)", None, strict=False)
    return get(spec)


# ------------------------------------------------------------------ binding

def _convert(param: Param | None, name: str, value: Any
             ) -> ox.NamedNode | ox.Literal | ox.BlankNode:
    import pyoxigraph as ox

    from kg.store.sparql import to_term

    if not isinstance(value, str):
        return to_term(value)
    kind = param.type if param is not None else None
    if kind is None:  # ad-hoc query: <...> is an IRI, anything else a string
        if value.startswith("<") and value.endswith(">"):
            kind, value = "iri", value[1:-1]
        else:
            kind = "string"
    try:
        if kind == "string":
            return ox.Literal(value)
        if kind in _NAME_TYPES:
            return _name_term(kind, value)
        if kind == "integer":
            return ox.Literal(int(value.strip()))
        if kind == "decimal":
            return ox.Literal(value.strip(), datatype=ox.NamedNode(
                "http://www.w3.org/2001/XMLSchema#decimal")) if _is_decimal(value) else _bad()
        if kind == "boolean":
            v = value.strip().lower()
            if v not in ("true", "false", "1", "0"):
                _bad()
            return ox.Literal(v in ("true", "1"))
        if kind == "iri":
            iri = value.strip()
            if iri.startswith("<") and iri.endswith(">"):
                iri = iri[1:-1]
            return ox.NamedNode(iri)
    except ValueError:
        raise QueryError(f"parameter {name}: not a valid {kind}: {value!r}") from None
    raise QueryError(f"parameter {name}: unknown type {kind!r}")  # pragma: no cover


_NAME_TYPES = ("person-name", "entity-name", "entity", "concept", "track", "paper", "entity-type")


def _name_term(kind: str, value: str) -> ox.Literal:
    """A name parameter as the literal the queries look up (:mod:`kg.queries.values`
    checks it against the store and makes tracks and papers canonical)."""
    import pyoxigraph as ox

    from kg.identity import name_key, search_key

    if kind == "person-name":  # matched against kgo:nameKey
        return ox.Literal(name_key(value))
    if kind in ("entity-name", "entity", "concept"):  # matched against skos:hiddenLabel
        return ox.Literal(search_key(value))
    if kind == "entity-type":
        return ox.Literal(value.strip().lower())
    return ox.Literal(value.strip())  # a track or a paper, as written


def _is_decimal(v: str) -> bool:
    return re.fullmatch(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*", v) is not None


def _bad() -> NoReturn:
    raise ValueError


def _bind(query: NamedQuery, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check ``values`` against the query's parameters and make RDF terms of them.

    Defaults fill what is not given; an unknown name, a missing required
    parameter or a value of the wrong type raises :class:`QueryError`.
    Queries without declared parameters (files, inline SPARQL) take any
    name; a value ``<...>`` is an IRI there, anything else a string.
    """
    values = dict(values or {})
    out: dict[str, Any] = {}
    if query.params:
        known = {p.name for p in query.params}
        for name in values:
            if name not in known:
                raise QueryError(f"unknown parameter {name!r} for query {query.name!r} "
                                 f"(parameters: {', '.join(sorted(known))})")
        for p in query.params:
            if p.name in values:
                out[p.name] = _convert(p, p.name, values[p.name])
            elif p.default is not None:
                out[p.name] = _convert(p, p.name, p.default)
            elif not p.optional:
                raise QueryError(f"query {query.name!r} needs --param {p.name}=... "
                                 f"({p.description})")
        return out
    for name, value in values.items():
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise QueryError(f"not a parameter name: {name!r}")
        out[name] = _convert(None, name, value)
    return out


_PREFIX_USE = re.compile(r"(?<![\w<\"'])([A-Za-z][\w-]*):[A-Za-z_]")
_PREFIX_DECL = re.compile(r"PREFIX\s+([A-Za-z][\w-]*)?:", re.IGNORECASE)


def with_prefixes(sparql: str) -> str:
    """Prepend the kg prefixes a query uses but does not declare (inline queries)."""
    declared = set(_PREFIX_DECL.findall(sparql))
    used = set(_PREFIX_USE.findall(sparql))
    missing = [p for p in PREFIXES if p in used and p not in declared]
    return "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in missing) + sparql


@dataclass(frozen=True)
class BoundQuery:
    """A query checked and bound once (:func:`prepare`): its text with the kg prefixes it
    uses, and its parameters as RDF terms, ready for any store (:func:`run`)."""

    query: NamedQuery
    sparql: str
    bindings: tuple[tuple[str, Any], ...] = ()
    given: tuple[tuple[str, str], ...] = ()  # the values as written, checked by run()

    @property
    def name(self) -> str:
        return self.query.name


def prepare(spec: str | NamedQuery, params: Mapping[str, Any] | None = None) -> BoundQuery:
    """Resolve ``spec`` and bind ``params`` to it, once: a bad name, file or parameter
    raises :class:`QueryError` here, before any store is opened.

    Parameters
    ----------
    spec : str or NamedQuery
        A query name (``coauthors``), a path ending in ``.rq``, or SPARQL text.
    params : mapping of str to str (or RDF terms), optional
        Parameter values, converted to the declared types. Defaults fill what is not
        given; an unknown name, a missing required parameter or a value of the wrong
        type raises. Queries without declared parameters (files, inline SPARQL) take
        any name; a value ``<...>`` is an IRI there, anything else a string.

    >>> bound = prepare("SELECT ?n WHERE { ?p schema:name ?n }", {"n": "Ada Lovelace"})
    >>> bound.sparql.startswith("PREFIX schema:"), [(k, v.value) for k, v in bound.bindings]
    (True, [('n', 'Ada Lovelace')])
    """
    from kg.queries.scope import scoped_text

    query = spec if isinstance(spec, NamedQuery) else resolve(spec)
    bindings = tuple(_bind(query, params).items())
    given = tuple((k, v) for k, v in (params or {}).items()
                  if isinstance(v, str) and v.strip() and query.param(k) is not None)
    types = {p.name: p.type for p in query.params}
    sparql = scoped_text(query.sparql, types, {k for k, _ in given}) if query.params else \
        query.sparql
    return BoundQuery(query, with_prefixes(sparql), bindings, given)


def run(store: SparqlStore, query: BoundQuery | str | NamedQuery,
        params: Mapping[str, Any] | None = None) -> QueryResult:
    """Run a query bound by :func:`prepare` on ``store`` (a name, file or text with
    ``params`` is prepared here first).

    Parameters
    ----------
    store : kg.store.sparql.SparqlStore
        Where to run it (e.g. :class:`kg.store.embedded.EmbeddedStore`).
    query : BoundQuery, or what :func:`prepare` takes
    params : mapping, optional
        Only with a query not yet bound.
    """
    if isinstance(query, BoundQuery):
        if params:
            raise TypeError("a BoundQuery has its parameters already: run(store, bound)")
        bound = query
    else:
        bound = prepare(query, params)
    bindings = dict(bound.bindings)
    if not bound.given:
        return store.query(bound.sparql, bindings)
    from kg.queries.values import resolve_values

    # tracks and papers made canonical first; the other names are looked up only when
    # nothing matched (a name the graph does not hold is then an error, not no rows)
    types = {p.name: p.type for p in bound.query.params}
    bindings = resolve_values(store, types, dict(bound.given), bindings, check=False)
    result = store.query(bound.sparql, bindings)
    if result.kind == "select" and not result.rows:
        resolve_values(store, types, dict(bound.given), bindings)
    return result


def listing(width: int = 88) -> str:
    """The library as text for ``kg queries``: name, description, parameters."""
    import textwrap

    out: list[str] = []
    for q in library():
        out.append(q.name)
        out.extend(textwrap.wrap(q.description, width, initial_indent="    ",
                                 subsequent_indent="    "))
        for p in q.params:
            how = ("required" if p.required else
                   f"default {p.default}" if p.default is not None else "optional")
            out.extend(textwrap.wrap(f"--param {p.name}=<{p.type}>  {p.description} ({how})",
                                     width, initial_indent="    ",
                                     subsequent_indent="        "))
        out.append(f"    columns: {', '.join(q.columns)}")
        out.append("")
    return "\n".join(out)
