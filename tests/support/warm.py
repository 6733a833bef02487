"""Compile the strategy's loops once, before the tests start: ``python -m tests.support.warm``.

On a clean clone Numba's cache is empty, and every pytest worker (and every command a test starts
meanwhile) compiled the same loops at once: 30 to 40 s of processor time on two cores, one
compile's worth of it useful. ``make test`` runs this beside the type check instead, so the
workers find every loop in the cache. Tiny rules take the same paths with the same array types as
Kismet's (the loops are compiled for types, not rules), so the compiling is nearly all it costs.

A loop added to the strategy (or called with new types) should be run here too, or the workers
compile it again: the run stays right, only slower.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from kismet_dice.strategy import kernel
from kismet_dice.strategy.distribution import exact_survival, forward, future_pass
from kismet_dice.strategy.stored_futures import load_or_compute_futures
from kismet_dice.strategy.table import load_or_solve
from kismet_dice.strategy.target import TargetTurns
from tests.support.rules import tiny_rules


def warm(directory: Path) -> None:
    """Run every compiled loop of the strategy once for each kind of array the game hands it, on
    tiny rules, storing in ``directory``: futures just worked out, stored (memory-mapped, narrower
    rows) and exact; one position asked about and several."""
    rules = tiny_rules()
    table = load_or_solve(rules, directory=directory)
    forward(table).at_least(5)
    future_pass(table)
    every = future_pass(table, keep=None)
    stored = load_or_compute_futures(table, directory=directory)
    exact = exact_survival(future_pass(table, keep=len(rules.boxes)))
    tables = kernel.tables_of(rules)
    start = np.zeros(1, dtype=np.intp)
    kernel.stop_values(tables, table.values, start, start)
    kernel.best_boxes(tables, table.values, start, start)
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


def main() -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kismet-warm-") as directory:
        warm(Path(directory))
    print(f"The strategy's loops compiled or loaded in {time.perf_counter() - started:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
