"""Papers of a track about a concept, against a plain text search of their abstracts.

Runs ``papers-in-scope`` (track and concept) on a build's store and a regular
expression over the abstracts of the same track's papers (the build's
corpus.jsonl), and prints side by side how many each finds, how many both find,
and a few papers each finds alone (with the words around the match), to read by
hand.

Usage::

    python bench/scope_check.py /tmp/venues "CVPR 2023" "diffusion model" "diffusion"
    python bench/scope_check.py output "Deep Learning" RL "reinforcement learning|\\bRL\\b"

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]


def main(argv: list[str] | None = None) -> int:
    from kg import queries
    from kg.queries.values import find_track, tracks
    from kg.store.embedded import EmbeddedStore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", help="a build folder")
    ap.add_argument("track", help="the track (full label, area or subarea)")
    ap.add_argument("concept", help="the concept")
    ap.add_argument("pattern", help="a regular expression the abstracts are searched for "
                                    "(ignoring case)")
    ap.add_argument("--show", type=int, default=5, help="papers to show of each difference")
    args = ap.parse_args(argv)
    store = EmbeddedStore(Path(args.build) / "store")
    label = find_track(args.track, tracks(store))
    res = queries.run(store, "papers-in-scope", {"track": args.track, "concept": args.concept})
    graph = {str(t.value) for t in res.column("paper")}
    pattern = re.compile(args.pattern, re.IGNORECASE)
    papers = [json.loads(line) for line in (Path(args.build) / "corpus.jsonl").open(
        encoding="utf-8")]
    area = label.split(" · ")[0] if " · " not in args.track else None
    in_track = [p for p in papers if p.get("track") == label
                or (area is not None and label == area and p.get("area") == area)]
    text = {p["id"] for p in in_track if pattern.search(p["abstract"])}
    both = graph & text
    print(f"track {label!r}: {len(in_track):,} papers; about {args.concept!r} (the graph): "
          f"{len(graph)}; abstracts matching /{args.pattern}/: {len(text)}; both: {len(both)}")
    by_id = {p["id"]: p for p in in_track}
    for name, ids in (("the graph only", graph - text), ("the text search only", text - graph)):
        print(f"\n{name}: {len(ids)}")
        for pid in sorted(ids)[:args.show]:
            abstract = by_id[pid]["abstract"]
            m = pattern.search(abstract)
            where = abstract[max(0, m.start() - 60):m.end() + 60] if m else abstract[:120]
            print(f"  {pid}: …{' '.join(where.split())}…")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
