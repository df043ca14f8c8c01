"""The shape of the package: folders in layers, no import cycles, modules of a few hundred lines."""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PKG = Path(__file__).resolve().parents[1] / "kg"
MAX_LINES = 500
#: kg's layers, lowest first: the kernel (the modules flat in kg/ but cli), the folders,
#: cli on top. A layer imports only itself and the layers below it (ARCHITECTURE.md
#: states the same order: tests/test_architecture.py).
LAYERS = ("kernel", "util", "parse", "extract", "analysis", "store", "rdf", "queries", "viz",
          "report", "build", "cli")
#: the lazy package faces: a name from a higher layer handed out on first use (inside the
#: module's __getattr__), never imported when the package is
LAZY_FACES = {("kg", "kg.rdf.load"), ("kg.store", "kg.rdf.load")}
MAX_FLAT = 6  # .py files flat in kg/, __init__.py counted


def _module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> nx.DiGraph:
    """kg's modules and every import between them (top-level or inside a function).

    ``from kg.x import y`` counts as importing ``kg.x.y`` where that is a module,
    else ``kg.x``; a package's ``__init__`` is the package itself.
    """
    modules = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base if is_pkg else base[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod
                           for a in node.names]
            for t in targets:
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name and t.startswith("kg"):
                    graph.add_edge(name, t)
    return graph


def _cycles(graph: nx.DiGraph) -> list[list[str]]:
    # a package importing its own submodules (re-exports) is not a cycle to cut
    g = graph.copy()
    g.remove_edges_from([(a, b) for a, b in graph.edges if b.startswith(a + ".")])
    return [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]


def layer(module: str) -> str:
    """The layer of a module: its folder, ``cli``, or ``kernel`` (kg itself and flat modules)."""
    parts = module.split(".")
    if module == "kg.cli":
        return "cli"
    return parts[1] if len(parts) > 1 and (PKG / parts[1]).is_dir() else "kernel"


def folder_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """The imports between layers (the lazy faces' left out)."""
    layers = nx.DiGraph()
    layers.add_nodes_from(LAYERS)
    layers.add_edges_from((layer(a), layer(b)) for a, b in graph.edges
                          if (a, b) not in LAZY_FACES and layer(a) != layer(b))
    return layers


def test_the_import_walker_sees_imports():
    graph = import_graph()
    assert graph.has_edge("kg.build.pipeline", "kg.build.folder")
    assert graph.has_edge("kg.cli", "kg.errors")
    assert graph.number_of_edges() > 100


def test_no_import_cycles():
    assert _cycles(import_graph()) == []


def test_every_folder_has_a_layer_and_the_kernel_is_small():
    folders = {p.parent.name for p in PKG.glob("*/__init__.py")}
    assert folders == set(LAYERS) - {"kernel", "cli"}
    flat = sorted(p.name for p in PKG.glob("*.py"))
    assert len(flat) <= MAX_FLAT, flat
    assert {layer(_module_name(p)) for p in PKG.glob("*.py")} == {"kernel", "cli"}


def test_each_layer_imports_only_itself_and_the_layers_below():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = sorted((a, b) for a, b in import_graph().edges
                    if (a, b) not in LAZY_FACES and rank[layer(b)] > rank[layer(a)])
    assert upward == []


def test_no_cycles_among_folders():
    layers = folder_graph(import_graph())
    assert nx.is_directed_acyclic_graph(layers), list(nx.simple_cycles(layers))
    # the order is a real one: the layers' imports do reach down through most of it
    assert layers.has_edge("build", "report") and layers.has_edge("rdf", "store")
    assert layers.has_edge("extract", "kernel") and layers.has_edge("viz", "analysis")


def test_the_lazy_faces_import_on_first_use_only():
    graph = import_graph()
    for face, target in LAZY_FACES:
        assert graph.has_edge(face, target)  # an exception no longer needed is removed
        path = PKG.joinpath(*face.split(".")[1:], "__init__.py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert not any(getattr(n, "module", None) == target for n in top_level), face
        getattr_def = next(n for n in tree.body
                           if isinstance(n, ast.FunctionDef) and n.name == "__getattr__")
        assert any(isinstance(n, ast.ImportFrom) and n.module == target
                   for n in ast.walk(getattr_def)), face


def test_no_module_over_the_size_limit():
    big = {_module_name(p): n for p in PKG.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert big == {}


def test_every_module_says_its_concern():
    missing = [_module_name(p) for p in PKG.rglob("*.py")
               if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []


def test_identity_keys_come_from_kg_identity_only():
    """Every module takes the identity keys from :mod:`kg.identity` itself, not from a
    module that imported them (no re-exports), and no module keeps a "lived here" name."""
    import kg.identity

    keys = set(kg.identity.__all__)
    wrong = []
    for path in PKG.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != "kg.identity" \
                    and node.module.startswith("kg"):
                wrong += [f"{path.relative_to(PKG)}: {a.name} from {node.module}"
                          for a in node.names if a.name in keys]
        if "lived here" in text or "re-exported" in text:
            wrong.append(f"{path.relative_to(PKG)}: a re-exported name")
    assert not wrong, wrong


def test_the_rdf_stage_translates_links_and_finds_no_concepts_itself():
    """Concept links are resolved in extraction (kg.extract.links, carried as Build.links):
    no rdf module imports the concept finder or the gazetteer."""
    graph = import_graph()
    found = [(a, b) for a, b in graph.edges if a.startswith("kg.rdf")
             and b in ("kg.extract.concept_finder", "kg.extract.gazetteer")]
    assert not found, found
