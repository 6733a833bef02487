"""The exact distribution of the final total under perfect (expectation-maximising) play.

The solved table says what every decision is worth on average; this module follows those
decisions and keeps the whole spread. A turn's endings (a box and the points entered) have
chances that follow the hard player turn by turn: its box choice, its keep choice and its
tie-breaks (the top box first, boxes before keeps, the first keep in the advisor's order), as
:func:`kismet_dice.strategy.kernel.endings` works them out. Two passes carry them on:

* forwards (:func:`forward`), from any sheet, over the positions that carry probability, each
  with the distribution of the points on its sheet so far: the distribution of the final total;
* backwards (:func:`future_pass`), like the solver, over every position a root can lead to,
  each with the distribution of the points still to come (bonus included), which depends on the
  position only: the *futures* the target player and each option's chance read.

The distribution from an empty sheet is stored beside the strategy table.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import itertools
import math
import mmap
import os
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kismet_dice.strategy import compiled, kernel, stored
from kismet_dice.strategy.compiled import jit
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.kernel import frozen
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.solver import Progress, _layer, equivalent_totals, filled_counts, reachable_totals
from kismet_dice.strategy.table import StrategyTable, computing_lock, table_dir

FORMAT = "kismet-dice perfect-play distribution"
VERSION = 1

Float32Array = npt.NDArray[np.float32]


# --- one turn of the hard player, as probabilities ------------------------------------------


@dataclass(frozen=True)
class TurnShape:
    """What a batch of turns needs besides the table: every box's points and the dice moves.

    ``points[b, r]``: what roll r scores in box b. ``reroll[k, r]``: the chance that keeping the
    multiset k (flat index over sizes 0 to n-1) and rolling the rest gives roll r. ``subs[r]``:
    the proper sub-multisets of roll r as flat keep indices, in the advisor's order (padded with
    the first).
    """

    points: IntArray
    basic: npt.NDArray[np.bool_]
    reroll: FloatArray
    subs: IntArray

    @classmethod
    def of(cls, rules: RuleSet) -> TurnShape:
        space = rules.space
        flat = [keep for level in space.levels[: rules.dice] for keep in level]
        reroll = np.zeros((len(flat), len(space.rolls)))
        for k, keep in enumerate(flat):
            rolled = rules.dice - len(keep)
            for fresh in space.levels[rolled]:
                chance = _arrangements(fresh) / rules.faces**rolled
                reroll[k, space.roll_index[tuple(sorted(keep + fresh))]] += chance
        return cls(
            points=np.array([box.points for box in rules.boxes], dtype=np.intp),
            basic=np.array([box.basic for box in rules.boxes]),
            reroll=reroll,
            subs=space.sub_keeps,
        )


def _arrangements(multiset: tuple[int, ...]) -> int:
    result = math.factorial(len(multiset))
    for count in Counter(multiset).values():
        result //= math.factorial(count)
    return result


# --- the backward pass ----------------------------------------------------------------------
#
# The points still to come from a turn-start position have a distribution that depends on that
# position only, since the hard player's choices do. So a pass backwards like the solver's, layer by
# layer (a full sheet first), gives every position's: the sum, over every way its turn can end (a
# box and the points entered, :func:`kernel.endings`), of that ending's chance times the next
# position's distribution shifted by the points. A total the solver lets a lower one stand in for
# has the stand-in's distribution (the same choices, the same bonus), so only stand-ins have rows.

CHUNK = 1024
"""Positions whose turns are worked out at once before their vectors are carried on (forwards) or
their rows summed (backwards): a few milliseconds of work, so that progress moves."""

SURVIVAL_SCALE = 65535
"""Stored chances are whole numbers of 1/65535: an error of at most half that, 7.6e-6."""

TINY = 1e-13
"""In the single-precision pass, a chance of a number of points below this is carried on as nothing:
the rows then span the points a game can reasonably end with, and every chance read from them moves
by less than 1e-9."""

TRIM = 1e-5
"""A stored row leaves out the points whose chance of being reached is within this of 1 (below the
row: read as 1) or of 0 (beyond it: read as 0)."""

ERROR_BOUND = 2e-5
"""The most any stored chance differs from the exact one: the trim, the rounding to 1/65535 and the
single-precision sums of the pass (under 1e-6 for Kismet), with room to spare."""


@dataclass(frozen=True)
class Rows:
    """A layer's rows, each as wide as it needs, side by side: row i is ``values[start[i] : start[i + 1]]``
    and covers the points to come from ``low[i]`` on.

    ``survival`` rows hold ``P(points to come >= x)`` in units of 1/:data:`SURVIVAL_SCALE`, trimmed
    (below a row it is 1, beyond it 0); the others hold exact probabilities of each number of points
    to come, from 0."""

    values: npt.NDArray[Any]
    start: IntArray
    low: IntArray
    survival: bool
    scale: float = float(SURVIVAL_SCALE)
    """What a chance of 1 is in ``values`` of survival rows (1 for exact ones, :func:`exact_survival`)."""

    def __len__(self) -> int:
        return len(self.start) - 1


@jit(nogil=True, cache=True, error_model="numpy")
def _next_row(row_of, mask, total, box, points, basic, cap):  # type: ignore[no-untyped-def]
    """The row of the position an ending leads to (``row_of[mask, total]``): the box filled, and
    the points added to the capped Basic total where the box is a Basic one."""
    reached = min(total + points, cap) if basic[box] else total
    return row_of[mask | (1 << box), reached]


@jit(nogil=True, cache=True, error_model="numpy", boundscheck=False, inline="always")
def _add_scaled(into, values, weight):  # type: ignore[no-untyped-def]
    """``into += weight * values``, over views that start at their index 0: indices that cannot be
    negative let the compiler run the loop in vector registers. Inlined where it is called: the
    forward pass makes some 37 million of these calls, most of them a hundred additions long, and
    a call of its own cost a tenth of the pass (measured on one thread: 8.3-9.1 s, 7.6-8.5 s inlined)."""
    for u in range(values.shape[0]):
        into[u] += weight * values[u]


@jit(nogil=True, cache=True, error_model="numpy")
def _pull(  # type: ignore[no-untyped-def]
    masks, totals, first, chances, pair_box, pair_points, basic, cap, slot_of, next_rows, next_values,
    start, out,
):  # fmt: skip
    """Each row from ``first`` on: the sum over its turn's endings (``chances[column, pair]``) of their
    chance times the next position's row, shifted by the points entered. ``slot_of[mask, total]`` is
    a position's row (its stand-in's); ``next_rows[row]`` where that row begins and the first and last
    points it holds anything for, side by side: each ending costs one miss in each, not three."""
    for column in range(chances.shape[0]):
        row = first + column
        mask, total = masks[row], totals[row]
        into = start[row]
        room = start[row + 1] - into
        for pair in range(chances.shape[1]):
            weight = chances[column, pair]
            if weight == 0.0:
                continue
            box = pair_box[pair]
            points = pair_points[pair]
            slot = _next_row(slot_of, mask, total, box, points, basic, cap)
            begin = next_rows[slot, 0]
            low = next_rows[slot, 1]
            high = min(next_rows[slot, 2], room - points - 1)
            if high >= low:
                at = into + points
                _add_scaled(
                    out[at + low : at + high + 1], next_values[begin + low : begin + high + 1], weight
                )


@jit(nogil=True, cache=True, error_model="numpy")
def _support(values, start, tiny):  # type: ignore[no-untyped-def]
    """Each row's first and last entry above ``tiny`` (an empty row: first past last)."""
    rows = start.shape[0] - 1
    low = np.zeros(rows, dtype=np.intp)
    high = np.full(rows, -1, dtype=np.intp)
    for row in range(rows):
        first, last = start[row], start[row + 1]
        for x in range(last - first):
            if values[first + x] > tiny:
                if high[row] < 0:
                    low[row] = x
                high[row] = x
    return low, high


