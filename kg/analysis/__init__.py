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
- :mod:`~kg.analysis.summary`: everything assembled into one report.
"""
from __future__ import annotations

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

__all__ = [
    "AuthorMetrics", "CoauthorAnalysis", "NetworkAnalysis", "Partition", "analyse",
    "analyse_network", "author_metrics", "with_extractions",
    "betweenness", "closeness", "coauthor_report", "content_tables", "data_caveats", "degree_centrality",
    "describe", "distance_stats", "ego_network", "ego_summary", "eigenvector",
    "extraction_summary", "find_author", "leiden", "louvain", "lotka", "modularity",
    "name_variants", "network_stats", "pagerank", "productivity", "strongest_pairs",
]
