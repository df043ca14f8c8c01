"""SHACL validation of the kg graph: SPARQL inside the store (pySHACL: :mod:`kg.rdf.shacl_pyshacl`).

The shapes ship with kg (``kg/rdf/shapes/shapes.ttl``). pySHACL is the reference
validator but works on an in-memory rdflib graph and is far too slow for big
builds (see ``bench/rdf_bench.py``), so builds validate inside the store:
:func:`compile_shapes` turns each constraint of the shapes into one SPARQL
query that selects the focus nodes violating it, with the semantics of SHACL
Core for the parts the shapes use (targets ``sh:targetClass`` (with
``rdfs:subClassOf*``) and ``sh:targetObjectsOf``; paths a predicate or
``sh:inversePath``; ``sh:minCount``, ``sh:maxCount``, ``sh:datatype``,
``sh:class``, ``sh:nodeKind``, ``sh:hasValue``, ``sh:minInclusive``,
``sh:minLength``, ``sh:lessThan``). A shapes file using anything else is
refused rather than half-checked. The tests run both engines on the same
graphs and compare their reports.

Examples
--------
>>> from kg.store import EmbeddedStore
>>> report = validate_store(EmbeddedStore.memory())
>>> report.conforms
True
"""
from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import ValidationError
from kg.rdf.vocab import PREFIXES
from kg.util.threads import thread_map

if TYPE_CHECKING:  # pragma: no cover
    import pyoxigraph as ox
    import rdflib

    from kg.store.sparql import SparqlStore

__all__ = ["Check", "ValidationReport", "Violation", "check", "compile_shapes", "load_shapes",
           "validate_store"]

#: one constraint of a property shape: (shape, focus, path, component, parameter)
ConstraintKey = tuple[str, str, str, str, object]

SH = "http://www.w3.org/ns/shacl#"
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"

#: violations fetched per constraint (the count is exact up to this)
SAMPLE = 20


@dataclass(frozen=True, order=True)
class Violation:
    """One focus node failing one constraint."""

    focus: str
    path: str
    component: str  # e.g. "MinCount"
    value: str | None = None

    def __str__(self) -> str:
        v = f" (value {self.value})" if self.value is not None else ""
        return f"<{self.focus}> {self.path}: {self.component}{v}"


@dataclass(frozen=True)
class ValidationReport:
    conforms: bool
    violations: tuple[Violation, ...] = ()
    checks: int = 0
    engine: str = "sparql"
    capped: bool = False  # some check had more than SAMPLE violations

    def summary(self, shown: int = 3) -> str:
        """One line: how many violations and the first few."""
        if self.conforms:
            return f"the graph conforms to the kg shapes ({self.checks} checks)"
        vs = sorted(self.violations)
        more = "" if len(vs) <= shown else f"; and {len(vs) - shown}{'+' if self.capped else ''} more"
        n = f"at least {len(vs)}" if self.capped else str(len(vs))
        return (f"the graph violates the kg shapes: {n} violation(s): "
                + "; ".join(str(v) for v in vs[:shown]) + more)


@dataclass(frozen=True)
class Check:
    """One constraint of one property shape, as a SPARQL query.

    The query selects ``?this`` (the focus node) and ``?value`` (the
    offending value, possibly unbound) for every violation.
    """

    shape: str
    path: str
    component: str
    sparql: str


def shapes_path() -> Path:
    return Path(str(files("kg.rdf") / "shapes" / "shapes.ttl"))


def load_shapes(source: str | Path | None = None) -> rdflib.Graph:
    """The shapes graph: the file kg ships with, or ``source`` (a path or Turtle text)."""
    import rdflib

    g = rdflib.Graph()
    if source is None:
        g.parse(str(shapes_path()), format="turtle")
    elif isinstance(source, Path) or (isinstance(source, str) and "\n" not in source
                                      and Path(source).is_file()):
        g.parse(str(source), format="turtle")
    else:
        g.parse(data=source, format="turtle")
    return g


# --------------------------------------------------------------- compiling

def _short(iri: str) -> str:
    for prefix, ns in PREFIXES.items():
        if iri.startswith(ns):
            return f"{prefix}:{iri[len(ns):]}"
    return f"<{iri}>"


def _n3(term: rdflib.term.Node) -> str:
    """An rdflib term from the shapes graph in SPARQL syntax."""
    text: str = term.n3()
    return text


def _n3_or_none(term: rdflib.term.Node | None) -> str | None:
    return None if term is None else _n3(term)


