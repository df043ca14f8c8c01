"""N-Triples text: the vocabulary's terms, literals and a subject's lines.

The IRIs of the vocabulary are not typed out here: :class:`Terms` makes the
N-Triples form of every term a :class:`~rdflib.namespace.DefinedNamespace`
of :mod:`kg.rdf.vocab` declares, once, at import. The objects below read like
the CURIEs of the Turtle output (``schema.name``, ``kgo.paperCount``,
``rdf.type``), and a term the vocabulary does not declare is an
``AttributeError`` at its first use (and a test failure before that:
``tests/rdf/test_terms.py`` checks every term the mapping names against the
vocabulary). Minted IRIs come from :class:`kg.rdf.vocab.Minter`; :func:`iri`
writes one in N-Triples form.

Examples
--------
>>> schema.name
'<https://schema.org/name>'
>>> lit('say "hi"\\n')
'"say \\\\"hi\\\\"\\\\n"'
>>> integer(3)
'"3"^^<http://www.w3.org/2001/XMLSchema#integer>'
>>> kgo.paperCont  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
AttributeError: 'kgo' object has no attribute 'paperCont'...
"""
from __future__ import annotations

import inspect
import keyword
import re
from typing import TYPE_CHECKING

from rdflib.namespace import DefinedNamespace

from kg.rdf.vocab import DCTERMS, KGO, OA, PREFIXES, PROV, RDF, RDFS, SCHEMA, SKOS, VOID, XSD

__all__ = [
    "Terms", "block", "boolean", "dcterms", "decimal", "integer", "iri", "kgo", "lit", "oa", "prov",
    "rdf", "rdfs", "schema", "skos", "subject_order", "terms_of", "void", "xsd",
]


class Terms:
    """The terms of one vocabulary, each as an N-Triples IRI (``<...>``).

    Make one with :func:`terms_of`, which names its class after the prefix.

    Parameters
    ----------
    namespace : type of DefinedNamespace
        A namespace of :mod:`kg.rdf.vocab`; every term it declares becomes an
        attribute holding ``"<" + IRI + ">"``.
    prefix : str
        Its prefix.

    Notes
    -----
    The terms are plain instance attributes and the class has no
    ``__getattr__`` at run time: the mapping reads a term about a hundred
    times a paper, and a class with ``__getattr__`` makes every read twice
    as slow. The type checker sees one, so that each term is a ``str``.
    """

    def __init__(self, namespace: type[DefinedNamespace], prefix: str) -> None:
        self._prefix = prefix
        self._namespace = str(namespace)
        for name in (*inspect.get_annotations(namespace), *namespace._extras):
            if name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_"):
                setattr(self, name, f"<{namespace[name]}>")

    if TYPE_CHECKING:  # pragma: no cover
        def __getattr__(self, name: str) -> str: ...

    def __repr__(self) -> str:
        return f"<the terms of {self._prefix}: <{self._namespace}>>"


def terms_of(namespace: type[DefinedNamespace], prefix: str) -> Terms:
    """The :class:`Terms` of ``namespace``, of a class named ``prefix``.

    So a misspelt term reads ``'kgo' object has no attribute 'paperCont'``.
    """
    cls = type(prefix, (Terms,), {"__doc__": f"The terms of {prefix}: <{namespace}>."})
    terms: Terms = cls(namespace, prefix)
    return terms


_NAMESPACES = {"rdf": RDF, "rdfs": RDFS, "xsd": XSD, "schema": SCHEMA, "dcterms": DCTERMS,
               "skos": SKOS, "prov": PROV, "oa": OA, "void": VOID, "kgo": KGO}
assert {p: str(ns) for p, ns in _NAMESPACES.items()} == PREFIXES

rdf = terms_of(RDF, "rdf")
rdfs = terms_of(RDFS, "rdfs")
xsd = terms_of(XSD, "xsd")
schema = terms_of(SCHEMA, "schema")
dcterms = terms_of(DCTERMS, "dcterms")
skos = terms_of(SKOS, "skos")
prov = terms_of(PROV, "prov")
oa = terms_of(OA, "oa")
void = terms_of(VOID, "void")
kgo = terms_of(KGO, "kgo")


def iri(value: str) -> str:
    """A minted IRI (from :class:`kg.rdf.vocab.Minter`) in N-Triples form."""
    return f"<{value}>"


_ESCAPES = {i: f"\\u{i:04X}" for i in (*range(0x20), 0x7F)}
_ESCAPES.update({ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r",
                 ord("\t"): "\\t"})
_INTEGER = xsd.integer
_TRUE = f'"true"^^{xsd.boolean}'
_FALSE = f'"false"^^{xsd.boolean}'


_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f\x7f"\\]').search


def lit(text: str) -> str:
    """An ``xsd:string`` literal in N-Triples syntax (canonical escapes)."""
    if _NEEDS_ESCAPE(text) is None:  # most texts: a scan in C instead of a translation
        return f'"{text}"'
    return f'"{text.translate(_ESCAPES)}"'


def integer(n: int) -> str:
    """An ``xsd:integer`` literal in N-Triples syntax."""
    return f'"{int(n)}"^^{_INTEGER}'


_DECIMAL = xsd.decimal


def decimal(x: float, places: int = 4) -> str:
    """An ``xsd:decimal`` literal in N-Triples syntax, rounded to ``places`` decimals,
    written as the stores write it back (no trailing zeros).

    >>> decimal(0.5), decimal(1.0), decimal(0.12344)
    ('"0.5"^^<http://www.w3.org/2001/XMLSchema#decimal>', '"1"^^<http://www.w3.org/2001/XMLSchema#decimal>', '"0.1234"^^<http://www.w3.org/2001/XMLSchema#decimal>')
    """
    text = f"{x:.{places}f}".rstrip("0").rstrip(".")
    return f'"{text if text not in ("", "-0") else "0"}"^^{_DECIMAL}'


def boolean(value: bool) -> str:
    """An ``xsd:boolean`` literal in N-Triples syntax."""
    return _TRUE if value else _FALSE


def subject_order(subject: str) -> str:
    """The sort key of a subject written ``<IRI>``: its IRI.

    A resource then sorts before the ones minted under it (``<a>`` would
    sort after ``<a/b>``, since ``>`` comes after ``/``).
    """
    return subject[1:-1]


_TYPE = rdf.type


def block(subject: str, pos: list[str]) -> str:
    """The lines of one subject: its ``rdf:type`` lines first, then the rest, each sorted.

    Parameters
    ----------
    subject : str
        The subject in N-Triples form.
    pos : list of str
        ``"predicate object"`` pairs in N-Triples form; callers put the
        ``rdf:type`` pairs at the front.

    Returns
    -------
    str
        One ``subject predicate object .`` line per pair ("" for no pairs).
    """
    if not pos:
        return ""
    n = 0
    while n < len(pos) and pos[n].startswith(_TYPE):
        n += 1
    head, tail = sorted(pos[:n]), sorted(pos[n:])
    return f"{subject} " + f" .\n{subject} ".join(head + tail) + " .\n"
