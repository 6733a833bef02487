"""The optimal expected score of every turn-start position, by dynamic programming.

A position at the start of a turn is the set of filled boxes (a bit mask) and the Basic
total capped at the top bonus threshold; the points already entered do not change what is
best from there on. ``values[mask, total]`` is the optimal expectation of the points still
to come, bonus included (so a full sheet is worth just its bonus). Positions with more filled
boxes come first; all positions with the same number of filled boxes are independent and are
computed together by the compiled turn (:mod:`kismet_dice.strategy.kernel`), in tasks shared
between two threads.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
from collections.abc import Callable, Iterator

import numpy as np

from kismet_dice.strategy import kernel
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.ruleset import RuleSet

Progress = Callable[[int, int], None]
"""Called with (positions done, positions in all)."""


@functools.cache
def reachable_totals(rules: RuleSet) -> dict[int, IntArray]:
    """For every set of filled basic boxes (a mask over all boxes), the capped totals it can hold
    (worked out once per process and rule set: every layer of every pass asks; do not change them).

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
    result = {subset: np.array(sorted(totals), dtype=np.intp) for subset, totals in found.items()}
    for held in result.values():
        held.flags.writeable = False  # shared by every caller
    return result


@functools.cache
def equivalent_totals(rules: RuleSet) -> dict[int, IntArray]:
    """For every set of filled basic boxes, the smallest total that is worth the same as each
    reachable total (in the order of :func:`reachable_totals`).

    A total matters only through the bonus it leads to. Two totals whose bonus is the same
    whatever the open basic boxes add (every sum they can still make, capped) lead to the same
    bonus in every game from there, so every position with these basic boxes filled is worth
    the same with either: the solver computes one and copies it. With Fives and Sixes open
    (at most 55 more), every total below 8 ends without a bonus; with every basic box filled
    only the bonus already earned is left.

    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> rules = kismet_rules()
    >>> all_but_sixes = sum(1 << box for box in rules.basic_boxes[:5])
    >>> same = equivalent_totals(rules)[all_but_sixes]
    >>> same[:34].tolist() == [0] * 33 + [33]  # 32 + 30 < 63 <= 33 + 30
    True
    """
    scores = {box: np.unique(rules.boxes[box].points) for box in rules.basic_boxes}
    bonus = np.array(rules.bonus)
    result: dict[int, IntArray] = {}
    for subset, totals in reachable_totals(rules).items():
        future = np.zeros(1, dtype=np.intp)
        for box in rules.basic_boxes:
            if not subset >> box & 1:
                future = np.unique(np.minimum(future[:, None] + scores[box][None, :], rules.cap))
        outcome = bonus[np.minimum(totals[:, None] + future[None, :], rules.cap)]
        _, first, which = np.unique(outcome, axis=0, return_index=True, return_inverse=True)
        result[subset] = totals[first[which.reshape(-1)]]
        result[subset].flags.writeable = False  # shared by every caller
    return result


def start_values(rules: RuleSet, values: FloatArray, masks: IntArray, totals: IntArray) -> FloatArray:
    """The value of each (mask, total) column at the start of a turn, from the positions after it."""
    return kernel.start_values(kernel.tables_of(rules), values, masks, totals)


@functools.cache
def filled_counts(boxes: int) -> IntArray:
    """``out[mask]``: how many boxes ``mask`` fills (worked out once per process: every layer of
    every pass asks; do not change it).

    >>> filled_counts(3).tolist()
    [0, 1, 1, 2, 1, 2, 2, 3]
    """
    masks = np.arange(1 << boxes)
    counts = np.zeros(1 << boxes, dtype=np.intp)
    for box in range(boxes):
        counts += masks >> box & 1
    counts.flags.writeable = False
    return counts


def _layer(rules: RuleSet, filled: int) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The reachable positions with ``filled`` boxes filled: ``(masks, totals)`` to compute, then
    ``(masks, totals, same_totals)`` of the others, each worth as much as ``(mask, same_total)``."""
    boxes = len(rules.boxes)
    basic_bits = rules.basic_mask
    layer = np.flatnonzero(filled_counts(boxes) == filled)
    reachable = reachable_totals(rules)
    masks: list[IntArray] = []
    totals: list[IntArray] = []
    same: list[IntArray] = []
    for subset, equivalent in equivalent_totals(rules).items():
        group = layer[(layer & basic_bits) == subset]
        masks.append(np.repeat(group, len(equivalent)))
        totals.append(np.tile(reachable[subset], len(group)))
        same.append(np.tile(equivalent, len(group)))
    all_masks, all_totals, all_same = np.concatenate(masks), np.concatenate(totals), np.concatenate(same)
    own = all_totals == all_same
    copied = ~own
    return all_masks[own], all_totals[own], all_masks[copied], all_totals[copied], all_same[copied]


def count_positions(rules: RuleSet) -> int:
    """How many turn-start positions with an open box can be reached (the ones solved).

    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> count_positions(kismet_rules())
    1543601
    """
    reachable = reachable_totals(rules)
    others = len(rules.boxes) - len(rules.basic_boxes)
    full_sheet = len(reachable[rules.basic_mask])
    return (sum(len(totals) for totals in reachable.values()) << others) - full_sheet


def solve(rules: RuleSet, progress: Progress | None = None, threads: int | None = None) -> FloatArray:
    """``values[mask, total]`` for every reachable position; unreachable entries are NaN.

    ``threads`` (default: up to two, the cores this program aims at) share the work of each
    layer: the compiled turn lets go of the interpreter's lock, and every task of a layer reads
    only the layers after it, so they write their results into the one table side by side.

    >>> from kismet_dice.strategy.ruleset import rule_set
    >>> one_box = rule_set("sixes", 1, 6, [("SIXES", lambda r: 6 * r.count(6), True)], [0])
    >>> value = float(solve(one_box, threads=1)[0, 0])
    >>> abs(value - 6 * (1 - (5 / 6) ** 3)) < 1e-12  # a six in three tries
    True
    """
    boxes = len(rules.boxes)
    values = np.full((1 << boxes, rules.cap + 1), np.nan)
    values[-1, :] = rules.bonus
    tables = kernel.tables_of(rules)
    total = count_positions(rules)
    done = 0
    size = threads if threads is not None else min(2, os.cpu_count() or 1)

    def compute(task: tuple[IntArray, IntArray]) -> int:
        masks, totals = task
        values[masks, totals] = kernel.start_values(tables, values, masks, totals)
        return len(masks)

    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        for filled in range(boxes - 1, -1, -1):
            masks, totals, copy_masks, copy_totals, same_totals = _layer(rules, filled)
            for count in pool.map(compute, _tasks(masks, totals, size)):
                done += count
                if progress is not None:
                    progress(done, total)
            values[copy_masks, copy_totals] = values[copy_masks, same_totals]
            done += len(copy_masks)
            if progress is not None:
                progress(done, total)
    return values


TASK_COLUMNS = 8192
"""Positions in one task: a few milliseconds of work, so that progress moves and the two threads
end a layer together."""


def _tasks(masks: IntArray, totals: IntArray, threads: int) -> Iterator[tuple[IntArray, IntArray]]:
    """A layer's positions in tasks of at most ``TASK_COLUMNS``, at least one per thread."""
    size = min(TASK_COLUMNS, max(kernel.BLOCK, -(-len(masks) // threads)))
    for start in range(0, len(masks), size):
        yield masks[start : start + size], totals[start : start + size]
