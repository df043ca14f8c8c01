"""kg.rdf.terms: every term the mapping names is in the vocabulary."""
from __future__ import annotations

import pytest

from kg.rdf.vocab import KGO


def test_every_term_the_mapping_names_is_in_the_vocabulary():
    # the N-Triples terms are made from kg.rdf.vocab's DefinedNamespaces; a term
    # misspelt in a branch no other test reaches still fails here
    import ast
    from pathlib import Path

    import kg.rdf.terms as terms

    spaces = {n for n, v in vars(terms).items() if isinstance(v, terms.Terms)}
    assert spaces == {"rdf", "rdfs", "xsd", "schema", "dcterms", "skos", "prov", "oa", "void",
                      "kgo"}
    named = set()
    for path in Path(terms.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.asname or a.name for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module == "kg.rdf.terms"
                    for a in node.names} | (spaces if path.name == "terms.py" else set())
        named |= {(node.value.id, node.attr) for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id in spaces & imported}
    assert len(named) > 60
    missing = {f"{p}:{t}" for p, t in named if t not in vars(getattr(terms, p))}
    assert missing == set()
    assert terms.kgo.paperCount == f"<{KGO.paperCount}>"
    with pytest.raises(AttributeError, match="'kgo' object has no attribute 'paperCont'"):
        _ = terms.kgo.paperCont
