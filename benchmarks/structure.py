"""The shape of the ``kg`` package: module sizes, the import graph (imports inside functions
included), its cycles with and without the imports made only for type checking (``TYPE_CHECKING``
blocks), the private names one module takes from another, and the longest functions.

    python benchmarks/structure.py [--root kg] [--top 15] [--dot imports.dot]

Prints Markdown tables; ``--dot`` also writes the import graph for Graphviz.  The package's own
``__init__`` re-exporting names is not an edge back into it (``kg/__init__.py`` may re-export the API).
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module, name: str, is_package: bool, typing: bool = False) -> Iterator[str]:
    """Modules of the package this module imports, anywhere but under ``if TYPE_CHECKING`` (with
    ``typing``: there too)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node) and not typing:
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def graph(root: Path, typing: bool = False) -> tuple[nx.DiGraph, dict[str, int], list[tuple[int, str]]]:
    """The import graph among the package's modules (with ``typing``: the imports for type checking
    too), their line counts, and every function's length."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    g = nx.DiGraph()
    g.add_nodes_from(files)
    lines: dict[str, int] = {}
    functions: list[tuple[int, str]] = []
    for name, path in files.items():
        text = path.read_text(encoding="utf-8")
        lines[name] = text.count("\n")
        tree = ast.parse(text)
        for target in imports(tree, name, path.name == "__init__.py", typing):
            if target in files and target != name:
                g.add_edge(name, target)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                functions.append((node.end_lineno - node.lineno + 1, f"{name}.{node.name}"))
    top = root.name
    g.remove_edges_from([(u, v) for u, v in list(g.edges) if u == top])  # the package may re-export its API
    return g, lines, sorted(functions, reverse=True)


def private_imports(root: Path) -> list[tuple[str, str]]:
    """(importing module, ``module.name``) of every private name (``_x``) a module takes from another
    module of the package: by ``from m import _x``, or as ``m._x`` of a module it imported."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    found: list[tuple[str, str]] = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                for alias in node.names:
                    if f"{base}.{alias.name}" in files:
                        aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
                    elif base in files and base != name and _private(alias.name):
                        found.append((name, f"{base}.{alias.name}"))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in files:
                        aliases[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                target = _dotted(node.value)
                module = aliases.get(target or "", target)
                if module in files and module != name:
                    found.append((name, f"{module}.{node.attr}"))
    return sorted(set(found))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner is not None else None
    return None


def cycles(g: nx.DiGraph) -> list[list[str]]:
    """The strongly connected components with more than one module: each holds an import cycle."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT / "kg")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--dot", type=Path)
    a = parser.parse_args()
    g, lines, functions = graph(a.root.resolve())
    print(f"{len(lines)} modules, {sum(lines.values()):,} lines, {g.number_of_edges()} imports between them\n")
    print("| module | lines | imports | imported by |\n|---|---:|---:|---:|")
    for name in sorted(lines, key=lambda n: (-lines[n], n))[: a.top]:
        print(f"| `{name}` | {lines[name]:,} | {g.out_degree(name)} | {g.in_degree(name)} |")
    print("\n| function | lines |\n|---|---:|")
    for length, name in functions[: a.top]:
        print(f"| `{name}` | {length} |")
    found = cycles(g)
    print(f"\n{len(found)} import cycles (strongly connected groups of modules)")
    for group in found:
        print(f"- {', '.join(group)}")
    typed = cycles(graph(a.root.resolve(), typing=True)[0])
    print(f"\n{len(typed)} import cycles counting the imports for type checking")
    for group in typed:
        print(f"- {', '.join(group)}")
    private = private_imports(a.root.resolve())
    print(f"\n{len(private)} private names taken from another module")
    for importer, taken in private:
        print(f"- `{importer}` takes `{taken}`")
    if a.dot:
        body = "".join(f'  "{u}" -> "{v}";\n' for u, v in sorted(g.edges))
        a.dot.write_text(f"digraph kg {{\n  rankdir=LR;\n{body}}}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
