"""The listing format and every quirk real listings have."""
from __future__ import annotations

import pytest

from kg.errors import ParseError
from kg.parse import read_corpus

ABS1 = ("We propose ToMoE, a method that transforms dense LLMs into Mixture-of-Experts "
        "(MoE) models. It uses $\\mathcal{S}_{d-1}$ · and commas, see https://x.org/a,b.")
ABS2 = ("Learning rate configuration is a fundamental aspect of modern deep learning, "
        "and we study it at length in this work across many settings and scales.")
ABS3 = ("We consider the problem of jointly learning a one-dimensional projection and a "
        "univariate function in high-dimensional Gaussian models, with proofs.")


def listing(*blocks: str, title: bool = True, sep: str = "\n\n") -> str:
    return (("论文检索" + sep) if title else "") + sep.join(blocks) + "\n"


def read(write, text, name="l.txt", **kw):
    return read_corpus([write(name, text, **kw)])


def test_title_line_track_authors_abstract(write):
    c = read(write, listing("Deep Learning · Large Language Models",
                            "Shangqian Gao, Ting Hua, Reza Shirkavand", ABS1))
    (p,) = c.papers
    assert p.track.area == "Deep Learning"
    assert p.track.subarea == "Large Language Models"
    assert p.track.line == "Deep Learning · Large Language Models"
    assert p.authors == ("Shangqian Gao", "Ting Hua", "Reza Shirkavand")
    assert p.abstract == ABS1
    assert p.sources[0].line == 3
    assert c.warnings == ()


def test_no_title_line(write):
    c = read(write, listing("Ada Lovelace, Alan Turing", ABS2, title=False))
    assert [p.authors for p in c.papers] == [("Ada Lovelace", "Alan Turing")]


def test_area_alone_is_a_track(write):
    c = read(write, listing("Deep Learning", "He Jia", ABS2))
    (p,) = c.papers
    assert p.track.area == "Deep Learning" and p.track.subarea is None
    assert p.authors == ("He Jia",)


def test_single_author_between_abstracts_is_an_author_not_a_track(write):
    c = read(write, listing("Theory", "Ada Lovelace, Alan Turing", ABS2, "Jessica Dai", ABS3))
    assert [p.authors for p in c.papers] == [("Ada Lovelace", "Alan Turing"), ("Jessica Dai",)]
    assert c.papers[1].track is None


def test_a_field_name_between_abstracts_is_a_track_with_authors_missing(write):
    c = read(write, listing("Ada Lovelace", ABS2, "Deep Learning", ABS3))
    assert c.papers[1].track.area == "Deep Learning" and c.papers[1].authors == ()
    assert "without an author line" in c.warnings[0].message


def test_subarea_with_commas(write):
    line = "General Machine Learning · Online Learning, Active Learning and Bandits"
    c = read(write, listing(line, "Motti Goldberger, Nils Rudi", ABS2))
    t = c.papers[0].track
    assert (t.area, t.subarea) == ("General Machine Learning",
                                   "Online Learning, Active Learning and Bandits")


def test_truncated_author_list(write):
    c = read(write, listing("A One, B Two, C Three 等", ABS2, "D Four等", ABS3))
    a, b = c.papers
    assert a.authors == ("A One", "B Two", "C Three") and a.authors_truncated
    assert b.authors == ("D Four",) and b.authors_truncated
    assert all("等" not in n for p in c.papers for n in p.authors)


def test_abstract_kept_exactly(write):
    c = read(write, listing("A One", ABS1))
    assert c.papers[0].abstract == ABS1


def test_names_as_written(write):
    names = "WenXiang Lin, HuangJunTao, mengyang zhang, Zeng, Dilek Hakkani-Tür, Syed A Rizvi"
    c = read(write, listing(names, ABS2))
    assert c.papers[0].authors == tuple(names.split(", "))


def test_crlf_bom_tabs_and_stray_spaces(write):
    text = listing("  Deep Learning · Robustness\t", "\tAda Lovelace ,  Alan\tTuring  ",
                   ABS2 + "   ", sep="\r\n\r\n")
    c = read(write, "\ufeff" + text)
    (p,) = c.papers
    assert p.authors == ("Ada Lovelace", "Alan Turing")
    assert p.track.line == "Deep Learning · Robustness"
    assert p.abstract == ABS2
    assert p.sources[0].line == 3


def test_hard_wrapped_abstract_is_joined(write):
    half = len(ABS2) // 2
    text = "A One, B Two\n" + ABS2[:half].rstrip() + "\n" + ABS2[half:].lstrip() + "\n"
    c = read(write, text)
    assert c.papers[0].abstract.replace(" ", "") == ABS2.replace(" ", "")


