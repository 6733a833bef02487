"""The optimal expected score of every turn-start position, by dynamic programming.

A position at the start of a turn is the set of filled boxes (a bit mask) and the Basic
total capped at the top bonus threshold; the points already entered do not change what is
best from there on. ``values[mask, total]`` is the optimal expectation of the points still
to come, bonus included (so a full sheet is worth just its bonus). Positions with more filled
boxes come first; all positions with the same number of filled boxes are independent and are
computed together in batches of columns, shared between two processes.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from kismet_dice.strategy import kernel
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.ruleset import RuleSet

Progress = Callable[[int, int], None]
"""Called with (positions done, positions in all)."""

BATCH_COLUMNS = 256
"""Positions per batch: wide enough to hide NumPy's per-call cost, small enough to stay in cache."""


def reachable_totals(rules: RuleSet) -> dict[int, IntArray]:
    """For every set of filled basic boxes (a mask over all boxes), the capped totals it can hold.

    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> totals = reachable_totals(kismet_rules())
    >>> totals[0].tolist(), totals[1].tolist()  # nothing filled; Ones filled
    ([0], [0, 1, 2, 3, 4, 5])
    """
    found: dict[int, set[int]] = {0: {0}}
    for box in rules.basic_boxes:
        scores = set(rules.boxes[box].points)
        for subset, totals in list(found.items()):
            found[subset | 1 << box] = {min(t + s, rules.cap) for t in totals for s in scores}
    return {subset: np.array(sorted(totals), dtype=np.intp) for subset, totals in found.items()}


def next_values(
    rules: RuleSet, tables: Sequence[kernel.BoxTable], values: FloatArray, masks: IntArray, totals: IntArray
) -> list[FloatArray | None]:
    """For each box, the values of the positions entering it leads to (see :func:`kernel.final`)."""
    flat = values.reshape(-1)
    width = rules.cap + 1
    nexts: list[FloatArray | None] = []
    for box, table in enumerate(tables):
        bit = 1 << box
        open_ = (masks & bit) == 0
        if not open_.any():
            nexts.append(None)
            continue
        base = (masks | bit) * width
        if table.basic:
            index = base[None, :] + np.minimum(totals[None, :] + table.scores[:, None], rules.cap)
            found = flat[index]
            found[:, ~open_] = -np.inf
        else:
            found = np.where(open_, flat[base + totals], -np.inf)
        nexts.append(found)
    return nexts


def start_values(
    rules: RuleSet, tables: Sequence[kernel.BoxTable], values: FloatArray, masks: IntArray, totals: IntArray
) -> FloatArray:
    """The value of each (mask, total) column at the start of a turn, from the positions after it."""
    turn = kernel.turn(rules, tables, next_values(rules, tables, values, masks, totals))
    result: FloatArray = rules.space.roll_probabilities @ turn.choose[-1]
    return result


def _batches(rules: RuleSet, filled: int) -> Iterator[tuple[IntArray, IntArray]]:
    """Every reachable position with ``filled`` boxes filled, as (masks, totals) batches."""
    boxes = len(rules.boxes)
    basic_bits = sum(1 << box for box in rules.basic_boxes)
    reachable = reachable_totals(rules)
    all_masks = np.arange(1 << boxes, dtype=np.intp)
    popcount = np.zeros(1 << boxes, dtype=np.intp)
    for box in range(boxes):
        popcount += (all_masks >> box) & 1
    layer = all_masks[popcount == filled]
    for subset, totals in reachable.items():
        group = layer[(layer & basic_bits) == subset]
        if not len(group):
            continue
        masks = np.repeat(group, len(totals))
        sums = np.tile(totals, len(group))
        for start in range(0, len(masks), BATCH_COLUMNS):
            yield masks[start : start + BATCH_COLUMNS], sums[start : start + BATCH_COLUMNS]


def count_positions(rules: RuleSet) -> int:
    """How many turn-start positions with an open box can be reached (the ones solved).

    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> count_positions(kismet_rules())
    1543601
    """
    reachable = reachable_totals(rules)
    others = len(rules.boxes) - len(rules.basic_boxes)
    basic_bits = sum(1 << box for box in rules.basic_boxes)
    full_sheet = len(reachable[basic_bits])
    return (sum(len(totals) for totals in reachable.values()) << others) - full_sheet


def solve(rules: RuleSet, progress: Progress | None = None, processes: int | None = None) -> FloatArray:
    """``values[mask, total]`` for every reachable position; unreachable entries are NaN.

    ``processes`` (default: up to two, the cores this program aims at) share the work of each
    layer; the table lives in shared memory, so they write their results in place.

    >>> from kismet_dice.strategy.ruleset import rule_set
    >>> one_box = rule_set("sixes", 1, 6, [("SIXES", lambda r: 6 * r.count(6), True)], [0])
    >>> value = float(solve(one_box, processes=1)[0, 0])
    >>> abs(value - 6 * (1 - (5 / 6) ** 3)) < 1e-12  # a six in three tries
    True
    """
    boxes = len(rules.boxes)
    shape = (1 << boxes, rules.cap + 1)
    workers = processes if processes is not None else min(2, os.cpu_count() or 1)
    forking = workers > 1 and "fork" in mp.get_all_start_methods()
    buffer = mp.get_context("fork").RawArray("d", shape[0] * shape[1]) if forking else None
    values: FloatArray = (
        np.frombuffer(buffer, dtype=np.float64).reshape(shape) if buffer is not None else np.empty(shape)
    )
    values[...] = np.nan
    values[-1, :] = rules.bonus
    total = count_positions(rules)
    done = 0
    global _SHARED
    _SHARED = (rules, kernel.box_tables(rules), values)
    try:
        if buffer is None:
            for filled in range(boxes - 1, -1, -1):
                for batch in _tasks(rules, filled):
                    done += _work(batch)
                    if progress is not None:
                        progress(done, total)
            return values.copy()
        # Forked workers inherit the shared table and the rule set; only batches travel.
        with mp.get_context("fork").Pool(workers) as pool:
            for filled in range(boxes - 1, -1, -1):
                # Every batch of a layer reads only the layers after it, so they run side by side.
                for count in pool.imap_unordered(_work, _tasks(rules, filled)):
                    done += count
                    if progress is not None:
                        progress(done, total)
        return values.copy()
    finally:
        _SHARED = None


_SHARED: tuple[RuleSet, tuple[kernel.BoxTable, ...], FloatArray] | None = None
TASK_COLUMNS = 8 * BATCH_COLUMNS


def _tasks(rules: RuleSet, filled: int) -> Iterator[tuple[IntArray, IntArray]]:
    masks: list[IntArray] = []
    totals: list[IntArray] = []
    size = 0
    for batch_masks, batch_totals in _batches(rules, filled):
        masks.append(batch_masks)
        totals.append(batch_totals)
        size += len(batch_masks)
        if size >= TASK_COLUMNS:
            yield np.concatenate(masks), np.concatenate(totals)
            masks, totals, size = [], [], 0
    if masks:
        yield np.concatenate(masks), np.concatenate(totals)


def _work(task: tuple[IntArray, IntArray]) -> int:
    assert _SHARED is not None
    rules, tables, values = _SHARED
    masks, totals = task
    for start in range(0, len(masks), BATCH_COLUMNS):
        part = slice(start, start + BATCH_COLUMNS)
        values[masks[part], totals[part]] = start_values(rules, tables, values, masks[part], totals[part])
    return len(masks)
