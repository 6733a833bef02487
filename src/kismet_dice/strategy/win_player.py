"""The ``win`` computer player: the best chance of winning against the table as it stands.

Winning with a final total of x has a chance u(x) against the others' final totals (each from
where their sheet stands, played on perfectly: :func:`~kismet_dice.strategy.win.win_utility`).
So the chance of winning is the expected value of u over the player's own final total, and the
player maximises it one turn ahead, as the target player maximises the chance of one total: each
way of ending this turn (a box and the dice entered there) is worth the expected u from the next
turn's start on (the hard player's futures), and the keeps of the turn are chosen for the best of
those (:class:`~kismet_dice.strategy.target.TargetTurns`). Between options worth the same, the
better expected total decides. Alone at a table it plays for the expected total, as hard does.

A turn that ends with a second Kismet (five of a kind, the Kismet box already holding a Kismet)
gives every other player a zero in their top open box (RULES.md): those endings are valued
against the others' totals after that zero (:attr:`WinTurns.second`).
"""

from __future__ import annotations

import numpy as np

from kismet_dice.game import Action, Game
from kismet_dice.rules import Sheet, is_kismet
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.players import Level
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.target import TargetTurns, play
from kismet_dice.strategy.win import Place, final_totals, most_total, win_utility

WORTHLESS = 1e-12
"""Steps of u smaller than this change no decision: the totals beyond them are not looked at."""


