"""kg.identity: every identity key has one definition and one home: modules import it from there."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg import identity

PKG = Path(identity.__file__).resolve().parent
KEYS = ("normalise_text", "paper_id", "person_key", "name_key", "fold_name", "compact",
        "entity_key", "singular_key", "search_key")


def test_no_module_but_identity_defines_a_key():
    found = {}
    for path in PKG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in KEYS:
                found.setdefault(node.name, []).append(path.relative_to(PKG.parent).as_posix())
    assert found == {k: ["kg/identity.py"] for k in KEYS}


@pytest.mark.parametrize("module, names", [
    ("kg.extract.normalise", ("compact", "entity_key", "singular_key")),
    ("kg.rdf", ("name_key", "search_key")),
    ("kg.rdf.vocab", ("entity_key",)),
    ("kg.analysis.caveats", ("fold_name",)),
])
def test_the_old_homes_hold_no_key_of_their_own(module, names):
    # they re-exported the keys once; a key they still import for their own use is identity's
    import importlib

    mod = importlib.import_module(module)
    for name in names:
        assert getattr(mod, name, getattr(identity, name)) is getattr(identity, name)
        assert name not in getattr(mod, "__all__", ()), (module, name)


def test_only_identity_exports_the_keys():
    exported = {}
    for path in PKG.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Tuple))
                    and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)):
                for e in node.value.elts:
                    if isinstance(e, ast.Constant) and e.value in KEYS:
                        exported.setdefault(e.value, []).append(
                            path.relative_to(PKG.parent).as_posix())
    assert exported == {k: ["kg/identity.py"] for k in KEYS}


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_the_query_keys_are_the_identity_keys_on_ascii(name):
    assert identity.search_key(name) == identity.entity_key(name)


# (on ASCII: outside it NFKC after case-folding can change a key again, "E\u00af")
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_key_laws(name):
    k = identity.entity_key(name)
    assert identity.entity_key(k) == k                                  # idempotent
    assert identity.entity_key(name.upper()) == identity.entity_key(name.lower()) == k
    assert identity.person_key(identity.person_key(name)) == identity.person_key(name)
    assert identity.singular_key(k) == k or len(identity.singular_key(k)) < len(k)


def test_where_the_keys_differ():
    # identity keys case-fold; the keys the graph stores for lookups lower-case
    assert identity.person_key("Strauß") == "strauss" != identity.name_key("Strauß")
    assert identity.entity_key("Straße") == "strasse" != identity.search_key("Straße")
    # the paper's own DID and the gazetteer's DiD fold alike: the key of a mention is
    # the extractor's to give, and extractions.jsonl carries it (tests/build/test_read.py)
    assert identity.entity_key("DID") == identity.entity_key("DiD") == "did"
