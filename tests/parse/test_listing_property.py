"""Random corpora written as listings parse back unchanged."""
from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.parse import parse_text
from kg.parse.listing import _prose

_UP = string.ascii_uppercase + "ÅÉØŁŽ"
_LOW = string.ascii_lowercase + "éøüñ"
word = st.builds(lambda a, b: a + b, st.sampled_from(_UP), st.text(_LOW, min_size=1, max_size=9))
# A name that is an English prose word ("By", "We") alone on a line reads as
# a track or a sentence, by design: the labeller weighs such words against a
# line being names. Real names that are prose words are left to the labeller's
# own tests; the round trip draws names that are not.
name = st.lists(word, min_size=1, max_size=3).map(" ".join).filter(
    lambda n: not _prose(n)) | st.sampled_from(
    ["李雷", "Dilek Hakkani-Tür", "mengyang zhang", "O'Neil Ray", "Jean-Luc Picard"])
authors = st.lists(name, min_size=1, max_size=12, unique=True)
area = st.sampled_from(["Deep Learning", "Theory", "Applications", "Reinforcement Learning",
                        "General Machine Learning", "Social Aspects"])
subarea = st.none() | st.sampled_from(["Large Language Models", "Online Learning, Active "
                                       "Learning and Bandits", "Chemistry, Physics, and Earth "
                                       "Sciences", "Game Theory", "Everything Else"])
track = st.none() | st.tuples(area, subarea)
sentence = st.lists(st.text(_LOW, min_size=1, max_size=12), min_size=6, max_size=25).map(
    lambda ws: ws[0].capitalize() + " " + " ".join(ws[1:]) + ".")
extras = st.sampled_from(["", " We use LLaMA-2 · Qwen-2.5, see https://x.org/a,b.",
                          " With $\\mathcal{S}_{d-1}$ and \\textbf{bold}.", " Costs 5% less."])
abstract = st.builds(lambda ss, e: " ".join(ss) + e, st.lists(sentence, min_size=2, max_size=6),
                     extras)
paper = st.tuples(track, authors, st.booleans(), abstract)


def write_listing(papers, title: bool, sep: str) -> str:
    blocks = []
    for tr, names, cut, abs_ in papers:
        if tr:
            blocks.append(tr[0] if tr[1] is None else f"{tr[0]} · {tr[1]}")
        blocks.append(", ".join(names) + (" 等" if cut else ""))
        blocks.append(abs_)
    return ("论文检索" + sep if title else "") + sep.join(blocks) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(paper, min_size=1, max_size=8, unique_by=lambda p: p[3].lower()),
       st.booleans(), st.sampled_from(["\n\n", "\n\n\n", "\r\n\r\n"]))
def test_listing_round_trip(papers, title, sep):
    corpus = parse_text(write_listing(papers, title, sep))
    assert corpus.warnings == ()
    assert len(corpus.papers) == len(papers)
    for p, (tr, names, cut, abs_) in zip(corpus.papers, papers, strict=True):
        assert p.authors == tuple(names)
        assert p.authors_truncated == cut
        assert p.abstract == abs_
        if tr is None:
            assert p.track is None
        else:
            assert (p.track.area, p.track.subarea) == tr
