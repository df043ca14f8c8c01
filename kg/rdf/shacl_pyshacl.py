"""The reference engine: pySHACL on an rdflib graph, its results as a
:class:`kg.rdf.shacl.ValidationReport`.

Far too slow for big builds (they validate inside the store, :mod:`kg.rdf.shacl`);
the tests run it beside the store's engine on the same graphs and compare.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from kg.rdf.shacl import (
    _RDF_TYPE,
    SH,
    ValidationReport,
    Violation,
    _short,
    compile_shapes,
    load_shapes,
)

if TYPE_CHECKING:  # pragma: no cover
    import rdflib

__all__ = ["validate_pyshacl"]


def validate_pyshacl(data: rdflib.Graph,
                     shapes: rdflib.Graph | None = None) -> ValidationReport:
    """Validate an rdflib graph with pySHACL (the reference engine)."""
    import pyshacl
    from rdflib import URIRef
    from rdflib.namespace import SH as RSH

    sg = shapes if shapes is not None else load_shapes()
    conforms, results, _ = pyshacl.validate(data, shacl_graph=sg, inference="none",
                                            advanced=False, allow_warnings=False)
    found = []
    for r in results.subjects(URIRef(_RDF_TYPE), RSH.ValidationResult):
        focus = results.value(r, RSH.focusNode)
        path = results.value(r, RSH.resultPath)
        inverse = results.value(path, RSH.inversePath) if path is not None else None
        label = f"^{_short(str(inverse))}" if inverse is not None else _short(str(path))
        comp = str(results.value(r, RSH.sourceConstraintComponent))
        comp = comp.removeprefix(SH).removesuffix("ConstraintComponent")
        found.append(Violation(str(focus), label, comp, None))
    checks = len(compile_shapes(sg))
    return ValidationReport(bool(conforms), tuple(sorted(set(found))), checks, "pyshacl")
