"""Reading and writing SPARQL query text: the lexical checks and edits kg makes to a query.

Every function here skips what is not query syntax (strings, IRIs,
comments), so a value or a comment can never be taken for a keyword or a
variable:

* :func:`variables` and :func:`check_parameters`: which variables a query
  mentions, and a parameter that is none of them refused;
* :func:`uses_service`: whether a query would make the engine fetch another
  server (a ``SERVICE`` clause);
* :func:`sparql_term` and :func:`with_bindings`: parameters as RDF terms in
  SPARQL syntax, bound by a ``VALUES`` clause opening every group pattern
  (for engines without substitution: remote endpoints, and the embedded
  store's variables that are not projected).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from kg.errors import QueryError
from kg.store.sparql import to_term

__all__ = ["check_parameters", "sparql_term", "uses_service", "variables", "with_bindings"]

_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


# ------------------------------------------------------------------ lexing

_LEX = re.compile(
    r"(?P<comment>#[^\n]*)"
    r'|(?P<string>"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"' r"|'(?:[^'\\\n\r]|\\.)*')"
    r'|(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)'
    r"|(?P<var>[?$][\w\u00B7\u0300-\u036F\u203F-\u2040]*)"
    r"|(?P<lang>@[A-Za-z0-9-]*)"
    r"|(?P<number>\d+\.\d*[eE][+-]?\d+|\.\d+[eE][+-]?\d+|\d+[eE][+-]?\d+|\d*\.\d+|\d+)"
    r"|(?P<name>(?:[^\W\d]|_|:)[\w.\-:%\\\u00B7\u0300-\u036F\u203F-\u2040]*)",
    re.S)


def uses_service(sparql: str) -> bool:
    """Whether ``sparql`` has a ``SERVICE`` clause (a request to another server).

    A lexical check that skips strings, IRIs, comments, variables, language
    tags and prefixed names, so ``"SERVICE"``, ``<urn:SERVICE>``, ``?service``
    and ``ex:service`` are not taken for the keyword. A backslash outside
    strings and IRIs (``\\u0053ERVICE``) counts as a ``SERVICE`` too: the
    check errs on the side of refusing.

    >>> uses_service('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }')
    True
    >>> uses_service('SELECT * WHERE { ?s ?p 1.service<http://x/> { } }')
    True
    >>> uses_service('SELECT ?service WHERE { ?service ex:SERVICE "SERVICE" } # SERVICE')
    False
    """
    i, n = 0, len(sparql)
    while i < n:
        m = _LEX.match(sparql, i)
        if m is None:
            if sparql[i] == "\\":
                return True
            i += 1
            continue
        if m.lastgroup == "name":
            word = m.group().rstrip(".")
            if ":" not in word and (re.match(r"SERVICE(?![\w:])", word, re.I) or "\\" in word):
                return True
            i += len(word)
            continue
        i = m.end()
    return False


def variables(sparql: str) -> frozenset[str]:
    """The names of the variables ``sparql`` mentions, anywhere outside strings, IRIs and comments.

    >>> sorted(variables('SELECT ?p WHERE { ?p <urn:x?y> $name } # ?z'))
    ['name', 'p']
    >>> sorted(variables('SELECT * WHERE { ?s ?p "?q" }'))
    ['p', 's']
    """
    out = set()
    for m in _LEX.finditer(sparql):
        if m.lastgroup == "var" and len(m.group()) > 1:
            out.add(m.group()[1:])
    return frozenset(out)


def check_parameters(sparql: str, names: Iterable[str]) -> None:
    """Raise :class:`QueryError` for a parameter that is no variable of ``sparql``.

    A parameter may be any variable the query mentions, projected or not.

    >>> check_parameters('SELECT ?p WHERE { ?p ?q ?name }', ["name"])
    >>> check_parameters('SELECT ?p WHERE { ?p ?q ?name }', ["nmae"])
    Traceback (most recent call last):
    ...
    kg.errors.QueryError: parameter not used by the query: ?nmae does not occur in it
    """
    used = variables(sparql)
    for name in names:
        if name not in used:
            raise QueryError(f"parameter not used by the query: ?{name} does not occur in it")


# ------------------------------------------------------------------ terms and VALUES

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t",
            "\b": "\\b", "\f": "\\f"}


def sparql_term(value: Any) -> str:
    """An RDF term (or Python value, see :func:`kg.store.sparql.to_term`) in SPARQL syntax.

    Literals are quoted with every quote, backslash and control character
    escaped, so the text can only ever be one term; IRIs are validated by
    pyoxigraph (no ``>``, spaces or quotes can be in one).

    >>> sparql_term('x" } ; DROP ALL ; #')
    '"x\\\\" } ; DROP ALL ; #"'
    >>> sparql_term(3)
    '"3"^^<http://www.w3.org/2001/XMLSchema#integer>'
    """
    import pyoxigraph as ox

    term = to_term(value)
    if isinstance(term, ox.NamedNode):
        return f"<{term.value}>"
    if isinstance(term, ox.BlankNode):
        raise QueryError("a blank node cannot be a parameter value")
    text = "".join(_ESCAPES.get(c, c if ord(c) >= 0x20 and c != "\x7f" else f"\\u{ord(c):04X}")
                   for c in term.value)
    lit = f'"{text}"'
    if term.language:
        return f"{lit}@{term.language}"
    if term.datatype.value == _XSD_STRING:  # RDF 1.1: the same term; servers agree on this form
        return lit
    return f"{lit}^^<{term.datatype.value}>"


_IRI = re.compile(r'<[^<>"{}|^`\\\x00-\x20]*>')
_STRING = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
                     r'|"(?:[^"\\\n\r]|\\.)*"|\'(?:[^\'\\\n\r]|\\.)*\'', re.S)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def with_bindings(sparql: str, bindings: Mapping[str, Any] | None) -> str:
    """``sparql`` with ``bindings`` as a ``VALUES`` clause opening every group pattern.

    Strings, IRIs and comments of the query are skipped, as are ``VALUES``
    data blocks and ``CONSTRUCT`` templates. The values are written by
    :func:`sparql_term`; a variable name must be a plain SPARQL name.

    >>> with_bindings('SELECT ?a WHERE { ?s ?p ?a }', {"a": "x"})
    'SELECT ?a WHERE { VALUES (?a) { ("x") } ?s ?p ?a }'
    """
    if not bindings:
        return sparql
    clause = _values_clause(bindings)
    out: list[str] = []
    i, n = 0, len(sparql)
    skip_next_brace = False
    while i < n:
        end = _verbatim_end(sparql, i)
        if end is not None:
            out.append(sparql[i:end])
            i = end
            continue
        c = sparql[i]
        m = _WORD.match(sparql, i) if c.isalpha() else None
        if m:  # not for a non-ASCII letter: it is copied as it is below
            word = m.group()
            if word.upper() in ("VALUES", "CONSTRUCT") and (i == 0 or sparql[i - 1] not in ":"):
                skip_next_brace = True
            out.append(word)
            i = m.end()
            continue
        out.append(c)
        i += 1
        if c == "{":
            if skip_next_brace:  # a VALUES data block or a CONSTRUCT template: copy to its end
                skip_next_brace = False
                j = _block_end(sparql, i)
                out.append(sparql[i:j])
                i = j
            elif not _SUBQUERY_AHEAD.match(sparql, i):
                # a group that holds a subquery holds nothing else; the
                # subquery's own WHERE group gets the clause instead
                out.append(clause)
    return "".join(out)


def _values_clause(bindings: Mapping[str, Any]) -> str:
    """`` VALUES (?a ?b) { (1 2) }`` for ``{"a": 1, "b": 2}``."""
    names = list(bindings)
    for name in names:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise QueryError(f"not a parameter name: {name!r}")
    return (" VALUES (" + " ".join(f"?{n}" for n in names) + ") { ("
            + " ".join(sparql_term(bindings[n]) for n in names) + ") }")


def _verbatim_end(sparql: str, i: int) -> int | None:
    """The end of the comment, string, IRI or variable that starts at ``i`` (copied
    as it is), or None if none does."""
    c = sparql[i]
    if c == "#":
        j = sparql.find("\n", i)
        return len(sparql) if j < 0 else j
    m = None
    if c in "\"'":
        m = _STRING.match(sparql, i)
    elif c == "<":
        m = _IRI.match(sparql, i)
    elif c in "?$":
        m = _WORD.match(sparql, i + 1)
    return m.end() if m else None


def _block_end(sparql: str, j: int) -> int:
    """Where the block whose inside starts at ``j`` ends (its ``}``, skipping strings
    and IRIs), or the end of the query."""
    n = len(sparql)
    while j < n and sparql[j] != "}":
        m = _STRING.match(sparql, j) if sparql[j] in "\"'" else None
        if m:
            j = m.end()
            continue
        m = _IRI.match(sparql, j) if sparql[j] == "<" else None
        j = m.end() if m else j + 1
    return j


_SUBQUERY_AHEAD = re.compile(r"\s*(?:#[^\n]*\n\s*)*SELECT\b", re.I)


