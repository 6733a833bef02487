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

Each step writes into arrays it is given. The solver hands the same :class:`Workspace` to
batch after batch: allocating fresh arrays of this size for every step costs more in page
faults (the allocator returns them to the system and gets them back) than the arithmetic.
Row gathers use ``mode="clip"``: every index is in range by construction, and the default
``"raise"`` mode copies the result through an extra buffer.
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
    ``first``/``points``: for a box whose next position does not depend on the points, the
    rolls ``first, first + 1, ...`` that span all those scoring more than zero, and their
    points (zeros in between are harmless: a zero is never above the floor of :func:`final`).
    """

    basic: bool
    scores: IntArray
    group: IntArray
    first: int
    points: FloatArray


def box_tables(rules: RuleSet) -> tuple[BoxTable, ...]:
    tables = []
    for box in rules.boxes:
        points = np.array(box.points, dtype=np.intp)
        scores, group = np.unique(points, return_inverse=True)
        scoring = np.flatnonzero(points > 0)
        first, end = (int(scoring[0]), int(scoring[-1]) + 1) if len(scoring) else (0, 0)
        tables.append(
            BoxTable(
                basic=box.basic,
                scores=scores.astype(np.intp),
                group=group.astype(np.intp).reshape(-1),
                first=first,
                points=points[first:end].astype(np.float64),
            )
        )
    return tuple(tables)


@dataclass(frozen=True)
class Workspace:
    """Arrays for the turns of ``columns`` positions, reused from one batch to the next.

    ``stop``: the values with no roll left; ``choose``: with rolls left; ``levels[n]``: one
    row per kept multiset of n dice; ``scratch``: one row per roll.
    """

    columns: int
    stop: FloatArray
    choose: FloatArray
    levels: tuple[FloatArray, ...]
    scratch: FloatArray

    @classmethod
    def create(cls, space: DiceSpace, columns: int) -> Workspace:
        rolls = len(space.rolls)
        return cls(
            columns=columns,
            stop=np.empty((rolls, columns)),
            choose=np.empty((rolls, columns)),
            levels=tuple(np.empty((len(level), columns)) for level in space.levels[: space.dice]),
            scratch=np.empty((rolls, columns)),
        )


def final(
    tables: Sequence[BoxTable], nexts: Sequence[FloatArray | None], out: FloatArray, scratch: FloatArray
) -> FloatArray:
    """Best value of each roll when a box must be chosen now, into ``out`` (one row per roll).

    ``nexts[b]`` is ``None`` when box b is filled in every column; otherwise, for a basic box,
    the value after entering each of its distinct scores (shape ``(len(scores), columns)``),
    and for another box the value after entering it (shape ``(columns,)``); ``-inf`` where
    the box is filled.
    """
    plain = [(table, nxt) for table, nxt in zip(tables, nexts, strict=True) if nxt is not None]
    # A zero in any open non-basic box is the floor under every roll.
    floor = np.full(out.shape[1], -np.inf)
    for table, nxt in plain:
        if not table.basic:
            np.maximum(floor, nxt, out=floor)
    out[...] = floor
    for table, nxt in plain:
        if table.basic:
            candidates = table.scores[:, None] + nxt
            np.take(candidates, table.group, axis=0, out=scratch, mode="clip")
            np.maximum(out, scratch, out=out)
        elif len(table.points):
            rows = slice(table.first, table.first + len(table.points))
            part = scratch[rows]
            np.add(table.points[:, None], nxt[None, :], out=part)
            np.maximum(out[rows], part, out=out[rows])
    return out


def kept(
    children: Sequence[IntArray],
    faces: int,
    after: FloatArray,
    levels: Sequence[FloatArray],
    scratch: FloatArray,
) -> None:
    """Expected ``after`` (one row per roll) for every kept multiset, into ``levels`` (sizes 0 to n-1)."""
    upper = after
    for size in range(len(children) - 1, -1, -1):
        table = children[size]
        total = levels[size]
        part = scratch[: len(table)]
        np.take(upper, table[:, 0], axis=0, out=total, mode="clip")
        for face in range(1, faces):
            np.take(upper, table[:, face], axis=0, out=part, mode="clip")
            total += part
        total *= 1.0 / faces
        upper = total


def best(
    space: DiceSpace, levels: Sequence[FloatArray], stop: FloatArray, out: FloatArray, scratch: FloatArray
) -> FloatArray:
    """Best value of each roll with a roll left, into ``out``: score now (``stop``) or keep a proper
    sub-multiset (``levels``, by size, as :func:`kept` leaves them; sizes 1 and up are overwritten
    with the best sub-multiset of each)."""
    below = levels[0]
    for size in range(1, len(levels) + 1):
        here, result = (stop, out) if size == len(levels) else (levels[size], levels[size])
        table = space.parent_starts[size]
        parents = space.parents[size]
        for column, start in enumerate(table):
            # Rows before ``start`` have fewer distinct faces: this column is only padding there.
            # Column 0 is real in every row (a multiset has a face), so it also moves ``here`` across.
            rows = len(parents) - start
            part = scratch[:rows]
            np.take(below, parents[start:, column], axis=0, out=part, mode="clip")
            if column == 0:
                np.maximum(here, part, out=result)
            else:
                np.maximum(result[start:], part, out=result[start:])
        below = result
    return out


def start_values(
    rules: RuleSet,
    tables: Sequence[BoxTable],
    nexts: Sequence[FloatArray | None],
    work: Workspace,
) -> FloatArray:
    """The expected value of each column at the start of a turn (only that: the solver's step)."""
    space = rules.space
    final(tables, nexts, work.stop, work.scratch)
    choose = work.stop
    for _ in range(1, rules.rolls_per_turn):
        kept(space.children, rules.faces, choose, work.levels, work.scratch)
        choose = best(space, work.levels, work.stop, work.choose, work.scratch)
    result: FloatArray = space.roll_probabilities @ choose
    return result


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
    """All values of a turn, each in arrays of its own (for the advisor and the players)."""
    columns = next(nxt.shape[-1] for nxt in nexts if nxt is not None)
    work = Workspace.create(rules.space, columns)
    return turn_from(rules, final(tables, nexts, work.stop, work.scratch).copy(), work)


def turn_from(rules: RuleSet, stop: FloatArray, work: Workspace | None = None) -> Turn:
    """All values of a turn whose value with no roll left is ``stop`` (one row per roll).

    Whatever ``stop`` measures, a keep is worth its average over the rolls it leads to and a roll
    the best of stopping and keeping: so the same lattice gives chances as well as expected totals.
    """
    space = rules.space
    work = work if work is not None else Workspace.create(space, stop.shape[1])
    keeps: list[tuple[FloatArray, ...]] = [()]
    choose = [stop]
    for _ in range(1, rules.rolls_per_turn):
        kept(space.children, rules.faces, choose[-1], work.levels, work.scratch)
        keeps.append((*(level.copy() for level in work.levels), choose[-1]))
        choose.append(best(space, work.levels, stop, work.choose, work.scratch).copy())
    return Turn(stop, tuple(keeps), tuple(choose))
