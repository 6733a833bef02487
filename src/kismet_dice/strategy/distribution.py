"""The exact distribution of the final total under perfect (expectation-maximising) play.

The solved table says what every decision is worth on average; this module follows those
decisions and keeps the whole spread. From a turn-start position (filled boxes, capped Basic
total) the points still to come — bonus included — have a distribution that depends on that
position only, since the hard player's choices do. So the pass works backwards like the solver,
layer by layer (positions with k boxes filled, from a full sheet down to the root), and keeps
for every position a dense vector: ``future[x]`` = the chance that exactly ``x`` more points
are scored. A position's vector is the sum, over every way its turn can end (a box and the
points entered), of that ending's probability times the next position's vector shifted by the
points. The ending probabilities follow the hard player turn by turn: its box choice, its keep
choice and its tie-breaks (the top box first, boxes before keeps, the first keep in the
advisor's order), as :func:`kismet_dice.strategy.simulate.play_hard` makes them.

The final total from a sheet is the points on it plus the points to come, so the distribution
from an empty sheet is the root's vector itself; it is stored beside the strategy table.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kismet_dice.strategy import kernel, stored
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.solver import BATCH_COLUMNS, Progress, _layer, next_values
from kismet_dice.strategy.table import StrategyTable, table_dir

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
    the first). ``onehot[b]``: (rolls, distinct points of b), 1 where roll r scores that.
    ``pair_of[b, r]``: the number of the pair (box b, what r scores there) among all such pairs,
    whose box and points are ``pair_box`` and ``pair_points``.
    """

    points: IntArray
    basic: npt.NDArray[np.bool_]
    reroll: FloatArray
    subs: IntArray
    onehot: tuple[FloatArray, ...]
    scores: tuple[IntArray, ...]
    pair_of: IntArray
    pair_box: IntArray
    pair_points: IntArray

    @classmethod
    def of(cls, rules: RuleSet) -> TurnShape:
        space = rules.space
        offsets = np.cumsum([0] + [len(level) for level in space.levels[: rules.dice]])
        flat = [keep for level in space.levels[: rules.dice] for keep in level]
        reroll = np.zeros((len(flat), len(space.rolls)))
        for k, keep in enumerate(flat):
            rolled = rules.dice - len(keep)
            for fresh in space.levels[rolled]:
                chance = _arrangements(fresh) / rules.faces**rolled
                reroll[k, space.roll_index[tuple(sorted(keep + fresh))]] += chance
        rows = [
            [int(offsets[len(keep)]) + space.index[len(keep)][keep] for keep in space.sub_multisets(roll)]
            for roll in space.rolls
        ]
        width = max(len(row) for row in rows)
        subs = np.array([row + [row[0]] * (width - len(row)) for row in rows], dtype=np.intp)
        points = np.array([box.points for box in rules.boxes], dtype=np.intp)
        onehot = []
        scores = []
        for table in kernel.box_tables(rules):
            matrix = np.zeros((len(space.rolls), len(table.scores)))
            matrix[np.arange(len(space.rolls)), table.group] = 1.0
            onehot.append(matrix)
            scores.append(table.scores)
        # Every (box, points) pair a turn can end with, numbered box by box.
        first = np.cumsum([0] + [len(found) for found in scores])
        pair_of = np.array(
            [first[box] + table.group for box, table in enumerate(kernel.box_tables(rules))], dtype=np.intp
        )
        return cls(
            pair_of=pair_of,
            pair_box=np.repeat(np.arange(len(scores)), [len(found) for found in scores]).astype(np.intp),
            pair_points=np.concatenate(scores).astype(np.intp),
            points=points,
            basic=np.array([box.basic for box in rules.boxes]),
            reroll=reroll,
            subs=subs,
            onehot=tuple(onehot),
            scores=tuple(scores),
        )


def _arrangements(multiset: tuple[int, ...]) -> int:
    result = math.factorial(len(multiset))
    for count in Counter(multiset).values():
        result //= math.factorial(count)
    return result


def box_values(
    rules: RuleSet, shape: TurnShape, values: FloatArray, masks: IntArray, totals: IntArray
) -> FloatArray:
    """``out[r, b, c]``: points of roll r in box b plus the value after it; ``-inf`` where b is filled."""
    boxes = len(rules.boxes)
    bits = 1 << np.arange(boxes)
    got = shape.points.T[:, :, None]  # (rolls, boxes, 1)
    after = np.where(
        shape.basic[None, :, None], np.minimum(totals[None, None, :] + got, rules.cap), totals[None, None, :]
    )
    found = got + values[(masks[None, :] | bits[:, None])[None, :, :], after]
    open_ = (masks[None, :] & bits[:, None]) == 0  # (boxes, columns)
    result: FloatArray = np.where(open_[None, :, :], found, -np.inf)
    return result


