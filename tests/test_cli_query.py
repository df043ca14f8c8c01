"""`kg query` and `kg queries`: wiring, output formats, one-line errors."""
from __future__ import annotations

import csv
import io
import json

import pytest

from kg.cli import main
from kg.rdf.stage import write_rdf
from tests import rdf_fixture


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    write_rdf(rdf_fixture.make(), out, entities=rdf_fixture.entities(),
              concepts=rdf_fixture.concept_vocab())
    return out


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_named_query_as_csv_from_a_build_folder(capsys, build_dir):
    code, out, err = run(capsys, "query", "papers-mentioning", "--param", "entity=llama-2",
                         "--format", "csv", "--from", str(build_dir))
    assert code == 0 and err == ""
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert [r["paper"] for r in rows] == [rdf_fixture.P2, rdf_fixture.P5, rdf_fixture.P1]


def test_store_option_table_tsv_and_json(capsys, build_dir):
    store = str(build_dir / "store")
    code, out, _ = run(capsys, "query", "family-members", "--param", "family=llama",
                       "--store", store)
    assert code == 0 and out.splitlines()[0].split() == ["family", "track", "concept", "member",
                                                         "entity_type", "papers"]
    assert out.rstrip().endswith("(3 rows)")
    code, out, _ = run(capsys, "query", "acronyms", "--store", store, "--format", "tsv")
    assert out.splitlines()[1].startswith('\t\t"LoRA"\t"Low-Rank Adaptation"')  # no scope
    code, out, _ = run(capsys, "query", "SELECT (COUNT(*) AS ?n) WHERE { ?p a schema:Person }",
                       "--store", store, "--format", "json")
    doc = json.loads(out)
    assert doc["results"]["bindings"][0]["n"]["value"] == "4"


def test_rq_file(capsys, build_dir, tmp_path):
    f = tmp_path / "people.rq"
    f.write_text("# People by name.\n# columns: name\nSELECT ?name WHERE { ?p schema:name ?name ; "
                 "a schema:Person } ORDER BY ?name LIMIT 2\n", encoding="utf-8")
    code, out, _ = run(capsys, "query", str(f), "--from", str(build_dir), "--format", "csv")
    assert code == 0 and out == "name\r\nAda Lovelace\r\nAlan Turing\r\n"


def test_param_may_be_any_variable_the_query_uses(capsys, build_dir):
    # ?name is used but not projected: bound all the same (issue 15)
    query = "SELECT ?p WHERE { ?p schema:name ?name }"
    code, out, err = run(capsys, "query", query, "--param", "name=Ada Lovelace",
                         "--from", str(build_dir), "--format", "csv")
    assert code == 0 and err == ""
    assert out == "p\r\nhttps://w3id.org/paper-kg/resource/person/ada_lovelace\r\n"
    # a name that occurs only in a string, an IRI or a comment is no variable of the query
    query = 'SELECT ?p WHERE { ?p schema:name ?n FILTER (?n != "?name") } # ?name'
    code, out, err = run(capsys, "query", query, "--param", "name=Ada Lovelace",
                         "--from", str(build_dir))
    assert code == 1 and out == ""
    assert err == "kg: error: parameter not used by the query: ?name does not occur in it\n"


@pytest.mark.parametrize("argv, message", [
    (["query", "nope"], "unknown query 'nope'"),
    (["query", "coauthors"], "needs --param author"),
    (["query", "coauthors", "--param", "author"], "expected NAME=VALUE"),
    (["query", "coauthors", "--param", "author=x", "--param", "who=y"], "unknown parameter 'who'"),
    (["query", "cross-track-authors", "--param", "min_tracks=many"], "not a valid integer"),
    (["query", "SELECT ?x WHERE { ?x"], "SPARQL syntax error"),
    (["query", "DELETE WHERE { ?s ?p ?o }"], "unknown query"),
])
def test_user_errors_are_one_line(capsys, build_dir, argv, message):
    code, out, err = run(capsys, *argv, "--from", str(build_dir))
    assert code == 1 and out == ""
    assert err.startswith("kg: error: ") and message in err and err.count("\n") == 1


def test_updates_never_reach_the_store(capsys, build_dir):
    code, _, err = run(capsys, "query", "PREFIX x: <urn:x> INSERT DATA { <urn:a> <urn:b> <urn:c> }",
                       "--from", str(build_dir))
    assert code == 1 and "kg: error:" in err
    code, out, _ = run(capsys, "query", "ASK { <urn:a> ?p ?o }", "--from", str(build_dir))
    assert out == "false\n"


def test_missing_store(capsys, tmp_path):
    code, _, err = run(capsys, "query", "acronyms", "--from", str(tmp_path))
    assert code == 1 and "no store here" in err and err.count("\n") == 1


def test_queries_lists_the_library(capsys):
    code, out, _ = run(capsys, "queries")
    assert code == 0
    assert "\ncoauthors\n" in out and "--param author=<person-name>" in out
    assert "--param min_tracks=<integer>" in out and "(default 2)" in out
    assert out.count("columns:") >= 15


