"""kg.rdf.ntriples: the N-Triples text parses with Oxigraph, one triple a line."""
from __future__ import annotations

import json

import pyoxigraph as ox

from kg.models import Build
from kg.rdf import to_jsonld, to_ntriples


def test_ntriples_parse_with_oxigraph_and_counts_match(sample_corpus):
    nt = to_ntriples(Build(sample_corpus))
    triples = list(ox.parse(nt, ox.RdfFormat.N_TRIPLES))
    assert len(triples) == len(nt.splitlines()) == len({str(t) for t in triples})
    doc = json.loads(to_jsonld(nt))
    assert isinstance(doc, list) and doc