def turn_endings(
    rules: RuleSet,
    shape: TurnShape,
    values: FloatArray,
    masks: IntArray,
    totals: IntArray,
    start: FloatArray | None = None,
    rolls_left: int | None = None,
) -> tuple[IntArray, FloatArray]:
    """``(box, ended)``: for each roll r and column c, the box the hard player enters r in, and the
    chance that its turn from column c ends with roll r (entered there).

    The box a roll goes in does not depend on the rolls left, so one array says where every
    ending goes. By default the turn starts with a roll of all the dice; ``start`` (rolls,
    columns) is instead the chance of each roll on the table with ``rolls_left`` rolls left (a
    keep's continuation).
    """
    columns = len(masks)
    rolls = len(rules.space.rolls)
    tables = kernel.box_tables(rules)
    nexts = next_values(rules, tables, values, masks, totals)
    turn = kernel.turn(rules, tables, nexts)
    best_box = _best_boxes(tables, nexts, rolls, columns)
    if start is None:
        chance = np.repeat(rules.space.roll_probabilities[:, None], columns, axis=1)
        left = rules.rolls_per_turn - 1
    else:
        chance, left = start, rules.rolls_per_turn - 1 if rolls_left is None else rolls_left
    ended = np.zeros((rolls, columns))
    roll_rows = np.arange(rolls)[:, None]
    where = np.arange(columns)[None, :]
    while left:
        flat = np.concatenate(turn.keeps[left][: rules.dice], axis=0)  # (keeps, columns)
        best_keep = shape.subs[roll_rows, _first_best(flat, shape.subs)]
        # ``choose`` is the better of the best box (``stop``) and the best keep, computed by the
        # same operations as the player's, so a keep is taken exactly when it is strictly better:
        # boxes come before keeps in the advisor's order, a tie goes to the box.
        again = turn.choose[left] > turn.stop
        ended += np.where(again, 0.0, chance)
        kept = np.bincount(
            (best_keep * columns + where).reshape(-1),
            weights=np.where(again, chance, 0.0).reshape(-1),
            minlength=len(shape.reroll) * columns,
        ).reshape(len(shape.reroll), columns)
        chance = shape.reroll.T @ kept
        left -= 1
    ended += chance
    return best_box, ended


def _first_best(flat: FloatArray, subs: IntArray) -> IntArray:
    """``out[r, c]``: the column of ``subs`` holding the best of roll r's keeps, the first on a tie.

    One row of keeps at a time: a gather of all of them at once is eight times the size and
    slower (the argmax then runs across a strided axis).
    """
    best = np.take(flat, subs[:, 0], axis=0, mode="clip")
    which = np.zeros(best.shape, dtype=np.intp)
    worth = np.empty_like(best)
    better = np.empty(best.shape, dtype=np.bool_)
    for column in range(1, subs.shape[1]):
        np.take(flat, subs[:, column], axis=0, out=worth, mode="clip")
        np.greater(worth, best, out=better)
        np.maximum(worth, best, out=best)
        np.copyto(which, column, where=better)
    return which


def hard_endings(
    rules: RuleSet,
    shape: TurnShape,
    values: FloatArray,
    masks: IntArray,
    totals: IntArray,
    start: FloatArray | None = None,
    rolls_left: int | None = None,
) -> FloatArray:
    """``out[b, r, c]``: the chance that the hard player's turn from column c ends with roll r in box b
    (see :func:`turn_endings`)."""
    best_box, ended = turn_endings(rules, shape, values, masks, totals, start, rolls_left)
    result: FloatArray = np.zeros((len(rules.boxes), *ended.shape))
    np.put_along_axis(result, best_box[None], ended[None], axis=0)
    return result


def _best_boxes(
    tables: tuple[kernel.BoxTable, ...], nexts: list[FloatArray | None], rolls: int, columns: int
) -> IntArray:
    """``out[r, c]``: the box the hard player enters roll r in (the top one on a tie)."""
    best = np.full((rolls, columns), -np.inf)
    which = np.zeros((rolls, columns), dtype=np.intp)
    for box, (table, nxt) in enumerate(zip(tables, nexts, strict=True)):
        if nxt is None:
            continue
        if table.basic:
            worth = np.take(table.scores[:, None] + nxt, table.group, axis=0)
        else:
            points = np.zeros(rolls)
            points[table.first : table.first + len(table.points)] = table.points
            worth = points[:, None] + nxt[None, :]
        better = worth > best
        best = np.where(better, worth, best)
        which = np.where(better, box, which)
    return which


# --- the backward pass ----------------------------------------------------------------------


