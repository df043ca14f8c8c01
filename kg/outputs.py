"""The names of a build's outputs and of kg's bookkeeping in an output folder: their one home.

Every module that writes, reads or lists an output takes its name from here
(the stages that write them, :mod:`kg.build.read`, ``index.html``), and
:mod:`kg.build.folder` takes from here the hidden names it keeps an output
folder with (manifest, lock, staging and leftover folders, the publish marker),
and :func:`check_readable` is the one test every reader makes with them. A leaf of
the kernel: it imports only :mod:`kg.errors`.

>>> RDF_FILES["turtle"], VIEW_FILES["kg"], f"{STORE_DIR}/" in KNOWN_OUTPUTS
('graph.ttl', 'kg.html', True)
"""
from __future__ import annotations

import os
from pathlib import Path

from kg.errors import OutputFolderError

MANIFEST = ".kg-manifest.json"
LOCK = ".kg-lock"
STAGING_PREFIX = ".kg-staging-"
TRASH_PREFIX = ".kg-old-"
#: present while a publish moves outputs: the folder then holds a mix of two builds
PUBLISHING = ".kg-publishing"
#: the marker file inside kg's own staging and trash folders: only those are removed
OWNER = ".kg-owner"
# Files a folder may hold before its first build (a repository's placeholder
# folder); kg never writes these names.
PLACEHOLDERS = frozenset({"README.md", ".gitignore", ".gitkeep"})
# The outputs of a build.
CORPUS = "corpus.jsonl"
EXTRACTIONS = "extractions.jsonl"
SUMMARY = "summary.json"
REPORT_JSON = "report.json"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"
PLOTS_DIR = "plots"
GRAPH_TTL = "graph.ttl"
GRAPH_NT = "graph.nt"
GRAPH_JSONLD = "graph.jsonld"
STORE_DIR = "store"
GRAPH_GRAPHML = "graph.graphml"
COAUTHORS_GRAPHML = "coauthors.graphml"
COAUTHORS_GEXF = "coauthors.gexf"
VOSVIEWER_MAP = "coauthors_vosviewer_map.txt"
VOSVIEWER_NETWORK = "coauthors_vosviewer_network.txt"
CONCEPTS_VOSVIEWER_MAP = "concepts_vosviewer_map.txt"
CONCEPTS_VOSVIEWER_NETWORK = "concepts_vosviewer_network.txt"
AUTHORS_CSV = "authors.csv"
PAPERS_CSV = "papers.csv"
KG_HTML = "kg.html"
COAUTHORS_HTML = "coauthors.html"
ENTITIES_HTML = "entities.html"
CONCEPTS_HTML = "concepts.html"
INDEX_HTML = "index.html"
#: files of the co-authorship report and the graph exports, as ``kg.build.graph_stage`` writes them
REPORT_FILES = (REPORT_JSON, REPORT_MD, REPORT_HTML)
EXPORT_FILES = (GRAPH_GRAPHML, COAUTHORS_GRAPHML, COAUTHORS_GEXF, VOSVIEWER_MAP,
                VOSVIEWER_NETWORK, AUTHORS_CSV, PAPERS_CSV)
#: the concept map as a VOSviewer term map, written beside ``concepts.html`` by the views stage
TERM_MAP_FILES = (CONCEPTS_VOSVIEWER_MAP, CONCEPTS_VOSVIEWER_NETWORK)
#: ``--rdf-format`` value -> file written (``turtle`` is always written)
RDF_FILES = {"turtle": GRAPH_TTL, "nt": GRAPH_NT, "jsonld": GRAPH_JSONLD}
#: the interactive views (:mod:`kg.viz`), by view name
VIEW_FILES = {"kg": KG_HTML, "concepts": CONCEPTS_HTML, "coauthors": COAUTHORS_HTML,
              "entities": ENTITIES_HTML}
# Every top-level name a kg build writes (folders end in "/"): the only names a
# manifest may list.
KNOWN_OUTPUTS = frozenset({
    CORPUS, EXTRACTIONS, SUMMARY, *REPORT_FILES, *EXPORT_FILES, *TERM_MAP_FILES,
    *RDF_FILES.values(), *VIEW_FILES.values(), INDEX_HTML, f"{PLOTS_DIR}/", f"{STORE_DIR}/",
})


def check_readable(folder: str | Path) -> None:
    """Refuse a build folder caught mid-publish (its outputs are of two builds).

    >>> check_readable("/nonexistent/folder")   # (no marker: nothing to refuse)
    """
    if os.path.lexists(Path(folder) / PUBLISHING):
        raise OutputFolderError(f"{folder} is mid-publish: a build is replacing its outputs, "
                                f"or one was stopped while it did; run 'kg build -o {folder}' "
                                "again (or wait for the running one)")