def _shape_int(term: object) -> int | None:
    """A shape's integer parameter (an rdflib literal, a ``str``), ``None`` when absent."""
    return None if term is None else int(str(term))


_KNOWN_SHAPE_KEYS = {
    SH + "targetClass", SH + "targetObjectsOf", SH + "property",
    _RDF_TYPE,
}
_KNOWN_PROPERTY_KEYS = {
    SH + "path", SH + "minCount", SH + "maxCount", SH + "datatype", SH + "class",
    SH + "nodeKind", SH + "hasValue", SH + "minInclusive", SH + "minLength", SH + "lessThan",
}
_NODE_KIND_TEST = {
    SH + "IRI": "!isIRI(?value)",
    SH + "Literal": "!isLiteral(?value)",
    SH + "BlankNode": "!isBlank(?value)",
    SH + "BlankNodeOrIRI": "isLiteral(?value)",
    SH + "IRIOrLiteral": "isBlank(?value)",
    SH + "BlankNodeOrLiteral": "isIRI(?value)",
}


def value_screen(step: str, tests: list[str]) -> str:
    """A query counting the uses of ``step`` whose ``?value`` fails (or errs in) any of ``tests``."""
    cond = " || ".join(f"({t})" for t in tests)
    return f"SELECT (COUNT(*) AS ?n) WHERE {{ {step} FILTER (COALESCE({cond}, true)) }}"


#: constraint component -> (the PropertyShape field holding its parameter, its value when absent)
_FIELD = {"MinCount": ("min_count", 0), "MaxCount": ("max_count", None),
          "Datatype": ("datatype", None), "Class": ("class_", None),
          "NodeKind": ("node_kind", None), "HasValue": ("has_value", None),
          "MinInclusive": ("min_inclusive", None), "MinLength": ("min_length", None),
          "LessThan": ("less_than", None)}


