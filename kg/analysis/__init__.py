"""Co-authorship analysis: what Newman's studies and bibliometrix report.

Small functions over a :func:`kg.analysis.graphs.coauthor_graph`, heavy ones run by
igraph behind the NetworkX-shaped API; every random choice takes a seed.

- :mod:`~kg.analysis.network`: productivity (Lotka), components, density,
  clustering, assortativity, distances (exact or sampled, and said so);
- :mod:`~kg.analysis.centrality`: per-author degree, strength, betweenness,
  closeness, eigenvector, PageRank;
- :mod:`~kg.analysis.communities`: Louvain and Leiden, what each community
  is about;
- :mod:`~kg.analysis.pairs`: strongest pairs, ego networks;
- :mod:`~kg.analysis.caveats`: cut author lists, identity by name;
- :mod:`~kg.analysis.content`: papers, authors, entities and proposed names per track;
- :mod:`~kg.analysis.summary`: everything assembled into one report;
- :mod:`~kg.analysis.counts`: the build's counts, one name per thing counted;
- :mod:`~kg.analysis.graphs`: the NetworkX views (co-author graph, knowledge graph);
- :mod:`~kg.analysis.records`: the co-authorship report as typed values.

The package's public names are loaded on first use, so that importing one
module of the package (:mod:`kg.analysis.graphs`, say) loads no other.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as a type checker sees them; loaded on first use
    from kg.analysis.caveats import data_caveats, name_variants
    from kg.analysis.centrality import (
        AuthorMetrics,
        author_metrics,
        betweenness,
        closeness,
        degree_centrality,
        eigenvector,
        pagerank,
    )
    from kg.analysis.communities import Partition, describe, leiden, louvain, modularity
    from kg.analysis.content import content_tables
    from kg.analysis.counts import BuildCounts, build_counts
    from kg.analysis.network import distance_stats, lotka, network_stats, productivity
    from kg.analysis.pairs import ego_network, ego_summary, find_author, strongest_pairs
    from kg.analysis.summary import (
        CoauthorAnalysis,
        NetworkAnalysis,
        analyse,
        analyse_network,
        coauthor_report,
        extraction_summary,
        with_extractions,
    )

#: where each public name lives: imported on first use, so that importing one module
#: of the package (or the package) loads no other
_HOMES = {
    "data_caveats": "kg.analysis.caveats",
    "name_variants": "kg.analysis.caveats",
    "AuthorMetrics": "kg.analysis.centrality",
    "author_metrics": "kg.analysis.centrality",
    "betweenness": "kg.analysis.centrality",
    "closeness": "kg.analysis.centrality",
    "degree_centrality": "kg.analysis.centrality",
    "eigenvector": "kg.analysis.centrality",
    "pagerank": "kg.analysis.centrality",
    "Partition": "kg.analysis.communities",
    "describe": "kg.analysis.communities",
    "leiden": "kg.analysis.communities",
    "louvain": "kg.analysis.communities",
    "modularity": "kg.analysis.communities",
    "content_tables": "kg.analysis.content",
    "BuildCounts": "kg.analysis.counts",
    "build_counts": "kg.analysis.counts",
    "distance_stats": "kg.analysis.network",
    "lotka": "kg.analysis.network",
    "network_stats": "kg.analysis.network",
    "productivity": "kg.analysis.network",
    "ego_network": "kg.analysis.pairs",
    "ego_summary": "kg.analysis.pairs",
    "find_author": "kg.analysis.pairs",
    "strongest_pairs": "kg.analysis.pairs",
    "CoauthorAnalysis": "kg.analysis.summary",
    "NetworkAnalysis": "kg.analysis.summary",
    "analyse": "kg.analysis.summary",
    "analyse_network": "kg.analysis.summary",
    "coauthor_report": "kg.analysis.summary",
    "extraction_summary": "kg.analysis.summary",
    "with_extractions": "kg.analysis.summary",
}

__all__ = [
    "AuthorMetrics", "BuildCounts", "CoauthorAnalysis", "NetworkAnalysis", "Partition", "analyse",
    "analyse_network", "author_metrics", "with_extractions",
    "betweenness", "build_counts", "closeness", "coauthor_report", "content_tables", "data_caveats", "degree_centrality",
    "describe", "distance_stats", "ego_network", "ego_summary", "eigenvector",
    "extraction_summary", "find_author", "leiden", "louvain", "lotka", "modularity",
    "name_variants", "network_stats", "pagerank", "productivity", "strongest_pairs",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'kg.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
