"""The eight questions of issue #30, each one command, checked against the abstracts.

A researcher's eight questions to a conference, asked of a build as one ``kg``
command each (printed, then the head of its answer), and, where a question is
about papers of a topic, the same papers counted by a regular expression over
the abstracts (the build's corpus.jsonl), side by side:

1. which papers of track T are about concept C (``papers-in-scope``);
2. what track T is about (``top-concepts --param track=T``);
3. the central authors of track T (``kg coauthors --track``);
4. the central authors of a topic (``kg coauthors --concept``);
5. the authors who bridge two topics (``bridging-authors``);
6. the models that papers proposing a kind of method use (``models-of-proposers``);
7. the datasets proposed in track T (``proposals-per-track --param type=dataset``);
8. the papers most like one named paper (``similar-papers --param paper=NAME``).

Usage::

    python bench/venue_tracks.py /tmp/v.txt --venue cvpr_2023_all="Computer Vision · CVPR 2023" \\
        --venue iclr_2023_all="Machine Learning · ICLR 2023" \\
        --venue icml_2023_all="Machine Learning · ICML 2023"
    kg build /tmp/v.txt -o /tmp/venues
    python bench/eight_questions.py /tmp/venues

The defaults ask about the venue tracks that listing has; ``--track``,
``--topic`` and the other options ask another build. It prints what it
finds; it asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_NEXT = Path(sys.executable).with_name("kg")  # the kg of the Python running this
KG = [str(_NEXT) if _NEXT.is_file() else "kg"]


def _kg(args: list[str], head: int, start: str | None = None) -> list[str]:
    """Run one kg command, print it and the head of its answer (from the line holding
    ``start``, when given); the answer's lines."""
    print("$ kg " + " ".join(a if re.fullmatch(r"[\w./=:-]+", a) else repr(a) for a in args))
    proc = subprocess.run(KG + args, capture_output=True, text=True, cwd=HERE.parent)
    lines = proc.stdout.splitlines()
    if start is not None:
        at = next((i for i, line in enumerate(lines) if start in line), 0)
        lines = lines[at:]
        head = min(head, len(lines))
    for line in lines[:head]:
        print("    " + line[:150])
    if len(lines) > head:
        print(f"    ... {len(lines) - 1:,} rows in all")
    if proc.returncode:
        print(f"    exit {proc.returncode}: {proc.stderr.strip()}")
    return lines


def _rows(lines: list[str]) -> int:
    return max(0, len(lines) - 1)


def _text_count(papers: list[dict[str, str]], track: str | None, *patterns: str) -> int:
    """Papers (of ``track``, a label's last part, when given) whose abstract matches every pattern."""
    found = 0
    for p in papers:
        if track and not str(p.get("track") or "").lower().endswith(track.lower()):
            continue
        if all(re.search(pat, p["abstract"], re.IGNORECASE) for pat in patterns):
            found += 1
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", help="a build folder")
    ap.add_argument("--track", default="CVPR 2023", help="the track of questions 1 and 7")
    ap.add_argument("--topic", default="diffusion model", help="the concept of question 1")
    ap.add_argument("--topic-re", default=r"\bdiffusion", help="its text search")
    ap.add_argument("--track2", default="ICLR 2023", help="the track of questions 2 and 3")
    ap.add_argument("--rl", default="reinforcement learning", help="the topic of questions 4, 5")
    ap.add_argument("--rl-re", default=r"reinforcement learning|\bRL\b")
    ap.add_argument("--llm", default="large language model", help="the other side of question 5")
    ap.add_argument("--llm-re", default=r"large language models?|\bLLMs?\b")
    ap.add_argument("--kind", default="quantization", help="the method kind of question 6")
    ap.add_argument("--paper", default="Magic3D", help="the paper of question 8, by name")
    ap.add_argument("--head", type=int, default=9, help="answer lines to show")
    a = ap.parse_args(argv)
    b, h = a.build, a.head
    papers = [json.loads(line) for line in (Path(b) / "corpus.jsonl").open(encoding="utf-8")]
    q = ["query", "--from", b, "--format", "csv"]

    print(f"build {b}: {len(papers):,} papers\n\n1. papers of {a.track} about {a.topic}")
    n = _rows(_kg(q[:1] + ["papers-in-scope", "--param", f"track={a.track}", "--param",
                           f"concept={a.topic}"] + q[1:], h))
    print(f"   the graph: {n:,} papers; abstracts of the track matching /{a.topic_re}/: "
          f"{_text_count(papers, a.track, a.topic_re):,} (bench/scope_check.py lists the "
          "differences)\n\n2. what " + a.track2 + " is about")
    _kg(q[:1] + ["top-concepts", "--param", f"track={a.track2}"] + q[1:], h)
    print(f"\n3. central authors of {a.track2}")
    _kg(["coauthors", "--from", b, "--track", a.track2], 14, "Top authors by papers")
    print(f"\n4. central authors of the topic {a.rl}")
    _kg(["coauthors", "--from", b, "--concept", a.rl], 14, "Top authors by papers")
    print(f"   abstracts matching /{a.rl_re}/: {_text_count(papers, None, a.rl_re):,}")
    print(f"\n5. authors who bridge {a.rl} and {a.llm}")
    _kg(q[:1] + ["bridging-authors", "--param", f"concept1={a.rl}", "--param",
                 f"concept2={a.llm}"] + q[1:], h)
    print(f"   abstracts matching both: {_text_count(papers, None, a.rl_re, a.llm_re):,}")
    print(f"\n6. models used by papers proposing a {a.kind} method")
    _kg(q[:1] + ["models-of-proposers", "--param", f"kind={a.kind}"] + q[1:], h)
    print(f"\n7. datasets proposed in {a.track}")
    n = _rows(_kg(q[:1] + ["proposals-per-track", "--param", f"track={a.track}", "--param",
                           "type=dataset"] + q[1:], h))
    print(f"   {n:,} rows\n\n8. papers most like {a.paper}")
    _kg(q[:1] + ["similar-papers", "--param", f"paper={a.paper}"] + q[1:], h)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
