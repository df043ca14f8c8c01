"""The shape of the package: no import cycles, modules of a few hundred lines."""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PKG = Path(__file__).resolve().parents[1] / "kg"
MAX_LINES = 500


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


def test_the_import_walker_sees_imports():
    graph = import_graph()
    assert graph.has_edge("kg.build.pipeline", "kg.build.folder")
    assert graph.has_edge("kg.cli", "kg.errors")
    assert graph.number_of_edges() > 100


def test_no_import_cycles():
    assert _cycles(import_graph()) == []


def test_no_module_over_the_size_limit():
    big = {_module_name(p): n for p in PKG.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert big == {}


def test_every_module_says_its_concern():
    missing = [_module_name(p) for p in PKG.rglob("*.py")
               if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []


def test_the_readme_module_map_matches_the_tree():
    readme = (PKG.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Module map", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    named = set()
    for row in rows:
        named |= {n.strip("/") for n in row.split("`")[1::2]}
    stems = {p.stem for p in PKG.rglob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in PKG.rglob("__init__.py") if p.parent != PKG}
    assert stems - named == set()                # every module is on the map
    first = {n.strip("/") for row in rows for n in row.split("|")[1].split("`")[1::2]}
    assert first - stems - packages == set()     # and the map names no module that is gone
