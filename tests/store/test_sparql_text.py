"""kg.store.sparql_text: parameters bound as VALUES clauses built from terms."""
from __future__ import annotations

import pytest

from kg.errors import QueryError
from kg.store.sparql_text import with_bindings


def test_values_clause_is_built_from_terms():
    q = with_bindings('SELECT ?a WHERE { ?s ?p "{" . VALUES ?z { 1 } { ?a ?b ?c } }', {"a": 'x"}'})
    assert q.count('VALUES (?a) { ("x\\"}") }') == 2  # the outer group and the inner one
    assert 'VALUES ?z { 1 }' in q and '"{"' in q
    with pytest.raises(QueryError):
        with_bindings("SELECT * WHERE { }", {"a b": "x"})


def test_values_clause_with_non_ascii_names_in_the_query():
    # a letter the ASCII word pattern does not start used to crash (None.group)
    q = with_bindings("SELECT ?é WHERE { ?s ex:café ?é }", {"a": "x"})
    assert q == 'SELECT ?é WHERE { VALUES (?a) { ("x") } ?s ex:café ?é }'
