"""The medium and low findings of issue 27: hostile input shapes give one line or a
warning with file:line, the rest of the input is kept, and pushes clean up after
themselves."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.errors import StoreError
from kg.parse import read_corpus

ROOT = Path(__file__).resolve().parents[1]
ABS = "We propose FooNet, a convolutional network for image classification on ImageNet."


def _kg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          timeout=300)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _messages(corpus) -> list[str]:
    return [w.message for w in corpus.warnings]


def test_json_nested_too_deep_is_one_line(tmp_path):
    path = _write(tmp_path, "deep.json", '{"papers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    r = _kg("parse", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip() == f"kg: error: {path}:1: invalid JSON: nested too deeply to read"


def test_jsonl_nested_too_deep_skips_that_record(tmp_path):
    good = json.dumps({"authors": ["Ada Lovelace"], "abstract": ABS})
    path = _write(tmp_path, "deep.jsonl", good + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    c = read_corpus([path])
    assert len(c.papers) == 1
    assert "record skipped: invalid JSON: nested too deeply to read" in _messages(c)
    assert c.warnings[-1].line == 2


def test_a_huge_number_and_non_finite_values_are_no_paper_text(tmp_path):
    recs = [{"authors": ["Ada Lovelace"], "abstract": ABS, "year": "HUGE"},
            {"authors": ["Grace Hopper"], "abstract": "NAN"},
            {"authors": ["Alan Turing"], "abstract": 1e308, "title": "INF"}]
    text = json.dumps(recs).replace('"HUGE"', "9" * 100_000).replace('"NAN"', "NaN") \
        .replace('"INF"', "Infinity")
    c = read_corpus([_write(tmp_path, "n.json", text)])
    assert [p.authors for p in c.papers] == [("Ada Lovelace",)]
    assert _messages(c) == ["record skipped: 'abstract' should be text, not NaN",
                            "record skipped: 'abstract' should be text, not float"]


def test_lone_surrogates_are_replaced_with_a_warning(tmp_path):
    path = _write(tmp_path, "s.jsonl", '{"authors": ["Ada Lovelace"], "abstract": '
                  '"We propose FooNet \\ud83d for image classification."}\n')
    c = read_corpus([path])
    assert c.papers[0].abstract == "We propose FooNet \ufffd for image classification."
    assert _messages(c) == ["1 broken character(s) (lone UTF-16 surrogates) replaced with "
                            "U+FFFD"]
    r = _kg("build", str(path), "-o", str(tmp_path / "out"), "-q")
    assert r.returncode == 0, r.stderr


def test_duplicate_keys_and_columns_warn(tmp_path):
    c = read_corpus([_write(tmp_path, "d.json", '[{"authors": ["Ada Lovelace"], '
                            f'"abstract": "x", "abstract": "{ABS}"}}]')])
    assert c.papers[0].abstract == ABS
    assert _messages(c) == ["keys written twice: abstract (the last value is read)"]
    c = read_corpus([_write(tmp_path, "d.csv",
                            f'authors,abstract,Abstract\nAda Lovelace,x,"{ABS}"\n')])
    assert c.papers[0].abstract == ABS
    assert _messages(c) == ["columns named twice: Abstract, abstract (the last one is read)"]


def test_an_unclosed_csv_quote_keeps_the_later_records(tmp_path):
    text = ('title,authors,abstract\n'
            'T1,Ada Lovelace,"We propose FooNet, a network for image classification.\n'
            'T2,Grace Hopper,We study LoRA fine-tuning of LLaMA-2 on GLUE.\n'
            'T3,Alan Turing,We study GPT-4 on MMLU.\n')
    c = read_corpus([_write(tmp_path, "q.csv", text)])
    assert [p.title for p in c.papers] == ["T1", "T2", "T3"]
    assert c.papers[0].abstract == "We propose FooNet, a network for image classification."
    assert [(w.line, w.message.split(";")[0]) for w in c.warnings] == \
        [(2, "a quote opened here is never closed")]


def test_a_quote_unclosed_before_other_quotes_is_named(tmp_path):
    """The open quote ends at the next one: one record swallows the next; a warning says
    where (no record is lost silently)."""
    text = ('title,authors,abstract\n'
            'T1,Ada Lovelace,"We propose FooNet, a network for image classification.\n'
            'T2,Grace Hopper,"We study LoRA fine-tuning of LLaMA-2, on GLUE."\n'
            'T3,Alan Turing,We study GPT-4 on MMLU.\n')
    c = read_corpus([_write(tmp_path, "q2.csv", text)])
    assert [(w.line, w.message.split(":")[0]) for w in c.warnings] == \
        [(2, "a quoted field here runs over 2 lines that look like records")]


def test_a_quoted_field_over_lines_is_not_taken_for_an_unclosed_quote(tmp_path):
    text = 'title,authors,abstract\nT1,Ada Lovelace,"first line,\nsecond line of FooNet."\n'
    c = read_corpus([_write(tmp_path, "ml.csv", text)])
    assert c.papers[0].abstract == "first line, second line of FooNet." and not c.warnings


def test_tsv_output_guards_formulas(tmp_path):
    from kg.queries.results import format_result
    from kg.store import EmbeddedStore

    store = EmbeddedStore.memory(b'<urn:a> <urn:p> "=HYPERLINK(\\"x\\")" .\n'
                                 b'<urn:b> <urn:p> "plain" .\n')
    result = store.query("SELECT ?o WHERE { ?s ?p ?o } ORDER BY ?s")
    lines = format_result(result, "tsv").splitlines()
    assert lines[1].startswith("\"'=HYPERLINK") and lines[2] == '"plain"'
    assert format_result(result, "tsv", formula_guard=False).splitlines()[1].startswith('"=')


@pytest.mark.parametrize("args, message", [
    (("extract", "--workers", "0"), "--workers: must be at least 1"),
    (("extract", "--workers", "-1"), "--workers: must be at least 1"),
    (("parse", "--max-bytes", "0"), "--max-bytes: must be at least 1 byte"),
    (("parse", "--max-bytes", "-1"), "--max-bytes: must be at least 1 byte"),
])
def test_nonsense_numbers_are_usage_errors(args, message):
    r = _kg(*args, "x.txt")
    assert r.returncode == 2 and message in r.stderr and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", ["parse", "extract"])
def test_no_paper_is_an_error(tmp_path, command):
    path = _write(tmp_path, "empty.txt", "\n\n")
    r = _kg(command, str(path))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith(f"kg: error: no readable paper in {path}") \
        and len(r.stderr.splitlines()) == 1


def test_a_utf16_people_file_is_read(tmp_path):
    from kg.parse.people import read_people

    path = tmp_path / "people.txt"
    path.write_bytes("merge: Ada Lovelace = A. Lovelace\n".encode("utf-16"))
    assert read_people(path).merges["a. lovelace"] == "Ada Lovelace"


def test_viz_into_a_missing_folder_is_refused(tmp_path):
    r = _kg("viz", "kg", "-o", str(tmp_path / "missing" / "a" / "b.html"),
            "--from", str(tmp_path))
    assert r.returncode == 2 and "does not exist" in r.stderr
    assert not (tmp_path / "missing").exists()


def test_an_endpoint_with_no_host_name_is_refused_before_a_lookup():
    from kg.store.http import check_endpoint

    with pytest.raises(StoreError, match="'%zz' is no host name"):
        check_endpoint("http://%zz/")
    assert check_endpoint("http://[::1]:8890/sparql") == "http://[::1]:8890/sparql"
    assert check_endpoint("http://my_host.local:8890/sparql")


# ---------------------------------------------------------------- pushes clean up


def test_expired_temporary_graphs_are_dropped_and_live_ones_kept(tmp_path):
    from kg.store.push import TMP_PREFIX, clean, push
    from tests.store.test_remote_safety import FakeSparql

    fake = FakeSparql()
    try:
        old = f"{TMP_PREFIX}100-0000"                       # a push killed long ago
        live = f"{TMP_PREFIX}99999999999-1111"             # a push running now
        fake.store.update(f"INSERT DATA {{ GRAPH <{old}> {{ <urn:a> <urn:b> <urn:c> }} "
                          f"GRAPH <{live}> {{ <urn:a> <urn:b> <urn:c> }} }}")
        assert clean(fake.url) == 1
        assert live in fake.graphs() and old not in fake.graphs()
        fake.store.update(f"INSERT DATA {{ GRAPH <{old}> {{ <urn:a> <urn:b> <urn:c> }} }}")
        graph = tmp_path / "g.nt"
        graph.write_text("<urn:x> <urn:p> \"1\" .\n")
        done = push(graph, fake.url, "https://w3id.org/paper-kg/test/g", progress=False)
        assert done.orphans == 1 and old not in fake.graphs() and live in fake.graphs()
    finally:
        fake.close()


def test_an_interrupted_push_names_and_drops_its_temporary_graph(tmp_path, monkeypatch):
    import kg.store.push as push_module
    from tests.store.test_remote_safety import FakeSparql

    def interrupt(self, text):
        raise KeyboardInterrupt

    monkeypatch.setattr(push_module._PushJob, "swap", interrupt)
    fake = FakeSparql()
    try:
        graph = tmp_path / "g.nt"
        graph.write_text("<urn:x> <urn:p> \"1\" .\n")
        with pytest.raises(StoreError) as err:
            push_module.push(graph, fake.url, "https://w3id.org/paper-kg/test/g",
                             progress=False)
        assert str(err.value).startswith("interrupted; the graph <https://w3id.org/paper-kg/"
                                         "test/g> on the server is unchanged (the temporary "
                                         f"graph <{push_module.TMP_PREFIX}")
        assert "was dropped" in str(err.value)
        assert not [g for g in fake.graphs() if g.startswith(push_module.TMP_PREFIX)]
    finally:
        fake.close()


def test_a_push_refused_before_a_byte_is_written_says_nothing_remains(tmp_path):
    from kg.store.push import push
    from tests.store.test_remote_safety import FakeSparql

    fake = FakeSparql(fail=lambda kind, n, body: 403 if kind != "query" else None)
    try:
        graph = tmp_path / "g.nt"
        graph.write_text("<urn:x> <urn:p> \"1\" .\n")
        with pytest.raises(StoreError) as err:
            push(graph, fake.url, "https://w3id.org/paper-kg/test/g", progress=False,
                 retries=0)
        assert "unchanged" in str(err.value) and "partial upload" not in str(err.value)
    finally:
        fake.close()


def test_outputs_do_not_depend_on_where_the_input_was_typed_from(tmp_path):
    """The input's path as typed (a home folder's name) reaches no output: the same
    listing given by two paths builds byte-identical files."""
    home = tmp_path / "home" / "ann-secret"
    home.mkdir(parents=True)
    path = _write(home, "listing.txt", f"Ada Lovelace, Alan Turing\n\n{ABS}\n")
    outs = []
    for n, given in enumerate((str(path), os.path.relpath(path, ROOT))):
        out = tmp_path / f"out{n}"
        r = _kg("build", given, "-o", str(out), "-q")
        assert r.returncode == 0, r.stderr
        outs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
                     if p.is_file() and "store" not in p.parts and p.name != ".kg-lock"})
    assert outs[0] == outs[1]
    assert not [k for k, v in outs[0].items() if b"ann-secret" in v]
