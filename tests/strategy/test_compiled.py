"""Numba is loaded only when a compiled loop first runs, and then every loop of its module at once."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from tests.support.compiles import call, fresh_loops

from kismet_dice.strategy import compiled


def test_the_command_and_its_layers_load_without_numba() -> None:
    # A fresh interpreter: this one has long since run the loops.
    probe = "import sys, kismet_dice.cli, kismet_dice.session; print('numba' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "False"


def test_a_first_call_compiles_every_loop_of_its_module_and_a_loop_may_call_another() -> None:
    namespace: dict[str, object] = {}
    exec(  # a module of its own, so that the test sees its namespace change
        "from kismet_dice.strategy.compiled import jit\n"
        "@jit(cache=False)\n"
        "def inner(x):\n"
        "    return x + 1\n"
        "@jit(cache=False)\n"
        "def outer(values):\n"
        "    total = 0.0\n"
        "    for value in values:\n"
        "        total += inner(value)\n"
        "    return total\n",
        namespace,
    )
    stand_in = namespace["outer"]
    assert isinstance(stand_in, compiled.Deferred) and isinstance(namespace["inner"], compiled.Deferred)
    assert stand_in(np.array([1.0, 2.0, 3.0])) == 9.0
    assert type(namespace["outer"]).__name__ == "CPUDispatcher"
    assert type(namespace["inner"]).__name__ == "CPUDispatcher"
    # A reference taken before still works, through the compiled loop.
    assert stand_in(np.array([0.5])) == 1.5


def test_compiling_the_packages_loops_is_told_once_for_a_loop_and_those_it_calls() -> None:
    loops = fresh_loops("kismet_dice.strategy.a_new_module")
    told: list[bool] = []
    with compiled.telling_compiles(lambda: told.append(compiled.compiling())):
        assert call(loops["outer"], 2) == 7
        assert told == [True]  # once, during the compile, though two loops compiled
        assert not compiled.compiling()
        # Compiled already: running again is not compiling.
        assert call(loops["outer"], 5) == 16 and call(loops["inner"], 1) == 3
        assert told == [True]
    # Outside, nothing is told; inside again, a compile is told again.
    other = fresh_loops("kismet_dice.strategy.another_module")
    assert call(other["inner"], 4) == 12
    again: list[str] = []
    with compiled.telling_compiles(lambda: again.append("told")):
        assert call(other["outer"], 0) == 1
    assert told == [True] and again == ["told"]


def test_a_compile_outside_the_package_is_not_told() -> None:
    loops = fresh_loops("someone_elses_module")
    told: list[str] = []
    with compiled.telling_compiles(lambda: told.append("told")):
        assert call(loops["outer"], 1) == 4
    assert told == [] and not compiled.compiling()


def test_a_notice_that_cannot_be_given_does_not_stop_the_compile() -> None:
    def gone() -> None:
        raise OSError("the terminal has closed")

    loops = fresh_loops("kismet_dice.strategy.told_in_vain")
    told: list[str] = []
    with compiled.telling_compiles(gone), compiled.telling_compiles(lambda: told.append("told")):
        assert call(loops["outer"], 3) == 10
    assert told == ["told"] and not compiled.compiling()
