"""Each player's chance of winning, from the exact distribution of every player's final total.

The model: every player plays on as the hard player does (the best expected total), each sheet
on its own. What one player's play does to another's sheet is left out: a second Kismet that
costs the others an entry, and play that changes with the standings (a player behind taking
more risk) are not in it. Ties share the win: two players level on top each count half.

A player's final total is read from the futures of every position (:class:`Futures`: the chance
of at least so many points still to come, within their stated error bound): at a turn's start,
from the player's own position; during a turn (dice on the table, rolls left), over the ways the
hard player's turn can end from those dice (:func:`kernel.endings`).

>>> win_chances([np.array([1.0, 1.0, 0.5]), np.array([1.0, 1.0, 0.5])])
(0.5, 0.5)
>>> [round(chance, 3) for chance in win_chances([np.array([1.0, 1.0, 1.0]), np.array([1.0, 0.5])])]
[1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kismet_dice.game import Game
from kismet_dice.rules import Sheet, check_dice, score
from kismet_dice.strategy import kernel
from kismet_dice.strategy.advisor import Option, position_key, raw_points
from kismet_dice.strategy.dice_space import FloatArray
from kismet_dice.strategy.distribution import Futures, TurnShape
from kismet_dice.strategy.table import StrategyTable

MODEL = (
    "Chances of winning with every player playing on perfectly for the expected total, each sheet "
    "on its own (a second Kismet's cost to the others is left out); ties shared."
)
"""What the win chances assume, in one sentence: every interface that shows them says it."""


@dataclass(frozen=True)
class Place:
    """Where one player stands: the sheet, and for the player whose turn it is after a roll the
    dice on the table and the rolls left (``dice`` is ``None`` at a turn's start)."""

    sheet: Sheet
    dice: tuple[int, ...] | None = None
    rolls_left: int = 0


def most_total(table: StrategyTable, sheet: Sheet) -> int:
    """The highest final total the sheet can still reach."""
    rules = table.rules
    mask, _ = position_key(sheet, rules.cap)
    room = sum(max(rule.points) for box, rule in enumerate(rules.boxes) if not mask >> box & 1)
    return raw_points(sheet) + room + max(rules.bonus)


def final_totals(futures: Futures, table: StrategyTable, place: Place) -> FloatArray:
    """``out[x]``: the chance of a final total of at least ``x``, for ``x`` from 0 to the most the
    sheet can reach (above it, none)."""
    sheet = place.sheet
    rules = table.rules
    totals = np.arange(most_total(table, sheet) + 1)
    if sheet.is_full:
        return (totals <= sheet.total).astype(np.float64)
    mask, total = position_key(sheet, rules.cap)
    points = raw_points(sheet)
    width = len(totals) - points  # the most points still to come, and one
    if place.dice is None:
        row = futures.survival_rows(np.array([mask]), np.array([total]), width)[0]
        return _shifted(row, points, len(totals))
    roll = rules.space.roll_index[tuple(sorted(check_dice(place.dice)))]
    start = np.zeros((len(rules.space.rolls), 1))
    start[roll, 0] = 1.0
    return _during_turn(futures, table, sheet, start, place.rolls_left)


def _during_turn(
    futures: Futures, table: StrategyTable, sheet: Sheet, start: FloatArray, rolls_left: int
) -> FloatArray:
    """:func:`final_totals` from ``start[r, 0]``, the chance of each roll on the table, with
    ``rolls_left``: how the hard player's turn ends from there (each ending a box and the points
    entered there), then the futures of the position each ending leads to."""
    rules = table.rules
    totals = np.arange(most_total(table, sheet) + 1)
    mask, total = position_key(sheet, rules.cap)
    points = raw_points(sheet)
    width = len(totals) - points
    tables = kernel.tables_of(rules)
    masks = np.array([mask], dtype=np.intp)
    ends = kernel.endings(tables, table.values, masks, np.array([total], dtype=np.intp), start, rolls_left)
    out = np.zeros(len(totals))
    by_layer: dict[int, list[int]] = {}
    for pair in np.flatnonzero(ends[:, 0] > 0):
        box = int(tables.pair_box[pair])
        by_layer.setdefault((mask | 1 << box).bit_count(), []).append(int(pair))
    for pairs in by_layer.values():
        chosen = np.array(pairs, dtype=np.intp)
        boxes = tables.pair_box[chosen]
        got = tables.pair_points[chosen]
        after = np.where(tables.basic[boxes], np.minimum(total + got, rules.cap), total)
        rows = futures.survival_rows(mask | 1 << boxes, after, width)
        for chance, row, entered in zip(ends[chosen, 0], rows, got, strict=True):
            out += chance * _shifted(row, points + int(entered), len(totals))
    return np.clip(out, 0.0, 1.0)


def option_final_totals(
    futures: Futures, table: StrategyTable, sheet: Sheet, dice: Sequence[int], rolls_left: int, option: Option
) -> FloatArray:
    """:func:`final_totals` once ``option`` of the advice is taken with ``dice`` on the table: a box
    from the next turn's start, a keep over the rolls it can lead to (the hard player on from there)."""
    if option.box is not None:
        return final_totals(futures, table, Place(sheet.with_entry(option.box, score(option.box, dice))))
    if rolls_left < 1:
        raise ValueError("no roll left: only a box can be chosen")
    rules = table.rules
    flat = rules.space.flat_keep(option.keep or ())
    start = np.ascontiguousarray(TurnShape.of(rules).reroll[flat][:, None])
    return _during_turn(futures, table, sheet, start, rolls_left - 1)


def option_win_chances(
    futures: Futures, table: StrategyTable, game: Game, options: Sequence[Option]
) -> tuple[float, ...]:
    """The chance of winning of the player whose turn it is after each of ``options`` (the
    advice's, for the dice on the table), the others from where they stand."""
    seat = game.current_player
    if seat is None or not game.dice:
        raise ValueError("advice is for the dice of the player whose turn it is")
    others = [
        final_totals(futures, table, place) for number, place in enumerate(places(game)) if number != seat
    ]
    found = []
    for option in options:
        mine = option_final_totals(futures, table, game.sheet(seat), game.dice, game.rolls_left, option)
        found.append(win_chances([mine, *others])[0])
    return tuple(found)


def _shifted(row: FloatArray, points: int, length: int) -> FloatArray:
    """``out[x] = row[x - points]`` (1 where ``x`` is at most ``points``), ``length`` long."""
    out = np.ones(length)
    kept = row[: max(length - points, 0)]
    out[points : points + len(kept)] = kept
    out[points + len(kept) :] = 0.0
    return np.clip(out, 0.0, 1.0)


def win_utility(others: Sequence[FloatArray], length: int) -> FloatArray:
    """``u[x]``: the chance of winning with a final total of ``x`` (below ``length``) against players
    whose final totals are at least y with the chances ``others[j][y]`` (ties shared).

    >>> [round(float(u), 3) for u in win_utility([np.array([1.0, 0.5])], 3)]
    [0.25, 0.75, 1.0]
    """
    survival = np.zeros((len(others), length + 1))
    for player, row in enumerate(others):
        kept = row[: length + 1]
        survival[player, : len(kept)] = kept
    exact = survival[:, :-1] - survival[:, 1:]
    below = 1.0 - survival[:, :-1]
    ways = np.zeros((length, len(others) + 1))
    ways[:, 0] = 1.0
    for other in range(len(others)):
        ways = ways * below[other][:, None] + np.concatenate(
            [np.zeros((length, 1)), ways[:, :-1] * exact[other][:, None]], axis=1
        )
    shares: FloatArray = ways @ (1.0 / np.arange(1, len(others) + 2))
    return shares


def win_chances(at_least: Sequence[FloatArray]) -> tuple[float, ...]:
    """Each player's chance of winning from ``at_least[i][x]``, the chance of player i's final total
    being at least x (ties shared: k players level on top each win 1/k of it)."""
    longest = max(len(row) for row in at_least) + 1
    survival = np.zeros((len(at_least), longest))
    for player, row in enumerate(at_least):
        survival[player, : len(row)] = row
    exact = survival[:, :-1] - survival[:, 1:]  # P(total = x)
    below = 1.0 - survival[:, :-1]  # P(total < x)
    chances = []
    for player in range(len(at_least)):
        # For each total x, the others' chance of being below it or level with it, as a polynomial in
        # the number level (coefficient k: k others level, every other one below).
        ways = np.zeros((longest - 1, len(at_least)))
        ways[:, 0] = 1.0
        for other in range(len(at_least)):
            if other == player:
                continue
            level = exact[other][:, None]
            ways = ways * below[other][:, None] + np.concatenate(
                [np.zeros((longest - 1, 1)), ways[:, :-1] * level], axis=1
            )
        shares = 1.0 / np.arange(1, len(at_least) + 1)
        chances.append(float(exact[player] @ (ways @ shares)))
    total = sum(chances)
    # The futures' rounding (within their bound) may leave the sum a hair off 1.
    return tuple(chance / total for chance in chances) if total > 0 else tuple(chances)


def places(game: Game) -> tuple[Place, ...]:
    """Where each player of ``game`` stands: the player whose turn it is with the dice rolled (if any)."""
    found = []
    for seat in range(len(game.names)):
        sheet = game.sheet(seat)
        if seat == game.current_player and game.dice:
            found.append(Place(sheet, tuple(game.dice), game.rolls_left))
        else:
            found.append(Place(sheet))
    return tuple(found)


def game_win_chances(futures: Futures, table: StrategyTable, game: Game) -> tuple[float, ...]:
    """Each player's chance of winning ``game`` from where it stands."""
    return win_chances([final_totals(futures, table, place) for place in places(game)])
