"""The ``win`` computer player: the best chance of winning against the table as it stands.

Winning with a final total of x has a chance u(x) against the others' final totals (each from
where their sheet stands, played on perfectly: :func:`~kismet_dice.strategy.win.win_utility`).
So the chance of winning is the expected value of u over the player's own final total, and the
player maximises it one turn ahead, as the target player maximises the chance of one total: each
way of ending this turn (a box and the dice entered there) is worth the expected u from the next
turn's start on (the hard player's futures), and the keeps of the turn are chosen for the best of
those (:class:`~kismet_dice.strategy.target.TargetTurns`). Between options worth the same, the
better expected total decides. Alone at a table it plays for the expected total, as hard does.
"""

from __future__ import annotations

import numpy as np

from kismet_dice.game import Action, Game
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

    def endings(self, masks: IntArray, totals: IntArray, points: IntArray) -> FloatArray:
        """``out[b, r, c]``: the expected chance of winning after entering roll r in box b from column
        c (``-inf`` where b is filled): ``u(0) + sum over y of (u(y) - u(y - 1)) P(final >= y)``."""
        rules = self.rules
        shape = self.shape
        utility = self.utility
        steps = np.diff(utility)  # steps[y - 1] = u(y) - u(y - 1)
        worth = np.flatnonzero(steps > WORTHLESS) + 1  # the totals y whose step counts
        result = np.full((len(rules.boxes), len(rules.space.rolls), len(masks)), -np.inf)
        for column in range(len(masks)):
            mask, total, held = int(masks[column]), int(totals[column]), int(points[column])
            width = max(int(worth.max()) - held + 1, 1) if len(worth) else 1
            for box in range(len(rules.boxes)):
                bit = 1 << box
                if mask & bit:
                    continue
                got = shape.points[box]  # (rolls,)
                after = np.minimum(total + got, rules.cap) if shape.basic[box] else np.full_like(got, total)
                reached, which = np.unique(after, return_inverse=True)
                rows = self.futures.survival_rows(np.full(len(reached), mask | bit), reached, width)
                # P(final >= y) for each roll and each y that counts: the next row at y - points - got.
                needed = worth[None, :] - held - got[:, None]
                inside = np.clip(needed, 0, width - 1)
                chance = np.where(
                    needed <= 0, 1.0, np.where(needed >= width, 0.0, rows[which[:, None], inside])
                )
                result[box, :, column] = utility[0] + chance @ steps[worth - 1]
        return result


class WinPlayer:
    """A computer player that plays for the best chance of winning the game at its table."""

    level = Level.WIN

    def __init__(self, futures: Futures, table: StrategyTable) -> None:
        self.turns = WinTurns(futures, table)
        self._table = table
        space = table.rules.space
        self._keeps = [keep for level in space.levels[: table.rules.dice] for keep in level]
        # The others' final totals, by their sheets: the same through the whole of this player's turn.
        self._others: tuple[object, list[FloatArray]] | None = None

    def _utility(self, game: Game, seat: int) -> FloatArray:
        sheets = tuple(game.sheet(other).entries for other in range(len(game.names)) if other != seat)
        if self._others is None or self._others[0] != sheets:
            others = [
                final_totals(self.turns.futures, self._table, Place(game.sheet(other)))
                for other in range(len(game.names))
                if other != seat
            ]
            self._others = (sheets, others)
        length = most_total(self._table, game.sheet(seat)) + 1
        if not self._others[1]:
            return np.arange(length, dtype=np.float64)  # alone: the expected total, as hard plays
        return win_utility(self._others[1], length)

    def choose(self, game: Game) -> Action:
        seat = game.current_player
        if seat is not None and game.dice:
            self.turns.utility = self._utility(game, seat)
        return play(self.turns, game, self._keeps)