@dataclass(frozen=True)
class PropertyShape:
    """One property shape of one node shape, with its constraints (SPARQL-ready).

    Every pattern is wrapped in its own sub-select so that the engine scans
    each index once and joins with hashes (on Oxigraph's on-disk store that
    is many times faster than probing the index for every focus node).
    """

    shape: str
    path: str  # for messages: "schema:name" or "^kgo:authorship"
    focus: str  # a group selecting DISTINCT ?this
    step: str  # the path as one triple pattern between ?this and ?value
    min_count: int = 0
    max_count: int | None = None
    datatype: str | None = None
    class_: str | None = None
    node_kind: str | None = None
    has_value: str | None = None
    min_inclusive: str | None = None
    min_length: int | None = None
    less_than: str | None = None  # predicate, N3

    def key(self, component: str) -> ConstraintKey:
        """One constraint: (shape, focus, path, component, parameter), for ``covered``."""
        return (self.shape, self.focus, self.path, component, getattr(self, _FIELD[component][0]))

    def without(self, covered: Collection[ConstraintKey]) -> tuple[PropertyShape, int]:
        """This shape minus the constraints whose :meth:`key` is in ``covered``; how many."""
        gone: dict[str, Any] = {f: d for c, (f, d) in _FIELD.items() if self.key(c) in covered}
        return (replace(self, **gone) if gone else self), len(gone)

    def local_tests(self) -> list[tuple[str, str]]:
        """(component, SPARQL test on ?value that is true for a violation)."""
        out = []
        if self.datatype:
            out.append(("Datatype", f"(!isLiteral(?value) || datatype(?value) != {self.datatype})"))
        if self.node_kind:
            out.append(("NodeKind", _NODE_KIND_TEST[self.node_kind]))
        if self.min_inclusive:
            out.append(("MinInclusive", f"!COALESCE(?value >= {self.min_inclusive}, false)"))
        if self.min_length is not None:
            out.append(("MinLength", f"(isBlank(?value) || "
                                     f"!COALESCE(STRLEN(STR(?value)) >= {self.min_length}, false))"))
        return out

    @property
    def values(self) -> str:
        """A group selecting ``?this ?value`` for every value of the path."""
        return f"{{ SELECT ?this ?value WHERE {{ {self.step} }} }}"

    def value_tests(self) -> list[str]:
        """Tests on ``?value`` that are true, or an error, when a value fails a value constraint.

        Each mentions ``?value`` once: the engine reads a long literal or an
        IRI from the store every time an expression uses it, so a screen
        costs what its mentions of ``?value`` do.
        """
        out = []
        if self.datatype:
            out.append(f"datatype(?value) != {self.datatype}")  # an error for a non-literal
        if self.node_kind:
            out.append(_NODE_KIND_TEST[self.node_kind])
        if self.min_inclusive:
            out.append(f"?value < {self.min_inclusive}")  # an error when not comparable
        if self.min_length is not None:
            out.append(f"STRLEN(STR(?value)) < {self.min_length}")  # an error for a blank node
        return out

    def screens(self) -> list[tuple[tuple[str, ...], str]]:
        """Cheap queries that each count 0 when some constraints surely hold.

        Each item is ``(components, query)``: the query selects ``?n``; when
        it is not 0, the detailed checks of those components run. A screen
        never misses a violation: value tests (see :meth:`value_tests`),
        ``sh:class`` and ``sh:maxCount`` are screened over *every* use of the
        predicate (a superset of the focus nodes' values), which needs no
        join (``sh:lessThan`` joins the two predicates); only ``sh:minCount 1``
        joins with the focus nodes (a hashed anti-join). ``sh:hasValue`` and
        ``sh:minCount`` above 1 are always checked in detail. :func:`validate_store` runs the
        value tests of all shapes on one predicate as one screen.
        """
        out: list[tuple[tuple[str, ...], str]] = []
        step = self.step
        tests = self.value_tests()
        if tests:
            out.append((tuple(c for c, _ in self.local_tests()), value_screen(step, tests)))
        if self.class_:
            out.append((("Class",),
                        f"SELECT (COUNT(*) AS ?n) WHERE {{ {{ SELECT DISTINCT ?value WHERE "
                        f"{{ {step} }} }} OPTIONAL {{ SELECT ?value ?ok WHERE {{ ?value a "
                        f"{self.class_} BIND (true AS ?ok) }} }} FILTER (!BOUND(?ok)) }}"))
        if self.max_count == 1:
            out.append((("MaxCount",),
                        "SELECT ((COUNT(*) - COUNT(DISTINCT ?this)) AS ?n) "
                        f"WHERE {{ {step} }}"))
        elif self.max_count is not None:
            out.append((("MaxCount",),
                        f"SELECT (COUNT(*) AS ?n) WHERE {{ {{ SELECT ?this (COUNT(*) AS ?c) "
                        f"WHERE {{ {step} }} GROUP BY ?this }} FILTER (?c > {self.max_count}) }}"))
        if self.less_than:
            out.append((("LessThan",),
                        f"SELECT (COUNT(*) AS ?n) WHERE {{ {self.values} {{ SELECT ?this ?other "
                        f"WHERE {{ ?this {self.less_than} ?other }} }} "
                        f"FILTER (!COALESCE(?value < ?other, false)) }}"))
        if self.min_count == 1:
            out.append((("MinCount",),
                        f"SELECT (COUNT(*) AS ?n) WHERE {{ {self.focus} MINUS "
                        f"{{ SELECT ?this WHERE {{ {step} }} }} }}"))
        return out

    def always(self) -> list[Check]:
        """The detailed checks no screen covers."""
        screened = {c for comps, _ in self.screens() for c in comps}
        return [c for c in self.checks() if c.component not in screened]

    def checks(self) -> list[Check]:
        """One detailed query per constraint, selecting the violating ``?this`` (and ``?value``)."""
        F, V = self.focus, self.values
        out = []

        def add(component: str, body: str, select: str = "?this ?value") -> None:
            out.append(Check(self.shape, self.path, component,
                             f"SELECT DISTINCT {select} WHERE {{ {body} }} LIMIT {SAMPLE}"))

        if self.min_count > 0:
            if self.min_count == 1:
                add("MinCount", f"{F} OPTIONAL {{ {V} }} FILTER (!BOUND(?value))", "?this")
            else:
                out.append(Check(self.shape, self.path, "MinCount",
                                 f"SELECT ?this WHERE {{ {F} OPTIONAL {{ {V} }} }} GROUP BY ?this "
                                 f"HAVING (COUNT(DISTINCT ?value) < {self.min_count}) LIMIT {SAMPLE}"))
        if self.max_count is not None:
            out.append(Check(self.shape, self.path, "MaxCount",
                             f"SELECT ?this WHERE {{ {F} {V} }} GROUP BY ?this "
                             f"HAVING (COUNT(DISTINCT ?value) > {self.max_count}) LIMIT {SAMPLE}"))
        for component, test in self.local_tests():
            add(component, f"{F} {V} FILTER ({test})")
        if self.class_:
            add("Class", f"{F} {V} OPTIONAL {{ SELECT ?value ?ok WHERE {{ ?value a {self.class_} "
                         f"BIND (true AS ?ok) }} }} FILTER (!BOUND(?ok))")
        if self.has_value:
            hv = self.step.replace("?value", self.has_value)
            add("HasValue", f"{F} OPTIONAL {{ SELECT ?this ?found WHERE {{ {hv} "
                            f"BIND (true AS ?found) }} }} FILTER (!BOUND(?found))", "?this")
        if self.less_than:
            add("LessThan", f"{F} {V} {{ SELECT ?this ?other WHERE {{ ?this {self.less_than} "
                            f"?other }} }} FILTER (!COALESCE(?value < ?other, false))")
        return out