@dataclass
class Futures:
    """Distributions of the points still to come from the positions reachable from a root.

    ``row_of[mask, total]`` is a position's row in its layer (-1 where not computed);
    ``layers[k]`` holds the vectors of the positions with k boxes filled (one row each), or the
    survival functions (``P(points to come >= x)``, float32) where only those were kept.
    """

    rules: RuleSet
    row_of: IntArray
    layers: dict[int, FloatArray | Float32Array] = field(default_factory=dict)
    survival: bool = False

    def future(self, mask: int, total: int) -> FloatArray:
        """The probability of each number of points to come from a position (index = points)."""
        if self.survival:
            raise ValueError("only survival functions were kept")
        row = int(self.row_of[mask, total])
        layer = self.layers[mask.bit_count()]
        return np.asarray(layer[row], dtype=np.float64)

    def at_least(self, masks: IntArray, totals: IntArray, needed: IntArray) -> FloatArray:
        """``P(points to come >= needed)`` for each (mask, total, needed), all masks in one layer."""
        filled = {int(m).bit_count() for m in np.unique(masks)}
        if len(filled) != 1:
            raise ValueError("positions from one layer at a time")
        layer = self.layers[filled.pop()]
        rows = self.row_of[masks, totals]
        if self.survival:
            width = layer.shape[1]
            result = layer[rows, np.clip(needed, 0, width - 1)].astype(np.float64)
            result[needed <= 0] = 1.0
            result[needed >= width] = 0.0
            return result
        tails = np.cumsum(layer[:, ::-1], axis=1)[:, ::-1]
        width = tails.shape[1]
        found: FloatArray = np.where(
            needed <= 0, 1.0, np.where(needed >= width, 0.0, tails[rows, np.clip(needed, 0, width - 1)])
        )
        return found