@jit(nogil=True, cache=True, error_model="numpy")
def _compact(pmf, start, trim, scale):  # type: ignore[no-untyped-def]
    """Each row's survival function, trimmed and rounded: ``(values, start, low)``."""
    rows = start.shape[0] - 1
    low = np.zeros(rows, dtype=np.intp)
    high = np.zeros(rows, dtype=np.intp)
    for row in range(rows):
        tail = 0.0
        first, last = start[row], start[row + 1]
        high[row] = -1
        low[row] = last - first
        for x in range(last - first - 1, -1, -1):
            tail += pmf[first + x]
            if tail > trim and high[row] < 0:
                high[row] = x
            if tail < 1.0 - trim:
                low[row] = x
        if high[row] < 0:
            low[row] = 0
        # Every x up to the top reached with a chance within the trim of 1: an empty row from there.
        low[row] = min(low[row], high[row] + 1)
    widths = np.maximum(high - low + 1, 0)
    out_start = np.zeros(rows + 1, dtype=np.intp)
    for row in range(rows):  # a loop, not ``out_start[1:] = ...``: see :func:`kernel._copy`
        out_start[row + 1] = out_start[row] + widths[row]
    values = np.empty(out_start[-1], dtype=np.uint16)
    for row in range(rows):
        first, last = start[row], start[row + 1]
        tail = 0.0
        for x in range(last - first - 1, -1, -1):
            tail += pmf[first + x]
            if low[row] <= x <= high[row]:
                values[out_start[row] + x - low[row]] = min(scale, int(tail * scale + 0.5))
    return values, out_start, low


@jit(nogil=True, cache=True, error_model="numpy")
def _survival_at(values, start, low, scale, row, needed):  # type: ignore[no-untyped-def]
    """A trimmed survival row's chance of ``needed`` more points (1 below the row, 0 beyond it)."""
    x = needed - low[row]
    if needed <= 0 or x < 0:
        return 1.0
    if x >= start[row + 1] - start[row]:
        return 0.0
    return values[start[row] + x] / scale


@jit(nogil=True, cache=True, error_model="numpy")
def _at_least(values, start, low, survival, scale, rows, needed, out):  # type: ignore[no-untyped-def]
    for i in range(rows.shape[0]):
        row = rows[i]
        if survival:
            out[i] = _survival_at(values, start, low, scale, row, needed[i])
        elif needed[i] <= 0:
            out[i] = 1.0
        else:
            tail = 0.0
            for y in range(start[row + 1] - start[row] - 1, max(needed[i], 0) - 1, -1):
                tail += values[start[row] + y]
            out[i] = tail


@jit(nogil=True, cache=True, error_model="numpy")
def _one_turn_on(  # type: ignore[no-untyped-def]
    masks, totals, needed, which, chances, pair_box, pair_points, basic, cap, row_of, values, start, low,
    scale, out,
):  # fmt: skip
    """``out[i]``: the chance of ``needed[i]`` more points from a position of a layer that is not
    stored, through every ending of its turn (``chances[which[i]]``) to the stored layer after it.
    A chance to reach x is the same average of the next positions' chances, so the bound holds."""
    for i in range(masks.shape[0]):
        if needed[i] <= 0:
            out[i] = 1.0
            continue
        total = 0.0
        column = which[i]
        for pair in range(chances.shape[1]):
            weight = chances[column, pair]
            if weight == 0.0:
                continue
            box = pair_box[pair]
            points = pair_points[pair]
            row = _next_row(row_of, masks[i], totals[i], box, points, basic, cap)
            total += weight * _survival_at(values, start, low, scale, row, needed[i] - points)
        out[i] = total


@jit(nogil=True, cache=True, error_model="numpy", boundscheck=False)
def _add_survival(into, weight, values, start, low, scale, row, shift):  # type: ignore[no-untyped-def]
    """``into[x] += weight * P(points to come >= x - shift)`` for every ``x`` from 1 on, from a trimmed
    survival row (1 below it, 0 beyond it): a run of ones, the row itself, then nothing, each a
    loop over a view from index 0, which runs in vector registers."""
    width = into.shape[0]
    ones = min(shift + max(low[row], 1), width)  # x below this: a chance of 1
    if ones > 1:
        _add_constant(into[1:ones], weight)
    begin = start[row] + max(ones - shift, 1) - low[row]  # the row's entry for x = ones
    end = min(shift + low[row] + start[row + 1] - start[row], width)  # x from here on: nothing
    if end > ones:
        _add_scaled(into[ones:end], values[begin : begin + end - ones], weight / scale)


@jit(nogil=True, cache=True, error_model="numpy", boundscheck=False)
def _add_constant(into, weight):  # type: ignore[no-untyped-def]
    for u in range(into.shape[0]):
        into[u] += weight


