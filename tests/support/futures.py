"""The target player's futures for tests: those a late sheet can reach (seconds), never the full store.

A store on disk covers every sheet; a test stores instead the futures of the positions one late
sheet can lead to (the other layers empty), which answer exactly wherever that sheet's game goes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kismet_dice.rules import Sheet
from kismet_dice.strategy.advisor import position_key
from kismet_dice.strategy.distribution import Futures, Rows, future_pass, stored_layer
from kismet_dice.strategy.stored_futures import futures_path, save_futures
from kismet_dice.strategy.table import StrategyTable


def late_futures(table: StrategyTable, sheet: Sheet) -> Futures:
    """Every layer's survival functions from ``sheet`` on (what the target player reads)."""
    return future_pass(table, position_key(sheet, table.rules.cap), keep=None)


def store_late_futures(table: StrategyTable, sheet: Sheet, directory: Path) -> Futures:
    """:func:`late_futures` stored in ``directory`` as the futures of every position would be."""
    futures = late_futures(table, sheet)
    for filled in range(len(table.rules.boxes) + 1):
        if stored_layer(table.rules, filled):
            nothing = np.zeros(0, dtype=np.intp)
            empty = Rows(np.zeros(0, dtype=np.uint16), np.zeros(1, dtype=np.intp), nothing, True)
            futures.layers.setdefault(filled, empty)
    save_futures(futures, futures_path(table.rules, directory))
    return futures
