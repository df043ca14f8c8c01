"""The named query library: headers, expected answers, parameters, injection, formats."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from kg import queries
from kg.errors import QueryError
from kg.identity import name_key
from kg.models import Build
from kg.queries.results import format_result
from kg.rdf import to_ntriples
from kg.store import EmbeddedStore
from tests import rdf_fixture

EXPECTED = Path(__file__).resolve().parents[1] / "data" / "expected"

# every query: the graph it is checked on and its parameters. "sample" is the
# bundled sample listings (no extraction); "fixture" the hand-built build of
# tests/rdf_fixture.py; "concepts" the same build with concept mentions
# (rdf_fixture.make_concepts, read with the fixture's own concept vocabulary);
# "built" the bundled sample as `kg build` builds it (extraction, concepts and
# kg's own vocabulary: these answers move when the finder or the vocabulary
# changes, and were read against the abstracts: papers-about quantization finds
# 4 of the 5 abstracts with "quantiz", the fifth says "vector-quantized").
# The expected answers in tests/data/expected/NAME.csv
# were checked by hand once (see the notes in rdf_fixture.py). "NAME:variant"
# is a second case of a query, kept in NAME--variant.csv.
CASES = {
    "papers-of-author": ("sample", {"author": "ting hua"}),
    "coauthors": ("sample", {"author": "Lennart Bastian"}),
    "prolific-authors": ("sample", {}),
    "collaborating-pairs": ("sample", {}),
    "track-summary": ("sample", {}),
    "cross-track-authors": ("sample", {}),
    "truncated-author-lists": ("sample", {}),
    "paper-authors": ("sample", {"paper": "cfb9539e402d88e7"}),
    "dataset-summary": ("sample", {}),
    "top-entities": ("fixture", {}),
    "top-entities-per-track": ("fixture", {"min_papers": "2"}),
    "top-entities-per-track:track": ("fixture", {"track": "deep learning"}),
    "proposals-per-track:track": ("fixture", {"track": "Deep Learning · Large Language Models"}),
    "papers-mentioning": ("fixture", {"entity": "Llama 2"}),
    "co-mentioned": ("fixture", {"entity": "low rank adaptation"}),
    "proposals-per-track": ("fixture", {}),
    "models-of-proposers": ("fixture", {"kind": "pruning"}),
    "acronyms": ("fixture", {}),
    "family-members": ("fixture", {"family": "LLaMA"}),
    "similar-papers": ("fixture", {"paper": rdf_fixture.P1}),
    "entity-types": ("fixture", {}),
    "entity-types:concepts": ("concepts", {}),
    "top-entities:concepts": ("concepts", {}),
    "papers-about": ("concepts", {"concept": "quantization"}),
    "papers-about:llm": ("concepts", {"concept": "LLM"}),
    "concept-tree": ("concepts", {"concept": "language model"}),
    "top-concepts": ("concepts", {}),
    "top-concepts:track": ("concepts", {"track": "deep learning"}),
    "co-mentioned:concept": ("concepts", {"entity": "quantization"}),
    "models-of-proposers:concept": ("concepts", {"kind": "PEFT"}),
    "models-of-proposers:quantization": ("concepts", {"kind": "quantisation"}),
    "similar-papers:concepts": ("concepts", {"paper": rdf_fixture.P1}),
    "papers-about:sample": ("built", {"concept": "quantization"}),
    "papers-about:sample-rl": ("built", {"concept": "RL"}),
    "concept-tree:sample": ("built", {"concept": "quantization"}),
    "top-concepts:sample": ("built", {}),
    "top-concepts:sample-track": ("built", {"track": "Deep Learning"}),
    "models-of-proposers:sample": ("built", {"kind": "quantization"}),
    "co-mentioned:sample": ("built", {"entity": "quantization"}),
    "similar-papers:sample": ("built", {"paper": "3712433e487f749c"}),
    # scoped to a track (full label, area or subarea, any case) and/or a concept
    "papers-in-scope": ("built", {"track": "deep learning", "concept": "RL"}),
    "papers-in-scope:track": ("built", {"track": "Large Language Models"}),
    "bridging-authors": ("built", {"concept1": "reinforcement learning", "track2": "Evaluation"}),
    "bridging-authors:tracks": ("sample", {"track1": "Applications", "track2": "Deep Learning"}),
    "papers-about:sample-track": ("built", {"concept": "quantization",
                                            "track": "large language models"}),
    "papers-mentioning:sample-scoped": ("built", {"entity": "LLaMA", "concept": "quantization"}),
    "papers-of-author:scoped": ("built", {"author": "ting hua", "track": "Deep Learning",
                                          "concept": "mixture of experts"}),
    "coauthors:track": ("sample", {"author": "Lennart Bastian", "track": "computer vision"}),
    "co-mentioned:sample-track": ("built", {"entity": "LLM", "track": "Evaluation"}),
    "family-members:sample-concept": ("built", {"family": "LLaMA", "concept": "quantization"}),
    "models-of-proposers:sample-track": ("built", {"kind": "quantization", "track": "Large "
                                                   "Language Models"}),
    "acronyms:sample-concept": ("built", {"concept": "quantization"}),
    "top-entities:sample-scoped": ("built", {"type": "model", "concept": "quantization"}),
    "top-entities-per-track:sample-concept": ("built", {"track": "Deep Learning",
                                                        "concept": "LLM"}),
    "proposals-per-track:sample-datasets": ("built", {"track": "General Machine Learning",
                                                      "type": "dataset"}),
    "top-concepts:sample-concept": ("built", {"concept": "RL"}),
    "prolific-authors:track": ("sample", {"track": "Reinforcement Learning"}),
    "cross-track-authors:track": ("sample", {"track": "Applications", "min_tracks": "1"}),
    "collaborating-pairs:track": ("fixture", {"track": "large language models"}),
    "truncated-author-lists:track": ("sample", {"track": "deep learning"}),
    "paper-authors:name": ("built", {"paper": "ToMoE"}),
    "concept-tree:sample-track": ("built", {"concept": "quantization",
                                            "track": "Large Language Models"}),
    "similar-papers:sample-track": ("built", {"paper": "3712433e487f749c",
                                              "track": "large language models"}),
    "similar-papers:sample-concept": ("built", {"paper": "3712433e487f749c",
                                                "concept": "quantization"}),
}


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_library_has_the_issue_queries():
    names = {q.name for q in queries.library()}
    assert len(names) >= 15
    assert names == {k.split(":")[0] for k in CASES}  # every one has an expected answer
    assert all((EXPECTED / f"{n.replace(':', '--')}.csv").is_file() for n in CASES)


@pytest.mark.parametrize("path", sorted(queries.folder().glob("*.rq")),
                         ids=lambda p: p.stem)
def test_every_rq_file_has_a_header_and_runs(path, stores):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# "), "the file must open with its header comment"
    q = queries.parse_header(text, path.stem, path.name)
    assert q.description and q.description[0].isupper() and len(q.description) > 20
    assert q.columns
    declared = [line for line in text.splitlines() if line.startswith("# param:")]
    assert len(declared) == len(q.params)
    for p in q.params:
        assert p.type in queries.PARAM_TYPES and p.description
    # the header's columns are what the query returns, parameters included
    ds, params = CASES[path.stem]
    res = queries.run(stores[ds], q, params)
    assert res.variables == q.columns
    assert {p.name for p in q.params} <= set(q.columns)


@pytest.mark.parametrize("name", sorted(CASES))
def test_expected_answers(name, stores):
    ds, params = CASES[name]
    got = format_result(queries.run(stores[ds], name.split(":")[0], params), "csv")
    want = (EXPECTED / f"{name.replace(':', '--')}.csv").read_text(encoding="utf-8")
    assert _rows(got) == _rows(want)


def test_injection_is_matched_as_plain_text(stores):
    store = stores["fixture"]
    before = store.count()
    for evil in ('" } ; DROP ALL ; #', 'Ada" || true || "', "x> . ?s ?p ?o . <y", "Ada Lovelace'",
                 'x\n" } #'):
        for name, param in (("papers-of-author", "author"), ("papers-mentioning", "entity"),
                            ("coauthors", "author"), ("family-members", "family"),
                            ("similar-papers", "paper"), ("top-concepts", "track"),
                            ("top-entities", "concept"), ("top-entities", "type")):
            # a name the graph does not hold: an error of one line, nothing run
            with pytest.raises(QueryError, match=r"^no [a-z ,]+ ['\"]") as exc:
                queries.run(store, name, {param: evil})
            assert "\n" not in str(exc.value), (name, evil)
    assert store.count() == before
    # the same value as a real name does match: the parameter really is used
    evil_author = '" } ; DROP ALL ; # >'
    nt = to_ntriples(Build(rdf_fixture.make().corpus.__class__(papers=(
        rdf_fixture.make().corpus.papers[0].__class__(
            id="ab" * 8, authors=(evil_author,), abstract="x"),))))
    st = EmbeddedStore.memory(nt)
    res = queries.run(st, "papers-of-author", {"author": evil_author})
    assert res.values()[0][0] == name_key(evil_author) and len(res) == 1
    assert st.count() == len(nt.splitlines())
    # an IRI parameter with a closing '>' is refused, not spliced
    with pytest.raises(QueryError):
        queries.run(st, "SELECT ?p WHERE { ?p ?x ?y }", {"p": "<urn:a> } ; DROP ALL ; <urn:b>"})


def test_parameter_errors_are_one_line(stores):
    st = stores["fixture"]
    cases = [
        ("coauthors", {}, "needs --param author"),
        ("coauthors", {"author": "x", "nope": "1"}, "unknown parameter 'nope'"),
        ("cross-track-authors", {"min_tracks": "two"}, "not a valid integer"),
        ("no-such-query", {}, "unknown query"),
        ("SELECT ?x WHERE { ?x", {}, "SPARQL syntax error"),
        ("missing.rq", {}, "no such query file"),
    ]
    for spec, params, msg in cases:
        with pytest.raises(QueryError) as exc:
            queries.run(st, spec, params)
        assert msg in str(exc.value) and "\n" not in str(exc.value), str(exc.value)


def test_defaults_and_optional_parameters(stores):
    st = stores["fixture"]
    q = queries.get("top-entities")
    assert q.param("type").optional and not q.param("type").required
    assert queries.get("cross-track-authors").param("min_tracks").default == "2"
    models = queries.run(st, "top-entities", {"type": "model"})
    assert {r[4] for r in models.values()} == {"model"} and len(models) == 5
    assert len(queries.run(st, "top-entities")) == 11


def test_rq_files_and_inline_sparql(tmp_path, stores):
    st = stores["fixture"]
    f = tmp_path / "mine.rq"
    f.write_text("# Names of people.\n# columns: n\nSELECT ?n WHERE { ?p a schema:Person ; "
                 "schema:name ?n } ORDER BY ?n\n", encoding="utf-8")
    assert queries.run(st, str(f)).values()[0] == ("Ada Lovelace",)
    # inline SPARQL gets the kg prefixes it uses but does not declare
    res = queries.run(st, "SELECT ?n WHERE { ?p schema:name ?n } ORDER BY ?n LIMIT 1")
    assert res.values() == [("Ada Lovelace",)]
    res = queries.run(st, "SELECT ?n ?p WHERE { ?p schema:name ?n }", {"n": "Grace Hopper"})
    assert len(res) == 1
    res = queries.run(st, "SELECT ?n ?p WHERE { ?p schema:name ?n }",
                      {"p": "<https://w3id.org/paper-kg/resource/person/grace_hopper>"})
    assert res.values()[0][0] == "Grace Hopper"


def test_a_query_is_bound_once_and_a_bound_query_takes_no_more_parameters(stores):
    with pytest.raises(QueryError, match="unknown parameter"):
        queries.prepare("papers-of-author", {"nmae": "Ada"})   # before any store
    bound = queries.prepare("top-entities", {"type": "model"})
    assert isinstance(bound, queries.BoundQuery) and bound.name == "top-entities"
    st = next(iter(stores.values()))
    assert queries.run(st, bound).rows == queries.run(st, "top-entities", {"type": "model"}).rows
    with pytest.raises(TypeError, match="already"):
        queries.run(st, bound, {"type": "model"})


@pytest.mark.parametrize("name", sorted(CASES))
def test_answers_are_the_same_with_parameters_bound_by_values_clauses(name, stores):
    # the embedded engine substitutes a parameter only into the sub-selects that
    # project it; a VALUES clause opening every group (what remote stores get)
    # binds it everywhere: the same rows both ways means no sub-select on the way
    # to a parameter's use forgot to project it
    from kg.queries.values import resolve_values
    from kg.store.sparql_text import with_bindings

    ds, params = CASES[name]
    bound = queries.prepare(name.split(":")[0], params)
    bindings = resolve_values(stores[ds], {p.name: p.type for p in bound.query.params},
                              dict(bound.given), dict(bound.bindings), check=False)
    want = stores[ds].query(bound.sparql, bindings)
    got = stores[ds].query(with_bindings(bound.sparql, bindings))
    assert got.rows == want.rows
