"""kg.parse.sample: the bundled sample listings."""
from __future__ import annotations


def test_seeds(sample_corpus):
    c = sample_corpus
    assert c.entries == 40 and len(c.papers) == 39 and c.merged == 1 and c.skipped == 0
    assert c.warnings == ()
    twice = [p for p in c.papers if len(p.sources) == 2]
    assert len(twice) == 1
    assert twice[0].track.line == "Social Aspects · Alignment"
    assert twice[0].authors[0] == "Vansh Gupta"
    assert sum(p.track is not None for p in c.papers) == 32  # 32 track lines in the seeds
    assert sum(p.authors_truncated for p in c.papers) == 2  # two lines end in 等
    # every author line and track line in the seeds, checked against the files
    from kg.parse.sample import sample_files

    lines = [ln.strip() for f in sample_files()
             for ln in f.read_text(encoding="utf-8").splitlines() if ln.strip()]
    tracks = {ln for ln in lines if " · " in ln}
    assert {p.track.line for p in c.papers if p.track} == tracks
    written = {", ".join(p.authors) + (" 等" if p.authors_truncated else "") for p in c.papers}
    assert written <= set(lines)
