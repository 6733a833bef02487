"""The shape of the code: imports run one way between the layers, no module imports itself back
through others, and every SQL statement lives in storage."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import kismet_dice

PACKAGE = Path(kismet_dice.__file__).parent
ROOT = "kismet_dice"

# What each layer may import of the project (besides itself). ``texts`` is a neutral helper.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "game": {"rules"},
    "strategy": {"rules", "game"},
    "storage": {"rules", "game"},
    "texts": set(),
    "session": {"rules", "game", "strategy", "storage"},
    "tui": {"rules", "game", "strategy", "storage", "session", "texts"},
    "web": {"rules", "game", "strategy", "storage", "session", "texts"},
    # The command starts the terminal game and the server.
    "cli": {"rules", "game", "strategy", "storage", "session", "texts", "tui", "web"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """The project modules ``name`` imports (anywhere in it, functions included)."""
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # ``from package import module`` imports the module, not only the package.
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules() else base)
    return {imported for imported in found if imported == ROOT or imported.startswith(ROOT + ".")}


def layer(name: str) -> str:
    return name.split(".")[1] if "." in name else ""


def test_the_walk_sees_the_real_imports() -> None:
    assert "kismet_dice.rules" in imports_of("kismet_dice.game.engine")
    assert "kismet_dice.session.narration" in imports_of("kismet_dice.session.table")
    assert len(modules()) > 50


def test_no_module_imports_itself_back_through_others() -> None:
    graph = {name: imports_of(name) - {name} for name in modules()}
    done: set[str] = set()
    trail: list[str] = []

    def visit(name: str) -> None:
        if name in trail:
            cycle = [*trail[trail.index(name) :], name]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        trail.append(name)
        for imported in sorted(graph.get(name, ())):
            # ``kismet_dice`` itself only re-exports the public API of rules and game.
            if imported != ROOT:
                visit(imported)
        trail.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)


def test_imports_run_one_way_between_the_layers() -> None:
    wrong = []
    for name in modules():
        own = layer(name)
        if own not in ALLOWED:
            continue
        for imported in imports_of(name):
            other = layer(imported)
            if other and other != own and other not in ALLOWED[own]:
                wrong.append(f"{name} imports {imported}")
    assert wrong == []


SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX))\b"
)


def test_every_sql_statement_lives_in_storage() -> None:
    outside = []
    for name, path in modules().items():
        if layer(name) == "storage":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
                outside.append(f"{name}: {node.value[:60]!r}")
    assert outside == []
    # The check finds what it looks for.
    assert SQL.search("SELECT id FROM hall_of_fame") and SQL.search("UPDATE saved_game SET x = 1")
