"""Writing query results: an aligned table, CSV, TSV or SPARQL 1.1 JSON.

CSV, TSV and JSON follow the W3C "SPARQL 1.1 Query Results" formats
(CSV: plain values, CRLF line ends; TSV: RDF terms in SPARQL syntax; JSON:
``application/sparql-results+json``). The table is for people: IRIs under a
known namespace are shortened to prefixed names, long cells are cut, and
the widths count East Asian characters as two columns.

Values are data, so nothing in them reaches a terminal as a control
sequence: the table and TSV drop control characters (the TSV's own escapes
already cover C0 and DEL), CSV cells lose theirs too, and JSON escapes
DEL and C1 besides the C0 characters JSON always escapes. A CSV cell
holding a string that starts with ``=``, ``+``, ``-`` or ``@`` gets a
leading ``'`` (as ``authors.csv`` does) unless ``formula_guard=False``.

Examples
--------
>>> import pyoxigraph as ox
>>> from kg.store.sparql import QueryResult
>>> r = QueryResult("select", ("name", "n"), ((ox.Literal("Ada"), ox.Literal(2)),))
>>> print(format_result(r, "csv"), end="")
name,n\r
Ada,2\r
>>> print(format_result(r, "table"), end="")
name  n
----  -
Ada   2
(1 row)
"""
from __future__ import annotations

import csv
import io
import json
import unicodedata
from typing import TYPE_CHECKING

from kg.errors import QueryError
from kg.rdf.vocab import PREFIXES
from kg.store.sparql import QueryResult
from kg.util.safetext import for_terminal, guard_formula, json_for_terminal, strip_controls

if TYPE_CHECKING:
    import pyoxigraph as ox

    #: a cell of a SELECT answer
    Term = ox.NamedNode | ox.BlankNode | ox.Literal

__all__ = ["FORMATS", "format_result", "to_csv", "to_json", "to_table", "to_tsv"]

FORMATS = ("table", "csv", "tsv", "json")
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def _kind(term: Term) -> str:
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return "uri"
    if isinstance(term, ox.BlankNode):
        return "bnode"
    return "literal"


def _literal(term: Term | None) -> ox.Literal | None:
    """``term`` if it is a literal, else None."""
    import pyoxigraph as ox

    return term if isinstance(term, ox.Literal) else None


def _plain(term: Term | None) -> str:
    """SPARQL CSV: an IRI or a literal's lexical form; blank nodes as ``_:id``."""
    if term is None:
        return ""
    if _kind(term) == "bnode":
        return f"_:{term.value}"
    return term.value


_XSD = "http://www.w3.org/2001/XMLSchema#"
_NUMERIC = frozenset(_XSD + t for t in (
    "integer", "decimal", "double", "float", "long", "int", "short", "byte",
    "nonNegativeInteger", "nonPositiveInteger", "positiveInteger", "negativeInteger",
    "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte", "boolean"))


def _csv_cell(term: Term | None, formula_guard: bool) -> str:
    """A CSV cell: no control characters but tab and line breaks; strings guarded.

    Examples
    --------
    >>> import pyoxigraph as ox
    >>> _csv_cell(ox.Literal("=1+1"), True), _csv_cell(ox.Literal("=1+1"), False)
    ("'=1+1", '=1+1')
    >>> _csv_cell(ox.Literal(-2), True)
    '-2'
    """
    text = strip_controls(_plain(term))
    lit = _literal(term)
    if formula_guard and lit is not None and lit.datatype.value not in _NUMERIC:
        return guard_formula(text)
    return text


def to_csv(result: QueryResult, formula_guard: bool = True) -> str:
    if result.kind == "ask":
        return f"_askResult\r\n{'true' if result.boolean else 'false'}\r\n"
    _only_select(result)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(result.variables)
    for row in result.rows:
        w.writerow([_csv_cell(t, formula_guard) for t in row])
    return buf.getvalue()


def to_tsv(result: QueryResult, formula_guard: bool = True) -> str:
    """SPARQL 1.1 TSV; a literal a spreadsheet would run as a formula is guarded as in CSV."""
    if result.kind == "ask":
        return f"?_askResult\n{'true' if result.boolean else 'false'}\n"
    _only_select(result)
    lines = ["\t".join(f"?{v}" for v in result.variables)]
    for row in result.rows:
        lines.append("\t".join(_tsv_cell(t, formula_guard) for t in row))
    return for_terminal("\n".join(lines) + "\n")