class WinTurns(TargetTurns):
    """The target player's turns with the expected chance of winning (``utility[x]``: winning with a
    final total of x) in place of the chance of one total."""

    def __init__(self, futures: Futures, table: StrategyTable) -> None:
        super().__init__(futures, table, 0)
        self.utility: FloatArray = np.zeros(1)
        self.second: FloatArray | None = None
        """The chance of winning with each final total once this turn ends with a second Kismet (the
        others' totals after its zeros), or ``None`` where this turn cannot end with one."""
        rolls = self.rules.space.rolls
        self._kismet_rolls = np.array([r for r, roll in enumerate(rolls) if is_kismet(roll)], dtype=np.intp)

    def goal(self) -> bytes:
        second = b"" if self.second is None else self.second.tobytes()
        return self.utility.tobytes() + b"/" + second

    def endings(self, masks: IntArray, totals: IntArray, points: IntArray) -> FloatArray:
        """``out[b, r, c]``: the expected chance of winning after entering roll r in box b from column
        c (``-inf`` where b is filled).

        With ``S(z)`` the next position's chance of at least z more points and ``s(y) = u(y) - u(y - 1)``,
        entering p points on a sheet holding h is worth ``u(h + p) + sum over z >= 1 of s(h + p + z) S(z)``
        (the steps up to h + p are certain). That depends on the roll only through the next position
        and p, so it is worked out once for each of those (a box's rolls share a few), and the
        futures are asked once for every next position of the turn at a time."""
        rules = self.rules
        shape = self.shape
        first_steps, first_below, first_worth = _steps(self.utility)
        second = None if self.second is None else _steps(self.second)
        worth = first_worth if second is None else np.concatenate([first_worth, second[2]])
        boxes = len(rules.boxes)
        result = np.full((boxes, len(rules.space.rolls), len(masks)), -np.inf)
        for column in range(len(masks)):
            mask, total, held = int(masks[column]), int(totals[column]), int(points[column])
            width = max(int(worth.max()) - held + 1, 2) if len(worth) else 2
            # Every (box, next total, points entered) the column's turn can end with, and its rolls.
            ends: list[tuple[int, IntArray, IntArray, IntArray]] = []
            for box in range(boxes):
                if mask >> box & 1:
                    continue
                got = shape.points[box]  # (rolls,)
                after = np.minimum(total + got, rules.cap) if shape.basic[box] else np.full_like(got, total)
                spread = int(got.max()) + 1
                pairs, which = np.unique(after * spread + got, return_inverse=True)
                ends.append((box, pairs // spread, pairs % spread, which.reshape(-1)))
            if not ends:
                continue
            boxes_of = np.concatenate([np.full(len(reached), box) for box, reached, _, _ in ends])
            reached = np.concatenate([reached for _, reached, _, _ in ends])
            entered = np.concatenate([got for _, _, got, _ in ends])
            rows = self.futures.survival_rows(mask | (1 << boxes_of), reached, width)
            worths = _worths(first_steps, first_below, rows, held + entered)
            first = 0
            for box, pairs_reached, _, which in ends:
                result[box, :, column] = worths[first + which]
                if second is not None:  # its five of a kinds end the turn with a second Kismet
                    kismets = first + which[self._kismet_rolls]
                    result[box, self._kismet_rolls, column] = _worths(
                        second[0], second[1], rows[kismets], held + entered[kismets]
                    )
                first += len(pairs_reached)
        return result


def _steps(utility: FloatArray) -> tuple[FloatArray, FloatArray, IntArray]:
    """The steps of a utility that change a decision (``steps[y - 1] = u(y) - u(y - 1)``, the
    smallest left out), ``u(y)`` made of those steps alone, and the totals where they lie."""
    steps = np.diff(utility)
    steps[steps <= WORTHLESS] = 0.0  # the totals whose step changes no decision
    below = np.concatenate([[utility[0]], utility[0] + np.cumsum(steps)])
    return steps, below, np.flatnonzero(steps) + 1


def _worths(steps: FloatArray, below: FloatArray, rows: FloatArray, sums: IntArray) -> FloatArray:
    """``u(y) + sum over z >= 1 of s(y + z) S(z)`` for each sheet total ``y = sums[i]`` and the
    next position's survival ``rows[i]`` (``S(z)``, as wide as the steps that matter need)."""
    width = rows.shape[1]
    # s(y + z) for z from 1 to width - 1: past the utility's end, no step.
    padded = np.zeros(int(sums.max()) + width + 1)
    padded[: len(steps)] = steps[: len(padded)]
    windows = np.lib.stride_tricks.sliding_window_view(padded, width - 1)[sums]
    worth: FloatArray = below[np.minimum(sums, len(below) - 1)] + np.einsum("ij,ij->i", rows[:, 1:], windows)
    return worth


class WinPlayer:
    """A computer player that plays for the best chance of winning the game at its table."""

    level = Level.WIN

    def __init__(self, futures: Futures, table: StrategyTable) -> None:
        self.turns = WinTurns(futures, table)
        self._table = table
        space = table.rules.space
        self._keeps = [keep for level in space.levels[: table.rules.dice] for keep in level]
        # The others' final totals, by their sheets (as they stand, and after a second Kismet's
        # zeros, once needed): the same through the whole of this player's turn.
        self._others: tuple[object, list[FloatArray], list[FloatArray] | None] | None = None

    def _utility(self, game: Game, seat: int) -> tuple[FloatArray, FloatArray | None]:
        """The chance of winning with each final total of ``seat``'s, and the same once its turn
        ends with a second Kismet (``None`` where it cannot)."""
        others = [game.sheet(other) for other in range(len(game.names)) if other != seat]
        sheets = tuple(sheet.entries for sheet in others)
        if self._others is None or self._others[0] != sheets:
            self._others = (sheets, self._final_totals(others), None)
        _, now, penalised = self._others
        length = most_total(self._table, game.sheet(seat)) + 1
        if not now:
            return np.arange(length, dtype=np.float64), None  # alone: the expected total, as hard plays
        if not game.has_kismet(seat):
            return win_utility(now, length), None  # no second Kismet this turn
        if penalised is None:
            penalised = self._final_totals([_after_second_kismet(sheet) for sheet in others])
            self._others = (sheets, now, penalised)
        return win_utility(now, length), win_utility(penalised, length)

    def _final_totals(self, sheets: list[Sheet]) -> list[FloatArray]:
        return [final_totals(self.turns.futures, self._table, Place(sheet)) for sheet in sheets]

    def choose(self, game: Game) -> Action:
        seat = game.current_player
        if seat is not None and game.dice:
            self.turns.utility, self.turns.second = self._utility(game, seat)
        return play(self.turns, game, self._keeps)


def _after_second_kismet(sheet: Sheet) -> Sheet:
    """``sheet`` once another player's second Kismet has zeroed its top open box."""
    open_boxes = sheet.open_boxes
    return sheet.with_entry(open_boxes[0], 0) if open_boxes else sheet
