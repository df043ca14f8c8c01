"""Scope directives: the papers of a track and/or about a concept, filled in by the library."""
from __future__ import annotations

import pytest

from kg import queries
from kg.errors import QueryError
from kg.queries.scope import scope_params, scoped_text

TYPES = {"track": "track", "concept": "concept", "n": "integer"}
TEXT = """SELECT ?p WHERE {
#if unscoped
  ?p kgo:paperCount ?n .
#end
  #+ { SELECT ?track ?p WHERE {
  #scope ?p track concept
  #+ } }
}
"""

# counts, totals, one paper's authors
UNSCOPED = {"dataset-summary", "entity-types", "track-summary", "paper-authors"}
# the concept is the question itself (papers-about, concept-tree), or the track is
# grouped by rather than scoped (top-entities-per-track, proposals-per-track)
OWN = {"papers-about": {"concept"}, "concept-tree": {"concept"},
       "top-entities-per-track": {"track"}, "proposals-per-track": {"track"},
       "bridging-authors": set()}


def test_unscoped_the_text_is_the_file_as_written():
    assert scoped_text(TEXT, TYPES, set()) == TEXT
    for q in queries.library():
        if "#scope!" in q.sparql:  # a scope that must be given (papers-in-scope)
            continue
        assert queries.prepare(q.name, {p.name: "x" for p in q.params if p.required}
                               ).sparql.endswith(q.sparql)


def test_scoped_the_directive_becomes_sub_selects_and_the_alternative_form_is_used():
    text = scoped_text(TEXT, TYPES, {"concept"})
    assert "paperCount" not in text and "#if" not in text and "#+" not in text
    assert "{ SELECT ?track ?p WHERE {" in text
    assert text.count("SELECT DISTINCT ?p ?concept WHERE") == 1 and "?track ;" not in text
    both = scoped_text(TEXT, TYPES, {"concept", "track"})
    assert "SELECT DISTINCT ?p ?track WHERE" in both and "?scope2_c" in both
    assert scope_params(TEXT) == ("track", "concept")


def test_directive_errors():
    with pytest.raises(QueryError, match=r"needs --param track=\.\.\. or --param concept=\.\.\."):
        scoped_text(TEXT.replace("#scope ", "#scope! "), TYPES, set())
    with pytest.raises(QueryError, match="not a track or concept parameter"):
        scoped_text(TEXT.replace("track concept", "n"), TYPES, {"n"})


def test_every_query_of_papers_concepts_entities_or_authors_takes_a_scope():
    for q in queries.library():
        if q.name in UNSCOPED:
            continue
        scoped = set(scope_params(q.sparql))
        want = {"track1", "concept1", "track2", "concept2"} if q.name == "bridging-authors" \
            else {"track", "concept"} - OWN.get(q.name, set())
        assert scoped == want, q.name
        for name in scoped:
            assert q.param(name).type in ("track", "concept") and not q.param(name).required
        # a track or concept parameter of its own is checked against the graph too
        for p in q.params:
            if p.name in ("track", "concept"):
                assert p.type == p.name, q.name