def property_shapes(shapes: rdflib.Graph | None = None, *, subclasses: bool = False
                    ) -> tuple[PropertyShape, ...]:
    """The property shapes of ``shapes`` (default: kg's), in a fixed order.

    ``subclasses`` makes targets and ``sh:class`` follow ``rdfs:subClassOf*``
    (needed only when the data declares subclasses; kg's graphs do not).

    Raises
    ------
    kg.errors.ValidationError
        If the shapes use a SHACL feature this engine does not implement.
    """
    from rdflib import URIRef
    from rdflib.namespace import SH as RSH

    g = shapes if shapes is not None else load_shapes()
    a = "a/rdfs:subClassOf*" if subclasses else "a"
    out: list[PropertyShape] = []
    for shape in sorted(set(g.subjects(URIRef(_RDF_TYPE), RSH.NodeShape)), key=str):
        for p, _ in g.predicate_objects(shape):
            if str(p) not in _KNOWN_SHAPE_KEYS:
                raise ValidationError(f"shape {shape}: {p} is not supported by kg's validator")
        targets = []
        classes = sorted(g.objects(shape, RSH.targetClass), key=str)
        if len(classes) == 1 and not subclasses:
            targets.append(f"{{ ?this a {_n3(classes[0])} }}")
        elif classes:
            values = " ".join(_n3(c) for c in classes)
            targets.append(f"{{ VALUES ?cls {{ {values} }} ?this {a} ?cls }}")
        for pred in sorted(g.objects(shape, RSH.targetObjectsOf), key=str):
            targets.append(f"{{ ?src {_n3(pred)} ?this }}")
        if not targets:
            continue
        if len(targets) == 1 and len(classes) == 1 and not subclasses:
            focus = targets[0]  # one class: each node once, no DISTINCT needed
        else:
            focus = f"{{ SELECT DISTINCT ?this WHERE {{ {' UNION '.join(targets)} }} }}"
        name = _short(str(shape))
        props = sorted(g.objects(shape, RSH.property), key=lambda ps: str(g.value(ps, RSH.path)))
        for ps in props:
            for p, _ in g.predicate_objects(ps):
                if str(p) not in _KNOWN_PROPERTY_KEYS:
                    raise ValidationError(f"shape {shape}: {p} is not supported by kg's validator")
            path = g.value(ps, RSH.path)
            inverse = g.value(path, RSH.inversePath) if not isinstance(path, URIRef) else None
            if inverse is not None:
                step = f"?value {_n3(inverse)} ?this"
                label = f"^{_short(str(inverse))}"
            elif isinstance(path, URIRef):
                step = f"?this {_n3(path)} ?value"
                label = _short(str(path))
            else:
                raise ValidationError(f"shape {shape}: only simple and inverse paths are supported")
            v = g.value
            cls = v(ps, RSH["class"])
            out.append(PropertyShape(
                shape=name, path=label, focus=focus, step=step,
                min_count=_shape_int(v(ps, RSH.minCount)) or 0,
                max_count=_shape_int(v(ps, RSH.maxCount)),
                datatype=_n3_or_none(v(ps, RSH.datatype)),
                class_=(None if cls is None else
                        _n3(cls) if not subclasses else f"?c . ?c rdfs:subClassOf* {_n3(cls)}"),
                node_kind=str(v(ps, RSH.nodeKind)) if v(ps, RSH.nodeKind) is not None else None,
                has_value=_n3_or_none(v(ps, RSH.hasValue)),
                min_inclusive=_n3_or_none(v(ps, RSH.minInclusive)),
                min_length=_shape_int(v(ps, RSH.minLength)),
                less_than=_n3_or_none(v(ps, RSH.lessThan)),
            ))
    return tuple(out)


