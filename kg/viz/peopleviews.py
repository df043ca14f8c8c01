"""The people views: the co-author map and an author's ego network.

- :func:`coauthors_view`: people sized by papers, coloured by Leiden
  community (seed 0, the communities of ``report.md``), edges as wide as
  their joint papers; on more than that many people the page starts on the largest group's
  :data:`TOP_AUTHORS` authors with most papers;
- :func:`ego_view`: an author and everyone within 1 or 2 co-authorship steps.

Each person lists their papers (the view's paper table) for the page's panel.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import networkx as nx

from kg.analysis.graphs import coauthor_graph
from kg.errors import KgError
from kg.models import Build, Corpus
from kg.viz.assemble import MAX_EDGES, MAX_NODES, assemble, kept_nodes
from kg.viz.lookup import BuildIndex, paper_nos
from kg.viz.network import ViewNetwork
from kg.viz.style import COMMUNITY_COLOURS, OTHER_COLOUR, Group, count_noun, short_label

if TYPE_CHECKING:
    from kg.analysis.communities import Partition

__all__ = ["coauthors_view", "ego_view", "TOP_AUTHORS"]

#: The co-author map starts on this many of the largest component's authors.
TOP_AUTHORS = 300


def _as_build(build: Build | Corpus) -> Build:
    return Build(corpus=build) if isinstance(build, Corpus) else build


# ----------------------------------------------------------- people views


def _person_graph(C: nx.Graph, ix: BuildIndex, group_of: Callable[[str], str],
                  extra_lines: Callable[[str], tuple[str, ...]], net: ViewNetwork,
                  shown: set[Hashable] | None = None) -> nx.Graph:
    """People with their papers (the view's paper table), co-authors linked.

    People not in ``shown`` (when given: those the view's cap keeps) get their
    group only, and no links: the page never shows them."""
    papers_of = ix.person_papers
    seen: set[str] = set()
    for k in C:
        seen.update(papers_of.get(k, ()))
    pids = ix.in_corpus_order(seen)
    paper_no = {pid: i for i, pid in enumerate(pids)}
    net.papers = [ix.paper_row(pid) for pid in pids]
    G = nx.Graph()
    for k, d in C.nodes(data=True):
        if shown is not None and k not in shown:
            G.add_node(k, group=group_of(k))
            continue
        name = d.get("name", k)
        lines = (f"{C.degree(k)} co-author{'s' if C.degree(k) != 1 else ''}", *extra_lines(k))
        G.add_node(k, label=short_label(name), name=name, group=group_of(k),
                   title=ix.person_tooltip(k, name, lines), value=d.get("papers", 1),
                   tracks=ix.person_tracks(k), p=paper_nos(ix.person_papers, k, paper_no))
    for u, v, d in C.edges(data=True):
        if shown is not None and (u not in shown or v not in shown):
            continue
        p = d.get("papers", 1)
        G.add_edge(u, v, relation="coauthor", n=p, width=min(1 + 1.5 * (p - 1), 8))
    return G


def coauthors_view(build: Build | Corpus, *, max_nodes: int = MAX_NODES,
                   max_edges: int = MAX_EDGES, seed: int = 0, graph: nx.Graph | None = None,
                   partition: Partition | None = None, index: BuildIndex | None = None
                   ) -> ViewNetwork:
    """People sized by papers, coloured by Leiden community, edges by joint papers.

    Communities are computed on the whole co-author graph (Leiden, ``seed``)
    and numbered as in ``report.md``: 0 is the largest. The ten largest get
    their own colour. ``graph`` and ``partition`` may pass the co-author
    graph and its Leiden partition when already computed (the build does),
    ``index`` the build's :class:`~kg.viz.lookup.BuildIndex`.

    Examples
    --------
    >>> from kg.models import Paper
    >>> c = Corpus((Paper("1", ("Ann Lee", "Bob Xu"), "x"), Paper("2", ("Ann Lee", "Bob Xu"), "y")))
    >>> net = coauthors_view(c)
    >>> [n["name"] for n in net.nodes], net.edges[0]["n"], net.legend[0].count
    (['Ann Lee', 'Bob Xu'], 2, 2)
    """
    from kg.analysis.communities import leiden

    build = _as_build(build)
    ix = BuildIndex(build) if index is None else index
    C = coauthor_graph(build) if graph is None else graph
    part = leiden(C, seed=seed) if partition is None else partition
    membership = part.membership
    leaders: dict[int, list[str]] = {}
    for k in sorted(C, key=lambda k: (-C.nodes[k]["papers"], C.nodes[k]["name"])):
        c = membership[k]
        if c < len(COMMUNITY_COLOURS) and len(leaders.setdefault(c, [])) < 2:
            leaders[c].append(C.nodes[k]["name"])
    groups = [Group(f"c{i}", f"community {i}: {', '.join(leaders.get(i, []))}", colour)
              for i, colour in enumerate(COMMUNITY_COLOURS)]
    groups.append(Group("c-rest", "smaller communities", OTHER_COLOUR))

    def group_of(k: str) -> str:
        c = membership[k]
        return f"c{c}" if c < len(COMMUNITY_COLOURS) else "c-rest"

    net = ViewNetwork("coauthors", "Co-authorship network")
    deg = dict(C.degree())

    def node_score(k: str) -> tuple[int, ...]:
        return (-C.nodes[k]["papers"], -deg[k])

    # the tooltips and links of the people the cap keeps only
    shown = kept_nodes(list(C), max_nodes, node_score)
    G = _person_graph(C, ix, group_of, lambda k: (f"community {membership[k]}",), net,
                      shown=shown)
    comps = list(nx.connected_components(C)) if C.number_of_nodes() > TOP_AUTHORS else []
    top = _top_of_largest(C, TOP_AUTHORS, comps) if comps else []
    for k in top:
        G.nodes[k]["top"] = 1
    if top:
        # the Show select's option: short, so that it fits (the note says the rest)
        net.controls["scope"] = f"top {len(top):,} authors"
        net.notes.append(f"The page opens on the {len(top):,} authors with most papers (ties: "
                         f"most co-authors) in the largest connected group "
                         f"({count_noun(len(top), 'person')} of the group's "
                         f"{max(map(len, comps)):,}); choose 'everyone' under Show for all.")
    net.notes.append(
        f"{count_noun(C.number_of_nodes(), 'person')}, {count_noun(C.number_of_edges(), 'coauthor pair')} "
        f"(pairs who wrote together); {count_noun(len(part.sizes), 'community')} (Leiden, seed {seed}). Node size: papers; "
        "edge width: joint papers. People are told apart by name only.")
    return assemble(
        net, G, groups, max_nodes=max_nodes, max_edges=max_edges, seed=seed,
        node_score=node_score, node_measure="most papers (ties: most co-authors, then name)",
        edge_score=lambda u, v, d: (-d["n"], -(deg[u] + deg[v])),
        edge_measure="most joint papers first",
    )


def _top_of_largest(C: nx.Graph, n: int, comps: list[set[str]]) -> list[str]:
    """The ``n`` people of ``C``'s largest component (of its components ``comps``)
    with most papers (ties: most co-authors, then name)."""
    if C.number_of_nodes() == 0:
        return []
    order = {k: i for i, k in enumerate(C)}
    big = max(comps, key=lambda c: (len(c), -min(map(order.__getitem__, c))))
    ranked = sorted(big, key=lambda k: (-C.nodes[k].get("papers", 1), -C.degree(k),
                                        C.nodes[k].get("name", k), k))
    return ranked[:n]


def ego_view(build: Build | Corpus, author: str, radius: int = 1, *,
             max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES,
             seed: int = 0) -> ViewNetwork:
    """An author and their co-authors (radius 1) or also theirs (radius 2).

    Raises
    ------
    KgError
        For an unknown author or a radius other than 1 or 2.
    """
    from kg.analysis.pairs import ego_network, find_author

    if radius not in (1, 2):
        raise KgError(f"ego radius must be 1 or 2, not {radius}")
    build = _as_build(build)
    ix = BuildIndex(build)
    C = coauthor_graph(build)
    k0 = find_author(C, author)
    E = ego_network(C, k0, radius)
    # ego_network's node order follows a set: rebuild it in the co-author graph's order
    members = E
    E = nx.Graph()
    E.add_nodes_from((k, C.nodes[k]) for k in C if k in members)
    E.add_edges_from((u, v, d) for u, v, d in C.edges(E, data=True) if u in members and v in members)
    dist = nx.single_source_shortest_path_length(E, k0, cutoff=radius)
    groups = [Group("ego", "the author", "#D55E00", "star"),
              Group("d1", "co-author", "#E69F00"),
              Group("d2", "co-author of a co-author", "#56B4E9")]
    net = ViewNetwork("ego", "")
    G = _person_graph(E, ix, lambda k: "ego" if k == k0 else f"d{dist[k]}", lambda k: (), net)
    # the author first, so a layout tie or a cap never drops them
    order = [k0] + [k for k in G if k != k0]
    H = nx.Graph()
    H.add_nodes_from((k, G.nodes[k]) for k in order)
    H.add_edges_from(G.edges(data=True))
    H.nodes[k0]["extra"] = {"focus": True}
    H.nodes[k0]["value"] = max(d["value"] for _, d in H.nodes(data=True)) + 1
    name = C.nodes[k0]["name"]
    net.title = net.heading = f"Co-authors of {name}" + (" (2 steps)" if radius == 2 else "")
    net.notes.append(f"{name} and {count_noun(E.number_of_nodes() - 1, 'person')} within {radius} "
                     f"step{'s' if radius > 1 else ''}. Node size: papers; edge width: joint papers.")
    return assemble(
        net, H, groups, max_nodes=max_nodes, max_edges=max_edges, seed=seed,
        node_score=lambda k: (dist[k], -H.nodes[k]["value"]),
        node_measure="fewest steps from the author, then most papers",
        edge_score=lambda u, v, d: (-d["n"],),
        edge_measure="most joint papers first",
    )
