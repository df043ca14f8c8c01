"""kg.parse.bibtex: BibTeX entries, broken ones skipped with a warning, cut author lists."""
from __future__ import annotations

from kg.parse import read_corpus
from tests.parse.test_json_csv import ABS, ABS2


def test_bibtex_with_a_broken_entry(write):
    text = ("@article{a,\n  title={First {Paper}},\n  author={One, Ada and Bob Two},\n"
            "  abstract={" + ABS + "}\n}\n\n"
            "@inproceedings{b,\n  title={Broken,\n  abstract={" + ABS2 + "}\n\n"
            "@misc{c,\n  author={Cy Three and others},\n  abstract={" + ABS2 + "}\n}\n")
    c = read_corpus([write("x.bib", text)])
    a, b = c.papers
    assert a.title == "First Paper" and a.authors == ("Ada One", "Bob Two")
    assert b.authors == ("Cy Three",) and b.authors_truncated
    assert c.skipped == 1 and c.warnings[0].line == 7 and "unbalanced" in c.warnings[0].message


def test_bibtex_cut_marker_inside_author_list(write):
    bib = ("@article{a,\n  author = {One, A and 等 and Two, B},\n  title = {T},\n"
           "  abstract = {" + ABS + "}\n}\n")
    c = read_corpus([write("x.bib", bib)])
    assert c.papers[0].authors == ("A One", "B Two") and c.papers[0].authors_truncated
    assert [w.line for w in c.warnings] == [1]
