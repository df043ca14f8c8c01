"""kg.analysis.counts: one number per thing counted, each name saying what."""
from __future__ import annotations

from dataclasses import fields

import pytest

from kg.analysis.counts import MEANINGS, BuildCounts, build_counts, count_label
from kg.analysis.network import productivity
from kg.analysis.summary import analyse
from kg.models import Alias, Build, Corpus, Extraction, Mention, Paper, Track
from kg.util.teams import MAX_LINKED_TEAM


def _m(text: str, key: str, layer: str = "entity", type_: str = "model", at: int = 0,
       proposed: bool = False) -> Mention:
    return Mention(text, text, type_, at, at + len(text), key=key, layer=layer, proposed=proposed)


@pytest.fixture(scope="module")
def build() -> Build:
    papers = (
        # one name written two ways, and one name listed twice on a paper
        Paper("1", ("Ann Lee", "ann  lee", "Bob Ray"), "a", track=Track("Theory")),
        Paper("2", ("Ann Lee", "Bob Ray"), "b", track=Track("Theory")),
        Paper("3", ("Cy Doe",), "c", authors_truncated=True),
    )
    exs = {
        "1": Extraction("1", "a", (_m("BERT", "bert"), _m("BERT", "bert", at=9),
                                   _m("LLM", "llm", layer="concept", type_="model_class"),
                                   _m("QX", "qx", proposed=True, type_="method")),
                        (Alias("large language model", "LLM"), Alias("Large  Language Model", "llm"))),
        "2": Extraction("2", "b", (_m("BERT", "bert"), _m("LLM", "llm", layer="concept",
                                                          type_="model_class")),
                        (Alias("large language model", "LLM"),)),
        "3": Extraction("3", "c", ()),
    }
    return Build(Corpus(papers, entries=4, merged=1), exs)


def test_people_and_authorships_count_different_things(build):
    c = build_counts(build)
    assert (c.entries, c.papers, c.merged) == (4, 3, 1)
    assert c.author_names == 4        # "Ann Lee", "ann  lee", "Bob Ray", "Cy Doe"
    assert c.people == 3              # the two spellings are one person
    assert c.authorships == 6         # names as listed, paper 1's Ann Lee twice
    assert c.paper_person_links == 5  # ... once per paper
    assert (c.coauthor_pairs, c.repeat_coauthor_pairs) == (1, 1)   # Ann and Bob, twice
    assert (c.truncated_author_lists, c.papers_with_track, c.tracks) == (1, 2, 1)


def test_mentions_entities_and_concepts_count_apart(build):
    c = build_counts(build)
    assert c.mention_occurrences == 6 == c.entity_mentions + c.concept_mentions
    assert (c.entity_mentions, c.concept_mentions) == (4, 2)
    assert (c.entities_mentioned, c.concepts_mentioned) == (2, 1)
    assert (c.paper_entity_links, c.paper_concept_links) == (3, 2)   # BERT twice in paper 1: once
    assert (c.papers_extracted, c.papers_with_entity_mentions) == (3, 2)
    assert (c.proposed_mentions, c.papers_proposing) == (1, 1)
    # two spellings of one acronym in paper 1 are one definition, one acronym
    assert (c.acronyms, c.acronym_definitions) == (1, 2)
    assert c.entities_by_type == {"method": 1, "model": 1}
    assert c.entity_mentions_by_type == {"method": 1, "model": 3}
    assert c.concept_mentions_by_type == {"model_class": 2}


def test_the_network_counts_what_build_counts_calls_people_and_pairs(build):
    c = build_counts(build)
    report = analyse(build).report
    assert report.network.nodes == report.productivity.people == c.people
    assert report.network.edges == c.coauthor_pairs
    assert productivity(build.corpus)["paper_person_links"] == c.paper_person_links


def test_a_huge_team_adds_people_but_no_pairs():
    names = tuple(f"Person {i}" for i in range(MAX_LINKED_TEAM + 1))
    c = build_counts(Build(Corpus((Paper("1", names, "x"), Paper("2", names[:2], "y")))))
    assert c.people == MAX_LINKED_TEAM + 1 and c.coauthor_pairs == 1
    assert c.repeat_coauthor_pairs == 0


def test_every_count_says_what_it_counts_and_reads_back(build):
    c = build_counts(build)
    assert list(MEANINGS) == [f.name for f in fields(BuildCounts)]
    assert all(len(m) > 15 for m in MEANINGS.values())
    assert "entities_by_type" not in c.numbers() and c.numbers()["people"] == 3
    assert BuildCounts.from_json(c.to_json()) == c
    assert count_label("entities_mentioned") == "entities mentioned"


def test_no_extractions_count_zero():
    c = build_counts(Build(Corpus((Paper("1", ("A",), "x"),))))
    assert (c.papers, c.papers_extracted, c.mention_occurrences, c.entities_mentioned) == (1, 0, 0, 0)


def test_the_readme_lists_every_count_with_its_meaning():
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### The build's counts"):]
    for name, meaning in MEANINGS.items():
        assert f"| `{name}` | {meaning} |" in section
