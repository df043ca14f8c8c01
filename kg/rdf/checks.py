"""The mapping's own checks of the nodes it mints for each mention and each author, in
place of the store's.

Every mention becomes four nodes (:func:`kg.rdf.mapping.paper_blocks`): an
``oa:Annotation`` with one ``oa:hasBody`` and one ``oa:hasTarget``, its
``oa:SpecificResource`` target with one ``oa:hasSource`` (the paper) and
two selector IRIs, an ``oa:TextPositionSelector`` with one integer
``oa:start`` and ``oa:end``, an ``oa:TextQuoteSelector`` with one string
``oa:exact``. They are about half of a big graph's nodes, and checking
them in the store cost about half of the SHACL validation of a build.
Every author of a paper becomes a ``kgo:Authorship`` with one
``kgo:author`` (a ``schema:Person``), one string ``kgo:nameAsWritten``,
one integer ``kgo:position`` from 1, linked from its paper alone by
``kgo:authorship`` (the first also by ``kgo:firstAuthorship``); the paper
links the person by ``schema:author``. Their checks were half of what was
left (bench/RESULTS.md). One template
writes each kind, so most of their shapes' constraints hold by
construction; what depends on the data is checked here on the mentions
and authors themselves (:func:`covered_violations`): ``oa:start`` at least
0 and less than ``oa:end``, ``oa:exact`` and ``kgo:nameAsWritten`` not
empty.

:data:`COVERED` lists those constraints by :meth:`kg.rdf.shacl.PropertyShape.key`
(shape, focus, path, component, parameter); :func:`kg.rdf.shacl.validate_store`
skips exactly those, so a shape that changes (another parameter, another
target, a new constraint) is checked in the store again. The body's
``sh:class skos:Concept`` is not covered (whether an entity is a concept is
the aggregate's doing), nor is anything when two papers share an id.
``tests/rdf/test_checks.py`` makes each violation and checks that the
store's full validation and this one report the same.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kg.models import Build
from kg.rdf.shacl import SAMPLE, ConstraintKey, Violation
from kg.rdf.terms import integer, lit
from kg.rdf.vocab import Minter

__all__ = ["COVERED", "CoveredChecks", "covered_checks", "covered_for", "covered_violations"]

_SH = "<https://w3id.org/paper-kg/shapes#"
_OA = "http://www.w3.org/ns/oa#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_KGO = "https://w3id.org/paper-kg/ontology#"
_SCHEMA = "https://schema.org/"
_IRI = "http://www.w3.org/ns/shacl#IRI"


def _keys(shape: str, cls: str, path: str, *constraints: tuple[str, object]) -> list[ConstraintKey]:
    return [(f"{_SH}{shape}>", f"{{ ?this a <{cls}> }}", path, c, v) for c, v in constraints]


_AUTHORSHIP, _PAPER = _KGO + "Authorship", _SCHEMA + "ScholarlyArticle"

#: the constraints of kg's shapes on the mention and authorship nodes (and the paper's
#: links to them) that the templates and :func:`covered_violations` stand for (keys of
#: :meth:`kg.rdf.shacl.PropertyShape.key`)
COVERED: frozenset[ConstraintKey] = frozenset(
    _keys("AuthorshipShape", _AUTHORSHIP, "kgo:position", ("MinCount", 1), ("MaxCount", 1),
          ("Datatype", f"<{_XSD}integer>"), ("MinInclusive", f'"1"^^<{_XSD}integer>'))
    + _keys("AuthorshipShape", _AUTHORSHIP, "kgo:author", ("MinCount", 1), ("MaxCount", 1),
            ("Class", f"<{_SCHEMA}Person>"))
    + _keys("AuthorshipShape", _AUTHORSHIP, "kgo:nameAsWritten", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}string>"), ("MinLength", 1))
    + _keys("AuthorshipShape", _AUTHORSHIP, "^kgo:authorship", ("MinCount", 1),
            ("MaxCount", 1), ("Class", f"<{_PAPER}>"))
    + _keys("PaperShape", _PAPER, "kgo:firstAuthorship", ("MaxCount", 1), ("NodeKind", _IRI),
            ("Class", f"<{_AUTHORSHIP}>"))
    + _keys("PaperShape", _PAPER, "schema:author", ("NodeKind", _IRI),
            ("Class", f"<{_SCHEMA}Person>"))
    + _keys("PaperShape", _PAPER, "kgo:authorship", ("NodeKind", _IRI),
            ("Class", f"<{_AUTHORSHIP}>"))
    + _keys("AnnotationShape", _OA + "Annotation", "oa:hasBody", ("MinCount", 1), ("MaxCount", 1))
    + _keys("AnnotationShape", _OA + "Annotation", "oa:hasTarget", ("MinCount", 1), ("MaxCount", 1),
            ("Class", f"<{_OA}SpecificResource>"))
    + _keys("SpecificResourceShape", _OA + "SpecificResource", "oa:hasSelector", ("MinCount", 1),
            ("MaxCount", 2), ("NodeKind", "http://www.w3.org/ns/shacl#IRI"))
    + _keys("SpecificResourceShape", _OA + "SpecificResource", "oa:hasSource", ("MinCount", 1),
            ("MaxCount", 1), ("Class", "<https://schema.org/ScholarlyArticle>"))
    + _keys("TextPositionSelectorShape", _OA + "TextPositionSelector", "oa:end", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}integer>"))
    + _keys("TextPositionSelectorShape", _OA + "TextPositionSelector", "oa:start", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}integer>"),
            ("MinInclusive", f'"0"^^<{_XSD}integer>'), ("LessThan", f"<{_OA}end>"))
    + _keys("TextQuoteSelectorShape", _OA + "TextQuoteSelector", "oa:exact", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}string>"), ("MinLength", 1)))


def covered_for(build: Build) -> frozenset[ConstraintKey]:
    """:data:`COVERED`, or nothing when two papers share an id (their nodes would merge).

    >>> from kg.models import Corpus, Paper
    >>> p = Paper(id="00000000000000aa", authors=(), abstract="x")
    >>> len(covered_for(Build(Corpus(papers=(p,))))) == len(COVERED)
    True
    >>> covered_for(Build(Corpus(papers=(p, p))))
    frozenset()
    """
    ids = [p.id for p in build.corpus.papers]
    return COVERED if len(set(ids)) == len(ids) else frozenset()


@dataclass(frozen=True)
class CoveredChecks:
    """What the store's validation of a build's graph may skip (``covered``, keys of
    :data:`COVERED`), and the violations of those constraints found on the build."""

    covered: frozenset[ConstraintKey]
    violations: tuple[Violation, ...] = ()
    capped: bool = False


def covered_checks(build: Build, base: str | None = None) -> CoveredChecks:
    """:func:`covered_for` and :func:`covered_violations` of ``build``, made while
    the build is at hand (the store is validated later, without it)."""
    covered = covered_for(build)
    if not covered:
        return CoveredChecks(covered)
    found, more = covered_violations(build, base)
    return CoveredChecks(covered, tuple(found), more)


def covered_violations(build: Build, base: str | None = None) -> tuple[list[Violation], bool]:
    """What the store would report on the data-dependent constraints of :data:`COVERED`
    (of mentions and of authorships).

    Returns the violations (at most :data:`kg.rdf.shacl.SAMPLE` per
    constraint, as the store's checks) and whether some constraint had more.
    """
    mint = Minter(base)
    found: dict[tuple[str, str], list[Violation]] = {}
    more = False
    for v in _each(build, mint):
        got = found.setdefault((v.path, v.component), [])
        if len(got) < SAMPLE:
            got.append(v)
        else:
            more = True
    return [v for vs in found.values() for v in vs], more


def _each(build: Build, mint: Minter) -> Iterable[Violation]:
    extractions = build.extractions
    for paper in build.corpus.papers:
        if not all(paper.authors):
            for pos, name in enumerate(paper.authors, start=1):
                if not name:
                    yield Violation(mint.authorship(paper.id, pos), "kgo:nameAsWritten",
                                    "MinLength", lit(name))
        ex = extractions.get(paper.id)
        if ex is None:
            continue
        for n, men in enumerate(ex.mentions, start=1):
            if men.start >= 0 and men.start < men.end and men.text:
                continue
            ann = mint.annotation(paper.id, n)
            if men.start < 0:
                yield Violation(mint.position_selector(ann), "oa:start", "MinInclusive",
                                integer(men.start))
            if not men.start < men.end:
                yield Violation(mint.position_selector(ann), "oa:start", "LessThan",
                                integer(men.start))
            if not men.text:
                yield Violation(mint.quote_selector(ann), "oa:exact", "MinLength", lit(men.text))
