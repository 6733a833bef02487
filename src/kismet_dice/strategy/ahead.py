"""The passes' loops compiled ahead, in a process of their own: ``python -m kismet_dice.strategy.ahead``.

The first time the strategy runs on a machine, Numba compiles every loop it needs, one at a time in
a process: the solve's first (about 7 s), then, for the first chance asked or the first game's
end, the endings' and the passes' (about 10 s more). :mod:`~kismet_dice.strategy.compiled` starts
this process when its own first begins compiling, and the passes wait for it, so on a machine with
a core to spare the two run side by side (a machine's first ``kismet chances`` took 11.1-12.5 s
against 14.0-14.1 s).

One at a time on a machine: a process that finds another at it (the workers of a server, each
starting one) leaves it to that one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from collections.abc import Callable

import numpy as np

from kismet_dice.strategy import compiled
from kismet_dice.strategy.distribution import exact_survival, forward, future_pass
from kismet_dice.strategy.ruleset import tiny_rules
from kismet_dice.strategy.table import StrategyTable, table_dir

LOCK = "compiling-ahead.lock"
"""The file in the tables' directory that the process compiling ahead holds."""


def passes(stored: Callable[[str], object] = lambda stage: None) -> None:
    """Run the loops of the hard player's endings and the forward pass, then of the backward passes,
    on tiny rules, calling ``stored`` with each stage once its loops are run. Their table is zeros
    of a solved table's shape and type (its choices are ties throughout): the loops are the same,
    and the solve's are left to the process that started this."""
    rules = tiny_rules()
    table = StrategyTable(rules, np.zeros((1 << len(rules.boxes), rules.cap + 1)))
    forward(table).at_least(5)
    stored(compiled.FORWARD)
    future_pass(table)
    future_pass(table, keep=None)
    exact_survival(future_pass(table, keep=len(rules.boxes)))
    stored(compiled.BACKWARD)


def main() -> int:
    compiled.no_ahead()
    # Behind the process that started it: where that one keeps both cores busy (the solve's
    # threads), this one waits its turn; where it compiles on one core, this one has the other.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    directory = table_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(directory / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        descriptor = -1  # nowhere to say so: compiled all the same
    try:
        if descriptor >= 0:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return 0  # another process is at it
        passes(compiled.said_ahead)
    finally:
        if descriptor >= 0:
            with contextlib.suppress(OSError):
                os.close(descriptor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
