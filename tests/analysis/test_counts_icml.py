"""kg.analysis.counts across the outputs of an ICML 2024 build (2,610 papers): its counts
agree by name in every output, and where two names differ they count different things."""
from __future__ import annotations

import pytest

from tests.output_counts import disagreements, output_counts


@pytest.fixture(scope="module")
def icml_build_dir(tmp_path_factory, icml_txt):
    from kg.build.pipeline import build

    out = tmp_path_factory.mktemp("icml-counts")
    build([icml_txt], out)
    return out


def test_every_output_of_icml_2024_shows_the_same_counts(icml_build_dir):
    got = output_counts(icml_build_dir)
    assert disagreements(got) == {}
    c = got["summary.json"]
    assert c["papers"] == 2610
    # the pairs the issue found: each figure is a count of its own, named so
    assert c["author_names"] > c["people"]                 # spellings of one person
    assert c["authorships"] > c["paper_person_links"]      # a name listed twice on a paper
    assert c["mention_occurrences"] > c["paper_entity_links"] + c["paper_concept_links"]
    assert c["coauthor_pairs"] > c["repeat_coauthor_pairs"]          # kgo:Collaboration: 2+ papers
