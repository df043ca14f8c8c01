"""kg.analysis.counts across a build's outputs: the bundled sample's counts agree by name
in summary.json, report.json/.md/.html, index.html, the views, authors.csv and the
dataset-summary query."""
from __future__ import annotations

import shutil

from kg import outputs
from kg.analysis.counts import build_counts
from kg.build.read import load_build, read_summary
from tests.output_counts import disagreements, output_counts

# counts of the parse itself: a build read back has lost its entries, merges and warnings
_PARSE = {"entries", "merged", "skipped", "warnings"}


def test_every_output_of_the_sample_shows_the_same_counts(sample_build_dir):
    got = output_counts(sample_build_dir)
    assert disagreements(got) == {}
    summary = got["summary.json"]
    assert summary["papers"] == 39 and summary["people"] == 189
    assert summary["mention_occurrences"] == summary["entity_mentions"] + summary["concept_mentions"]
    # the summary is what the folder's papers and extractions count
    again = build_counts(load_build(sample_build_dir)).numbers()
    assert {k: v for k, v in again.items() if k not in _PARSE} == \
        {k: v for k, v in summary.items() if k not in _PARSE}


def test_a_count_that_disagrees_is_found(sample_build_dir, tmp_path):
    # the check itself: one output changed, and the disagreement is named
    folder = tmp_path / "b"
    shutil.copytree(sample_build_dir, folder)
    page = folder / outputs.INDEX_HTML
    people = read_summary(folder).counts.people
    text = page.read_text(encoding="utf-8")
    mark = f'<td>people</td><td class="n">{people:,}</td>'
    assert mark in text
    page.write_text(text.replace(mark, f'<td>people</td><td class="n">{people + 1:,}</td>'),
                    encoding="utf-8")
    bad = disagreements(output_counts(folder))
    assert set(bad) == {"people"} and bad["people"]["index.html"] == people + 1


def test_the_report_says_what_each_count_counts(sample_build_dir):
    md = (sample_build_dir / outputs.REPORT_MD).read_text(encoding="utf-8")
    counts = md[md.index("## Counts"):md.index("\n## ", md.index("## Counts") + 1)]
    assert "| count | value | what it counts |" in counts
    assert "| people | 189 | distinct people" in counts
    assert "authors (distinct names)" not in md   # the word that meant two numbers
