"""The first compile of a stored loop starts a second process compiling the passes' loops, and
the passes wait for what it says it has stored."""

from __future__ import annotations

import fcntl
import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from tests.support.compiles import call, fresh_loops

from kismet_dice.strategy import ahead, compiled

STORED_LOOPS = """
from kismet_dice.strategy.compiled import jit

@jit(cache=True)
def twice(x):
    return 2 * x
"""


def stored_loops(directory: Path, name: str) -> ModuleType:
    """A module of the package's with a loop Numba stores (in ``directory``, which holds none yet):
    its first call compiles, as every loop does the first time on a machine."""
    path = directory / f"{name}.py"
    path.write_text(STORED_LOOPS)
    spec = importlib.util.spec_from_file_location(f"kismet_dice.strategy.{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def helper(folder: Path) -> tuple[str, str]:
    """What the second process runs in these tests instead of the passes: for each stage, it waits
    for the test to create ``go-<stage>`` in ``folder``, writes ``<stage>`` there and then says so."""
    script = (
        "import pathlib, sys, time\n"
        f"folder = pathlib.Path({str(folder)!r})\n"
        "for stage in ('forward', 'backward'):\n"
        "    while not (folder / f'go-{stage}').exists():\n"
        "        time.sleep(0.01)\n"
        "    (folder / stage).write_text(stage)\n"
        "    print(stage, flush=True)\n"
    )
    return ("-c", script)


def assert_none_started(folder: Path) -> None:
    """No second process was started: told to go on, none marks anything in ``folder``."""
    (folder / "go-forward").touch()
    (folder / "go-backward").touch()
    assert not compiled.compiled_ahead()
    assert not (folder / "forward").exists()


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """This process as one that has started no second process yet, on a machine of two cores; the
    folder where the stand-in second process is told to go on and marks what it did."""
    monkeypatch.setattr(compiled, "_ahead", None)
    monkeypatch.setattr(compiled, "_ahead_allowed", True)
    monkeypatch.setattr(compiled, "_ahead_said", set())
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    folder = tmp_path / "helper"
    folder.mkdir()
    monkeypatch.setattr(compiled, "AHEAD", helper(folder))
    yield folder
    compiled._stop_ahead()


def test_the_first_compile_of_a_stored_loop_starts_one_process_and_the_passes_wait_for_its_word(
    fresh: Path, tmp_path: Path
) -> None:
    module = stored_loops(tmp_path, "first_stored")
    assert module.twice(21) == 42
    (fresh / "go-forward").touch()
    compiled.await_ahead(compiled.FORWARD)
    assert (fresh / "forward").exists()  # marked before it said so: the wait was for its word
    assert not (fresh / "backward").exists()
    other = stored_loops(tmp_path, "second_stored")
    assert other.twice(2) == 4  # a second compile starts no second process
    (fresh / "go-backward").touch()
    assert compiled.compiled_ahead()  # it said the rest and ended well
    assert (fresh / "backward").exists()
    assert len(list(fresh.glob("go-*"))) == 2 and len(list(fresh.iterdir())) == 4


def test_loops_not_stored_start_none(fresh: Path) -> None:
    assert call(fresh_loops("kismet_dice.strategy.not_stored")["outer"], 1) == 4
    assert_none_started(fresh)


def test_a_process_on_one_core_or_told_not_to_starts_none(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert stored_loops(tmp_path, "one_core").twice(1) == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(compiled, "_ahead_allowed", True)
    compiled.no_ahead()  # as a worker of another process is
    assert stored_loops(tmp_path, "a_worker").twice(3) == 6
    assert_none_started(fresh)


def test_a_second_process_that_stops_early_lets_the_passes_go_on(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled, "AHEAD", ("-c", "import sys; sys.exit(3)"))
    assert stored_loops(tmp_path, "stopped_early").twice(5) == 10
    compiled.await_ahead(compiled.FORWARD)  # its output ended: nothing more to wait for
    assert not compiled.compiled_ahead()


def test_the_process_compiling_ahead_leaves_it_to_another_at_it_and_says_each_stage(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KISMET_HOME", str(tmp_path))
    monkeypatch.setattr(compiled, "_ahead_allowed", True)
    runs: list[str] = []

    def passes(stored: Callable[[str], object]) -> None:
        runs.append("ran")
        stored(compiled.FORWARD)

    monkeypatch.setattr(ahead, "passes", passes)
    (tmp_path / "tables").mkdir()
    with open(tmp_path / "tables" / ahead.LOCK, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert ahead.main() == 0
        assert runs == []
    assert ahead.main() == 0
    assert runs == ["ran"] and capsys.readouterr().out == "forward\n"
    assert not compiled._ahead_allowed  # it starts none of its own


def test_a_pass_begun_before_any_compile_compiles_its_own_loops_and_starts_none_after(
    fresh: Path, tmp_path: Path
) -> None:
    compiled.await_ahead(compiled.FORWARD)  # as a pass does first: nothing started to wait for
    assert stored_loops(tmp_path, "in_a_pass").twice(4) == 8
    assert_none_started(fresh)
