"""The project's import graph, read from the source files (imports inside functions included)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import kismet_dice

PACKAGE_DIR = Path(kismet_dice.__file__ or "").parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: str = "kismet_dice") -> dict[str, Path]:
    """Every module of ``package`` (its ``__init__`` too) by dotted name."""
    found = {module_name(path): path for path in PACKAGE_DIR.rglob("*.py")}
    return {name: path for name, path in found.items() if name == package or name.startswith(package + ".")}


def _source(node: ast.ImportFrom, here: str) -> str:
    """The module a ``from ... import`` names, a relative one resolved against package ``here``."""
    base = here.rsplit(".", node.level - 1)[0] if node.level else ""
    return ".".join(part for part in (base, node.module or "") if part)


def imported_names(path: Path, name: str) -> set[str]:
    """What a source file imports, relative imports resolved; ``from package import x`` counts as
    importing the package and ``package.x`` (which may be a module)."""
    # A package's relative imports start from the package; a module's from the package holding it.
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _source(node, here)
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def import_graph(package: str = "kismet_dice") -> dict[str, set[str]]:
    """Which modules of ``package`` each of its modules imports.

    ``from p import m`` leads to the module ``p.m`` when there is one, and to ``p`` (its
    ``__init__``) only for names that are not modules.
    """
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                source = _source(node, here)
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    targets.add(submodule if submodule in known else source)
        graph[name] = {other for other in targets if other in known and other != name}
    return graph


def find_cycle(graph: Mapping[str, set[str]]) -> list[str]:
    """A cycle of the graph as the path around it (first node repeated at the end), or [] if none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        path.append(node)
        for target in sorted(graph.get(node, set())):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        cycle = visit(start)
        if cycle:
            return cycle
    return []
