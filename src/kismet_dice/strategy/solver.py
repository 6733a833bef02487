"""The optimal expected score of every turn-start position, by dynamic programming.

A position at the start of a turn is the set of filled boxes (a bit mask) and the Basic
total capped at the top bonus threshold; the points already entered do not change what is
best from there on. ``values[mask, total]`` is the optimal expectation of the points still
to come, bonus included (so a full sheet is worth just its bonus). Positions with more filled
boxes come first; all positions with the same number of filled boxes are independent and are
computed together in batches of columns, shared between two worker processes (see
:mod:`kismet_dice.strategy.workers`).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from kismet_dice.strategy import kernel
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.workers import STALL_SECONDS, Workers, context

Progress = Callable[[int, int], None]
"""Called with (positions done, positions in all)."""

BATCH_COLUMNS = 1024
"""Positions per batch: wide enough to hide NumPy's per-call cost (with the arrays reused, 1024 was
measured 10-20% faster than 512 or 256)."""


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
    return result


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
    rules: RuleSet,
    tables: Sequence[kernel.BoxTable],
    values: FloatArray,
    masks: IntArray,
    totals: IntArray,
    work: kernel.Workspace | None = None,
) -> FloatArray:
    """The value of each (mask, total) column at the start of a turn, from the positions after it.

    ``work`` (made for exactly ``len(masks)`` columns) is reused if given.
    """
    if work is None:
        work = kernel.Workspace.create(rules.space, len(masks))
    return kernel.start_values(rules, tables, next_values(rules, tables, values, masks, totals), work)


def _layer(rules: RuleSet, filled: int) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The reachable positions with ``filled`` boxes filled: ``(masks, totals)`` to compute, then
    ``(masks, totals, same_totals)`` of the others, each worth as much as ``(mask, same_total)``."""
    boxes = len(rules.boxes)
    basic_bits = sum(1 << box for box in rules.basic_boxes)
    all_masks = np.arange(1 << boxes, dtype=np.intp)
    popcount = np.zeros(1 << boxes, dtype=np.intp)
    for box in range(boxes):
        popcount += (all_masks >> box) & 1
    layer = all_masks[popcount == filled]
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
    basic_bits = sum(1 << box for box in rules.basic_boxes)
    full_sheet = len(reachable[basic_bits])
    return (sum(len(totals) for totals in reachable.values()) << others) - full_sheet


def solve(
    rules: RuleSet,
    progress: Progress | None = None,
    processes: int | None = None,
    *,
    stall: float = STALL_SECONDS,
) -> FloatArray:
    """``values[mask, total]`` for every reachable position; unreachable entries are NaN.

    ``processes`` (default: up to two, the cores this program aims at) share the work of each
    layer; the table lives in shared memory, so they write their results in place. A worker
    that dies, fails, or finishes no task for ``stall`` seconds stops the solve with
    :class:`~kismet_dice.strategy.workers.SolveFailed`; the workers are stopped whatever happens.

    >>> from kismet_dice.strategy.ruleset import rule_set
    >>> one_box = rule_set("sixes", 1, 6, [("SIXES", lambda r: 6 * r.count(6), True)], [0])
    >>> value = float(solve(one_box, processes=1)[0, 0])
    >>> abs(value - 6 * (1 - (5 / 6) ** 3)) < 1e-12  # a six in three tries
    True
    """
    boxes = len(rules.boxes)
    shape = (1 << boxes, rules.cap + 1)
    size = processes if processes is not None else min(2, os.cpu_count() or 1)
    buffer = context().RawArray("d", shape[0] * shape[1]) if size > 1 else None
    values: FloatArray = (
        np.frombuffer(buffer, dtype=np.float64).reshape(shape) if buffer is not None else np.empty(shape)
    )
    values[...] = np.nan
    values[-1, :] = rules.bonus
    total = count_positions(rules)
    done = 0
    with contextlib.ExitStack() as stack:
        compute: Callable[[Iterator[tuple[IntArray, IntArray]]], Iterator[int]]
        if buffer is None:
            state = _state(rules, values)
            compute = functools.partial(map, functools.partial(_compute, state))
        else:
            # Each worker builds its own workspace, reused for all its batches, around the shared table.
            workers = stack.enter_context(
                Workers(
                    size,
                    _work,
                    _start_worker,
                    (rules, buffer, shape),
                    what="The strategy table could not be computed",
                    stall=stall,
                )
            )
            compute = functools.partial(workers.map, ordered=False)
        for filled in range(boxes - 1, -1, -1):
            masks, totals, copy_masks, copy_totals, same_totals = _layer(rules, filled)
            # Every task of a layer reads only the layers after it, so they run side by side;
            # the workers hold the shared table and the rule set, and only tasks travel.
            for count in compute(_tasks(masks, totals)):
                done += count
                if progress is not None:
                    progress(done, total)
            values[copy_masks, copy_totals] = values[copy_masks, same_totals]
            done += len(copy_masks)
            if progress is not None:
                progress(done, total)
        return values.copy()


_State = tuple[RuleSet, tuple[kernel.BoxTable, ...], FloatArray, kernel.Workspace]
_SHARED: _State | None = None
"""In a worker process, what :func:`_start_worker` set up."""
TASK_COLUMNS = 4 * BATCH_COLUMNS


def _state(rules: RuleSet, values: FloatArray) -> _State:
    return rules, kernel.box_tables(rules), values, kernel.Workspace.create(rules.space, BATCH_COLUMNS)


def _start_worker(rules: RuleSet, buffer: Any, shape: tuple[int, int]) -> None:
    global _SHARED
    _SHARED = _state(rules, np.frombuffer(buffer, dtype=np.float64).reshape(shape))


def _work(task: tuple[IntArray, IntArray]) -> int:
    assert _SHARED is not None
    return _compute(_SHARED, task)


def _tasks(masks: IntArray, totals: IntArray) -> Iterator[tuple[IntArray, IntArray]]:
    """Positions of a layer in tasks of ``TASK_COLUMNS`` (the last one shorter)."""
    for start in range(0, len(masks), TASK_COLUMNS):
        yield masks[start : start + TASK_COLUMNS], totals[start : start + TASK_COLUMNS]


def _compute(state: _State, task: tuple[IntArray, IntArray]) -> int:
    rules, tables, values, work = state
    masks, totals = task
    for start in range(0, len(masks), BATCH_COLUMNS):
        part = slice(start, start + BATCH_COLUMNS)
        batch_masks, batch_totals = masks[part], totals[part]
        size = len(batch_masks)
        if size < BATCH_COLUMNS:
            # A short batch is padded with copies of its last position, to use the same workspace.
            batch_masks = np.pad(batch_masks, (0, BATCH_COLUMNS - size), mode="edge")
            batch_totals = np.pad(batch_totals, (0, BATCH_COLUMNS - size), mode="edge")
        found = start_values(rules, tables, values, batch_masks, batch_totals, work)
        values[batch_masks[:size], batch_totals[:size]] = found[:size]
    return len(masks)
