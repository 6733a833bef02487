"""The values of one turn, for many positions at once.

A *column* is one position at the start of a turn: which boxes are filled and the capped
Basic total. Every array here has one row per roll or kept multiset and one column per
position, so NumPy does the same few operations for thousands of positions together. The
solver, the advisor, the ``hard`` player and the simulator all use these functions, so they
agree to the last bit.

The turn, backwards from its end:

* ``final``: with no roll left, the best box for each roll (points now plus the value of
  the position it leads to);
* ``kept``: the expectation of keeping a multiset and rolling the rest, built one rolled die
  at a time (a multiset of n dice averages its six children of n+1 dice);
* ``best``: the best choice for each roll with rolls left, through the lattice of kept
  multisets (the best sub-multiset of k is k itself or the best of k minus one die).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kismet_dice.strategy.dice_space import DiceSpace, FloatArray, IntArray
from kismet_dice.strategy.ruleset import RuleSet


@dataclass(frozen=True)
class BoxTable:
    """One box's points, grouped for the ``final`` step.

    ``scores``: the distinct points the box can give; ``group[r]``: which of them roll r gives;
    ``scoring_rolls``/``scoring_points``: the rolls that score more than zero (for boxes whose
    next position does not depend on the points, only those rolls need a look of their own).
    """

    basic: bool
    scores: IntArray
    group: IntArray
    scoring_rolls: IntArray
    scoring_points: FloatArray


def box_tables(rules: RuleSet) -> tuple[BoxTable, ...]:
    tables = []
    for box in rules.boxes:
        points = np.array(box.points, dtype=np.intp)
        scores, group = np.unique(points, return_inverse=True)
        scoring = np.flatnonzero(points > 0)
        tables.append(
            BoxTable(
                basic=box.basic,
                scores=scores.astype(np.intp),
                group=group.astype(np.intp).reshape(-1),
                scoring_rolls=scoring,
                scoring_points=points[scoring].astype(np.float64),
            )
        )
    return tuple(tables)


def final(tables: Sequence[BoxTable], nexts: Sequence[FloatArray | None], rolls: int) -> FloatArray:
    """Best value of each roll when a box must be chosen now.

    ``nexts[b]`` is ``None`` when box b is filled in every column; otherwise, for a basic box,
    the value after entering each of its distinct scores (shape ``(len(scores), columns)``),
    and for another box the value after entering it (shape ``(columns,)``); ``-inf`` where
    the box is filled.
    """
    plain = [(table, nxt) for table, nxt in zip(tables, nexts, strict=True) if nxt is not None]
    columns = next(nxt.shape[-1] for _, nxt in plain)
    # A zero in any open non-basic box is the floor under every roll.
    floor = np.full(columns, -np.inf)
    for table, nxt in plain:
        if not table.basic:
            np.maximum(floor, nxt, out=floor)
    values = np.repeat(floor[None, :], rolls, axis=0)
    scratch = np.empty_like(values)
    for table, nxt in plain:
        if table.basic:
            candidates = table.scores[:, None] + nxt
            np.take(candidates, table.group, axis=0, out=scratch)
            np.maximum(values, scratch, out=values)
        elif len(table.scoring_rolls):
            rows = table.scoring_rolls
            if len(rows) == rolls:
                np.add(table.scoring_points[:, None], nxt[None, :], out=scratch)
                np.maximum(values, scratch, out=values)
            else:
                values[rows] = np.maximum(values[rows], table.scoring_points[:, None] + nxt[None, :])
    return values


def kept(children: Sequence[IntArray], faces: int, after: FloatArray) -> list[FloatArray]:
    """Expected ``after`` (one row per roll) for every kept multiset, by size: ``[size 0, ..., size n]``."""
    levels: list[FloatArray] = [after]
    for table in reversed(children):
        upper = levels[0]
        total = np.take(upper, table[:, 0], axis=0)
        scratch = np.empty_like(total)
        for face in range(1, faces):
            np.take(upper, table[:, face], axis=0, out=scratch)
            total += scratch
        total *= 1.0 / faces
        levels.insert(0, total)
    return levels


def best(space: DiceSpace, keeps: Sequence[FloatArray], stop: FloatArray) -> FloatArray:
    """Best value of each roll with a roll left: score now (``stop``) or keep a proper sub-multiset."""
    below = keeps[0]
    for size in range(1, len(keeps)):
        here = stop if size == len(keeps) - 1 else keeps[size]
        table = space.parents[size]
        result = here.copy()
        scratch = np.empty_like(result)
        for column, start in enumerate(space.parent_starts[size]):
            # Rows before ``start`` have fewer distinct faces: this column is only padding there.
            rows = len(table) - start
            np.take(below, table[start:, column], axis=0, out=scratch[:rows])
            np.maximum(result[start:], scratch[:rows], out=result[start:])
        below = result
    return below


@dataclass(frozen=True)
class Turn:
    """Every value of a turn for a batch of positions.

    ``stop[r]``: with dice r and no roll left. ``keeps[j][s]``: keeping a multiset of size s and
    rolling with j rolls left before the roll (``keeps[0]`` is unused). ``choose[j][r]``: the best
    with dice r and j rolls left (``choose[0]`` is ``stop``).
    """

    stop: FloatArray
    keeps: tuple[tuple[FloatArray, ...], ...]
    choose: tuple[FloatArray, ...]


def turn(rules: RuleSet, tables: Sequence[BoxTable], nexts: Sequence[FloatArray | None]) -> Turn:
    space = rules.space
    stop = final(tables, nexts, len(space.rolls))
    keeps: list[tuple[FloatArray, ...]] = [()]
    choose = [stop]
    for _ in range(1, rules.rolls_per_turn):
        levels = kept(space.children, rules.faces, choose[-1])
        keeps.append(tuple(levels))
        choose.append(best(space, levels, stop))
    return Turn(stop, tuple(keeps), tuple(choose))
