"""Build -> RDF: the knowledge graph of a build as N-Triples, Turtle, JSON-LD or an rdflib Graph.

The mapping follows the vocabulary table of DESIGN.md (see :mod:`kg.rdf.vocab`
for the IRIs and the design decisions). It is written for big corpora: the
triples are produced as N-Triples text in one pass (no per-triple objects),
streamed in a fixed order, and handed to pyoxigraph in bulk; an
:class:`rdflib.Graph` is made only when a user asks for one
(:func:`to_graph`, :func:`kg.load_graph`).

Output is deterministic: subjects are written in sorted order (each with its
predicate-object pairs sorted), except the ``void:Dataset`` description,
which comes last because it carries the triple count. No timestamps.

What the graph holds, per paper::

    paper  a schema:ScholarlyArticle ; rdfs:label ; dcterms:identifier ;
           schema:name (title, if any) ; schema:abstract (clean) ;
           kgo:rawAbstract (as written) ; kgo:authorListTruncated ;
           kgo:authorsShown ; kgo:firstAuthorship (the authorship of position 1) ;
           dcterms:subject track ; schema:author person ;
           kgo:authorship [kgo:position, kgo:author, kgo:nameAsWritten] ;
           schema:mentions entity | concept ; kgo:proposes entity ;
           prov:wasDerivedFrom file ; prov:qualifiedDerivation [prov:entity file ; kgo:line]
    annotation a oa:Annotation ; oa:hasBody entity | concept ;
           oa:hasTarget [oa:hasSource paper ;
                         oa:hasSelector [oa:start, oa:end], [oa:exact]]

and, shared between papers::

    person a schema:Person ; schema:name (the first spelling met) ; kgo:nameKey ;
           kgo:paperCount ; kgo:trackCount
    track  a skos:Concept, kgo:Track ; skos:prefLabel ; rdfs:label ;
           skos:notation (the line as written) ; skos:broader area | skos:topConceptOf ;
           kgo:paperCount ; kgo:authorCount (an area counts its subareas too)
    entity a skos:Concept, kgo:Model|Method|Dataset|Task|Metric|Other ;
           skos:prefLabel ; skos:altLabel (variants, acronym long forms) ;
           skos:hiddenLabel (search keys) ; kgo:family ; kgo:kind ;
           kgo:instanceOf concept ; kgo:paperCount ; kgo:mentionCount
    concept a skos:Concept, kgo:Concept, kgo:Method|ModelClass|Task|Field|Metric ;
           skos:prefLabel ; skos:altLabel (forms, acronyms, as written) ;
           skos:hiddenLabel (search keys) ; skos:inScheme ; dcterms:identifier (its id) ;
           skos:broader concept | skos:topConceptOf ; dcterms:source ; kgo:sourceId ;
           kgo:paperCount ; kgo:mentionCount
           (the concepts mentioned or fallen under, and all their ancestors)
    collaboration a kgo:Collaboration ; rdfs:label "A — B" (names in order) ;
           kgo:member person, person ; kgo:jointPapers
           (only pairs of people with two or more joint papers; a paper
           with more than kg.util.teams.MAX_LINKED_TEAM authors makes no pairs)
    acronym a kgo:Acronym ; kgo:short ; kgo:long ; kgo:definedIn paper ; kgo:denotes entity
    dataset a void:Dataset ; void:triples ; prov:wasGeneratedBy activity

The counts are statistics of the graph itself (like OpenAlex's
``works_count``), computed here in one pass so that the query library's
"most ..." questions read one value per node instead of aggregating
hundreds of thousands of rows at query time.

Every node has an IRI from :class:`kg.rdf.vocab.Minter` (no blank nodes).
Without an :class:`~kg.models.Extraction` a paper's clean abstract is its
abstract as written and it has no mentions.

The package, one concern a module, in the order the data flows:

==========================  ==================================================
:mod:`kg.rdf.terms`         N-Triples text of the vocabulary's terms (made
                            from :mod:`kg.rdf.vocab`), of IRIs and literals
:mod:`kg.rdf.aggregate`     the nodes papers share, and their counts
:mod:`kg.rdf.mapping`       the triples of each kind of node
:mod:`kg.rdf.ntriples`      the writer: the whole graph, streamed in order
:mod:`kg.rdf.serialise`     N-Triples -> Turtle, JSON-LD
:mod:`kg.rdf.bridge`        pyoxigraph terms and N-Triples -> rdflib
:mod:`kg.rdf.checks`        the mapping's own checks of the mention nodes
                            (in place of the store's, in a build)
:mod:`kg.rdf.shacl`         SHACL validation inside the store (the shapes:
                            ``kg/rdf/shapes/``); :mod:`kg.rdf.shacl_pyshacl`
                            the reference engine
:mod:`kg.rdf.stage`         the RDF stage of a build: files, store, validation
:mod:`kg.rdf.load`          a build's graph as an rdflib Graph (``kg.load_graph``)
==========================  ==================================================

The package's public functions below are loaded on first use, so that
importing one module of the package loads no other.

Examples
--------
>>> from kg.models import Build, Corpus, Paper
>>> from kg.rdf import paper_label, to_ntriples
>>> p = Paper(id="00000000000000aa", authors=("Ada Lovelace", "Alan Turing"),
...           abstract="We study engines.")
>>> data = to_ntriples(Build(Corpus(papers=(p,))))
>>> b'<https://schema.org/name> "Ada Lovelace"' in data
True
>>> paper_label(p)   # (kg.extract.labels's: the one label of a paper, rdfs:label here)
'Lovelace & Turing — engines'
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as a type checker sees them; loaded on first use
    from kg.extract.labels import paper_label
    from kg.rdf.bridge import ntriples_to_rdflib, ox_to_rdflib, to_graph
    from kg.rdf.ntriples import iter_ntriples, to_ntriples, write_ntriples
    from kg.rdf.serialise import to_jsonld, to_turtle

#: where each public name lives: imported on first use, so that importing one module
#: of the package (or the package) loads no other
_HOMES = {
    "ntriples_to_rdflib": "kg.rdf.bridge",
    "ox_to_rdflib": "kg.rdf.bridge",
    "to_graph": "kg.rdf.bridge",
    "paper_label": "kg.extract.labels",
    "iter_ntriples": "kg.rdf.ntriples",
    "to_ntriples": "kg.rdf.ntriples",
    "write_ntriples": "kg.rdf.ntriples",
    "to_jsonld": "kg.rdf.serialise",
    "to_turtle": "kg.rdf.serialise",
}

__all__ = [
    "iter_ntriples", "ntriples_to_rdflib", "ox_to_rdflib", "paper_label",
    "to_graph", "to_jsonld", "to_ntriples", "to_turtle", "write_ntriples",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'kg.rdf' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
