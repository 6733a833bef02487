"""The values of one turn, compiled: the one path the solver, the advisor, the players, the
distributions and the chances all take, so they agree to the last bit.

A *column* is one position at the start of a turn: which boxes are filled and the capped
Basic total. Every array here has one row per roll or kept multiset and one column per
position, the columns innermost, so the compiled loops run over several positions at once in
the processor's vector registers.

The turn, backwards from its end:

* ``final``: with no roll left, the best box for each roll (points now plus the value of
  the position it leads to);
* ``kept``: the expectation of keeping a multiset and rolling the rest, built one rolled die
  at a time (a multiset of n dice averages its six children of n+1 dice);
* ``best``: the best choice for each roll with rolls left, through the lattice of kept
  multisets (the best sub-multiset of k is k itself or the best of k minus one die).

Kept multisets and rolls share one numbering, :attr:`TurnTables.keeps` keeps (sizes 0 to
dice-1, in :class:`DiceSpace` order) and then the rolls: a keep's flat index is its row.

The loops are compiled by Numba once per machine (its cache sits beside this file, or in
``NUMBA_CACHE_DIR``), Numba itself loaded when the first of them runs (:mod:`compiled`), and
they release the interpreter's lock, so threads share a solve's batches.
Every sum is taken in the same order as the definition above says (a keep's six children one
after the other, then times 1/6; a turn's rolls in order), so results do not depend on how
the columns are batched.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from kismet_dice.strategy import compiled
from kismet_dice.strategy.compiled import jit
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.ruleset import RuleSet

BLOCK = 256
"""Columns computed together: each step's loop over a row runs 256 positions in the processor's
vector registers, long enough that the cost of starting it is small beside it (measured: the solve
on two threads took 1.45 s with 16, 1.0 s with 32, 0.63-0.67 s with 128 to 256), while a turn's work
arrays for them (about 1.5 MB for Kismet) stay within the processor's caches."""

ENDINGS_BLOCK = 128
"""Columns of the hard player's endings computed together: half a :data:`BLOCK`, since the endings
keep more for each column (the keeps chosen with each roll left, the best keeps' ranks, the boxes
chosen: about 9 KB, against 6 KB for the solve's turn). Measured on 16,384 positions of the middle
of the game, one thread, when a column kept 24 KB: 5.5-6.1 microseconds a position with 128,
6.5-7.6 with 256 and 5.8-6.2 with 64. At 9 KB, taking turns in one process: 2.95-3.01 with 128,
3.01-3.05 with 256, 3.14-3.17 with 64, 3.43-3.48 with 32. Once the ranked step ran in vector
registers (:func:`_best_ranked`): 2.69 with 128, 2.59-2.61 with 256, 2.61-2.69 with 192, but the
whole forward pass on two threads the same with 128 and 256 (2.19-2.30 s, 2.20-2.28 s)."""

_NO_RANK = np.int16(np.iinfo(np.int16).max)
"""The rank of no keep, above every keep's: what a roll, no candidate of its own, starts from."""

_JIT: dict[str, Any] = {"nogil": True, "cache": True, "error_model": "numpy", "boundscheck": False}


