"""Interactive HTML views of a build (pyvis networks, rendered offline).

The views (:mod:`kg.viz.views`) return :class:`~kg.viz.network.ViewNetwork`
objects, ordinary pyvis ``Network`` instances; :func:`to_html` renders one
to a single self-contained page (vis-network inlined from the pyvis
package, no CDN, nothing fetched); :func:`index_html` writes the page that
links every file of a build. Writing files is the caller's business.

- ``kg``: the overview (tracks, top concepts and entities), or with
  ``full=True`` papers, people, tracks and entities;
- ``concepts``: the concept map (terms by association strength, clustered);
- ``coauthors``: people by Leiden community, sized by papers;
- ``ego AUTHOR``: an author's co-authors (radius 1 or 2);
- ``track TRACK``: the concept map of a track's papers (its people hidden);
- ``entity NAME``: papers mentioning an entity, entities mentioned with it;
- ``entities``: the co-mention network of models, methods and datasets.

Examples
--------
>>> from kg.models import Corpus, Paper
>>> net = view(Corpus((Paper("p1", ("Ann Lee", "Bob Xu"), "We study X."),)), "coauthors")
>>> page = to_html(net)
>>> page.startswith("<!DOCTYPE html>"), "https://" in page.split("<script id")[0]
(True, False)
"""
from __future__ import annotations

from kg.viz.conceptmap import concept_map, overview_map
from kg.viz.html import to_html
from kg.viz.network import LegendEntry, ViewNetwork
from kg.viz.site import index_html
from kg.viz.views import (
    MAX_EDGES,
    MAX_NODES,
    VIEWS,
    coauthors_view,
    ego_view,
    entities_view,
    entity_view,
    find_entity,
    find_track,
    kg_view,
    track_view,
    view,
)

__all__ = [
    "LegendEntry", "MAX_EDGES", "MAX_NODES", "VIEWS", "ViewNetwork", "coauthors_view",
    "concept_map", "overview_map",
    "ego_view", "entities_view", "entity_view", "find_entity", "find_track", "index_html",
    "kg_view", "to_html", "track_view", "view",
]
