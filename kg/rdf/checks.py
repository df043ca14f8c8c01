"""The mapping's own checks of the nodes it mints for each mention, in place of the store's.

Every mention becomes four nodes (:func:`kg.rdf.mapping.paper_blocks`): an
``oa:Annotation`` with one ``oa:hasBody`` and one ``oa:hasTarget``, its
``oa:SpecificResource`` target with one ``oa:hasSource`` (the paper) and
two selector IRIs, an ``oa:TextPositionSelector`` with one integer
``oa:start`` and ``oa:end``, an ``oa:TextQuoteSelector`` with one string
``oa:exact``. They are about half of a big graph's nodes, and checking
them in the store cost about half of the SHACL validation of a build. One
template writes them all, so most of their shapes' constraints hold by
construction; what depends on the data is checked here on the mentions
themselves (:func:`mention_violations`): ``oa:start`` at least 0 and less
than ``oa:end``, ``oa:exact`` not empty.

:data:`COVERED` lists those constraints by :meth:`kg.validate.PropertyShape.key`
(shape, focus, path, component, parameter); :func:`kg.validate.validate_store`
skips exactly those, so a shape that changes (another parameter, another
target, a new constraint) is checked in the store again. The body's
``sh:class skos:Concept`` is not covered (whether an entity is a concept is
the aggregate's doing), nor is anything when two papers share an id.
``tests/test_validate_mentions.py`` makes each violation and checks that the
store's full validation and this one report the same.
"""
from __future__ import annotations

from typing import Iterable

from kg.models import Build
from kg.rdf.terms import integer, lit
from kg.validate import SAMPLE, Violation
from kg.vocab import Minter

__all__ = ["COVERED", "covered_for", "mention_violations"]

_SH = "<https://w3id.org/paper-kg/shapes#"
_OA = "http://www.w3.org/ns/oa#"
_XSD = "http://www.w3.org/2001/XMLSchema#"


def _keys(shape: str, cls: str, path: str, *constraints: tuple[str, object]) -> list[tuple]:
    return [(f"{_SH}{shape}>", f"{{ ?this a <{_OA}{cls}> }}", path, c, v) for c, v in constraints]


#: the constraints of kg's shapes on the mention nodes that the template and
#: :func:`mention_violations` stand for (keys of :meth:`kg.validate.PropertyShape.key`)
COVERED: frozenset[tuple] = frozenset(
    _keys("AnnotationShape", "Annotation", "oa:hasBody", ("MinCount", 1), ("MaxCount", 1))
    + _keys("AnnotationShape", "Annotation", "oa:hasTarget", ("MinCount", 1), ("MaxCount", 1),
            ("Class", f"<{_OA}SpecificResource>"))
    + _keys("SpecificResourceShape", "SpecificResource", "oa:hasSelector", ("MinCount", 1),
            ("MaxCount", 2), ("NodeKind", "http://www.w3.org/ns/shacl#IRI"))
    + _keys("SpecificResourceShape", "SpecificResource", "oa:hasSource", ("MinCount", 1),
            ("MaxCount", 1), ("Class", "<https://schema.org/ScholarlyArticle>"))
    + _keys("TextPositionSelectorShape", "TextPositionSelector", "oa:end", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}integer>"))
    + _keys("TextPositionSelectorShape", "TextPositionSelector", "oa:start", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}integer>"),
            ("MinInclusive", f'"0"^^<{_XSD}integer>'), ("LessThan", f"<{_OA}end>"))
    + _keys("TextQuoteSelectorShape", "TextQuoteSelector", "oa:exact", ("MinCount", 1),
            ("MaxCount", 1), ("Datatype", f"<{_XSD}string>"), ("MinLength", 1)))


def covered_for(build: Build) -> frozenset[tuple]:
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


def mention_violations(build: Build, base: str | None = None) -> tuple[list[Violation], bool]:
    """What the store would report on the data-dependent constraints of :data:`COVERED`.

    Returns the violations (at most :data:`kg.validate.SAMPLE` per
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