def test_entries_without_blank_lines_between_their_lines(write):
    text = "Theory\nA One, B Two\n" + ABS2 + "\n\nDeep Learning\nC Three\n" + ABS3 + "\n"
    c = read(write, text)
    assert [p.authors for p in c.papers] == [("A One", "B Two"), ("C Three",)]
    assert [p.track.area for p in c.papers] == ["Theory", "Deep Learning"]


def test_missing_author_line_keeps_paper_with_warning(write):
    c = read(write, listing("Theory · Game Theory", ABS2, "A One", ABS3))
    assert len(c.papers) == 2
    assert c.papers[0].authors == () and c.papers[0].track.area == "Theory"
    assert any("without an author line" in w.message and w.line == 5 for w in c.warnings)


def test_trailing_entry_without_abstract_is_skipped_and_counted(write):
    c = read(write, listing("A One", ABS2, "Theory", "B Two, C Three"))
    assert len(c.papers) == 1 and c.skipped == 1
    assert c.warnings and c.warnings[0].line == 7


def test_empty_file_warns(write):
    c = read(write, "")
    assert c.papers == () and "no papers found" in c.warnings[0].message


def test_nul_bytes_removed_with_warning(write):
    c = read(write, listing("A One", ABS2.replace("fundamental", "fund\x00amental")))
    assert "fundamental" in c.papers[0].abstract
    assert any(w.line == 5 for w in c.warnings)


def test_missing_file_is_a_parse_error(tmp_path):
    with pytest.raises(ParseError, match="nope.txt: no such file"):
        read_corpus([tmp_path / "nope.txt"])


def test_max_bytes(write):
    from kg.errors import InputTooLarge
    from kg.parse import read_entries

    p = write("big.txt", listing("A One", ABS2))
    with pytest.raises(InputTooLarge, match="over the limit of 10"):
        read_entries(p, max_bytes=10)


def test_seed_file_line_numbers(sample_corpus):
    first = sample_corpus.papers[0]
    assert (first.sources[0].file, first.sources[0].line) == ("sample/000_bc5f1642c1ae3e85.txt", 3)


def test_icml_2024_every_paper(icml_corpus, icml_truth):
    c = icml_corpus
    assert len(c.papers) == len(icml_truth) == 2610
    pairs = list(zip(c.papers, icml_truth, strict=True))
    same = sum(p.authors == tuple(t["authors_shown"]) for p, t in pairs)
    assert same / len(icml_truth) >= 0.999
    assert all(p.authors_truncated == t["authors_truncated"] for p, t in pairs)
    exact = sum(p.abstract == t["abstract"] for p, t in pairs)
    assert exact >= 2609  # one abstract holds a backspace control character, removed with a warning


def test_hostile_listing_lines_are_kept_or_warned_with_their_line(write):
    c = read(write, listing("·", "A One, 等, B Two", ABS1,
                            "Theory", "C Three", "Transformers",
                            "Deep Learning", "D Four", ABS1))
    a, b = c.papers  # the third entry is the first one again: one paper, everyone kept
    assert a.track.area == "Deep Learning" and a.authors == ("A One", "B Two", "D Four") and a.authors_truncated
    assert b.abstract == "Transformers" and b.authors == ("C Three",)
    assert c.merged == 1 and c.skipped == 0
    got = [(w.line, w.message.split(":")[0].split(";")[0].split(" as ")[0]) for w in c.warnings]
    assert got == [(3, "track line '·' has no area before '·'"),
                   (5, "'等' inside the author list is not a name"),
                   (13, "abstract of only 1 word(s)"),
                   (15, "same abstract")]
    assert c.warnings[-1].message.startswith(f"same abstract as {c.papers[0].sources[0]} but")


def test_inputs_are_recorded_by_name_and_two_files_of_one_name_apart(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    f1, f2 = tmp_path / "x" / "l.txt", tmp_path / "y" / "l.txt"
    f1.write_text(listing("A One", ABS2), encoding="utf-8")
    f2.write_text(listing("B Two", "We study LoRA fine-tuning of LLaMA-2 on GLUE."),
                  encoding="utf-8")
    c = read_corpus([f1, f2])
    names = [p.sources[0].file for p in c.papers]
    assert names[0].startswith("l.txt#") and names[1].startswith("l.txt#")
    assert names[0] != names[1] and str(tmp_path) not in "".join(c.files)
    assert read_corpus([f1]).papers[0].sources[0].file == "l.txt"
