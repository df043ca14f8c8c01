"""kg.store.sparql: the shared SPARQL types; terms from Python values."""
from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.errors import QueryError
from kg.store import to_term


def test_to_term_refuses_other_objects():
    assert to_term(3) == ox.Literal(3)
    with pytest.raises(QueryError):
        to_term(object())
