"""PNG plots of the co-authorship report (matplotlib, Agg; no global state).

Each function takes the co-authorship report (a
:class:`~kg.analysis.records.CoauthorReport`, as :func:`kg.analysis.analyse` gives
it, or its JSON) and returns PNG bytes; the same report gives the same bytes
(no timestamps or software version are embedded).

Examples
--------
>>> from kg.models import Corpus, Paper
>>> from kg.analysis import coauthor_report
>>> r = coauthor_report(Corpus((Paper("1", ("A", "B"), "x"), Paper("2", ("B", "C"), "y"))))
>>> png = degree_distribution_png(r)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""
from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from kg.analysis.records import CoauthorReport

__all__ = ["degree_distribution_png", "lotka_png", "component_sizes_png",
           "community_sizes_png", "PLOTS", "all_plots"]

_SIZE = (6.4, 4.4)
_DPI = 100


def _figure() -> tuple[Figure, Axes]:
    fig = Figure(figsize=_SIZE, dpi=_DPI)
    FigureCanvasAgg(fig)
    # fixed margins: tight_layout measures every tick label and took most of
    # the plotting time
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    ax.grid(True, which="major", alpha=0.3)
    return fig, ax


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _empty(ax: Axes, what: str) -> None:
    ax.text(0.5, 0.5, f"no {what}", ha="center", va="center", transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])


def degree_distribution_png(report: CoauthorReport | Mapping[str, Any]) -> bytes:
    """Share of authors with ``k`` collaborators, log-log (authors with k >= 1)."""
    every = CoauthorReport.from_json(report).network.collaborators_per_author.distribution
    dist = [(k, n) for k, n in every if k > 0]
    fig, ax = _figure()
    if not dist:
        _empty(ax, "collaborations")
    else:
        total = sum(n for _, n in every)
        ax.loglog([k for k, _ in dist], [n / total for _, n in dist], "o", ms=4, color="#1f77b4")
        ax.set_xlabel("collaborators k (distinct co-authors)")
        ax.set_ylabel("share of authors P(k)")
    ax.set_title("Degree distribution of the co-authorship graph")
    return _png(fig)


def lotka_png(report: CoauthorReport | Mapping[str, Any]) -> bytes:
    """Authors by number of papers (Lotka's law), log-log, with the fitted line."""
    prod = CoauthorReport.from_json(report).productivity
    dist = prod.papers_per_author.distribution
    fig, ax = _figure()
    if not dist:
        _empty(ax, "authors")
    else:
        total = sum(n for _, n in dist)
        xs = [k for k, _ in dist]
        ax.loglog(xs, [n / total for _, n in dist], "o", ms=5, color="#2ca02c", label="observed")
        fit = prod.lotka
        if fit:
            line = [fit.C / k ** fit.beta for k in xs]
            ax.loglog(xs, line, "-", color="#d62728",
                      label=f"Lotka fit: C / k^{fit.beta:.2f} (R² {fit.r2:.2f})")
            ax.legend(loc="upper right")
        ax.set_xlabel("papers per author")
        ax.set_ylabel("share of authors")
    ax.set_title("Author productivity (Lotka's law)")
    return _png(fig)


def component_sizes_png(report: CoauthorReport | Mapping[str, Any]) -> bytes:
    """How many connected components there are of each size, log-log."""
    comps = CoauthorReport.from_json(report).network.components
    sizes = comps.sizes
    fig, ax = _figure()
    if not sizes:
        _empty(ax, "components")
    else:
        ax.loglog([s for s, _ in sizes], [n for _, n in sizes], "s", ms=5, color="#9467bd")
        big = comps.largest
        share = comps.largest_share or 0
        ax.annotate(f"largest: {big} authors ({share:.0%})", xy=(big, 1),
                    xytext=(0.5, 0.85), textcoords="axes fraction",
                    arrowprops={"arrowstyle": "->", "color": "gray"})
        ax.set_xlabel("component size (authors)")
        ax.set_ylabel("number of components")
    ax.set_title("Connected components")
    return _png(fig)


def community_sizes_png(report: CoauthorReport | Mapping[str, Any]) -> bytes:
    """Community sizes by rank (Leiden and Louvain), log-log."""
    communities = CoauthorReport.from_json(report).communities
    fig, ax = _figure()
    drawn = False
    for method, style in (("leiden", "o"), ("louvain", "x")):
        part = getattr(communities, method)
        if not part.sizes:
            continue
        ranked = sorted((s for s, n in part.sizes for _ in range(n)), reverse=True)
        q = part.modularity
        qtext = f", Q = {q:.3f}" if q is not None else ""
        ax.loglog(range(1, len(ranked) + 1), ranked, style, ms=4,
                  label=f"{method} ({len(ranked)} communities{qtext})")
        drawn = True
    if drawn:
        ax.set_xlabel("rank")
        ax.set_ylabel("community size (authors)")
        ax.legend(loc="upper right")
    else:
        _empty(ax, "communities")
    ax.set_title("Community sizes")
    return _png(fig)


PLOTS = {
    "degree_distribution.png": degree_distribution_png,
    "papers_per_author.png": lotka_png,
    "component_sizes.png": component_sizes_png,
    "community_sizes.png": community_sizes_png,
}


def all_plots(report: CoauthorReport | Mapping[str, Any]) -> dict[str, bytes]:
    """Every plot, by file name (in :data:`kg.outputs.PLOTS_DIR`)."""
    report = CoauthorReport.from_json(report)
    return {name: fn(report) for name, fn in PLOTS.items()}