def future_pass(
    table: StrategyTable,
    root: tuple[int, int] = (0, 0),
    *,
    progress: Progress | None = None,
    keep: int | None = 1,
    threads: int | None = None,
    sink: Callable[[int, Float32Array], None] | None = None,
) -> Futures:
    """The distributions of points to come from ``root`` and every position it can lead to.

    Only the layers from ``root``'s on are computed. ``keep`` says which layers are returned:
    ``1`` the root's and the next (what the advisor needs), ``None`` all of them as float32
    survival functions (for many games played by the target player). With ``keep=None``, a
    ``sink`` is handed each layer (its number of boxes filled, its survival functions) as soon as
    it is final, instead of the layer being kept: a store written layer by layer holds no more
    than two layers' distributions in memory at a time, not every layer until the end.
    """
    if sink is not None and keep is not None:
        raise ValueError("a sink takes every layer: keep=None")

    def kept(filled: int, layer: Float32Array) -> None:
        if sink is None:
            futures.layers[filled] = layer
        else:
            sink(filled, layer)

    rules = table.rules
    values = table.values
    shape = TurnShape.of(rules)
    boxes = len(rules.boxes)
    width = rules.cap + 1
    root_mask, root_total = root
    root_layer = root_mask.bit_count()
    row_of = np.full((1 << boxes, width), -1, dtype=np.intp)
    reach = _reach(rules)
    plans: dict[int, tuple[IntArray, IntArray]] = {}
    for filled in range(root_layer, boxes):
        masks, totals, copy_masks, copy_totals, same = _layer(rules, filled)
        every_mask = np.concatenate([masks, copy_masks])
        every_total = np.concatenate([totals, copy_totals])
        every_same = np.concatenate([totals, same])
        wanted = ((every_mask & root_mask) == root_mask) & (every_total >= root_total)
        if filled == root_layer:
            wanted &= (every_mask == root_mask) & (every_total == root_total)
        # Ordered by how many points can still come, so each batch's vectors are about as wide as
        # its columns need, not as the widest position of the layer.
        keys = (reach[every_mask[wanted]] << 32) + every_mask[wanted] * width + every_same[wanted]
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        row_of[every_mask[wanted], every_total[wanted]] = inverse.reshape(-1)
        unique &= (1 << 32) - 1
        # Each row is computed from one of its wanted positions, not from the solver's stand-in
        # total (which may lie below the root's): the positions a turn leads to from there are
        # then wanted ones too, with rows, where the stand-in's could be positions never listed.
        plans[filled] = (unique // width, every_total[wanted][first])
    full = (1 << boxes) - 1
    row_of[full, :] = np.arange(width)
    bonus_width = max(rules.bonus) + 1
    following: FloatArray = np.zeros((width, bonus_width))
    following[np.arange(width), list(rules.bonus)] = 1.0
    futures = Futures(rules, row_of, survival=keep is None)
    if keep is None:
        kept(boxes, _survival(following))
    total_rows = sum(len(plan[0]) for plan in plans.values())
    done = 0
    size = threads if threads is not None else min(2, os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        for filled in range(boxes - 1, root_layer - 1, -1):
            masks, totals = plans[filled]
            here: FloatArray = np.zeros((len(masks), int(reach[masks].max()) + 1))

            def batch(
                start: int,
                masks: IntArray = masks,
                totals: IntArray = totals,
                here: FloatArray = here,
                following: FloatArray = following,
            ) -> int:
                part = slice(start, start + BATCH_COLUMNS)
                batch_masks, batch_totals = masks[part], totals[part]
                out = here[part, : int(reach[batch_masks].max()) + 1]
                _spread(rules, shape, values, row_of, following, batch_masks, batch_totals, out)
                return len(batch_masks)

            # NumPy lets go of the interpreter in its loops, so threads share one layer's batches
            # without copying the layers into worker processes.
            for count in pool.map(batch, range(0, len(masks), BATCH_COLUMNS)):
                done += count
                if progress is not None:
                    progress(done, total_rows)
            if keep is None:
                kept(filled, _survival(here))
            elif filled <= root_layer + keep:
                futures.layers[filled] = here
            following = here
    return futures


def _reach(rules: RuleSet) -> IntArray:
    """``out[mask]``: the most points still to come with ``mask`` filled (bonus included)."""
    boxes = len(rules.boxes)
    masks = np.arange(1 << boxes)
    result = np.full(1 << boxes, max(rules.bonus), dtype=np.intp)
    for box, rule in enumerate(rules.boxes):
        result += np.where(masks >> box & 1, 0, max(rule.points))
    return result


def _survival(pmf: FloatArray) -> Float32Array:
    result: Float32Array = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1].astype(np.float32)
    return result


def _spread(
    rules: RuleSet,
    shape: TurnShape,
    values: FloatArray,
    row_of: IntArray,
    following: FloatArray,
    masks: IntArray,
    totals: IntArray,
    out: FloatArray,
) -> None:
    """Into ``out`` (one row per column), each column's distribution of points to come."""
    best_box, ended = turn_endings(rules, shape, values, masks, totals)
    add_endings(rules, shape, row_of, following, masks, totals, best_box, ended, out)


def add_endings(
    rules: RuleSet,
    shape: TurnShape,
    row_of: IntArray,
    following: FloatArray,
    masks: IntArray,
    totals: IntArray,
    best_box: IntArray,
    ended: FloatArray,
    out: FloatArray,
) -> None:
    """Add to ``out[c]`` every ending of column c's turn times the next position's vector, shifted.

    Endings are first summed by (box, points), one pass over the rolls; then each such pair adds
    one shifted row per column. A box outside the Basic section leads to the same next position
    whatever it scores, so its next vectors are gathered once for all its points.
    """
    columns = len(masks)
    rolls = ended.shape[0]
    pairs = len(shape.pair_box)
    keys = shape.pair_of[best_box, np.arange(rolls)[:, None]] * columns + np.arange(columns)[None, :]
    by_pair = np.bincount(keys.reshape(-1), weights=ended.reshape(-1), minlength=pairs * columns)
    by_pair = by_pair.reshape(pairs, columns)
    present = by_pair.any(axis=1)
    # ``out`` is as wide as the most points its columns can still make: a next vector shifted by
    # ``points`` is zero beyond that, so only that much of it is gathered and added (by indexing:
    # ``np.take`` would first copy the whole sliced layer).
    room = out.shape[1]
    span = min(following.shape[1], room)
    scratch = np.empty((columns, span))
    gathered_box = -1
    gathered = scratch
    for pair in np.flatnonzero(present).tolist():
        box = int(shape.pair_box[pair])
        points = int(shape.pair_points[pair])
        wide = min(span, room - points)
        weight = by_pair[pair]
        bit = 1 << box
        if shape.basic[box]:
            rows = row_of[masks | bit, np.minimum(totals + points, rules.cap)]
            # A column that cannot end this way has weight 0 here; its row is any valid one.
            gathered = following[np.where(weight > 0, rows, 0), :wide]
            gathered_box = -1
        elif box != gathered_box:
            # Every points of this box lead to the same next position: gathered once.
            used = by_pair[shape.pair_box == box].any(axis=0)
            gathered = following[np.where(used, row_of[masks | bit, totals], 0), :span]
            gathered_box = box
        part = scratch[:, :wide]
        np.multiply(gathered[:, :wide], weight[:, None], out=part)
        target = out[:, points : points + wide]
        target += part


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
    futures = future_pass(table, (0, 0), progress=progress, keep=0, threads=threads)
    return Distribution.trimmed(0, futures.future(0, 0))


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
    """The stored distribution if a sound one exists (and not ``force``), else a fresh one, stored."""
    path = distribution_path(table.rules, directory)
    if not force:
        stored = load(table.rules, path)
        if stored is not None:
            return stored
    distribution = perfect_play(table, progress)
    with contextlib.suppress(OSError):
        save(table.rules, distribution, path)
    return distribution
