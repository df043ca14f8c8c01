"""Which broader links of the concept hierarchy the papers do not bear out.

A paper about a narrower concept is counted as about every broader one
(``papers-about``, ``kg coauthors --concept``, the ``concept`` scope). A link
``n -> b`` is borne out when the papers that mention ``n`` are, apart from
``n``, about ``b`` too: they mention ``b``, another concept under it, or an
entity under one. For each link with at least ``--min`` papers mentioning
``n`` it prints that share (the *support*), lowest first: "sample
efficiency -> reinforcement learning" at a low share says that the phrase is
used well outside reinforcement learning, and every such paper lands in the
reinforcement-learning answers. A low share is a reason to read the link, not
a verdict: a specific concept whose papers name nothing else of its field
(a benchmark's name alone) scores low too.

Usage::

    cat /work/shared/corpora/*_all.txt > /tmp/all5.txt && kg build /tmp/all5.txt -o /tmp/all5
    python bench/hierarchy_links.py /tmp/all5 [--min 10] [--top 40]

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PREFIXES = """PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX schema: <https://schema.org/>
PREFIX kgo: <https://w3id.org/paper-kg/ontology#>
"""


def _pairs(store: object, text: str) -> list[tuple[str, str]]:
    res = store.query(PREFIXES + text)  # type: ignore[attr-defined]
    return [(str(a.value), str(b.value)) for a, b in res.rows]


def _support(label: dict[str, str], broader: list[tuple[str, str]],
             under: list[tuple[str, str]], mentions: list[tuple[str, str]],
             least: int) -> list[tuple[float, int, str, str]]:
    """(support, papers, narrower label, broader label) of every link with >= ``least`` papers."""
    up: dict[str, set[str]] = defaultdict(set)
    for n, b in broader:
        up[n].add(b)

    def ancestors(c: str) -> set[str]:
        seen: set[str] = set()
        todo = [c]
        while todo:
            for b in up.get(todo.pop(), ()):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    instance: dict[str, set[str]] = defaultdict(set)
    for e, c in under:
        instance[e].add(c)
    # what each paper is about, through each thing it mentions: thing -> concepts
    reach: dict[str, set[str]] = {}
    about: dict[str, dict[str, set[str]]] = defaultdict(dict)  # paper -> thing -> concepts
    for p, x in mentions:
        if x not in reach:
            direct = ({x} if x in label else set()) | instance.get(x, set())
            reach[x] = set().union(direct, *(ancestors(c) for c in direct))
        about[p][x] = reach[x]
    papers_of: dict[str, set[str]] = defaultdict(set)
    for p, things in about.items():
        for x in things:
            if x in label:
                papers_of[x].add(p)
    rows = []
    for n, b in broader:
        papers = papers_of.get(n, set())
        if len(papers) < least:
            continue
        borne = sum(1 for p in papers
                    if any(b in cs for x, cs in about[p].items() if x != n))
        rows.append((borne / len(papers), len(papers), label.get(n, n), label.get(b, b)))
    return rows


def main(argv: list[str] | None = None) -> int:
    from kg.store.embedded import EmbeddedStore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", help="a build folder")
    ap.add_argument("--min", type=int, default=10, help="papers mentioning the narrower one")
    ap.add_argument("--top", type=int, default=40, help="links to print")
    a = ap.parse_args(argv)
    with EmbeddedStore(Path(a.build) / "store") as st:
        label = dict(_pairs(st, "SELECT ?c ?l WHERE { ?c a kgo:Concept ; skos:prefLabel ?l }"))
        broader = _pairs(st, "SELECT ?n ?b WHERE { ?n skos:broader ?b . ?n a kgo:Concept }")
        under = _pairs(st, "SELECT ?e ?c WHERE { ?e kgo:instanceOf ?c }")
        mentions = _pairs(st, "SELECT ?p ?x WHERE { ?p schema:mentions ?x }")
    rows = _support(label, broader, under, mentions, a.min)
    rows.sort(key=lambda r: (r[0], -r[1], r[2], r[3]))
    print(f"{len(rows):,} links with >= {a.min} papers mentioning the narrower concept; "
          f"median support {rows[len(rows) // 2][0]:.2f}" if rows else "no link")
    print(f"{'support':>7} {'papers':>6}  narrower -> broader")
    for share, n_papers, nl, bl in rows[:a.top]:
        print(f"{share:7.2f} {n_papers:6}  {nl} -> {bl}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
