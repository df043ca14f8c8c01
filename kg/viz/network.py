"""The pyvis :class:`~pyvis.network.Network` the views return, with the page's extras.

A :class:`ViewNetwork` is an ordinary pyvis ``Network`` (``nodes``,
``edges``, ``options``, ``num_nodes()``, …) whose node and edge lists were
set in one go (pyvis's ``add_edge`` scans every edge on each call). It also
carries what the HTML page shows around the graph: the legend, the track
filter, and notes saying what was left out.

Its :meth:`~ViewNetwork.generate_html` and :meth:`~ViewNetwork.write_html`
produce kg's self-contained page (:func:`kg.viz.html.to_html`), never
pyvis's template (which loads Bootstrap from a CDN and copies a ``lib/``
folder into the working directory).
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from pyvis.network import Network

from kg.models import JsonObject

__all__ = ["LegendEntry", "ViewNetwork"]


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a node group, its colour and shape, and its size."""

    group: str
    label: str
    colour: str
    shape: str
    count: int
    shown: bool = True


class ViewNetwork(Network):  # type: ignore[misc]  # pyvis has no types: Network is Any
    """A pyvis network plus the legend, track filter and notes of a kg view.

    Parameters
    ----------
    view : str
        The view's name (``kg``, ``coauthors``, ``ego``, …).
    title : str
        The page heading (plain text; escaped when rendered).

    Attributes
    ----------
    legend : list of LegendEntry
        Node groups in legend order.
    tracks : list of str
        Track labels the page can filter by; a node's ``t`` lists indices
        into it.
    notes : list of str
        What the page should say besides the graph (what was left out, how
        it is sized).
    keys : list
        The graph node of each vis node id (ids are ``0 .. n-1``).
    papers : list
        ``[id, label]`` of the papers the nodes' ``p`` lists point into, and
        when the view has tracks a third item: the paper's indices into
        ``tracks`` (a track filter counts a node's papers in the track).
    controls : dict
        The page's extra filters: ``min`` (``{"value", "floor", "max"}``:
        nodes with ``o`` below ``value`` start hidden), ``scope`` (a
        label: at the start only nodes with ``top`` are shown), ``regions``
        (the positions place clusters in regions: filters keep them rather
        than lay the parts out again) and ``density`` (the page offers the
        density layer).
    clusters : dict
        Each graph node's cluster (0-based) when the view clusters its nodes
        (the concept map's Leiden clusters); empty otherwise.
    """

    def __init__(self, view: str, title: str, *, directed: bool = False) -> None:
        super().__init__(height="100%", width="100%", directed=directed, heading=title,
                         cdn_resources="in_line")
        self.view = view
        self.title = title
        self.legend: list[LegendEntry] = []
        self.tracks: list[str] = []
        self.notes: list[str] = []
        self.keys: list[Hashable] = []
        self.papers: list[list[Any]] = []
        self.controls: dict[str, Any] = {}
        self.clusters: dict[Hashable, int] = {}
        self.options: dict[str, Any] = {}

    def set_graph(self, nodes: list[JsonObject], edges: list[JsonObject]) -> None:
        """Set the node and edge lists at once (each node a dict with an ``id``)."""
        self.nodes = nodes
        self.edges = edges
        self.node_ids = [n["id"] for n in nodes]
        self.node_map = {n["id"]: n for n in nodes}

    def node_id(self, key: Hashable) -> int:
        """The vis id of a graph node (as passed to the view builder).

        Raises
        ------
        KeyError
            If the node is not in this view.
        """
        try:
            return self.keys.index(key)
        except ValueError:
            raise KeyError(key) from None

    def generate_html(self, name: str = "index.html", local: bool = True,
                      notebook: bool = False) -> str:
        """The self-contained page (see :func:`kg.viz.html.to_html`)."""
        from kg.viz.html import to_html

        self.html = to_html(self)
        return self.html

    def write_html(self, name: str, local: bool = True, notebook: bool = False,
                   open_browser: bool = False) -> None:
        """Write the self-contained page to ``name`` atomically (no ``lib/`` folder)."""
        from kg.util.fsio import write_text

        write_text(name, self.generate_html())
        if open_browser:  # pragma: no cover - interactive use only
            import webbrowser

            webbrowser.open(name)

    def __repr__(self) -> str:
        return f"<ViewNetwork {self.view!r} |N|={len(self.nodes)} |E|={len(self.edges)}>"
