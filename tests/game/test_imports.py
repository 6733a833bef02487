"""The modules of kismet_dice.game import one another without a cycle, read from their source."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Mapping
from pathlib import Path

import kismet_dice.game

PACKAGE = "kismet_dice.game"


def game_modules() -> dict[str, Path]:
    """Every module of the package by name, the package itself (its ``__init__``) included."""
    modules = {PACKAGE: Path(kismet_dice.game.__file__ or "")}
    for info in pkgutil.iter_modules(kismet_dice.game.__path__, prefix=f"{PACKAGE}."):
        module = importlib.import_module(info.name)
        modules[info.name] = Path(module.__file__ or "")
    return modules


def imported_names(path: Path, name: str) -> set[str]:
    """The modules a source file imports anywhere in it (functions included), relative ones resolved."""
    # A package's relative imports start from the package; a module's from the package holding it.
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here.rsplit(".", node.level - 1)[0] if node.level else ""
            source = ".".join(part for part in (base, node.module or "") if part)
            found.add(source)
            # ``from package import module`` imports the module too.
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def import_graph() -> dict[str, set[str]]:
    """Which modules of the package each module of the package imports."""
    modules = game_modules()
    return {
        name: {other for other in imported_names(path, name) if other in modules and other != name}
        for name, path in modules.items()
    }


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


def test_the_game_package_has_no_import_cycle() -> None:
    graph = import_graph()
    # The walk must have seen the package's real imports, or finding no cycle would prove nothing.
    assert f"{PACKAGE}.record" in graph[f"{PACKAGE}.engine"]
    assert f"{PACKAGE}.engine" in graph[PACKAGE]
    assert find_cycle(graph) == []


def test_the_record_knows_nothing_of_the_engine() -> None:
    path = game_modules()[f"{PACKAGE}.record"]
    project = {name for name in imported_names(path, f"{PACKAGE}.record") if name.startswith("kismet_dice")}
    allowed = {f"{PACKAGE}.events", f"{PACKAGE}.dice_source", "kismet_dice.rules"}
    assert project
    assert all(any(name == module or name.startswith(f"{module}.") for module in allowed) for name in project)


def test_the_cycle_finder_finds_the_cycle_the_engine_and_record_once_had() -> None:
    graph = {"engine": {"record", "events"}, "record": {"engine", "events"}, "events": set()}
    assert find_cycle(graph) == ["engine", "record", "engine"]
    assert find_cycle({"engine": {"record"}, "record": {"events"}, "events": set()}) == []


def test_relative_imports_are_resolved_against_the_package(tmp_path: Path) -> None:
    source = tmp_path / "engine.py"
    source.write_text("from . import record\nfrom .events import Rolled\n\ndef f():\n    import secrets\n")
    assert imported_names(source, f"{PACKAGE}.engine") == {
        PACKAGE,
        f"{PACKAGE}.record",
        f"{PACKAGE}.events",
        f"{PACKAGE}.events.Rolled",
        "secrets",
    }
