"""The modules of kismet_dice.game import one another without a cycle, read from their source."""

from __future__ import annotations

from pathlib import Path

from tests.support.imports import find_cycle, import_graph, imported_names, modules

PACKAGE = "kismet_dice.game"


def test_the_game_package_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    # The walk must have seen the package's real imports, or finding no cycle would prove nothing.
    assert f"{PACKAGE}.record" in graph[f"{PACKAGE}.engine"]
    assert f"{PACKAGE}.engine" in graph[PACKAGE]
    assert find_cycle(graph) == []


def test_the_record_knows_nothing_of_the_engine() -> None:
    path = modules(PACKAGE)[f"{PACKAGE}.record"]
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
