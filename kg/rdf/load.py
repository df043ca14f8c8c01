"""Reading a build's graph (or an RDF file) as an :class:`rdflib.Graph`: :func:`kg.load_graph`.

For rdflib users: the graph comes from a build folder's ``graph.nt`` or
``graph.ttl`` (else its embedded store), a store folder, or an RDF file,
parsed by pyoxigraph and handed over with the kg prefixes bound.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import StoreError
from kg.outputs import GRAPH_NT, GRAPH_TTL, STORE_DIR
from kg.store.embedded import EmbeddedStore, error_text

if TYPE_CHECKING:  # pragma: no cover
    import rdflib

__all__ = ["load_graph"]

_SUFFIX_FORMATS = {".ttl": "turtle", ".nt": "nt", ".jsonld": "json-ld", ".json": "json-ld"}


def load_graph(path: str | Path = "output") -> rdflib.Graph:
    """The graph of a build as an :class:`rdflib.Graph`, with the kg prefixes bound.

    Parameters
    ----------
    path : str or Path
        A build folder (reads its ``graph.nt`` or ``graph.ttl``, else its
        ``store/``), a store folder, or a ``.ttl``, ``.nt`` or ``.jsonld`` file.

    Raises
    ------
    kg.errors.StoreError
        If there is no graph at ``path``.

    Examples
    --------
    >>> import kg
    >>> g = kg.load_graph("output")  # doctest: +SKIP
    >>> len(g)  # doctest: +SKIP
    """
    import pyoxigraph as ox

    from kg.rdf import ntriples_to_rdflib

    p = Path(path)
    if p.is_dir():
        for name in (GRAPH_NT, GRAPH_TTL):
            if (p / name).is_file():
                return load_graph(p / name)
        store_dir = p / STORE_DIR if (p / STORE_DIR / "CURRENT").is_file() else p
        with EmbeddedStore(store_dir) as st:
            return ntriples_to_rdflib(st.triples())
    if not p.is_file():
        raise StoreError(f"{p}: no graph here (run 'kg build' first)")
    fmt = _SUFFIX_FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise StoreError(f"{p}: unknown RDF file type (expected .ttl, .nt or .jsonld)")
    if fmt == "json-ld":
        import rdflib

        from kg.rdf.vocab import PREFIXES

        g = rdflib.Graph()
        for prefix, ns in PREFIXES.items():
            g.bind(prefix, ns, replace=True)
        try:
            return g.parse(str(p), format="json-ld")
        except Exception as exc:  # rdflib raises many kinds
            raise StoreError(f"{p}: cannot read JSON-LD: {error_text(exc)}") from None
    rdf_format = ox.RdfFormat.TURTLE if fmt == "turtle" else ox.RdfFormat.N_TRIPLES
    try:
        return ntriples_to_rdflib(ox.parse(path=str(p), format=rdf_format))
    except SyntaxError as exc:
        raise StoreError(f"{p}: {error_text(exc)}") from None