@jit(**_JIT)
def width_for(columns):  # type: ignore[no-untyped-def]
    """How many columns to compute together for a batch of ``columns``: :data:`BLOCK`, or for a
    small batch (a computer's turn asks about a few dozen positions) as few as it needs, rounded up
    to 8 (a vector register of doubles), since every column of a block costs the same, used or not.

    >>> width_for(3), width_for(45), width_for(10_000)
    (8, 48, 256)
    """
    return min(BLOCK, max(8, (columns + 7) // 8 * 8))


@dataclass(frozen=True, eq=False)
class TurnTables:
    """What the compiled turn needs of a rule set, as plain arrays.

    ``children[k, f]``: the row of keep k plus face f+1. ``parents[k, j]`` for j below
    ``parent_count[k]``: the rows of multiset k (a keep or a roll) minus one die, each distinct
    face once. ``points[b, r]``: what roll r scores in box b; ``group[b, r]``: which of box b's
    distinct ``scores`` that is (always 0 outside the Basic section, whose next position does not
    depend on the points). The pairs (a box and what is entered there) are numbered box by box:
    ``pair_of[b, r]`` is roll r's in box b, box b's run from ``pair_first[b]`` to
    ``pair_first[b + 1]``, and ``zero_pair[b]`` is its zero's (-1 if no roll scores zero there).
    The rolls' points above zero are listed roll by roll: roll r's from ``scoring_start[r]`` to
    ``scoring_start[r + 1]``, each with its box, the group, the points and the pair.
    """

    rules: RuleSet
    keeps: int
    rolls: int
    children: IntArray
    parents: IntArray
    parent_count: IntArray
    probabilities: FloatArray
    points: FloatArray
    group: IntArray
    scores: IntArray
    score_count: IntArray
    basic: np.ndarray[Any, np.dtype[np.bool_]]

    rank: IntArray
    pair_of: IntArray
    pair_box: IntArray
    pair_points: IntArray
    pair_first: IntArray
    zero_pair: IntArray
    zero_group: IntArray
    scoring_start: IntArray
    scoring_box: IntArray
    scoring_group: IntArray
    scoring_points: FloatArray
    scoring_pair: IntArray

    @property
    def box_arrays(self) -> tuple[Any, ...]:
        """What the compiled steps read of the boxes (``zero_group[b]``: the group of a zero in box b,
        -1 if no roll scores zero there; ``scoring_*[scoring_start[r]:scoring_start[r + 1]]``: the
        boxes roll r scores in, its group and points there)."""
        return (
            self.basic, self.scores, self.score_count, self.zero_group, self.scoring_start,
            self.scoring_box, self.scoring_group, self.scoring_points,
        )  # fmt: skip

    @property
    def lattice(self) -> tuple[IntArray, IntArray, IntArray]:
        return self.children, self.parents, self.parent_count


@cache
def tables_of(rules: RuleSet) -> TurnTables:
    """The turn tables of ``rules`` (made once per process and rule set)."""
    space = rules.space
    levels = space.levels
    offsets = np.cumsum([0] + [len(level) for level in levels])
    keeps = int(offsets[rules.dice])
    rolls = len(space.rolls)
    children = np.zeros((keeps, rules.faces), dtype=np.intp)
    for size in range(rules.dice):
        table = space.children[size]
        children[offsets[size] : offsets[size + 1]] = table + offsets[size + 1]
    width = max(1, max(space.parents[size].shape[1] for size in range(1, rules.dice + 1)))
    parents = np.zeros((keeps + rolls, width), dtype=np.intp)
    parent_count = np.zeros(keeps + rolls, dtype=np.intp)
    for size in range(1, rules.dice + 1):
        for row, multiset in enumerate(levels[size]):
            flat = int(offsets[size]) + row
            distinct = len(set(multiset))
            parent_count[flat] = distinct
            parents[flat, :distinct] = space.parents[size][row, :distinct] + offsets[size - 1]
    boxes = len(rules.boxes)
    distinct_scores = [np.unique(box.points) for box in rules.boxes]
    widest = max(
        len(found) if box.basic else 1 for found, box in zip(distinct_scores, rules.boxes, strict=True)
    )
    scores = np.zeros((boxes, widest), dtype=np.intp)
    score_count = np.ones(boxes, dtype=np.intp)
    group = np.zeros((boxes, rolls), dtype=np.intp)
    for b, (box, found) in enumerate(zip(rules.boxes, distinct_scores, strict=True)):
        if box.basic:
            scores[b, : len(found)] = found
            score_count[b] = len(found)
            group[b] = np.searchsorted(found, np.array(box.points))
    points = np.array([box.points for box in rules.boxes], dtype=np.float64)
    zero_group = np.full(boxes, -1, dtype=np.intp)
    for b in range(boxes):
        if (points[b] == 0).any():
            zero_group[b] = group[b][points[b] == 0][0]
    # Every roll's points above zero, roll by roll (then box by box).
    every, owner = np.nonzero(points.T != 0)
    every, owner = every.astype(np.intp), owner.astype(np.intp)
    # The advisor lists keeps by size, then faces: the order ties between keeps are broken in.
    listed = [keep for level in levels[: rules.dice] for keep in level]
    rank = np.empty(keeps, dtype=np.intp)
    rank[sorted(range(keeps), key=lambda k: (len(listed[k]), listed[k]))] = np.arange(keeps)
    # Every (box, points) pair a turn can end with, numbered box by box.
    every_score = [np.unique(np.array(box.points, dtype=np.intp), return_inverse=True) for box in rules.boxes]
    first = np.cumsum([0] + [len(found) for found, _ in every_score])
    pair_of = np.array(
        [first[b] + inverse.reshape(-1) for b, (_, inverse) in enumerate(every_score)], dtype=np.intp
    )
    return TurnTables(
        rank=rank,
        pair_of=pair_of,
        pair_box=np.repeat(np.arange(boxes), [len(found) for found, _ in every_score]).astype(np.intp),
        pair_points=np.concatenate([found for found, _ in every_score]).astype(np.intp),
        pair_first=first.astype(np.intp),
        zero_pair=np.array(
            [first[b] if found[0] == 0 else -1 for b, (found, _) in enumerate(every_score)], dtype=np.intp
        ),
        zero_group=zero_group,
        scoring_start=np.searchsorted(every, np.arange(rolls + 1)).astype(np.intp),
        scoring_box=owner,
        scoring_group=group[owner, every].astype(np.intp),
        scoring_points=points[owner, every],
        scoring_pair=pair_of[owner, every],
        rules=rules,
        keeps=keeps,
        rolls=rolls,
        children=children,
        parents=parents,
        parent_count=parent_count,
        probabilities=np.ascontiguousarray(space.roll_probabilities, dtype=np.float64),
        points=points,
        group=group,
        scores=scores,
        score_count=score_count,
        basic=np.array([box.basic for box in rules.boxes], dtype=np.bool_),
    )


# --- the compiled steps ------------------------------------------------------------------------
# Every loop over columns runs over the whole block (a constant the compiler unrolls into vector
# instructions); a short last block repeats its last column. Each row is computed in one pass that
# reads all its sources and writes it once: a row written source by source costs twice as much.


@jit(**_JIT)
def _copy(into, at_row, at_column, source, from_row, rows, columns):  # type: ignore[no-untyped-def]
    """``into[at_row + r, at_column + c] = source[from_row + r, c]`` for ``r < rows``, ``c < columns``.

    What assigning one array to a slice of another does, as a loop: Numba compiles such an
    assignment with its shape checks and their messages, 3 s of a first run's compile for the first
    one in a process (measured with one function of a single ``a[2:] = b``: 3.1 s, against 0.2 s
    for one element), where this loop takes a tenth of a second."""
    for r in range(rows):
        target = into[at_row + r]
        given = source[from_row + r]
        for c in range(columns):
            target[at_column + c] = given[c]


@jit(**_JIT)
def _nexts(values, masks, totals, start, cap, basic, scores, score_count, out):  # type: ignore[no-untyped-def]
    """``out[b, g, c]``: the value after entering box b with its g-th distinct score, for the block of
    columns from ``start`` (``-inf`` where b is filled); returns which boxes are open anywhere."""
    block = out.shape[2]
    boxes = basic.shape[0]
    last = masks.shape[0] - 1
    open_any = np.zeros(boxes, dtype=np.bool_)
    for b in range(boxes):
        bit = 1 << b
        for c in range(block):
            column = min(start + c, last)
            mask = masks[column]
            total = totals[column]
            if mask & bit:
                for g in range(out.shape[1]):
                    out[b, g, c] = -np.inf
            else:
                open_any[b] = True
                after = mask | bit
                if basic[b]:
                    for g in range(score_count[b]):
                        out[b, g, c] = values[after, min(total + scores[b, g], cap)]
                else:
                    out[b, 0, c] = values[after, total]
    return open_any


_CANDIDATES = 4
"""A roll's boxes taken together in one pass over its row (see :func:`_final`)."""


@jit(**_JIT)
def _candidates(scoring_start, scoring_box, open_any, roll, found):  # type: ignore[no-untyped-def]
    """How many of ``found`` hold the entries (``scoring_*`` indices) of the open boxes ``roll``
    scores in, padded to a multiple of :data:`_CANDIDATES` by repeating the last: the best of a set
    is the same with one of them twice."""
    count = 0
    for i in range(scoring_start[roll], scoring_start[roll + 1]):
        if open_any[scoring_box[i]]:
            found[count] = i
            count += 1
    while count % _CANDIDATES:
        found[count] = found[count - 1]
        count += 1
    return count


@jit(**_JIT, inline="always")
def _higher(v, w):  # type: ignore[no-untyped-def]
    return w if w > v else v


@jit(**_JIT)
def _final(  # type: ignore[no-untyped-def]
    zero_group, scoring_start, scoring_box, scoring_group, scoring_points, nexts, open_any, stop
):
    """``stop[r, c]``: the best box for roll r with no roll left (points plus the value after).

    A zero in an open box is the floor under every roll, so each roll then only adds the boxes it
    scores in (9 at most of Kismet's 15). Roll by roll, its boxes four at a time, the row written
    once for each four: updated box by box (``row[c] = worth if worth > row[c] else row[c]``), the
    row was written with masked stores, which this processor makes slowly (the step took 0.72-0.82
    microseconds a column that way, 0.22-0.34 this way, 256 columns of the middle of the game)."""
    block = stop.shape[1]
    floor = np.full(block, -np.inf)
    for b in range(zero_group.shape[0]):
        if open_any[b] and zero_group[b] >= 0:
            after = nexts[b, zero_group[b]]
            for c in range(block):
                floor[c] = _higher(floor[c], after[c])
    found = np.empty(zero_group.shape[0] + _CANDIDATES, dtype=np.intp)
    for r in range(stop.shape[0]):
        row = stop[r]
        count = _candidates(scoring_start, scoring_box, open_any, r, found)
        if count == 0:
            for c in range(block):
                row[c] = floor[c]
            continue
        for first in range(0, count, _CANDIDATES):
            i, j, k, m = found[first], found[first + 1], found[first + 2], found[first + 3]
            a, pa = nexts[scoring_box[i], scoring_group[i]], scoring_points[i]
            b, pb = nexts[scoring_box[j], scoring_group[j]], scoring_points[j]
            d, pd = nexts[scoring_box[k], scoring_group[k]], scoring_points[k]
            e, pe = nexts[scoring_box[m], scoring_group[m]], scoring_points[m]
            # The first four start from the floor, the others from the row: two loops, since one
            # that might read the row it writes is checked for overlap and run one column at a time.
            if first == 0:
                for c in range(block):
                    v = _higher(floor[c], pa + a[c])
                    v = _higher(v, pb + b[c])
                    v = _higher(v, pd + d[c])
                    row[c] = _higher(v, pe + e[c])
            else:
                for c in range(block):
                    v = _higher(row[c], pa + a[c])
                    v = _higher(v, pb + b[c])
                    v = _higher(v, pd + d[c])
                    row[c] = _higher(v, pe + e[c])


@jit(**_JIT, inline="always")
def _ranked(v, p, w, q):  # type: ignore[no-untyped-def]
    """The better of value ``v`` with pair ``p`` and ``w`` with ``q``: the higher value, the lower
    pair (the top box) on a tie."""
    better = (w > v) | ((w == v) & (q < p))
    return (w if better else v), (q if better else p)


@jit(**_JIT)
def _final_pairs(  # type: ignore[no-untyped-def]
    zero_group, zero_pair, scoring_start, scoring_box, scoring_group, scoring_points, scoring_pair,
    nexts, open_any, stop, pair_at,
):  # fmt: skip
    """:func:`_final` and ``pair_at[r, c]``, the pair (box and points) of that best: the top box on a
    tie (the advisor's order; pairs are numbered box by box, so the lower pair is the top box).
    (The solve's :func:`_final` stays apart: it needs no box, and its loop is the solve's hottest
    but one.) The floor's zero in a box where the roll scores is no candidate of that roll's, but
    is always below the points it does score there (a bonus table never falls), so never the best.

    The best of a set on both counts is the same in any order, so the boxes are taken as in
    :func:`_final`. The pairs are compared as doubles, in the same vector registers as the values,
    and written as int16 once for each roll. Measured on 128 and 256 columns of the middle of the
    game: box by box 1.2-1.9 microseconds a column; roll by roll with int16 pairs beside the double
    values 1.6-1.7, no quicker; this way 0.56-0.80."""
    block = stop.shape[1]
    floor = np.full(block, -np.inf)
    lowest = np.zeros(block)
    for b in range(zero_group.shape[0]):
        if open_any[b] and zero_group[b] >= 0:
            after = nexts[b, zero_group[b]]
            pair = float(zero_pair[b])
            for c in range(block):
                better = after[c] > floor[c]
                floor[c] = after[c] if better else floor[c]
                lowest[c] = pair if better else lowest[c]
    found = np.empty(zero_group.shape[0] + _CANDIDATES, dtype=np.intp)
    best = np.empty(block)
    for r in range(stop.shape[0]):
        row, which = stop[r], pair_at[r]
        count = _candidates(scoring_start, scoring_box, open_any, r, found)
        if count == 0:
            for c in range(block):
                row[c] = floor[c]
                which[c] = np.int16(lowest[c])
            continue
        for first in range(0, count, _CANDIDATES):
            i, j, k, m = found[first], found[first + 1], found[first + 2], found[first + 3]
            a, pa, qa = nexts[scoring_box[i], scoring_group[i]], scoring_points[i], float(scoring_pair[i])
            b, pb, qb = nexts[scoring_box[j], scoring_group[j]], scoring_points[j], float(scoring_pair[j])
            d, pd, qd = nexts[scoring_box[k], scoring_group[k]], scoring_points[k], float(scoring_pair[k])
            e, pe, qe = nexts[scoring_box[m], scoring_group[m]], scoring_points[m], float(scoring_pair[m])
            if first == 0:  # as in :func:`_final`
                for c in range(block):
                    v, p = _ranked(floor[c], lowest[c], pa + a[c], qa)
                    v, p = _ranked(v, p, pb + b[c], qb)
                    v, p = _ranked(v, p, pd + d[c], qd)
                    row[c], best[c] = _ranked(v, p, pe + e[c], qe)
            else:
                for c in range(block):
                    v, p = _ranked(row[c], best[c], pa + a[c], qa)
                    v, p = _ranked(v, p, pb + b[c], qb)
                    v, p = _ranked(v, p, pd + d[c], qd)
                    row[c], best[c] = _ranked(v, p, pe + e[c], qe)
        for c in range(block):
            which[c] = np.int16(best[c])


@jit(**_JIT)
def _kept(children, inverse, work):  # type: ignore[no-untyped-def]
    """Rows 0 to keeps-1 of ``work``: each keep's average over its children (the rolls' rows hold the
    values with the roll taken). Larger keeps first, as their children must be ready."""
    block = work.shape[1]
    faces = children.shape[1]
    for k in range(children.shape[0] - 1, -1, -1):
        row = work[k]
        if faces == 6:
            a, b, c_ = work[children[k, 0]], work[children[k, 1]], work[children[k, 2]]
            d, e, f = work[children[k, 3]], work[children[k, 4]], work[children[k, 5]]
            for c in range(block):
                row[c] = (((((a[c] + b[c]) + c_[c]) + d[c]) + e[c]) + f[c]) * inverse
        else:
            first = work[children[k, 0]]
            for c in range(block):
                row[c] = first[c]
            for i in range(1, faces):
                other = work[children[k, i]]
                for c in range(block):
                    row[c] += other[c]
            for c in range(block):
                row[c] *= inverse


@jit(**_JIT)
def _best(parents, parent_count, keeps, stop, work):  # type: ignore[no-untyped-def]
    """Each keep's row becomes the best of it and its sub-multisets; each roll's row the best of
    entering it (``stop``) and keeping any proper sub-multiset. Smaller multisets first."""
    block = work.shape[1]
    for k in range(1, work.shape[0]):
        here = work[k] if k < keeps else stop[k - keeps]
        row = work[k]
        count = parent_count[k]
        a = work[parents[k, 0]]
        if count == 1:
            for c in range(block):
                row[c] = max(here[c], a[c])
        elif count == 2:
            b = work[parents[k, 1]]
            for c in range(block):
                row[c] = max(max(here[c], a[c]), b[c])
        elif count == 3:
            b, d = work[parents[k, 1]], work[parents[k, 2]]
            for c in range(block):
                row[c] = max(max(max(here[c], a[c]), b[c]), d[c])
        elif count == 4:
            b, d, e = work[parents[k, 1]], work[parents[k, 2]], work[parents[k, 3]]
            for c in range(block):
                row[c] = max(max(max(max(here[c], a[c]), b[c]), d[c]), e[c])
        else:
            b, d, e = work[parents[k, 1]], work[parents[k, 2]], work[parents[k, 3]]
            f = work[parents[k, 4]]
            for c in range(block):
                row[c] = max(max(max(max(max(here[c], a[c]), b[c]), d[c]), e[c]), f[c])
            for j in range(5, count):
                other = work[parents[k, j]]
                for c in range(block):
                    row[c] = max(row[c], other[c])


@jit(**_JIT)
def _expectation(probabilities, keeps, work, out, start):  # type: ignore[no-untyped-def]
    """``out[start + c]``: the average of column c over a first roll of all the dice (rolls in order)."""
    block = work.shape[1]
    total = np.zeros(block)
    for r in range(probabilities.shape[0]):
        p = probabilities[r]
        row = work[keeps + r]
        for c in range(block):
            total[c] += p * row[c]
    for c in range(min(block, out.shape[0] - start)):
        out[start + c] = total[c]


@jit(**_JIT)
def _start_values(  # type: ignore[no-untyped-def]
    values, masks, totals, cap, box_arrays, lattice, probabilities, rerolls, out
):
    """``out[c]``: the expected points to come from each column's turn start (the solver's step)."""
    block = width_for(masks.shape[0])
    basic, scores, score_count, zero_group = box_arrays[:4]
    scoring_start, scoring_box, scoring_group, scoring_points = box_arrays[4:]
    children, parents, parent_count = lattice
    keeps = children.shape[0]
    rolls = probabilities.shape[0]
    inverse = 1.0 / children.shape[1]
    nexts = np.empty((basic.shape[0], scores.shape[1], block))
    work = np.empty((keeps + rolls, block))
    stop = work[keeps:].copy()
    for start in range(0, masks.shape[0], block):
        open_any = _nexts(values, masks, totals, start, cap, basic, scores, score_count, nexts)
        _final(zero_group, scoring_start, scoring_box, scoring_group, scoring_points, nexts, open_any, stop)
        _copy(work, keeps, 0, stop, 0, rolls, block)
        for _ in range(rerolls):
            _kept(children, inverse, work)
            _best(parents, parent_count, keeps, stop, work)
        _expectation(probabilities, keeps, work, out, start)


@jit(**_JIT)
def _stop_values(values, masks, totals, cap, box_arrays, out):  # type: ignore[no-untyped-def]
    """``out[r, c]``: each column's best box for roll r with no roll left."""
    block = width_for(masks.shape[0])
    basic, scores, score_count, zero_group = box_arrays[:4]
    scoring_start, scoring_box, scoring_group, scoring_points = box_arrays[4:]
    columns = masks.shape[0]
    nexts = np.empty((basic.shape[0], scores.shape[1], block))
    stop = np.empty((out.shape[0], block))
    for start in range(0, columns, block):
        open_any = _nexts(values, masks, totals, start, cap, basic, scores, score_count, nexts)
        _final(zero_group, scoring_start, scoring_box, scoring_group, scoring_points, nexts, open_any, stop)
        _copy(out, 0, start, stop, 0, out.shape[0], min(block, columns - start))


@jit(**_JIT)
def _best_boxes(values, masks, totals, cap, box_arrays, points, group, out):  # type: ignore[no-untyped-def]
    """``out[r, c]``: the box each column enters roll r in with no roll left: the best, the top one on a
    tie (the advisor's order)."""
    block = width_for(masks.shape[0])
    basic, scores, score_count = box_arrays[0], box_arrays[1], box_arrays[2]
    columns = masks.shape[0]
    rolls = points.shape[1]
    nexts = np.empty((basic.shape[0], scores.shape[1], block))
    best = np.empty((rolls, block))
    which = np.zeros((rolls, block), dtype=np.intp)
    for start in range(0, columns, block):
        open_any = _nexts(values, masks, totals, start, cap, basic, scores, score_count, nexts)
        best[:] = -np.inf
        which[:] = 0
        for b in range(points.shape[0]):
            if not open_any[b]:
                continue
            for r in range(rolls):
                got = points[b, r]
                after = nexts[b, group[b, r]]
                for c in range(block):
                    worth = got + after[c]
                    if worth > best[r, c]:
                        best[r, c] = worth
                        which[r, c] = b
        _copy(out, 0, start, which, 0, rolls, min(block, columns - start))


@jit(**_JIT)
def _turn_from(lattice, stop, keeps_out, choose_out):  # type: ignore[no-untyped-def]
    """Every value of a turn whose value with no roll left is ``stop``: ``keeps_out[j, k, c]`` (keeping
    k with j rolls left), ``choose_out[j, r, c]`` (the best with dice r and j rolls left; j = 0 is
    ``stop``)."""
    block = width_for(stop.shape[1])
    children, parents, parent_count = lattice
    keeps = children.shape[0]
    rolls = stop.shape[0]
    columns = stop.shape[1]
    inverse = 1.0 / children.shape[1]
    given = np.empty((rolls, block))
    work = np.empty((keeps + rolls, block))
    for start in range(0, columns, block):
        width = min(block, columns - start)
        for r in range(rolls):
            for c in range(block):
                given[r, c] = stop[r, min(start + c, columns - 1)]
        _copy(work, keeps, 0, given, 0, rolls, block)
        _copy(choose_out[0], 0, start, given, 0, rolls, width)
        for j in range(1, choose_out.shape[0]):
            _kept(children, inverse, work)
            _copy(keeps_out[j], 0, start, work, 0, keeps, width)
            _best(parents, parent_count, keeps, given, work)
            _copy(choose_out[j], 0, start, work, keeps, rolls, width)


# --- the hard player's turn as chances ---------------------------------------------------------


@jit(**_JIT)
def _best_ranked(  # type: ignore[no-untyped-def]
    parents, parent_count, keeps, rank, stop, work, best, which, keep_of
):
    """With ``work`` holding what each keep is worth (its rows) and the rolls' ``stop``: ``best[k]``,
    the best of keep k and its sub-multisets, and ``which[k]`` the advisor's rank of the keep that
    is (on equal values the one the advisor lists first, the lowest rank); then each roll's row of
    ``work`` becomes the best of entering it and keeping a proper sub-multiset, and ``keep_of[r]``
    the rank of the keep then kept, -1 for a box (a box comes before keeps on equal values).

    Each row in one pass over its parents, in cases by their number as in :func:`_best`: first the
    best value, then the lowest rank among the candidates worth it; a keep writes its best apart
    from its own value and a roll reads its own from ``stop``, so no row is read where it is
    written and the loops run in vector registers. Candidate by candidate (value and rank compared
    together, each row written once for each parent), then a pass over the rolls for the box, the
    endings took 2.86-2.99 microseconds a position, against 2.68-2.77 (16,384 positions of the
    middle of the game, one thread, taking turns in one process)."""
    block = work.shape[1]
    for c in range(block):
        best[0, c] = work[0, c]
        which[0, c] = rank[0]
    for k in range(1, work.shape[0]):
        if k < keeps:
            itself, row, mine, chosen = work[k], best[k], np.int16(rank[k]), which[k]
        else:
            itself, row, mine, chosen = stop[k - keeps], work[k], np.int16(-1), keep_of[k - keeps]
        count = parent_count[k]
        if count == 1:
            a, pa = best[parents[k, 0]], which[parents[k, 0]]
            for c in range(block):
                own = itself[c]
                v = a[c] if a[c] > own else own
                w = mine if own == v else _NO_RANK
                w = pa[c] if (a[c] == v) & (pa[c] < w) else w
                row[c] = v
                chosen[c] = w
        elif count == 2:
            a, pa = best[parents[k, 0]], which[parents[k, 0]]
            b, pb = best[parents[k, 1]], which[parents[k, 1]]
            for c in range(block):
                own = itself[c]
                v = a[c] if a[c] > own else own
                v = b[c] if b[c] > v else v
                w = mine if own == v else _NO_RANK
                w = pa[c] if (a[c] == v) & (pa[c] < w) else w
                w = pb[c] if (b[c] == v) & (pb[c] < w) else w
                row[c] = v
                chosen[c] = w
        elif count == 3:
            a, pa = best[parents[k, 0]], which[parents[k, 0]]
            b, pb = best[parents[k, 1]], which[parents[k, 1]]
            d, pd = best[parents[k, 2]], which[parents[k, 2]]
            for c in range(block):
                own = itself[c]
                v = a[c] if a[c] > own else own
                v = b[c] if b[c] > v else v
                v = d[c] if d[c] > v else v
                w = mine if own == v else _NO_RANK
                w = pa[c] if (a[c] == v) & (pa[c] < w) else w
                w = pb[c] if (b[c] == v) & (pb[c] < w) else w
                w = pd[c] if (d[c] == v) & (pd[c] < w) else w
                row[c] = v
                chosen[c] = w
        else:  # four at once, then one at a time (five different faces: six rolls of Kismet's 252)
            a, pa = best[parents[k, 0]], which[parents[k, 0]]
            b, pb = best[parents[k, 1]], which[parents[k, 1]]
            d, pd = best[parents[k, 2]], which[parents[k, 2]]
            e, pe = best[parents[k, 3]], which[parents[k, 3]]
            for c in range(block):
                own = itself[c]
                v = a[c] if a[c] > own else own
                v = b[c] if b[c] > v else v
                v = d[c] if d[c] > v else v
                v = e[c] if e[c] > v else v
                w = mine if own == v else _NO_RANK
                w = pa[c] if (a[c] == v) & (pa[c] < w) else w
                w = pb[c] if (b[c] == v) & (pb[c] < w) else w
                w = pd[c] if (d[c] == v) & (pd[c] < w) else w
                w = pe[c] if (e[c] == v) & (pe[c] < w) else w
                row[c] = v
                chosen[c] = w
            for j in range(4, count):
                other, picked = best[parents[k, j]], which[parents[k, j]]
                for c in range(block):
                    better = (other[c] > row[c]) | ((other[c] == row[c]) & (picked[c] < chosen[c]))
                    row[c] = other[c] if better else row[c]
                    chosen[c] = picked[c] if better else chosen[c]


@jit(**_JIT)
def _endings(  # type: ignore[no-untyped-def]
    values, masks, totals, cap, box_arrays, lattice, probabilities, rerolls, rank, scoring_pair,
    zero_pair, start_chances, left, out,
):  # fmt: skip
    """``out[c, p]``: the chance that column c's turn, played by the hard player, ends with the pair p
    (a box and what is entered there, numbered as :attr:`TurnTables.pair_of`): from a roll of all the dice,
    or where ``start_chances`` has columns, from the dice of roll r with chance ``start_chances[r, c]``
    and ``left`` rolls left (what keeping some dice leads to).

    The hard player's choices: a keep only when it is worth strictly more than the best box (boxes
    come first in the advisor's order), the keep the advisor lists first among the best, and the top
    box among the best."""
    block = min(width_for(masks.shape[0]), ENDINGS_BLOCK)
    basic, scores, score_count, zero_group = box_arrays[:4]
    scoring_start, scoring_box, scoring_group, scoring_points = box_arrays[4:]
    children, parents, parent_count = lattice
    keeps = children.shape[0]
    rolls = probabilities.shape[0]
    boxes = basic.shape[0]
    columns = masks.shape[0]
    inverse = 1.0 / children.shape[1]
    nexts = np.empty((boxes, scores.shape[1], block))
    stop = np.empty((rolls, block))
    work = np.empty((keeps + rolls, block))
    # What the turn keeps for each column, as little as will do, so that a block's stays in the
    # processor's caches: the ranks and boxes chosen in 16 bits, and the chances through the turn
    # where its values were (they are not needed once the choices are made). A keep is kept as
    # the rank ``which`` gives, turned into the keep where the chances are scattered, one column at
    # a time anyway: looked up where the choices are made, it kept that loop from running in vector
    # registers. Measured on 16,384 positions of the middle of the game, one thread, taking turns
    # in one process: 3.26-3.31 microseconds a position against 3.62-3.67.
    keep_of = np.empty((rerolls + 1, rolls, block), dtype=np.int16)
    by_rank = np.empty(keeps, dtype=np.int16)
    for k in range(keeps):  # a loop, not ``by_rank[rank] = ...``: see :func:`_copy`
        by_rank[rank[k]] = k
    which = np.empty((keeps, block), dtype=np.int16)
    best = np.empty((keeps, block))
    pair_at = np.empty((rolls, block), dtype=np.int16)
    chance = work
    ended = stop
    for start in range(0, columns, block):
        width = min(block, columns - start)
        open_any = _nexts(values, masks, totals, start, cap, basic, scores, score_count, nexts)
        _final_pairs(
            zero_group, zero_pair, scoring_start, scoring_box, scoring_group, scoring_points,
            scoring_pair, nexts, open_any, stop, pair_at,
        )  # fmt: skip
        # The values and keeps of every roll with rolls left.
        _copy(work, keeps, 0, stop, 0, rolls, block)
        for j in range(1, rerolls + 1):
            _kept(children, inverse, work)
            _best_ranked(parents, parent_count, keeps, rank, stop, work, best, which, keep_of[j])
        # Forwards through the turn: the chance of each roll on the table, roll by roll.
        ended[:] = 0.0
        given = start_chances.shape[1] > 0
        for r in range(rolls):
            for c in range(block):
                column = min(start + c, columns - 1)
                chance[keeps + r, c] = start_chances[r, column] if given else probabilities[r]
        for j in range(left if given else rerolls, 0, -1):
            chance[:keeps] = 0.0
            for r in range(rolls):
                for c in range(block):
                    keep = keep_of[j, r, c]
                    if keep < 0:
                        ended[r, c] += chance[keeps + r, c]
                    else:
                        chance[by_rank[keep], c] += chance[keeps + r, c]
                    chance[keeps + r, c] = 0.0
            # Each kept multiset rolls the rest one die at a time: a multiset of one die more gets a
            # sixth of the chance of each it is one face more than (smaller multisets first).
            for k in range(1, keeps + rolls):
                row = chance[k]
                count = parent_count[k]
                for j in range(count):
                    parent = chance[parents[k, j]]
                    for c in range(block):
                        row[c] += parent[c] * inverse
        for r in range(rolls):
            for c in range(block):
                ended[r, c] += chance[keeps + r, c]
        # Summed by pair eight columns at a time, each column's sums in a row of its own: the rolls'
        # rows of eight columns are one cache line each, and the eight rows of sums stay in the
        # first cache (a column's sums spread over all the pairs' rows cost a miss for each roll).
        # A whole eight is written out, a line for each column: looped over the eight, the sums took
        # 0.63 microseconds a column, 0.30-0.33 this way (128 columns of the middle of the game; the
        # endings at their quickest 4.03-4.41 microseconds a position against 3.90-4.04, 16,384
        # positions, one thread, taking turns in one process).
        out[start : start + width] = 0.0
        for first in range(0, width, 8):
            if first + 8 > width:
                for r in range(rolls):
                    for c in range(first, width):
                        out[start + c, pair_at[r, c]] += ended[r, c]
                continue
            sums = out[start + first : start + first + 8]
            for r in range(rolls):
                p, e = pair_at[r, first : first + 8], ended[r, first : first + 8]
                sums[0, p[0]] += e[0]
                sums[1, p[1]] += e[1]
                sums[2, p[2]] += e[2]
                sums[3, p[3]] += e[3]
                sums[4, p[4]] += e[4]
                sums[5, p[5]] += e[5]
                sums[6, p[6]] += e[6]
                sums[7, p[7]] += e[7]


# --- the steps for a rule set ------------------------------------------------------------------


def frozen(array: npt.NDArray[Any], dtype: type[np.generic] | None = None) -> npt.NDArray[Any]:
    """``array`` C-ordered (as ``dtype``) and read-only, a view where it already is.

    Numba compiles a loop once for each kind of array it is given, read-only ones apart (about a
    second a loop, on a machine's first run): so the loops meet one kind whether an array was just
    worked out or memory-mapped from a store. The turn's steps get the table's values this way,
    even while the solver fills them in, and writable columns (:func:`_columns`): the endings were
    compiled twice, for read-only columns too, 2 s of a first run's 20 s of compiling."""
    if not array.flags.c_contiguous or (dtype is not None and array.dtype != dtype):
        array = np.ascontiguousarray(array, dtype=dtype)
    view = array.view()  # a memory-mapped array stays one
    view.flags.writeable = False
    return view


def _columns(masks: IntArray, totals: IntArray) -> tuple[IntArray, IntArray]:
    return np.require(masks, np.intp, ("C", "W")), np.require(totals, np.intp, ("C", "W"))


def start_values(tables: TurnTables, values: FloatArray, masks: IntArray, totals: IntArray) -> FloatArray:
    """The expected points to come (bonus included) from each (mask, total) column's turn start,
    from the values ``values[mask, total]`` of the positions after it."""
    masks, totals = _columns(masks, totals)
    values = frozen(values)
    out = np.empty(len(masks))
    _start_values(
        values, masks, totals, tables.rules.cap, tables.box_arrays, tables.lattice, tables.probabilities,
        tables.rules.rolls_per_turn - 1, out,
    )  # fmt: skip
    return out


def stop_values(tables: TurnTables, values: FloatArray, masks: IntArray, totals: IntArray) -> FloatArray:
    """``out[r, c]``: with dice r and no roll left, the best of entering them in an open box."""
    masks, totals = _columns(masks, totals)
    values = frozen(values)
    out = np.empty((tables.rolls, len(masks)))
    _stop_values(values, masks, totals, tables.rules.cap, tables.box_arrays, out)
    return out


def best_boxes(tables: TurnTables, values: FloatArray, masks: IntArray, totals: IntArray) -> IntArray:
    """``out[r, c]``: the box the hard player enters roll r in from column c (the top one on a tie)."""
    masks, totals = _columns(masks, totals)
    values = frozen(values)
    out = np.empty((tables.rolls, len(masks)), dtype=np.intp)
    _best_boxes(values, masks, totals, tables.rules.cap, tables.box_arrays, tables.points, tables.group, out)
    return out


def endings(
    tables: TurnTables,
    values: FloatArray,
    masks: IntArray,
    totals: IntArray,
    start: FloatArray | None = None,
    rolls_left: int = 0,
    *,
    into: FloatArray | None = None,
) -> FloatArray:
    """``out[p, c]``: the chance that the hard player's turn from column c ends with the pair p (a box
    and the points entered there: :attr:`TurnTables.pair_box`, :attr:`TurnTables.pair_points`).

    By default the turn starts with a roll of all the dice; ``start[r, c]`` is instead the chance of
    each roll on the table with ``rolls_left`` rolls left (a keep's continuation). ``into``, if
    given, is where the chances are written, column by column (``into[c, p]``: C-ordered, one row
    per column), and what is returned is its transpose."""
    compiled.await_ahead(compiled.FORWARD)  # compiled by another process, the first time on a machine
    masks, totals = _columns(masks, totals)
    values = frozen(values)
    if start is None:
        start = np.zeros((tables.rolls, 0))
    elif start.shape != (tables.rolls, len(masks)) or rolls_left not in range(tables.rules.rolls_per_turn):
        raise ValueError("a turn starts from a chance of every roll in each column, with rolls left")
    shape = (len(masks), len(tables.pair_box))
    if into is not None and (into.shape != shape or into.dtype != np.float64 or not into.flags.c_contiguous):
        raise ValueError("the chances are written into one C-ordered row of float64 per column")
    out = np.empty(shape) if into is None else into
    _endings(
        values, masks, totals, tables.rules.cap, tables.box_arrays, tables.lattice, tables.probabilities,
        tables.rules.rolls_per_turn - 1, tables.rank, tables.scoring_pair, tables.zero_pair,
        np.ascontiguousarray(start, dtype=np.float64), rolls_left, out,
    )  # fmt: skip
    return out.T  # column by column in memory: the passes read a column's pairs together


@dataclass(frozen=True)
class Turn:
    """Every value of a turn for a batch of positions.

    ``stop[r]``: with dice r and no roll left. ``keeps[j][k]``: keeping the multiset of flat index
    k (sizes 0 to dice-1) and rolling the rest with j rolls left before the roll (``keeps[0]`` is
    unused). ``choose[j][r]``: the best with dice r and j rolls left (``choose[0]`` is ``stop``).
    """

    stop: FloatArray
    keeps: FloatArray
    choose: FloatArray


def turn(tables: TurnTables, values: FloatArray, masks: IntArray, totals: IntArray) -> Turn:
    """All values of a turn from each (mask, total) column, each in arrays of its own."""
    return turn_from(tables, stop_values(tables, values, masks, totals))


def turn_from(tables: TurnTables, stop: FloatArray) -> Turn:
    """All values of a turn whose value with no roll left is ``stop`` (one row per roll).

    Whatever ``stop`` measures, a keep is worth its average over the rolls it leads to and a roll
    the best of stopping and keeping: so the same lattice gives chances as well as expected totals.
    """
    stop = np.ascontiguousarray(stop, dtype=np.float64)
    steps = tables.rules.rolls_per_turn
    keeps = np.zeros((steps, tables.keeps, stop.shape[1]))
    choose = np.empty((steps, tables.rolls, stop.shape[1]))
    _turn_from(tables.lattice, stop, keeps, choose)
    return Turn(choose[0], keeps, choose)
