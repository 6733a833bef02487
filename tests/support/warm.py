"""Compile the strategy's loops once, before the tests start: ``python -m tests.support.warm``.

On a clean clone Numba's cache is empty, and every pytest worker (and every command a test starts
meanwhile) compiled the same loops at once: 30 to 40 s of processor time on two cores, one
compile's worth of it useful. ``make test`` runs this beside the type check instead, so the
workers find every loop in the cache. Tiny rules take the same paths with the same array types as
Kismet's (the loops are compiled for types, not rules), so the compiling is nearly all it costs.

As the game does the first time on a machine, the solve's loops are compiled here while a second
process compiles the passes' (:mod:`kismet_dice.strategy.ahead`, started by the first compile),
and then the loops that ask the futures load what both stored. What that process compiles is
checked here: a pass that still has a loop to compile after it fails the warm-up.

A loop added to the strategy (or called with new types) should be run here too, or the workers
compile it again: the run stays right, only slower.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba.core import event

from kismet_dice.strategy import compiled, kernel
from kismet_dice.strategy.ahead import passes
from kismet_dice.strategy.distribution import exact_survival, future_pass
from kismet_dice.strategy.ruleset import tiny_rules
from kismet_dice.strategy.stored_futures import load_or_compute_futures
from kismet_dice.strategy.table import StrategyTable, load_or_solve
from kismet_dice.strategy.target import TargetTurns


def turns(directory: Path) -> StrategyTable:
    """The solve's loops, a turn's stops and best boxes and its values roll by roll (what the target
    player reads beside the futures): the table, solved and stored."""
    rules = tiny_rules()
    table = load_or_solve(rules, directory=directory)
    tables = kernel.tables_of(rules)
    start = np.zeros(1, dtype=np.intp)
    kernel.stop_values(tables, table.values, start, start)
    kernel.best_boxes(tables, table.values, start, start)
    kernel.turn(tables, table.values, start, start)
    return table


class _Compiles(event.Listener):
    """The package's loops Numba compiles while it listens."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def on_start(self, happened: event.Event) -> None:
        function = getattr(happened.data.get("dispatcher"), "py_func", None)
        module = str(getattr(function, "__module__", ""))
        if module.startswith("kismet_dice."):
            self.names.append(f"{module}.{getattr(function, '__qualname__', '?')}")

    def on_end(self, happened: event.Event) -> None:
        pass


def left_by_ahead() -> list[str]:
    """The loops the passes still compile here once the process compiling ahead has ended."""
    compiles = _Compiles()
    with event.install_listener("numba:compile", compiles):
        passes()
    return compiles.names


def asks(table: StrategyTable, directory: Path) -> None:
    """Futures just worked out, stored (memory-mapped, narrower rows) and exact; one position asked
    about and several, by the target player too."""
    rules = table.rules
    every = future_pass(table, keep=None)
    stored = load_or_compute_futures(table, directory=directory)
    exact = exact_survival(future_pass(table, keep=len(rules.boxes)))
    for futures in (every, stored, exact):
        masks, totals = np.nonzero(futures.row_of >= 0)
        for filled in range(len(rules.boxes)):
            layer = np.array([int(mask).bit_count() == filled for mask in masks])
            for count in (1, int(layer.sum())):
                ask_masks = masks[layer][:count].astype(np.intp)
                ask_totals = totals[layer][:count].astype(np.intp)
                futures.at_least(ask_masks, ask_totals, np.full(count, 4))
                futures.survival_rows(ask_masks, ask_totals, 8)
                points = np.zeros(count, dtype=np.intp)
                TargetTurns(futures, table, 10).turn(ask_masks, ask_totals, points).start_chance()


def warm(directory: Path) -> None:
    """Every compiled loop of the strategy run once for each kind of array the game hands it, on
    tiny rules, storing in ``directory``."""
    table = turns(directory)
    if compiled.compiled_ahead():
        left = left_by_ahead()
        if left:
            raise RuntimeError(f"compiling ahead left {', '.join(left)} to compile")
    else:
        passes()
    asks(table, directory)


def main() -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kismet-warm-") as directory:
        warm(Path(directory))
    print(f"The strategy's loops compiled or loaded in {time.perf_counter() - started:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
