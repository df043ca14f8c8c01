"""The co-authorship report: every analysis of this package, assembled.

:func:`analyse` runs them once over a build and returns the graph, the
per-author table, the partitions and the ``report``, a typed
:class:`~kg.analysis.records.CoauthorReport` (floats rounded to 6 significant
digits, every list sorted, no timings), so the same input gives
byte-identical ``report.json``; :func:`coauthor_report` is its JSON view.

Examples
--------
>>> from kg.models import Corpus, Paper
>>> c = Corpus((Paper("1", ("A", "B"), "x"), Paper("2", ("B", "C"), "y")))
>>> r = analyse(c).report
>>> r.network.nodes, r.network.edges, r.centrality.top["betweenness"][0].name
(3, 2, 'B')
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import networkx as nx

from kg.analysis._igraph import IGraph, from_data, to_igraph
from kg.analysis.caveats import data_caveats, homonym_note, homonym_suspects
from kg.analysis.centrality import METRICS, AuthorMetrics, author_metrics
from kg.analysis.communities import Partition, describe, leiden, louvain
from kg.analysis.graphs import CoauthorData, coauthor_data
from kg.analysis.network import (
    EXACT_LIMIT,
    SAMPLES,
    bfs_sample,
    component_vertices,
    distribution,
    is_large,
    network_stats,
    productivity,
)
from kg.analysis.pairs import ego_summary, strongest_pairs
from kg.analysis.records import CoauthorReport
from kg.models import Build, Corpus, JsonObject

__all__ = ["CoauthorAnalysis", "NetworkAnalysis", "analyse", "analyse_network", "coauthor_report",
           "extraction_summary", "rounded", "with_extractions"]

TOP = 20
_ROW = ("name", "papers", "collaborators", "strength", "betweenness", "closeness",
        "eigenvector", "pagerank")


def rounded(obj: Any, digits: int = 6) -> Any:
    """``obj`` with every float rounded to ``digits`` significant digits.

    NaN and infinities become ``None`` (JSON has no such numbers).

    Examples
    --------
    >>> rounded({"a": [1 / 3, 2.0, float("nan")], "b": (7, "x")})
    {'a': [0.333333, 2.0, None], 'b': [7, 'x']}
    """
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return obj
    if isinstance(obj, float):
        if not math.isfinite(obj):
            return None
        return float(f"{obj:.{digits}g}") if obj else 0.0
    if isinstance(obj, dict):
        return {k: rounded(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rounded(v, digits) for v in obj]
    if hasattr(obj, "item"):  # NumPy scalar
        return rounded(obj.item(), digits)
    return obj


def extraction_summary(build: Build, top: int = TOP) -> JsonObject:
    """The most mentioned entities: ``[name, type, papers mentioning it]``, most first.

    Concepts are left out (:mod:`kg.analysis.content` ranks them); the counts
    of mentions and entities are :func:`kg.analysis.counts.build_counts`'s.

    Examples
    --------
    >>> from kg.models import Corpus, Extraction, Mention, Paper
    >>> p = Paper("1", ("A",), "BERT and BERT")
    >>> ms = (Mention("BERT", "BERT", "model", 0, 4, key="bert"),
    ...       Mention("BERT", "BERT", "model", 9, 13, key="bert"))
    >>> extraction_summary(Build(Corpus((p,)), {"1": Extraction("1", p.abstract, ms)}))
    {'top_entities': [['BERT', 'model', 1]]}
    """
    papers: Counter[str] = Counter()
    label: dict[str, tuple[str, str]] = {}
    for ex in build.extractions.values():
        keys: dict[str, None] = {}
        for m in ex.mentions:
            if m.layer == "concept":  # concepts are counted by kg.analysis.content
                continue
            k = m.identity_key
            label.setdefault(k, (m.canonical, m.type))
            keys[k] = None
        papers.update(list(keys))
    best = sorted(papers.items(), key=lambda kv: (-kv[1], label[kv[0]][0]))[:top]
    return {"top_entities": [[label[k][0], label[k][1], n] for k, n in best]}


@dataclass(frozen=True, eq=False)
class CoauthorAnalysis:
    """The products of :func:`analyse`.

    ``graph`` is the NetworkX co-authorship graph: the one passed in, or
    built on first use from the arrays the analysis ran on (building it is
    the slowest part of a large corpus, so a report alone never does).
    """

    metrics: AuthorMetrics
    leiden: Partition
    louvain: Partition
    report: CoauthorReport
    igraph: IGraph
    source: nx.Graph | CoauthorData

    @cached_property
    def graph(self) -> nx.Graph:
        src = self.source
        return src if isinstance(src, nx.Graph) else src.to_networkx()


def _row(r: JsonObject, community: Mapping[str, int]) -> JsonObject:
    out = {c: r[c] for c in _ROW}
    out["community"] = community.get(r["key"])
    return out


def analyse(build: Build | Corpus, G: nx.Graph | None = None, *, seed: int = 0, top: int = TOP,
            exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES) -> CoauthorAnalysis:
    """Run every co-authorship analysis over ``build``.

    Parameters
    ----------
    build : Build or Corpus
        The papers (and extractions, for the communities' entities).
    G : networkx.Graph, optional
        Its co-authorship graph, if already built (:func:`kg.analysis.graphs.coauthor_graph`).
    seed : int
        Seed of every random choice (sampled sources, community detection).
    top : int
        Length of the top-author, pair and community lists.
    exact_limit, samples : int
        Components with more than ``exact_limit`` nodes x edges get sampled distances,
        betweenness and closeness from ``samples`` sources; the report says so.
    """
    build = Build(corpus=build) if isinstance(build, Corpus) else build
    return with_extractions(analyse_network(build.corpus, G, seed=seed, top=top,
                                            exact_limit=exact_limit, samples=samples), build)


@dataclass(frozen=True, eq=False)
class NetworkAnalysis:
    """The part of :func:`analyse` that needs the authors only, not the extractions.

    A parallel build runs it while the abstracts are being extracted;
    :func:`with_extractions` finishes it (the communities' entities).
    ``report`` is the report's JSON without the Leiden communities' details.
    """

    metrics: AuthorMetrics
    leiden: Partition
    louvain: Partition
    report: JsonObject
    igraph: IGraph
    source: nx.Graph | CoauthorData
    top: int

    @cached_property
    def graph(self) -> nx.Graph:
        """The NetworkX co-authorship graph (built once, on first use)."""
        src = self.source
        return src if isinstance(src, nx.Graph) else src.to_networkx()

    def provisional_report(self) -> CoauthorReport:
        """The report without the Leiden communities' details (enough for the plots)."""
        communities = self.report["communities"]
        report = {**self.report, "communities": {
            **communities, "leiden": {**communities["leiden"], "top": []}}}
        return CoauthorReport.from_json(rounded(report))


def analyse_network(corpus: Corpus, G: nx.Graph | None = None, *, seed: int = 0, top: int = TOP,
                    exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES) -> NetworkAnalysis:
    """Every analysis of :func:`analyse` that reads the author lists alone."""
    source: nx.Graph | CoauthorData
    if G is None:
        source = coauthor_data(corpus)
        h = from_data(source)
    else:
        source, h = G, to_igraph(G)
    # from here on everything reads the igraph copy h (G is not needed)
    comps = component_vertices(h)
    big = [c for c in comps if is_large(h, c, exact_limit)]
    bfs = {c[0]: bfs_sample(h, c, samples, seed) for c in big}
    if comps and comps[0][0] not in bfs and len(comps[0]) > 1:
        # the largest component, searched from every node: exact distances and
        # closeness in one bit-parallel pass
        bfs[comps[0][0]] = bfs_sample(h, comps[0], len(comps[0]), seed)
    lcc_sample = bfs.get(comps[0][0]) if comps else None

    net = network_stats(None, exact_limit=exact_limit, samples=samples, seed=seed, h=h,
                        sample=lcc_sample)
    metrics = author_metrics(None, exact_limit=exact_limit, samples=samples, seed=seed, h=h, bfs=bfs)
    part_leiden = leiden(None, seed=seed, h=h)
    part_louvain = louvain(None, seed=seed, h=h)
    community = dict(part_leiden.membership)

    tops = {m: [_row(r, community) for r in metrics.top(m, top)]
            for m in METRICS if m != "degree_centrality"}
    ego = None
    if tops["collaborators"] and tops["collaborators"][0]["collaborators"] > 0:
        ego = ego_summary(None, metrics.top("collaborators", 1)[0]["key"], top=top, h=h)

    def comm(p: Partition) -> JsonObject:
        return {
            "count": len(p.sizes),
            "modularity": p.modularity,
            "seed": p.seed,
            "sizes": distribution(p.sizes),
            "largest": p.sizes[0] if p.sizes else 0,
            "non_singleton": sum(1 for s in p.sizes if s > 1),
        }

    caveats = data_caveats(corpus)
    caveats["homonyms"] = homonym_suspects(h)
    caveats["notes"].append(homonym_note(caveats["homonyms"]))
    report = {
        "parameters": {"seed": seed, "top": top, "exact_limit": exact_limit, "samples": samples},
        "caveats": caveats,
        "productivity": productivity(corpus),
        "network": net,
        "centrality": {"method": metrics.method, "top": tops},
        "communities": {
            "method": "modularity maximisation on collaboration strengths (igraph), seed "
                      f"{seed}; communities numbered by size; a paper belongs to the "
                      "community of most of its authors",
            "leiden": comm(part_leiden),
            "louvain": comm(part_louvain),
        },
        "strongest_pairs": {
            "by_weight": strongest_pairs(None, top, by="weight", h=h),
            "by_papers": strongest_pairs(None, top, by="papers", h=h),
        },
        "ego": ego,
    }
    return NetworkAnalysis(metrics=metrics, leiden=part_leiden, louvain=part_louvain,
                           report=report, igraph=h, source=source, top=top)


def with_extractions(net: NetworkAnalysis, build: Build) -> CoauthorAnalysis:
    """:func:`analyse_network`'s result finished with what the Leiden communities
    are about (their papers, tracks and entities in ``build``)."""
    communities = net.report["communities"]
    leiden_ = {**communities["leiden"],
               "top": describe(net.leiden, None, build, top=net.top, h=net.igraph)}
    report = {**net.report, "communities": {**communities, "leiden": leiden_}}
    return CoauthorAnalysis(metrics=net.metrics, leiden=net.leiden, louvain=net.louvain,
                            report=CoauthorReport.from_json(rounded(report)), igraph=net.igraph,
                            # the NetworkX graph, if the first half built it already
                            source=net.__dict__.get("graph", net.source))


def coauthor_report(build: Build | Corpus, G: nx.Graph | None = None, *, seed: int = 0,
                    top: int = TOP, exact_limit: int = EXACT_LIMIT,
                    samples: int = SAMPLES) -> JsonObject:
    """The JSON-ready report of :func:`analyse` (``report.json``'s ``coauthors``)."""
    return analyse(build, G, seed=seed, top=top, exact_limit=exact_limit,
                   samples=samples).report.to_json()
