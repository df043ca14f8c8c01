"""How well the concept map's layout shows its clusters: before (one force layout
of the whole map) and after (:func:`kg.viz.clusterlayout.cluster_layout`).

For each build it prints, side by side:

- the modularity of the clusters (Leiden as the map ran it before: two
  passes; after: passes until no improvement);
- the silhouette of the node positions by cluster (:func:`kg.viz.clusterlayout.silhouette`,
  Euclidean, 0 for a cluster of one), over every term of the map and over the
  terms the page shows at the start (at least ``n_min`` papers);
- the time the layout took (best of ``--runs``).

Usage::

    python bench/layout_quality.py BUILD_DIR [BUILD_DIR ...] [--runs 3]

A build folder is what ``kg build -o DIR`` writes; without any, the bundled
sample is built into a temporary folder. Goal: silhouette >= 0.3 after.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL = 0.3


def _best(fn, runs: int):
    best, out = float("inf"), None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


def measure(build_dir: Path, runs: int) -> list[tuple[str, str, str]]:
    """(figure, before, after) rows for one build."""
    from kg.analysis.communities import leiden
    from kg.build.read import load_build
    from kg.viz.clusterlayout import cluster_layout, silhouette
    from kg.viz.conceptmap import term_map
    from kg.viz.layout import layout

    build = load_build(build_dir)
    tm = term_map(build)
    T = tm.graph
    old = leiden(T, seed=0)  # the map's clusters before: igraph's default two passes
    old_pos, old_s = _best(lambda: layout(T, seed=0, weight="weight"), runs)
    new_pos, new_s = _best(lambda: cluster_layout(T, tm.membership, seed=0, weight="weight"), runs)
    keys = [t.key for t in tm.terms]
    shown = [t.key for t in tm.terms if len(t.papers) >= tm.n_min]

    def sil(pos, membership, ks) -> str:
        return f"{silhouette([pos[k] for k in ks], [membership[k] for k in ks]):.3f}"

    return [
        ("terms (shown at start)", f"{len(keys)} ({len(shown)})", ""),
        ("clusters (of 2+ terms)", f"{len(old.sizes)} ({sum(s > 1 for s in old.sizes)})",
         f"{max(tm.membership.values()) + 1} "
         f"({sum(1 for c in set(tm.membership.values()) if list(tm.membership.values()).count(c) > 1)})"),
        ("modularity", f"{old.modularity:.3f}", f"{tm.modularity:.3f}"),
        ("silhouette, all terms", sil(old_pos, old.membership, keys),
         sil(new_pos, tm.membership, keys)),
        ("silhouette, shown at start", sil(old_pos, old.membership, shown),
         sil(new_pos, tm.membership, shown)),
        ("layout time, s", f"{old_s:.3f}", f"{new_s:.3f}"),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("builds", nargs="*", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    builds = list(args.builds)
    if not builds:
        from kg.build.pipeline import build

        tmp = Path(tempfile.mkdtemp(prefix="kg-layout-quality-"))
        build(None, tmp / "sample")
        builds = [tmp / "sample"]
    print(f"{'build':<22} {'figure':<28} {'before':>12} {'after':>12}")
    for b in builds:
        for fig, before, after in measure(b, args.runs):
            print(f"{b.name:<22} {fig:<28} {before:>12} {after:>12}")
    print(f"goal: silhouette after >= {GOAL}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
