"""A listing whose tracks are the venues: for checking track-scoped queries on a big build.

The shared corpora have no track lines. This writes one listing of several of them
with a track line before every entry naming its venue (``Computer Vision · CVPR
2023`` before each CVPR 2023 entry, ``Machine Learning · ICML 2023`` before each
ICML 2023 one), generated at run time from the corpora's truth files (the
entries' author lines and abstracts exactly as the listings have them), so that
``kg build`` of it has areas, subareas and tracks to scope by.

Usage::

    python bench/venue_tracks.py /tmp/venues.txt            # CVPR 2023 + ICML 2023
    python bench/venue_tracks.py /tmp/v.txt --venue iclr_2023_all="Machine Learning · ICLR 2023"
    kg build /tmp/v.txt -o /tmp/venues

It prints how many entries of each venue it wrote; it asserts nothing.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

CORPORA = Path("/work/shared/corpora")
DEFAULT = {
    "cvpr_2023_all": "Computer Vision · CVPR 2023",
    "icml_2023_all": "Machine Learning · ICML 2023",
}


def entries(corpus: Path, track: str) -> list[str]:
    """The entries of ``corpus``'s truth file as listing text, each under ``track``."""
    out = []
    for line in corpus.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        authors = ", ".join(entry["authors_shown"]) + (" 等" if entry["authors_truncated"]
                                                      else "")
        out.append(f"{track}\n\n{authors}\n\n{entry['abstract']}\n")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output", help="the listing file to write")
    ap.add_argument("--venue", action="append", default=[], metavar="CORPUS=TRACK",
                    help="a corpus of /work/shared/corpora (file stem) and its track line "
                         "(default: CVPR 2023 and ICML 2023)")
    ap.add_argument("--corpora", default=str(CORPORA), help="the corpora folder")
    args = ap.parse_args(argv)
    venues = dict(v.split("=", 1) for v in args.venue) or DEFAULT
    parts = ["论文检索\n"]
    for stem, track in venues.items():
        got = entries(Path(args.corpora) / f"{stem}.truth.jsonl", track)
        parts.extend(got)
        print(f"{stem}: {len(got):,} entries under {track!r}")
    Path(args.output).write_text("\n".join(parts), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
