"""The proposal detector's rules as data: every rule finds the names of the
example it was made from; a naming word is one line of the lexicon; a
lexicon that cannot be used fails with its path."""
from __future__ import annotations

import dataclasses
import re
from importlib.resources import files

import pytest

from kg.errors import KgError
from kg.extract.acronyms import find_acronyms
from kg.extract.emphasis import quoted
from kg.extract.proposals import find_proposals
from kg.extract.proposals.lexicon import LexiconError, load_lexicon, with_words
from kg.extract.proposals.rules import Rules, build_rules, default_rules

RULES = default_rules()


def _alone(rules: Rules, name: str) -> Rules:
    """The rule table of ``rules`` with only the rule ``name``."""
    return dataclasses.replace(rules, table=tuple(r for r in rules.table if r.name == name))


def _tokens(text: str) -> tuple[list[str], list[int]]:
    found = list(re.finditer(r"\w+|[^\w\s]", text))
    return [m.group(0) for m in found], [m.start() for m in found]


def _names(text: str, rules: Rules, tokens: bool = False) -> list[str]:
    words, offsets = _tokens(text) if tokens else (None, None)
    return [p.name for p in find_proposals(text, find_acronyms(text), words=words, offsets=offsets,
                                           set_apart=quoted(text), rules=rules)]


def test_rule_names_are_unique_and_every_rule_has_an_example():
    names = [r.name for r in RULES.table]
    assert len(names) == len(set(names)) and len(names) >= 20
    assert all(r.example and r.finds for r in RULES.table)


@pytest.mark.parametrize("rule", RULES.table, ids=lambda r: r.name)
@pytest.mark.parametrize("tokens", [False, True], ids=["regex-anchors", "token-anchors"])
def test_each_rule_finds_its_own_example_alone(rule, tokens):
    found = _names(rule.example, _alone(RULES, rule.name), tokens)
    assert set(rule.finds) <= set(found), (rule.name, found)


def test_a_rule_alone_finds_nothing_in_another_rules_example():
    # (the per-rule test above would pass if every rule ran the whole table)
    assert _names("ToMoE consistently outperforms the baselines.", _alone(RULES, "cue")) == []
    assert _names("To fix it, we propose ToMoE, a method that prunes.", _alone(RULES, "wins")) == []


CHRISTENED = "We propose a method, christened FooNet, that prunes experts."


@pytest.mark.parametrize("tokens", [False, True], ids=["regex-anchors", "token-anchors"])
def test_a_new_naming_word_is_one_line_of_the_lexicon(tmp_path, tokens):
    source = (files("kg") / "data" / "proposals" / "lexicon.toml").read_text(encoding="utf-8")
    line = 'participles = ["called", "dubbed", "named", "termed", "coined"]'
    assert line in source
    path = tmp_path / "lexicon.toml"
    path.write_text(source.replace(line, line[:-1] + ', "christened"]'), encoding="utf-8")
    more = build_rules(load_lexicon(path))
    # the naming rule fires on the new word, and did not before
    assert _names(CHRISTENED, _alone(RULES, "called"), tokens) == []
    assert _names(CHRISTENED, _alone(more, "called"), tokens) == ["FooNet"]
    # ... and the whole detector finds a name it did not find before
    text = "This benchmark, christened FooBench, covers ten tasks."
    assert _names(text, RULES, tokens) == []
    assert _names(text, more, tokens) == ["FooBench"]
    # the setting guard reads the same list: a setting christened X is no method
    setting = "We study a problem setting christened Open Prompt Tuning (OPT) in depth."
    assert {(p.name, p.type) for p in find_proposals(setting, find_acronyms(setting),
                                                     rules=more)} == {
        ("Open Prompt Tuning", "other"), ("OPT", "other")}


def test_with_words_extends_a_list_in_memory():
    more = build_rules(with_words(load_lexicon(), "naming.participles", "christened"))
    assert _names(CHRISTENED, _alone(more, "called")) == ["FooNet"]


def test_each_naming_word_is_in_one_list_only():
    # (the fixed phrases "which we call", "referred to as" aside, and the other phrase and
    # stop-word lists, which hold glue words like "as" and "to" by nature)
    lex = load_lexicon()
    phrases = ("naming.phrase", "acronyms.naming_more", "acronyms.colon_stops",
               "emphasis.naming_more", "emphasis.own_verbs_more")
    lists = {k: v for k, v in lex.lists.items() if not k.startswith(phrases)}
    for key in (k for k in lists if k.startswith("naming.")):
        for word in lex[key]:
            holders = [k for k, words in lists.items() if any(word in w.split() for w in words)]
            assert holders == [key], (word, holders)


@pytest.mark.parametrize("content, message", [
    ("[naming]\nparticiples = [\"called\", \"called\"]\n", "holds a word twice"),
    ("[naming]\nparticiples = \"called\"\n", "not a list of words"),
    ("[naming\n", "lexicon.toml"),
    ("words = [\"x\"]\n", "not a [section]"),
])
def test_a_bad_lexicon_fails_with_its_path(tmp_path, content, message):
    path = tmp_path / "lexicon.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LexiconError, match=re.escape(message)) as err:
        load_lexicon(path)
    assert str(path) in str(err.value) and isinstance(err.value, KgError)


def test_a_lexicon_without_a_list_the_rules_need_fails_by_name(tmp_path):
    path = tmp_path / "lexicon.toml"
    path.write_text("[naming]\nparticiples = [\"called\"]\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"no word list 'title\.joiners'"):
        build_rules(load_lexicon(path))
