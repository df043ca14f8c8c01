"""Hyper-authored papers: one paper with thousands of authors builds in bounded time and memory.

A paper's co-author pairs grow with the square of its team; above
:data:`kg.util.teams.MAX_LINKED_TEAM` authors they are not materialised, while
every author still reaches ``corpus.jsonl``, the RDF graph and the
co-authorship graph. Before that limit, 2,000 authors took 78 s and 2.1 GB,
3,000 took 187 s and 4.6 GB, and 10,000 + `` 等`` was killed at 13.9 GB.
"""
from __future__ import annotations

import json
import re

import pyoxigraph as ox
import pytest

from kg.rdf.vocab import SCHEMA
from kg.util.teams import MAX_LINKED_TEAM
from tests.hostile import assert_within_budget, build_case, listing

ABSTRACT = ("We report a measurement of the production cross-section of top quark pairs "
            "with the full detector dataset collected during the second run.")


def names(n: int) -> list[str]:
    """``n`` distinct names, as a listing writes them."""
    return [f"Given{i} Family{i}" for i in range(n)]


@pytest.mark.parametrize("n, cut", [(2_000, False), (3_000, False), (10_000, True)],
                         ids=["2000 authors", "3000 authors", "10000 authors + 等"])
def test_hyper_authored_paper_builds_within_budget(tmp_path, n, cut):
    authors = ", ".join(names(n)) + (" 等" if cut else "")
    run = build_case(f"one paper, {n:,} authors" + (" + 等" if cut else ""),
                     listing(ABSTRACT, authors=authors), tmp_path)
    assert_within_budget(run)
    assert run.returncode == 0, run.stderr
    out = tmp_path / "out"

    # every author is parsed, in order, and the cut is recorded
    (paper,) = [json.loads(line) for line in (out / "corpus.jsonl").read_text("utf-8").splitlines()]
    assert paper["authors"] == names(n)
    assert paper["authors_truncated"] is cut

    # every author is an author of the paper in the RDF graph
    triples = ox.parse(path=str(out / "graph.ttl"), format=ox.RdfFormat.TURTLE)
    author = ox.NamedNode(str(SCHEMA.author))
    assert sum(1 for t in triples if t.predicate == author) == n

    # and a node of the co-authorship graph, with no pair materialised
    graphml = (out / "coauthors.graphml").read_text("utf-8")
    assert len(re.findall(r"<node ", graphml)) == n
    assert "<edge " not in graphml
    report = json.loads((out / "report.json").read_text("utf-8"))["coauthors"]
    assert (report["network"]["nodes"], report["network"]["edges"]) == (n, 0)
    assert report["productivity"]["paper_person_links"] == n
    big = report["caveats"]["large_teams"]
    assert big == {"max_linked_team": MAX_LINKED_TEAM, "papers": 1, "authorships": n,
                   "largest": n, "pairs_not_linked": n * (n - 1) // 2}
    assert any(f"more than {MAX_LINKED_TEAM} authors" in note
               for note in report["caveats"]["notes"])
    # output stays linear in the authors (it was 629 MB for 2,000)
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert total < 4_000 * n + 10_000_000, f"{total:,} bytes of output"


def test_parsing_an_author_line_is_linear_in_its_names(tmp_path):
    """Four times the names take about four times as long to parse, not sixteen."""
    import time

    from kg.parse import read_corpus

    def seconds(n: int) -> float:
        path = tmp_path / f"a{n}.txt"
        path.write_text(listing(ABSTRACT, authors=", ".join(names(n)) + " 等"), encoding="utf-8")
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            (paper,) = read_corpus([path]).papers
            best = min(best, time.perf_counter() - t0)
        assert len(paper.authors) == n and paper.authors_truncated
        return best

    small, large = seconds(20_000), seconds(80_000)
    assert large < 8 * small + 0.05, f"20,000 names {small:.3f} s, 80,000 names {large:.3f} s"
