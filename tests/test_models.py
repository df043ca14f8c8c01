"""kg.models: the codecs of the values that cross stages through files lose nothing."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.identity import entity_key
from kg.models import Alias, Extraction, Mention, Paper, Source, Track

# any text JSON can carry (hypothesis draws no lone surrogates): separators,
# quotes, control characters and astral planes included
text = st.text(max_size=12)
sources = st.builds(Source, file=text, line=st.integers(min_value=-2**40, max_value=2**40))
tracks = st.builds(Track, area=text, subarea=st.none() | text, line=text)
papers = st.builds(Paper, id=text, authors=st.lists(text, max_size=5).map(tuple),
                   abstract=text, authors_truncated=st.booleans(), track=st.none() | tracks,
                   title=st.none() | text, sources=st.lists(sources, max_size=3).map(tuple))
mentions = st.builds(Mention, text=text, canonical=text, type=text,
                     start=st.integers(0, 2**31), end=st.integers(0, 2**31),
                     proposed=st.booleans(), key=text, family=st.none() | text,
                     layer=st.sampled_from(("entity", "concept")))
aliases = st.builds(Alias, long=text, short=text)
extractions = st.builds(Extraction, paper_id=text, abstract=text,
                        mentions=st.lists(mentions, max_size=5).map(tuple),
                        aliases=st.lists(aliases, max_size=3).map(tuple))


def through_a_file(value):
    """``value`` written as a JSON Lines line and read back with its own codec."""
    line = json.dumps(value.to_json(), ensure_ascii=False)
    assert "\n" not in line
    back = type(value).from_json(json.loads(line))
    # ... and written again, the same line: the files are stable under a round trip
    assert json.dumps(back.to_json(), ensure_ascii=False) == line
    return back


@settings(max_examples=300, deadline=None)
@given(st.one_of(papers, sources, mentions, aliases, extractions))
def test_every_codec_round_trips(value):
    assert through_a_file(value) == value


def test_the_record_fields_are_the_documented_ones():
    ex = Extraction("p", "We use LLMs.", (Mention("LLMs", "LLM", "model", 7, 11, key="llm"),),
                    (Alias("large language models", "LLMs"),))
    obj = ex.to_json()
    assert list(obj) == ["id", "abstract", "mentions", "aliases"]
    assert list(obj["mentions"][0]) == ["text", "canonical", "type", "start", "end", "proposed",
                                        "key", "family", "layer"]
    assert list(Paper("p", (), "x").to_json()) == [
        "id", "track", "area", "subarea", "authors", "authors_truncated", "title", "abstract",
        "sources"]


def test_records_written_before_keys_and_families_still_read():
    old = {"id": "p", "abstract": "We use Llama 2.", "mentions": [
        {"text": "Llama 2", "canonical": "LLaMA-2", "type": "model", "start": 7, "end": 14,
         "proposed": False}]}
    (m,) = Extraction.from_json(old).mentions
    assert m.key == entity_key("LLaMA-2") == "llama2" and m.family is None
    assert Extraction.from_json(old).aliases == ()


def test_an_empty_key_stays_empty_and_identity_key_falls_back():
    m = Mention("Llama 2", "LLaMA-2", "model", 0, 7)
    assert through_a_file(m).key == ""
    assert m.identity_key == "llama2"
    assert Mention("DID", "DID", "method", 0, 3, key="deepincentivedesign").identity_key == \
        "deepincentivedesign"


# ----------------------------------------------------- real extractions


@pytest.fixture(scope="module")
def sample_extractions(sample_corpus):
    from kg.extract import extract_corpus

    return list(extract_corpus(sample_corpus).extractions)


def test_the_sample_round_trips(sample_corpus, sample_extractions):
    for p in sample_corpus.papers:
        assert through_a_file(p) == p
    for ex in sample_extractions:
        assert through_a_file(ex) == ex
    assert sum(1 for ex in sample_extractions for m in ex.mentions if m.family) == 28
    assert any(ex.aliases for ex in sample_extractions)


def _devset_ids():
    from tests.devset_eval import ALL_SETS

    return [p.stem for p in ALL_SETS]


@pytest.mark.parametrize("name", _devset_ids())
def test_every_devset_round_trips(name):
    from kg.extract import extract_texts
    from tests.devset_eval import ALL_SETS, load

    (path,) = [p for p in ALL_SETS if p.stem == name]
    rows = load(path)
    exs = extract_texts([r["abstract"] for r in rows], [r["id"] for r in rows])
    assert len(exs) == len(rows) > 0
    for r, ex in zip(rows, exs, strict=True):
        assert through_a_file(ex) == ex
        paper = Paper(id=r["id"], authors=(), abstract=r["abstract"])
        assert through_a_file(paper) == paper