def compile_shapes(shapes: rdflib.Graph | None = None, *, subclasses: bool = False
                   ) -> tuple[Check, ...]:
    """One detailed :class:`Check` per constraint of every property shape."""
    return tuple(c for ps in property_shapes(shapes, subclasses=subclasses) for c in ps.checks())


# ---------------------------------------------------------------- running

_PROLOGUE = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in PREFIXES.items())


def _int(term: ox.Literal | None) -> int:
    return int(term.value) if term is not None else 0


def _run_one(store: SparqlStore, c: Check) -> tuple[list[Violation], bool]:
    res = store.query(_PROLOGUE + c.sparql)
    found = []
    for row in res.rows:
        focus = row[0].value if row[0] is not None else "?"
        value = None
        if "value" in res.variables and c.component not in ("MinCount", "MaxCount"):
            cell = row[res.variables.index("value")]
            value = str(cell) if cell is not None else None
        found.append(Violation(focus, c.path, c.component, value))
    return found, len(res.rows) >= SAMPLE


def run_checks(store: SparqlStore, checks: Iterable[Check], threads: int = 1
               ) -> tuple[list[Violation], bool]:
    """Violations of ``checks``, and whether any check stopped at :data:`SAMPLE`."""
    found: list[Violation] = []
    capped = False
    for more, hit in thread_map(lambda c: _run_one(store, c), list(checks), threads, "kg-shacl"):
        found.extend(more)
        capped = capped or hit
    return found, capped


def validate_store(store: SparqlStore, shapes: rdflib.Graph | None = None, *,
                   threads: int | None = None,
                   covered: Collection[ConstraintKey] = ()) -> ValidationReport:
    """Validate the graph in ``store`` with SPARQL (see the module docstring).

    Each property shape is first screened with cheap counting queries (see
    :meth:`PropertyShape.screens`); only the constraints a screen flags get
    their detailed checks, which name the failing nodes. A screen shared by
    several shapes (the same predicate with the same tests, such as
    ``rdfs:label`` of papers, tracks and collaborations) runs once, and the
    queries run on ``threads`` threads (default: up to 2). Constraints whose
    :meth:`PropertyShape.key` is in ``covered`` are skipped (:mod:`kg.rdf.checks`).
    """
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    subclasses = bool(store.query(
        "ASK { ?x <http://www.w3.org/2000/01/rdf-schema#subClassOf> ?y }").boolean)
    # the constraints the caller has checked itself (PropertyShape.key) are left out
    stripped = [ps.without(covered) for ps in property_shapes(shapes, subclasses=subclasses)]
    pshapes, n_checks = [ps for ps, _ in stripped], sum(n for _, n in stripped)
    screens: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    values: dict[str, list[str]] = {}  # step -> the value tests of every shape using it
    for i, ps in enumerate(pshapes):
        tests = ps.value_tests()
        local = tuple(c for c, _ in ps.local_tests())
        for components, sparql in ps.screens():
            if tests and components == local:  # the value screen: merged per step below
                merged = values.setdefault(ps.step, [])
                merged += [t for t in tests if t not in merged]
                screens.setdefault(ps.step, []).append((i, components))
            else:
                screens.setdefault(sparql, []).append((i, components))
    for step, tests in values.items():  # one scan of a predicate for all its value tests
        screens[value_screen(step, tests)] = screens.pop(step)
    queries = list(screens)
    counts = thread_map(lambda q: store.query(_PROLOGUE + q), queries, threads, "kg-shacl")
    failing: dict[int, set[str]] = {}
    for sparql, res in zip(queries, counts, strict=True):
        if res.rows and _int(res.rows[0][0]):
            for i, components in screens[sparql]:
                failing.setdefault(i, set()).update(components)
    run: list[Check] = []
    for i, ps in enumerate(pshapes):
        checks = ps.checks()
        n_checks += len(checks)
        run += [c for c in checks if c.component in failing.get(i, ())] + ps.always()
    found, capped = run_checks(store, run, threads)
    return ValidationReport(not found, tuple(sorted(set(found))), n_checks, "sparql", capped)


def check(report: ValidationReport) -> ValidationReport:
    """Raise :class:`kg.errors.ValidationError` with a one-line summary unless it conforms."""
    if not report.conforms:
        raise ValidationError(report.summary())
    return report
