"""Benchmark of the HTML views: a 10,000-person page in headless Chromium, and page sizes.

Prints, for the co-authorship view of the ICML 2024 corpus (about 9,500
people): the time to build the view in Python, to render the HTML, the page
size, and the time headless Chromium takes to open and draw it (navigation
start to vis-network's first ``afterDrawing``; median of ``--runs``), against
the goal of 5 s. Then the size of the bundled sample's ``kg`` page (goal
under 1.5 MB; the sample is extracted with spaCy first, about 20 s).

Usage::

    python bench/viz_bench.py [--corpus FILE] [--runs 3] [--keep DIR]

Needs Debian's Chromium at /usr/bin/chromium (``.ci/install-browser.sh``)
and Playwright (the ``test`` extra).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GOAL_DRAW_S = 5.0
GOAL_SAMPLE_MB = 1.5


def open_and_draw(path: Path, runs: int) -> list[dict]:
    """Open ``path`` ``runs`` times (fresh page, networking blocked); timings in ms."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for _ in range(runs):
                ctx = browser.new_context(viewport={"width": 1280, "height": 800}, offline=True)
                page = ctx.new_page()
                blocked: list[str] = []
                page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:")
                           else (blocked.append(r.request.url), r.abort()))
                t0 = time.perf_counter()
                page.goto(path.resolve().as_uri(), wait_until="commit")
                page.wait_for_function("window.kgReady !== undefined", timeout=60_000,
                                       polling=20)
                wall = (time.perf_counter() - t0) * 1000
                ready = page.evaluate("kgReady")
                out.append({"drawn_ms": ready["drawn"], "script_ms": ready["scriptStart"],
                            "wall_ms": wall, "nodes": ready["nodes"], "edges": ready["edges"],
                            "blocked": len(blocked)})
                ctx.close()
        finally:
            browser.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpora" / "icml_2024_all.txt"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", default=None, help="folder to keep the pages in")
    args = ap.parse_args(argv)

    from kg.models import Build
    from kg.parse import read_corpus
    from kg.viz import coauthors_view, kg_view, to_html

    folder = Path(args.keep or tempfile.mkdtemp(prefix="kg-viz-bench-"))
    folder.mkdir(parents=True, exist_ok=True)

    t0 = time.perf_counter()
    corpus = read_corpus([args.corpus])
    t_parse = time.perf_counter() - t0
    t0 = time.perf_counter()
    net = coauthors_view(Build(corpus))
    t_view = time.perf_counter() - t0
    t0 = time.perf_counter()
    page = to_html(net)
    t_html = time.perf_counter() - t0
    path = folder / "icml_coauthors.html"
    path.write_text(page, encoding="utf-8")
    print(f"corpus: {Path(args.corpus).name}: {len(corpus.papers):,} papers "
          f"(parsed in {t_parse:.2f} s)")
    print(f"coauthors view: {len(net.nodes):,} people, {len(net.edges):,} links; "
          f"built in {t_view:.2f} s (graph, Leiden, layout), HTML in {t_html:.2f} s, "
          f"{len(page.encode()) / 1e6:.2f} MB")
    for note in net.notes:
        print(f"  note: {note}")

    import os

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load} (timings stretch under load)")
    runs = open_and_draw(path, args.runs)
    for i, r in enumerate(runs, 1):
        print(f"  run {i}: drawn {r['drawn_ms'] / 1000:.2f} s after navigation start "
              f"(script started at {r['script_ms'] / 1000:.2f} s; wall {r['wall_ms'] / 1000:.2f} s; "
              f"{r['nodes']:,} nodes in the page; {r['blocked']} requests blocked)")
    drawn = statistics.median(r["drawn_ms"] for r in runs) / 1000
    verdict = "ok" if drawn < GOAL_DRAW_S else "OVER"
    print(f"open and draw in headless Chromium: median {drawn:.2f} s "
          f"(goal < {GOAL_DRAW_S:.0f} s: {verdict})")

    from kg.extract import extract_corpus
    from kg.pipeline import sample_files

    t0 = time.perf_counter()
    sample = read_corpus(sample_files())
    build = Build(sample, {ex.paper_id: ex for ex in extract_corpus(sample)})
    t_extract = time.perf_counter() - t0
    kg_page = to_html(kg_view(build))
    (folder / "sample_kg.html").write_text(kg_page, encoding="utf-8")
    mb = len(kg_page.encode()) / 1e6
    print(f"bundled sample kg view: {mb:.2f} MB (goal < {GOAL_SAMPLE_MB} MB: "
          f"{'ok' if mb < GOAL_SAMPLE_MB else 'OVER'}; extraction took {t_extract:.1f} s)")
    if args.keep:
        print(f"pages in {folder}")
    else:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return 0 if drawn < GOAL_DRAW_S and mb < GOAL_SAMPLE_MB else 1


if __name__ == "__main__":
    sys.exit(main())