def test_results_print_no_control_characters_and_csv_guards_formulas():
    import pyoxigraph as ox

    from kg.queries.results import format_result
    from kg.store import QueryResult

    evil = ox.Literal("=cmd\x1b[31m\x00\x07\x7f\x9b2J")
    r = QueryResult("select", ("name", "n"), ((evil, ox.Literal(-3)),))
    for fmt in ("table", "csv", "tsv", "json"):
        out = format_result(r, fmt)
        assert not any(c in out for c in "\x1b\x00\x07\x7f\x9b"), (fmt, out)
    assert json.loads(format_result(r, "json"))["results"]["bindings"][0]["name"]["value"] \
        == evil.value  # JSON escapes them: the value is unchanged
    rows = list(csv.reader(io.StringIO(format_result(r, "csv"))))
    assert rows[1] == ["'=cmd[31m2J", "-3"]  # a number is never a formula
    rows = list(csv.reader(io.StringIO(format_result(r, "csv", formula_guard=False))))
    assert rows[1] == ["=cmd[31m2J", "-3"]


def test_query_no_formula_guard_flag(capsys, build_dir):
    q = 'SELECT ("=1+1" AS ?x) ("@A1" AS ?y) WHERE {}'
    _, out, _ = run(capsys, "query", q, "--format", "csv", "--from", str(build_dir))
    assert out.splitlines()[1] == "'=1+1,'@A1"
    _, out, _ = run(capsys, "query", q, "--format", "csv", "--no-formula-guard",
                    "--from", str(build_dir))
    assert out.splitlines()[1] == "=1+1,@A1"


# a value the graph does not hold is an error naming the closest values it does hold
@pytest.mark.parametrize("argv, message", [
    (["papers-about", "--param", "concept=difusion model"],
     "no concept named 'difusion model'; did you mean: diffusion model?"),
    (["top-entities", "--param", "type=models"], "no entity type 'models'; did you mean: model?"),
    (["papers-of-author", "--param", "author=Lenart Bastian"],
     "no author named 'Lenart Bastian'; did you mean: Lennart Bastian?"),
    (["similar-papers", "--param", "paper=ToMoO"],
     "no paper with the id, title or proposed name 'ToMoO'; did you mean: ToMoE?"),
    (["top-concept"], "unknown query 'top-concept'; did you mean: top-concepts?"),
    (["top-concepts", "--param", "track=large languag models"],
     "no track named 'large languag models'; did you mean: Large Language Models?"),
    (["papers-mentioning", "--param", "entity=Lama-2"],
     "no entity or concept named 'Lama-2'; did you mean: LLaMA-2?"),
    (["paper-authors", "--param", "paper=0123456789abcdef"], "no paper with the id"),
    (["bridging-authors", "--param", "concept1=LLM"],
     "needs --param track2=... or --param concept2=..."),
])
def test_a_value_the_graph_does_not_hold_is_an_error_with_a_suggestion(capsys, sample_build_dir,
                                                                          argv, message):
    code, out, err = run(capsys, "query", *argv, "--from", str(sample_build_dir))
    assert (code, out) == (1, "")
    assert err == f"kg: error: {message}\n" or (message in err and err.count("\n") == 1), err


def test_values_found_another_way_and_an_empty_answer_is_no_error(capsys, sample_build_dir):
    where = ("--from", str(sample_build_dir), "--format", "csv")
    # a subarea, any case, is its track; a paper by a name it proposes or its label
    code, out, _ = run(capsys, "query", "papers-in-scope", "--param", "track=large LANGUAGE models",
                       *where)
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert code == 0 and len(rows) == 9 and rows[0]["papers"] == "9"
    assert {r["paper_track"] for r in rows} == {"Deep Learning · Large Language Models"}
    for given in ("ToMoE", "tomoe", "cfb9539e402d88e7", "ToMoE — Gao et al.", "tomoe — gao et al."):
        code, out, _ = run(capsys, "query", "paper-authors", "--param", f"paper={given}", *where)
        assert code == 0 and out.splitlines()[1].startswith("cfb9539e402d88e7,1,Shangqian Gao")
    # a valid question with no answer: no rows, exit 0
    code, out, err = run(capsys, "query", "papers-about", "--param", "concept=quantization",
                         "--param", "track=Theory", *where)
    assert (code, err) == (0, "") and len(out.splitlines()) == 1


def test_an_ambiguous_subarea_lists_its_tracks(capsys, tmp_path):
    listing = tmp_path / "two.txt"
    listing.write_text("Deep Learning · Robustness\n\nAda Lovelace, Alan Turing\n\nWe study "
                       "robust training of deep networks.\n\nSocial Aspects · Robustness\n\n"
                       "Grace Hopper\n\nWe study robustness of fair classifiers.\n",
                       encoding="utf-8")
    assert main(["build", "-q", str(listing), "-o", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "query", "papers-in-scope", "--param", "track=robustness",
                         "--from", str(tmp_path / "out"))
    assert (code, out) == (1, "")
    assert err == ("kg: error: track 'robustness' is ambiguous: it is a subarea of Deep Learning "
                   "· Robustness; Social Aspects · Robustness (give the full label)\n")
    code, out, _ = run(capsys, "query", "papers-in-scope", "--param", "track=social aspects",
                       "--from", str(tmp_path / "out"), "--format", "csv")
    assert code == 0 and out.count("\n") == 2
