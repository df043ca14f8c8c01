"""kg.extract.proposals.repository: names from code repository links.

Moved from the tests of the extraction pipeline's parts (tests/test_extract_parts.py)."""
from __future__ import annotations


def test_repository_name_offsets_survive_case_folding():
    from kg.extract.proposals import repository_names

    # "İ" lower-cases to two characters: offsets must still point into the text
    text = "İstanbul data. OSSCAR prunes. Code: https://github.com/lab/osscar."
    [(name, s, e)] = repository_names(text)
    assert (name, text[s:e]) == ("OSSCAR", "OSSCAR")
