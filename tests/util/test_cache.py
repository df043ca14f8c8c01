"""The start-up cache: the same values as computed afresh, a new entry when an input
changes, a damaged entry made again."""
from __future__ import annotations

import pickle

from kg.util import cache as startcache


def test_cached_value_is_the_computed_one_and_follows_its_inputs(tmp_path, monkeypatch):
    monkeypatch.setattr(startcache, "cache_dir", lambda: tmp_path)
    data = tmp_path / "words.txt"
    data.write_text("alpha\n", encoding="utf-8")
    calls = []

    def make():
        calls.append(1)
        return sorted(data.read_text(encoding="utf-8").split())

    assert startcache.cached("words", [data], make) == ["alpha"]
    assert startcache.cached("words", [data], make) == ["alpha"] and len(calls) == 1
    data.write_text("beta alpha\n", encoding="utf-8")          # an input changed
    assert startcache.cached("words", [data], make) == ["alpha", "beta"] and len(calls) == 2
    entries = list(tmp_path.glob("words-*.pickle"))
    assert len(entries) == 1                                  # the stale entry is gone
    entries[0].write_bytes(b"not a pickle")
    assert startcache.cached("words", [data], make) == ["alpha", "beta"] and len(calls) == 3
    assert pickle.loads(entries[0].read_bytes()) == ["alpha", "beta"]


def test_the_cached_gazetteer_and_first_keys_equal_fresh_ones(monkeypatch, tmp_path):
    from kg.extract import components, gazetteer, ruler
    from kg.extract.tokenizer import split_simple

    monkeypatch.setattr(startcache, "cache_dir", lambda: tmp_path)
    gazetteer.load.cache_clear()
    cached_gaz = gazetteer.load(None)                        # made, then written
    gazetteer.load.cache_clear()
    again = gazetteer.load(None)                             # read back
    gazetteer.load.cache_clear()
    fresh = gazetteer.build(gazetteer.read_entries(sorted(gazetteer.gazetteer_dir().glob("*.jsonl"))))
    assert len(list(tmp_path.glob("gazetteer-*.pickle"))) == 1
    assert again.entities == fresh.entities == cached_gaz.entities
    assert again.index == fresh.index and again.prefixes == fresh.prefixes

    import spacy

    from kg.extract.tokenizer import customise

    tok = customise(spacy.blank("en")).tokenizer
    specials = frozenset(tok.rules)
    keys = components._first_keys(None, tok)
    assert components._first_keys(None, tok) == keys == ruler.first_keys(
        fresh, lambda t: split_simple(t, specials) or [x.text for x in tok(t)])
    assert len(keys) > 1000