@jit(nogil=True, cache=True, error_model="numpy")
def _dense_rows(values, start, low, scale, rows, out):  # type: ignore[no-untyped-def]
    """``out[i, x]``: row ``rows[i]``'s chance of ``x`` more points or more, for every ``x``."""
    for i in range(rows.shape[0]):
        out[i, :] = 0.0
        _add_survival(out[i], 1.0, values, start, low, scale, rows[i], 0)
        out[i, 0] = 1.0


@jit(nogil=True, cache=True, error_model="numpy")
def _dense_one_turn_on(  # type: ignore[no-untyped-def]
    masks, totals, chances, pair_box, pair_points, basic, cap, row_of, values, start, low, scale, out,
):  # fmt: skip
    """:func:`_one_turn_on` for every ``x`` of each position at once (``out[i, x]``, the turn's
    chances in ``chances[i]``): each ending's next row is found once and added in runs, where
    asking each ``x`` apart would look every ending up again for each."""
    for i in range(masks.shape[0]):
        out[i, :] = 0.0
        for pair in range(chances.shape[1]):
            weight = chances[i, pair]
            if weight == 0.0:
                continue
            box = pair_box[pair]
            points = pair_points[pair]
            row = _next_row(row_of, masks[i], totals[i], box, points, basic, cap)
            _add_survival(out[i], weight, values, start, low, scale, row, points)
        out[i, 0] = 1.0


@dataclass
class Futures:
    """Distributions of the points still to come from the positions reachable from a root.

    ``row_of[mask, total]`` is a position's row in its layer (-1 where not computed);
    ``layers[k]`` holds the rows of the positions with k boxes filled: exact probabilities, or where
    ``survival``, trimmed survival functions (within :data:`ERROR_BOUND`). A layer of survival
    functions may be left out when the next one is there and ``table`` is given: its chances are
    then worked out when asked, one turn on (:func:`kernel.endings`) into the next layer.
    """

    rules: RuleSet
    row_of: IntArray
    layers: dict[int, Rows] = field(default_factory=dict)
    survival: bool = False
    table: StrategyTable | None = None

    def __post_init__(self) -> None:
        # As the store keeps it (int32, read-only) whether just worked out or loaded: see kernel.frozen.
        self.row_of = frozen(self.row_of, np.int32)

    def future(self, mask: int, total: int) -> FloatArray:
        """The probability of each number of points to come from a position (index = points)."""
        if self.survival:
            raise ValueError("only survival functions were kept")
        rows = self.layers[mask.bit_count()]
        row = int(self.row_of[mask, total])
        return np.asarray(rows.values[rows.start[row] : rows.start[row + 1]], dtype=np.float64)

    def survival_rows(self, masks: IntArray, totals: IntArray, width: int) -> FloatArray:
        """``out[i, x]``: ``P(points to come >= x)`` from position ``(masks[i], totals[i])`` for every
        ``x`` below ``width``, all masks in one layer (what :meth:`at_least` gives for each ``x``)."""
        if not self.survival:
            raise ValueError("survival rows are read from the futures of every position")
        filled = {int(m).bit_count() for m in np.unique(masks)}
        if len(filled) != 1:
            raise ValueError("positions from one layer at a time")
        layer = filled.pop()
        masks = frozen(masks, np.intp)
        totals = frozen(totals, np.intp)
        out = np.empty((len(masks), width))
        if (self.row_of[masks, totals] < 0).any():
            raise ValueError("a position these futures do not reach")
        rows = self.layers.get(layer)
        if rows is not None:
            found = frozen(self.row_of[masks, totals], np.intp)
            _dense_rows(frozen(rows.values), frozen(rows.start), frozen(rows.low), rows.scale, found, out)
            return out
        following = self.layers.get(layer + 1)
        if following is None or self.table is None:
            raise ValueError(f"the futures of positions with {layer} boxes filled were not kept")
        tables = kernel.tables_of(self.rules)
        chances = kernel.endings(tables, self.table.values, masks, totals).T  # a row per position
        _dense_one_turn_on(
            masks, totals, frozen(chances), tables.pair_box, tables.pair_points, tables.basic,
            self.rules.cap, self.row_of, frozen(following.values), frozen(following.start),
            frozen(following.low), following.scale, out,
        )  # fmt: skip
        return out

    def at_least(self, masks: IntArray, totals: IntArray, needed: IntArray) -> FloatArray:
        """``P(points to come >= needed)`` for each (mask, total, needed), all masks in one layer."""
        filled = {int(m).bit_count() for m in np.unique(masks)}
        if len(filled) != 1:
            raise ValueError("positions from one layer at a time")
        layer = filled.pop()
        shape = np.broadcast(masks, totals, needed).shape
        flat_masks = frozen(np.broadcast_to(masks, shape).reshape(-1), np.intp)
        flat_totals = frozen(np.broadcast_to(totals, shape).reshape(-1), np.intp)
        wanted = frozen(np.broadcast_to(needed, shape).reshape(-1), np.intp)
        out = np.empty(len(wanted))
        rows = self.layers.get(layer)
        if rows is not None:
            found = frozen(self.row_of[flat_masks, flat_totals], np.intp)
            _at_least(
                frozen(rows.values), frozen(rows.start), frozen(rows.low), rows.survival, rows.scale,
                found, wanted, out,
            )  # fmt: skip
            return out.reshape(shape)
        following = self.layers.get(layer + 1)
        if not self.survival or following is None or self.table is None:
            raise ValueError(f"the futures of positions with {layer} boxes filled were not kept")
        tables = kernel.tables_of(self.rules)
        # One turn of each position asked about (positions sharing a row share their turn).
        _, first, which = np.unique(
            self.row_of[flat_masks, flat_totals], return_index=True, return_inverse=True
        )
        chances = kernel.endings(tables, self.table.values, flat_masks[first], flat_totals[first]).T
        _one_turn_on(
            flat_masks, flat_totals, wanted, frozen(which.reshape(-1), np.intp), frozen(chances),
            tables.pair_box, tables.pair_points, tables.basic, self.rules.cap, self.row_of,
            frozen(following.values), frozen(following.start), frozen(following.low), following.scale,
            out,
        )  # fmt: skip
        return out.reshape(shape)


