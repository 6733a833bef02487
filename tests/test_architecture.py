"""The shape of the code: imports run one way between the layers, no module imports itself back
through others, and every SQL statement lives in storage."""

from __future__ import annotations

import ast
import re

from tests.support.imports import find_cycle, import_graph, modules

ROOT = "kismet_dice"

# What each layer may import of the project (besides itself). ``texts`` and ``charts`` are neutral helpers.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "game": {"rules"},
    "strategy": {"rules", "game"},
    "storage": {"rules", "game"},
    "texts": set(),
    "charts": set(),
    "session": {"rules", "game", "strategy", "storage", "charts"},
    "tui": {"rules", "game", "strategy", "storage", "session", "texts", "charts"},
    "web": {"rules", "game", "strategy", "storage", "session", "texts", "charts"},
    # The command starts the terminal game and the server.
    "cli": {"rules", "game", "strategy", "storage", "session", "texts", "charts", "tui", "web"},
}


def layer(name: str) -> str:
    return name.split(".")[1] if "." in name else ""


def test_the_walk_sees_the_real_imports() -> None:
    graph = import_graph()
    assert "kismet_dice.rules" in graph["kismet_dice.game.engine"]
    assert "kismet_dice.session.narration" in graph["kismet_dice.session.table"]
    assert len(graph) > 50


def test_no_module_imports_itself_back_through_others() -> None:
    # ``kismet_dice`` itself only re-exports the public API of rules and game.
    graph = {name: targets - {ROOT} for name, targets in import_graph().items()}
    assert find_cycle(graph) == []


def test_imports_run_one_way_between_the_layers() -> None:
    wrong = []
    for name, targets in import_graph().items():
        own = layer(name)
        if own not in ALLOWED:
            continue
        for imported in targets:
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