def _tsv_cell(term: Term | None, formula_guard: bool) -> str:
    """A TSV cell (an RDF term as SPARQL TSV writes it); strings guarded as in CSV.

    >>> import pyoxigraph as ox
    >>> print(_tsv_cell(ox.Literal("=1+1"), True), _tsv_cell(ox.Literal(-2), True))
    "'=1+1" "-2"^^<http://www.w3.org/2001/XMLSchema#integer>
    """
    if term is None:
        return ""
    text = str(term)
    lit = _literal(term)
    if formula_guard and lit is not None and lit.datatype.value not in _NUMERIC \
            and guard_formula(lit.value) != lit.value:
        # the guard inside the quotes of a quoted literal ("'=cmd"), else before the value
        return f'"\'{text[1:]}' if text.startswith('"') else guard_formula(text)
    return text


def _json_term(term: Term) -> dict[str, str]:
    lit = _literal(term)
    if lit is None:
        return {"type": _kind(term), "value": term.value}
    out = {"type": "literal", "value": lit.value}
    if lit.language:
        out["xml:lang"] = lit.language
    elif lit.datatype.value not in (_XSD_STRING, _RDF_LANGSTRING):
        out["datatype"] = lit.datatype.value
    return out


def to_json(result: QueryResult) -> str:
    if result.kind == "ask":
        return json.dumps({"head": {}, "boolean": bool(result.boolean)}) + "\n"
    _only_select(result)
    bindings = [{v: _json_term(t)
                 for v, t in zip(result.variables, row, strict=True) if t is not None}
                for row in result.rows]
    doc = {"head": {"vars": list(result.variables)}, "results": {"bindings": bindings}}
    return json_for_terminal(json.dumps(doc, ensure_ascii=False)) + "\n"



def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _cut(text: str, limit: int) -> str:
    text = " ".join(for_terminal(text).split())
    if _width(text) <= limit:
        return text
    out, w = [], 0
    for c in text:
        cw = _width(c)
        if w + cw > limit - 1:
            break
        out.append(c)
        w += cw
    return "".join(out) + "…"


def _short(term: Term) -> str:
    if term is None:
        return ""
    kind = _kind(term)
    if kind == "uri":
        iri = term.value
        for prefix, ns in PREFIXES.items():
            if iri.startswith(ns) and len(iri) > len(ns):
                return f"{prefix}:{iri[len(ns):]}"
        return f"<{iri}>"
    if kind == "bnode":
        return f"_:{term.value}"
    return term.value


def to_table(result: QueryResult, max_width: int = 60) -> str:
    """An aligned text table with a row count; cells longer than ``max_width`` are cut."""
    if result.kind == "ask":
        return ("true" if result.boolean else "false") + "\n"
    _only_select(result)
    header = [for_terminal(v) for v in result.variables]
    rows = [[_cut(_short(t), max_width) for t in row] for row in result.rows]
    widths = [max([_width(h)] + [_width(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        padded = [c + " " * (w - _width(c)) for c, w in zip(cells, widths, strict=True)]
        return "  ".join(padded).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    n = len(rows)
    out.append(f"({n} row{'s' if n != 1 else ''})")
    return "\n".join(out) + "\n"


def _only_select(result: QueryResult) -> None:
    if result.kind != "select":
        raise QueryError("this output format is for SELECT and ASK queries; "
                         "CONSTRUCT and DESCRIBE results are written as N-Triples")


def _ntriples(result: QueryResult) -> str:
    return for_terminal("".join(f"{t.subject} {t.predicate} {t.object} .\n"
                                for t in result.triples))


def format_result(result: QueryResult, fmt: str = "table", *, formula_guard: bool = True) -> str:
    """``result`` written in ``fmt`` (one of :data:`FORMATS`).

    CONSTRUCT and DESCRIBE results are written as N-Triples whatever ``fmt``.
    ``formula_guard=False`` writes CSV cells that start with ``= + - @`` as they are.
    """
    if fmt not in FORMATS:
        raise QueryError(f"unknown output format {fmt!r} (choose from {', '.join(FORMATS)})")
    if result.kind == "graph":
        return _ntriples(result)
    if fmt == "csv":
        return to_csv(result, formula_guard)
    if fmt == "tsv":
        return to_tsv(result, formula_guard)
    return {"table": to_table, "json": to_json}[fmt](result)