def exact_survival(futures: Futures) -> Futures:
    """The same futures with every layer's exact probabilities turned into exact survival functions
    (float64, untrimmed): what the target player reads, without the store's rounding."""
    if futures.survival:
        raise ValueError("the futures hold survival functions already")
    layers = {}
    for filled, rows in futures.layers.items():
        values = np.empty_like(rows.values)
        for row in range(len(rows)):
            pmf = rows.values[rows.start[row] : rows.start[row + 1]]
            values[rows.start[row] : rows.start[row + 1]] = np.cumsum(pmf[::-1])[::-1]
        layers[filled] = Rows(values, rows.start, rows.low, survival=True, scale=1.0)
    return Futures(futures.rules, futures.row_of, layers, survival=True, table=futures.table)


def stored_layer(rules: RuleSet, filled: int) -> bool:
    """Whether the futures keep the layer of ``filled`` boxes filled: the root's and the full sheet's,
    and every other one back from the full sheet, so that a layer left out is always followed by
    one kept (each then costs one turn's endings when asked, about a millisecond).

    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> [k for k in range(16) if not stored_layer(kismet_rules(), k)]
    [2, 4, 6, 8, 10, 12, 14]
    """
    boxes = len(rules.boxes)
    return filled in (0, boxes) or (boxes - filled) % 2 == 0


def future_pass(
    table: StrategyTable,
    root: tuple[int, int] = (0, 0),
    *,
    progress: Progress | None = None,
    keep: int | None = 1,
    threads: int | None = None,
    sink: Callable[[int, Rows], None] | None = None,
) -> Futures:
    """The distributions of points to come from ``root`` and every position it can lead to.

    Only the layers from ``root``'s on are computed. ``keep`` says which layers are returned:
    ``1`` the root's and the next (what the advisor needs), exact; ``None`` every
    :func:`stored_layer` as trimmed survival functions (for many games played by the target player),
    worked out in single precision (within :data:`ERROR_BOUND`), the others worked out when asked.
    With ``keep=None``, a ``sink`` is handed each layer stored (its number of boxes filled, its rows)
    as soon as it is final, instead of the layer being kept: a store written layer by layer holds
    no more than two layers' distributions in memory at a time.
    """
    if sink is not None and keep is not None:
        raise ValueError("a sink takes every layer: keep=None")
    compiled.await_ahead(compiled.BACKWARD)  # compiled by another process, the first time on a machine
    rules = table.rules
    values = table.values
    tables = kernel.tables_of(rules)
    boxes = len(rules.boxes)
    width = rules.cap + 1
    root_mask, root_total = root
    root_layer = root_mask.bit_count()
    same = _stand_ins(rules)
    reach = _reach(rules)
    dtype = np.float32 if keep is None else np.float64
    row_of = np.full((1 << boxes, width), -1, dtype=np.intp)
    plans: dict[int, tuple[IntArray, IntArray]] = {}
    for filled in range(root_layer, boxes + 1):
        masks, totals, copy_masks, copy_totals, stand_in = _layer(rules, filled)
        every_mask = np.concatenate([masks, copy_masks])
        every_total = np.concatenate([totals, copy_totals])
        every_same = np.concatenate([totals, stand_in])
        wanted = ((every_mask & root_mask) == root_mask) & (every_total >= root_total)
        if filled == root_layer:
            wanted &= (every_mask == root_mask) & (every_total == root_total)
        # Ordered by how many points can still come, so a chunk's rows are about as wide.
        keys = (reach[every_mask[wanted]] << 32) + every_mask[wanted] * width + every_same[wanted]
        unique, inverse = np.unique(keys, return_inverse=True)
        row_of[every_mask[wanted], every_total[wanted]] = inverse.reshape(-1)
        unique &= (1 << 32) - 1
        plans[filled] = (unique // width, unique % width)
        # A row is computed from its stand-in, whose total may lie below the root's: the positions it
        # leads to are those the wanted totals lead to, found by their stand-ins too.
        row_of[plans[filled]] = np.arange(len(unique))
    futures = Futures(rules, row_of, survival=keep is None, table=table)
    # Every position's row looked up once: the row of its stand-in (the same choices from there).
    slot_of = np.take_along_axis(row_of, same, axis=1)

    def kept(filled: int, rows: Rows) -> None:
        if keep is None:
            if not stored_layer(rules, filled):
                return
            values, start, low = _compact(rows.values, rows.start, TRIM, float(SURVIVAL_SCALE))
            compact = Rows(values, start, low, survival=True)
            if sink is None:
                futures.layers[filled] = compact
            else:
                sink(filled, compact)
        elif filled <= root_layer + keep:
            futures.layers[filled] = rows

    full_masks, full_totals = plans[boxes]
    following = _rows(reach[full_masks] + 1, dtype)
    following.values[following.start[:-1] + np.array(rules.bonus)[full_totals]] = 1.0
    kept(boxes, following)
    total_rows = sum(len(plan[0]) for filled, plan in plans.items() if filled < boxes)
    done = 0
    size = threads if threads is not None else min(2, os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        for filled in range(boxes - 1, root_layer - 1, -1):
            masks, totals = plans[filled]
            here = _rows(reach[masks] + 1, dtype)

            low, high = _support(following.values, following.start, TINY if keep is None else 0.0)
            next_rows = np.ascontiguousarray(np.stack([following.start[:-1], low, high], axis=1))

            def chunk(
                first: int, masks: IntArray = masks, totals: IntArray = totals, here: Rows = here,
                following: Rows = following, next_rows: IntArray = next_rows,
            ) -> int:  # fmt: skip
                last = min(first + CHUNK, len(masks))
                chances = kernel.endings(tables, values, masks[first:last], totals[first:last])
                # In the single-precision pass the sums are single too, which the processor does twice
                # as many of at a time.
                chances = np.ascontiguousarray(chances.T, dtype=here.values.dtype)
                _pull(
                    masks, totals, first, chances, tables.pair_box, tables.pair_points, tables.basic,
                    rules.cap, slot_of, next_rows, following.values, here.start, here.values,
                )  # fmt: skip
                return last - first

            # The compiled steps let go of the interpreter's lock: threads share a layer's rows.
            for count in pool.map(chunk, range(0, len(masks), CHUNK)):
                done += count
                if progress is not None:
                    progress(done, total_rows)
            kept(filled, here)
            following = here
    return futures


def _rows(widths: IntArray, dtype: type[np.floating[Any]]) -> Rows:
    start = np.zeros(len(widths) + 1, dtype=np.intp)
    np.cumsum(widths, out=start[1:])
    return Rows(np.zeros(int(start[-1]), dtype=dtype), start, np.zeros(len(widths), dtype=np.intp), False)


def _reach(rules: RuleSet) -> IntArray:
    """``out[mask]``: the most points still to come with ``mask`` filled (bonus included)."""
    boxes = len(rules.boxes)
    masks = np.arange(1 << boxes)
    result = np.full(1 << boxes, max(rules.bonus), dtype=np.intp)
    for box, rule in enumerate(rules.boxes):
        result += np.where(masks >> box & 1, 0, max(rule.points))
    return result


# --- the forward pass ---------------------------------------------------------------------------
#
# From a sheet, the hard player's game is followed forwards, layer by layer (one more box filled
# each turn), over the positions that carry probability. Each position (mask, capped total) holds
# the distribution of the points on the sheet so far, as a vector over ``u``: the points beyond
# the position's own capped total, less the root's (what the capped total does not say is the
# Kismet section and any Basic points above the cap). A turn's endings (a box and its points,
# :func:`kernel.endings`) carry that vector, shifted by the points the total does not absorb, to
# the positions they lead to. A position whose total is worth the same as a lower one (the
# solver's stand-in, :func:`~kismet_dice.strategy.solver.equivalent_totals`) leads to the same
# choices and the same bonus from there on, so its mass joins the stand-in's, shifted by the
# difference: the points on the sheet stay what they are.


@jit(nogil=True, cache=True, error_model="numpy")
def _packed(chances, masks, pair_first, base, weights, pairs, into):  # type: ignore[no-untyped-def]
    """Each row's chances above zero, packed from ``base`` on, pair by pair (``weights[i]``, its pair
    ``pairs[i]``), and ``into[row, box]``: where box's run of them begins and ends (the same where it
    has none), so that the passes over a layer's endings read only the endings that happen.

    A box filled in the row's mask has none (no turn ends there). A turn ends with 54 of Kismet's
    190 pairs on average (at most 100 from an empty sheet): kept whole, a layer's chances took 235 MB
    in the middle of the game."""
    at = base
    for row in range(chances.shape[0]):
        mask = masks[row]
        for box in range(pair_first.shape[0] - 1):
            into[row, box, 0] = at
            if not mask >> box & 1:
                for each in range(pair_first[box], pair_first[box + 1]):
                    weight = chances[row, each]
                    if weight != 0.0:
                        weights[at] = weight
                        pairs[at] = each
                        at += 1
            into[row, box, 1] = at


@jit(nogil=True, cache=True, error_model="numpy")
def _landing(row_of, same, out):  # type: ignore[no-untyped-def]
    """``out[mask, total]``: where a position's mass lands (see :func:`_carry`), its stand-in's row
    (``row_of[mask, same[mask, total]]``) times 128 plus how far its total lies above the
    stand-in's, or -1 where the root leads to no stand-in there. One pass, writing each once: in
    NumPy (a gather, then four passes over its result) it took 0.2-0.3 s of a fresh process's
    pass, most of it finding the pages of the arrays it made."""
    for mask in range(same.shape[0]):
        rows, stand_ins, into = row_of[mask], same[mask], out[mask]
        for total in range(same.shape[1]):
            row = rows[stand_ins[total]]
            into[total] = -1 if row < 0 else row * 128 + total - stand_ins[total]


@jit(nogil=True, cache=True, error_model="numpy")
def _carry(  # type: ignore[no-untyped-def]
    totals, rows, vectors, begin, end, chance_of, weights, pairs, ranges, pair_points, basic, cap,
    landing, afters, to_rows, to_vectors, spans_only,
):  # fmt: skip
    """Carry into the next layer's positions of each mask in ``afters`` every ending that leads there,
    from the rows ``begin[mask]`` to ``end[mask]`` of each mask with one box fewer filled (the endings
    of the row's turn in each box lie in the packed ``weights`` and ``pairs`` from
    ``ranges[chance_of[row], box, 0]`` to ``ranges[chance_of[row], box, 1]``, see :func:`_packed`;
    ``chance_of`` is -1 for a row that carries nothing).

    ``rows[i]`` (and ``to_rows``) is where u = 0 of row i's vector would lie, and the first and last
    u it holds anything for; ``landing[mask, total]`` the row of a position's stand-in times 128,
    plus how far its total lies above the stand-in's. With ``spans_only`` no vector is touched:
    only the first and last u of each position are found, so that its vector can be laid out no
    wider than it needs (a bound from the boxes alone was two to eight times wider).

    Target mask by target mask, every vector written lies among the few of one mask, which stay in
    the processor's caches until all their sources are in: so a box outside the Basic section, which
    leads to one position whatever it scores, adds each of its scores there straight away (summed in
    a buffer of their own first, the pass took 6% longer to carry its vectors)."""
    for i in range(afters.shape[0]):
        after = afters[i]
        for box in range(basic.shape[0]):
            bit = 1 << box
            if not after & bit:
                continue
            mask = after ^ bit
            for source in range(begin[mask], end[mask]):
                column = chance_of[source]
                if column < 0:
                    continue
                first, last = ranges[column, box, 0], ranges[column, box, 1]
                if first == last:
                    continue
                base, low, high = rows[source, 0], rows[source, 1], rows[source, 2]
                total = totals[source]
                if basic[box]:
                    for each in range(first, last):
                        weight = weights[each]
                        points = pair_points[pairs[each]]
                        reached = min(total + points, cap)
                        code = landing[after, reached]
                        slot = code >> 7
                        shift = total + points - reached + (code & 127)
                        to_rows[slot, 1] = min(to_rows[slot, 1], low + shift)
                        to_rows[slot, 2] = max(to_rows[slot, 2], high + shift)
                        if not spans_only:
                            into = to_rows[slot, 0] + shift
                            _add_scaled(
                                to_vectors[into + low : into + high + 1],
                                vectors[base + low : base + high + 1],
                                weight,
                            )
                else:
                    least, most = pair_points[pairs[first]], pair_points[pairs[last - 1]]
                    code = landing[after, total]
                    slot = code >> 7
                    shift = least + (code & 127)
                    to_rows[slot, 1] = min(to_rows[slot, 1], low + shift)
                    to_rows[slot, 2] = max(to_rows[slot, 2], high + shift + most - least)
                    if spans_only:
                        continue
                    into = to_rows[slot, 0] + shift + low
                    for each in range(first, last):
                        weight = weights[each]
                        offset = into + pair_points[pairs[each]] - least
                        _add_scaled(
                            to_vectors[offset : offset + high - low + 1],
                            vectors[base + low : base + high + 1],
                            weight,
                        )


def _work_block(size: int) -> FloatArray:
    """``size`` doubles of fresh memory in small pages, where the system lets a program ask.

    NumPy asks for huge pages for large arrays. On the 2-core machine (a virtual one), the first
    write to fresh huge pages took 0.1 to 2 ms a megabyte (each one backed afresh by the host, it
    seems), small pages a steady 0.4: for the forward pass's half gigabyte, 0.2 s instead of 0.2
    to 0.9 s in a fresh process, and the same in the pass's loops."""
    if size == 0 or not hasattr(mmap, "MADV_NOHUGEPAGE"):
        return np.empty(size)
    area = mmap.mmap(-1, size * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    area.madvise(mmap.MADV_NOHUGEPAGE)
    return np.frombuffer(area, dtype=np.float64)  # the array keeps the mapping; unmapped with it


class _Memory:
    """Memory for vectors, used again layer after layer: fresh memory costs the system a fault for
    each page first written (some 0.1-0.3 s a layer in the middle of the game), used memory only
    the zeros written."""

    def __init__(self) -> None:
        self.block = np.empty(0)

    def zeros(self, size: int, pool: concurrent.futures.Executor | None = None, parts: int = 1) -> FloatArray:
        """``size`` zeros, written in ``parts`` by ``pool``'s threads if given: the first writes to
        fresh pages cost the system a fault each (0.2 s of a pass in the zeros, on one thread)."""
        if size > len(self.block):
            # With room to grow four times: a larger block is fresh memory again, while the pages
            # of one not written yet cost nothing (530 MB of pages found in a pass against 648 MB
            # with half as much again).
            self.block = _work_block(4 * size)
        found = self.block[:size]
        if pool is None or parts < 2:
            found.fill(0.0)
        else:
            list(pool.map(np.ndarray.fill, np.array_split(found, parts), itertools.repeat(0.0)))
        return found


@dataclass
class _Layer:
    """The positions of one layer that the root can lead to, and their vectors side by side:
    ``rows[i]`` is where u = 0 of row i would lie in ``vectors``, and the first and last u it holds
    anything for (the first past the last if it holds nothing); only those lie in ``vectors``."""

    masks: IntArray
    totals: IntArray
    rows: IntArray
    vectors: FloatArray

    @staticmethod
    def unspanned(count: int) -> IntArray:
        """Rows that hold nothing yet, to find the spans of."""
        rows = np.zeros((count, 3), dtype=np.intp)
        rows[:, 1] = np.iinfo(np.intp).max
        rows[:, 2] = -1
        return rows

    @classmethod
    def spanned(
        cls, masks: IntArray, totals: IntArray, rows: IntArray, memory: _Memory | None = None,
        pool: concurrent.futures.Executor | None = None, parts: int = 1,
    ) -> _Layer:  # fmt: skip
        """The positions with vectors of zeros laid out side by side, as wide as ``rows`` says (in
        ``memory`` if given, zeroed in ``parts`` by ``pool``)."""
        widths = np.maximum(rows[:, 2] - rows[:, 1] + 1, 0)
        start = np.zeros(len(masks) + 1, dtype=np.intp)
        np.cumsum(widths, out=start[1:])
        rows[:, 0] = start[:-1] - np.where(widths > 0, rows[:, 1], 0)
        size = int(start[-1])
        return cls(masks, totals, rows, np.zeros(size) if memory is None else memory.zeros(size, pool, parts))

    @property
    def carrying(self) -> IntArray:
        """The rows that hold any probability."""
        found: IntArray = np.flatnonzero(self.rows[:, 2] >= self.rows[:, 1])
        return found


def _runs(ordered: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Each value of a sorted array once, where its run begins and where it ends.

    >>> [part.tolist() for part in _runs(np.array([3, 3, 5, 8, 8, 8]))]
    [[3, 5, 8], [0, 2, 3], [2, 3, 6]]
    """
    first = np.flatnonzero(np.diff(ordered, prepend=ordered[:1] - 1))
    return ordered[first], first, np.append(first[1:], len(ordered))


@dataclass(frozen=True)
class _Passing:
    """What every layer of the forward pass reads: the turn tables and the table, where a position's
    mass lands (see :func:`_carry`), and blocks used again layer after layer: for the endings of a
    layer's turns, packed (:func:`_packed`; taken afresh for each layer, their pages would be found
    anew each time), with each thread's chunk of them whole before it is packed, and for the rows of
    each of its masks."""

    tables: kernel.TurnTables
    values: FloatArray
    landing: IntArray
    every_weight: FloatArray
    every_pair: npt.NDArray[np.int16]
    every_range: npt.NDArray[np.int32]
    dense: threading.local
    begin: IntArray
    end: IntArray
    threads: int

    def on(
        self, pool: concurrent.futures.Executor, here: _Layer, masks: IntArray, totals: IntArray,
        memory: _Memory, report: Callable[[int, int], None],
    ) -> _Layer:  # fmt: skip
        """The next layer (its positions ``masks``, ``totals``): the turns of every position of ``here``
        that carries probability (in chunks shared by the threads), then the spans of the next
        layer's vectors, then the vectors carried into them, each run of its masks by one thread (no
        two threads write to one vector). ``report(step, steps)`` after each chunk and run."""
        tables = self.tables
        carrying = here.carrying
        pairs = len(tables.pair_box)
        ranges = self.every_range[: len(carrying)]
        chance_of = np.full(len(here.masks), -1, dtype=np.intp)
        chance_of[carrying] = np.arange(len(carrying))
        sources, first, ends = _runs(here.masks)
        self.begin[sources] = first
        self.end[sources] = ends
        # The next layer's masks in runs of about CHUNK positions.
        afters, first, _ = _runs(masks)
        runs = np.split(afters, np.unique(np.searchsorted(first, np.arange(CHUNK, len(masks), CHUNK))))
        steps = -(-len(carrying) // CHUNK) + len(runs)

        def turns(at: int) -> None:
            rows = carrying[at : at + CHUNK]
            # Each thread's chunk of chances whole, used again chunk after chunk (in its caches),
            # packed into the layer's from the most its rows could take.
            dense = getattr(self.dense, "chances", None)
            if dense is None:
                dense = self.dense.chances = np.empty((CHUNK, pairs))
            chances = dense[: len(rows)]
            kernel.endings(tables, self.values, here.masks[rows], here.totals[rows], into=chances)
            _packed(
                chances, here.masks[rows], tables.pair_first, at * pairs, self.every_weight,
                self.every_pair, ranges[at : at + CHUNK],
            )  # fmt: skip

        def carry(run: IntArray, rows: IntArray, vectors: FloatArray, spans_only: bool) -> None:
            _carry(
                here.totals, here.rows, here.vectors, self.begin, self.end, chance_of, self.every_weight,
                self.every_pair, ranges, tables.pair_points, tables.basic, tables.rules.cap, self.landing,
                run, rows, vectors, spans_only,
            )  # fmt: skip

        # pool.map hands out all its tasks at once: each map here starts once the one before has ended.
        step = 0
        for _ in pool.map(turns, range(0, len(carrying), CHUNK)):
            step += 1
            report(step, steps)
        spans = _Layer.unspanned(len(masks))
        list(pool.map(functools.partial(carry, rows=spans, vectors=np.empty(0), spans_only=True), runs))
        following = _Layer.spanned(masks, totals, spans, memory, pool, self.threads)
        carried = functools.partial(carry, rows=following.rows, vectors=following.vectors, spans_only=False)
        for _ in pool.map(carried, runs):
            step += 1
            report(step, steps)
        self.begin[sources] = 0
        self.end[sources] = 0
        return following


@functools.cache
def _stand_ins(rules: RuleSet) -> IntArray:
    """``out[mask, total]``: the total the solver computes in its place (itself for most). Worked out
    once per process and rule set (every pass asks; do not change it)."""
    # The stand-in depends on the filled Basic boxes only: a row for each set of them, then each
    # mask reads its own (the solver's layers one by one, every mask again, took 0.12 s).
    basic_bits, masks, width = rules.basic_mask, 1 << len(rules.boxes), rules.cap + 1
    by_subset = np.tile(np.arange(width, dtype=np.intp), (basic_bits + 1, 1))
    reachable = reachable_totals(rules)
    for subset, equivalent in equivalent_totals(rules).items():
        by_subset[subset, reachable[subset]] = equivalent
    # Into small pages (see :func:`_work_block`): gathered into fresh huge pages, this took 0.04-0.2 s.
    same: IntArray = _work_block(masks * width).view(np.intp).reshape(masks, width)
    np.take(by_subset, np.arange(masks) & basic_bits, axis=0, out=same, mode="clip")
    same.flags.writeable = False  # shared by every caller
    return same


def _plans(rules: RuleSet, root_mask: int, root_total: int) -> dict[int, tuple[IntArray, IntArray]]:
    """The positions of each layer after the root's that the root can lead to, by their stand-ins:
    ``plans[filled]`` is ``(masks, totals)`` in order of mask, then total, each pair once.

    A mask's stand-ins depend on its filled Basic boxes only: they are worked out once for each set
    of them (the reachable totals from the root's on, each through its stand-in, each once), and
    every mask of a layer takes its set's. (Made from the solver's layers, every position and then
    each one's stand-in, the plans took 0.08 s of a pass from an empty sheet.)"""
    boxes = len(rules.boxes)
    basic_bits = rules.basic_mask
    same = _stand_ins(rules)
    reachable = reachable_totals(rules)
    subsets = np.zeros(basic_bits + 1, dtype=np.intp)  # each set's row in ``standing``
    found = [np.unique(same[subset, totals[totals >= root_total]]) for subset, totals in reachable.items()]
    standing = np.zeros((len(found), max(len(totals) for totals in found)), dtype=np.intp)
    lengths = np.zeros(len(found), dtype=np.intp)
    for row, (subset, totals) in enumerate(zip(reachable, found, strict=True)):
        subsets[subset] = row
        standing[row, : len(totals)] = totals
        lengths[row] = len(totals)
    every = np.arange(1 << boxes)
    counts = filled_counts(boxes)
    plans: dict[int, tuple[IntArray, IntArray]] = {}
    for filled in range(root_mask.bit_count() + 1, boxes + 1):
        masks = every[(counts == filled) & (every & root_mask == root_mask)]
        rows = subsets[masks & basic_bits]
        many = lengths[rows]
        first = np.cumsum(many) - many  # where each mask's run of totals begins
        index = np.arange(int(many.sum())) - np.repeat(first, many)
        plans[filled] = (np.repeat(masks, many), standing[np.repeat(rows, many), index])
    return plans


def forward(
    table: StrategyTable,
    root: tuple[int, int, int] = (0, 0, 0),
    *,
    progress: Progress | None = None,
    threads: int | None = None,
) -> Distribution:
    """The exact distribution of the final total when the hard player plays on from a sheet at the
    start of a turn: ``root`` is its (mask, capped Basic total, points on the sheet).

    Layer by layer: the turns of every position that carries probability (in chunks shared by the
    threads), then the spans of the next layer's vectors, then the vectors carried into them (each
    run of target masks by one thread: no two threads write to one vector). Its loops wait for
    those compiled ahead, if any."""
    rules = table.rules
    values = table.values
    tables = kernel.tables_of(rules)
    boxes = len(rules.boxes)
    root_mask, root_total, root_points = root
    root_filled = root_mask.bit_count()
    same = _stand_ins(rules)
    # Two arrays as large as the table, in small pages (see :func:`_work_block`): each was fresh
    # memory in huge pages, found anew in every pass.
    row_of = _work_block(same.size).view(np.intp).reshape(same.shape)
    row_of.fill(-1)
    plans = _plans(rules, root_mask, root_total)
    for masks, totals in plans.values():
        row_of[masks, totals] = np.arange(len(masks))
    if rules.cap >= 128:
        raise ValueError("the forward pass packs a total in 7 bits")
    compiled.await_ahead(compiled.FORWARD)  # compiled by another process, the first time on a machine
    landing = _work_block(same.size).view(np.intp).reshape(same.shape)
    _landing(row_of, same, landing)
    shift = root_total - int(same[root_mask, root_total])
    start = _Layer.unspanned(1)
    start[0, 1:] = shift
    here = _Layer.spanned(
        np.array([root_mask], dtype=np.intp), np.array([same[root_mask, root_total]], dtype=np.intp), start
    )
    here.vectors[0] = 1.0
    total_rows = 1 + sum(len(plan[0]) for filled, plan in plans.items() if filled < boxes)
    size = threads if threads is not None else min(2, os.cpu_count() or 1)
    most = max([1] + [len(plan[0]) for filled, plan in plans.items() if filled < boxes])
    if most * len(tables.pair_box) > np.iinfo(np.int32).max:
        raise ValueError("the forward pass numbers a layer's endings in 32 bits")
    passing = _Passing(
        tables, values, landing, _work_block(most * len(tables.pair_box)),
        _work_block(-(-most * len(tables.pair_box) // 4)).view(np.int16),
        np.empty((most, boxes, 2), dtype=np.int32), threading.local(), np.zeros(1 << boxes, dtype=np.intp),
        np.zeros(1 << boxes, dtype=np.intp), size,
    )  # fmt: skip
    memory = (_Memory(), _Memory())
    done = 0
    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        for filled in range(root_filled, boxes):

            def report(step: int, steps: int, done: int = done, count: int = len(here.masks)) -> None:
                if progress is not None:  # the layer's share done, counted in all its positions
                    progress(done + step * count // steps, total_rows)

            following = passing.on(pool, here, *plans[filled + 1], memory[filled % 2], report)
            done += len(here.masks)
            here = following
    # A full sheet: the final total is its capped total, the points beyond it and the bonus.
    base = root_points - root_total
    result = np.zeros(int(here.rows[:, 2].max(initial=0)) + rules.cap + max(rules.bonus) + root_points + 2)
    for row in here.carrying.tolist():
        at, low, high = (int(x) for x in here.rows[row])
        total = int(here.totals[row])
        offset = base + total + rules.bonus[total]
        result[offset + low : offset + high + 1] += here.vectors[at + low : at + high + 1]
    if progress is not None:
        progress(total_rows, total_rows)
    return Distribution.trimmed(0, result)


# --- the distribution from an empty sheet, stored ------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """``probabilities[i]`` is the chance of a final total of ``offset + i``.

    >>> d = Distribution(100, np.array([0.25, 0.5, 0.25]))
    >>> d.mean, d.at_least(101), d.percentile(50), d.by_total()[102]
    (101.0, 0.75, 101, 0.25)
    """

    offset: int
    probabilities: FloatArray = field(repr=False)

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(len(self.probabilities)) + self.offset, self.probabilities))

    @property
    def std(self) -> float:
        totals = np.arange(len(self.probabilities)) + self.offset
        return float(np.sqrt(np.dot((totals - self.mean) ** 2, self.probabilities)))

    def by_total(self) -> dict[int, float]:
        """Every total with a chance above zero, and that chance (what a chart draws)."""
        return {self.offset + int(i): float(p) for i, p in enumerate(self.probabilities) if p > 0}

    def at_least(self, target: int) -> float:
        """The chance of a final total of ``target`` or more."""
        start = max(target - self.offset, 0)
        return float(min(self.probabilities[start:].sum(), 1.0))

    def below(self, total: int) -> float:
        """The chance of a final total under ``total`` (how many perfect games a total beats)."""
        return float(self.probabilities[: max(total - self.offset, 0)].sum())

    def percentile(self, percent: float) -> int:
        """The smallest total whose cumulative chance reaches ``percent``%."""
        cumulative = np.cumsum(self.probabilities)
        index = int(np.searchsorted(cumulative, percent / 100 - 1e-12))
        return self.offset + min(index, len(self.probabilities) - 1)

    @classmethod
    def trimmed(cls, offset: int, probabilities: FloatArray) -> Distribution:
        """Without the zeros at both ends."""
        nonzero = np.flatnonzero(probabilities > 0)
        if not len(nonzero):
            raise ValueError("a distribution needs a total with a chance")
        low, high = int(nonzero[0]), int(nonzero[-1]) + 1
        return cls(offset + low, probabilities[low:high].copy())


def perfect_play(
    table: StrategyTable, progress: Progress | None = None, *, threads: int | None = None
) -> Distribution:
    """The distribution of the final total of perfect play from an empty sheet (computed now)."""
    return forward(table, progress=progress, threads=threads)


def distribution_path(rules: RuleSet, directory: Path | None = None) -> Path:
    """Beside the strategy table, named after the same rules."""
    return (directory or table_dir()) / f"{rules.name}-{rules.fingerprint[:16]}.distribution"


def save(rules: RuleSet, distribution: Distribution, path: Path) -> None:
    """Write atomically, in the strategy table's checked format (:mod:`~kismet_dice.strategy.stored`)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules.fingerprint,
        "offset": distribution.offset,
        "length": len(distribution.probabilities),
    }
    stored.write(path, header, distribution.probabilities)


def load(rules: RuleSet, path: Path) -> Distribution | None:
    """The distribution stored at ``path`` for ``rules``, or ``None`` if missing, damaged or foreign."""
    found = stored.read(path, {"format": FORMAT, "version": VERSION, "rules": rules.fingerprint})
    if found is None:
        return None
    header, values = found
    offset, length = header.get("offset"), header.get("length")
    if not isinstance(offset, int) or not isinstance(length, int) or len(values) != length:
        return None
    return Distribution(offset, values)


def load_or_compute(
    table: StrategyTable,
    *,
    directory: Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> Distribution:
    """The stored distribution if a sound one exists (and not ``force``), else a fresh one, stored.

    Processes that need it at once (``kismet chances`` in two terminals, the workers of a server)
    work it out once: the first takes the lock beside the file, the others wait for it, following
    its progress, and then load what it stored."""
    path = distribution_path(table.rules, directory)
    if not force:
        stored = load(table.rules, path)
        if stored is not None:
            return stored
    with computing_lock(path, progress) as working:
        if not force:
            stored = load(table.rules, path)  # worked out by another process while this one waited
            if stored is not None:
                return stored
        distribution = perfect_play(table, working)
        with contextlib.suppress(OSError):
            save(table.rules, distribution, path)
    return distribution
