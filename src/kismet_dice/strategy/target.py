"""Play for a total: the ``target`` player, which maximises the chance of reaching a total T.

The hard player maximises the expected final total; someone who wants the Hall of Fame wants a
total of at least T, and takes risks the hard player would not. This player looks one turn
ahead over exact distributions: every way its turn can end (a box and the points entered) leads
to a turn-start position from which the hard player's points still to come have an exact
distribution (:func:`kismet_dice.strategy.distribution.future_pass`, every layer kept), so each
ending has an exact chance of reaching T. Within the turn it plays for that chance: with no
roll left the box of the best chance; with rolls left the best of a box now and each keep, a
keep worth the average, over the rolls it leads to, of the best choice after them (the
solver's keep/roll lattice, :func:`kismet_dice.strategy.kernel.turn_from`, run on chances).
From the next turn on the same reasoning applies again, so the player is at least as good as
the hard one at reaching T from any turn start (it could always choose the hard player's turn).

Options with the same chance (a target out of reach or certain makes every option so) are
told apart by the expected total, then by the advisor's order (boxes before keeps, the top box
first, keeps in the advisor's order): where T cannot matter the player is the hard player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from kismet_dice.game import Action, Game, Roll, Score
from kismet_dice.rules import Box
from kismet_dice.strategy import kernel
from kismet_dice.strategy.advisor import position_key, raw_points
from kismet_dice.strategy.dice_space import FloatArray, IntArray, Multiset
from kismet_dice.strategy.distribution import Futures, TurnShape
from kismet_dice.strategy.players import Goal, Level, hold_for
from kismet_dice.strategy.table import StrategyTable

TARGET: Final = Level.TARGET
"""The target player's level (a seat's, and ``kismet simulate --player target``)."""

TIE = 1e-12
"""Chances closer than this are equal: the expected total decides between them."""


@dataclass(frozen=True)
class Choices:
    """One decision per column: ``reroll[c]`` says whether column c keeps ``keep[c]`` (a flat keep
    index) and rolls again, else it enters its dice in ``box[c]``. ``chance[c]`` is the chance of
    the best option."""

    box: IntArray
    keep: IntArray
    reroll: npt.NDArray[np.bool_]
    chance: FloatArray


class TargetTurns:
    """The target player's turns for many positions at once (one column each, all with the same
    number of boxes filled), from the futures of every layer the positions can reach."""

    def __init__(self, futures: Futures, table: StrategyTable, target: int) -> None:
        if not futures.survival:
            raise ValueError("the target player needs every layer of the futures (future_pass keep=None)")
        self.futures = futures
        self.table = table
        self.rules = table.rules
        self.target = target
        self.shape = TurnShape.of(self.rules)
        self.tables = kernel.tables_of(self.rules)
        self._last: tuple[tuple[bytes, ...], TurnPlan] | None = None

    def endings(self, masks: IntArray, totals: IntArray, points: IntArray) -> FloatArray:
        """``out[b, r, c]``: the chance of the target after entering roll r in box b from column c
        (``-inf`` where b is filled); ``points[c]`` is what column c's sheet holds (no bonus)."""
        rules = self.rules
        shape = self.shape
        columns = len(masks)
        result = np.full((len(rules.boxes), len(rules.space.rolls), columns), -np.inf)
        for box in range(len(rules.boxes)):
            bit = 1 << box
            open_ = np.flatnonzero((masks & bit) == 0)
            if not len(open_):
                continue
            got = shape.points[box][:, None]  # (rolls, 1)
            totals_here = totals[open_][None, :]
            after = np.minimum(totals_here + got, rules.cap) if shape.basic[box] else totals_here + 0 * got
            needed = self.target - points[open_][None, :] - got
            masks_after = np.broadcast_to((masks[open_] | bit)[None, :], after.shape)
            result[box][:, open_] = self.futures.at_least(masks_after, after, needed)
        return result

    def hard_values(self, masks: IntArray, totals: IntArray) -> tuple[kernel.Turn, FloatArray]:
        """The hard player's turn values and ``box_values[b, r, c]`` (points plus the value after)."""
        rules = self.rules
        turn = kernel.turn(self.tables, self.table.values, masks, totals)
        bits = 1 << np.arange(len(rules.boxes))
        got = self.shape.points[:, :, None]  # (boxes, rolls, 1)
        after = np.where(
            self.shape.basic[:, None, None],
            np.minimum(totals[None, None, :] + got, rules.cap),
            totals[None, None, :],
        )
        values = got + self.table.values[(masks[None, :] | bits[:, None])[:, None, :], after]
        open_ = ((masks[None, :] & bits[:, None]) == 0)[:, None, :]
        box_values: FloatArray = np.where(open_, values, -np.inf)
        return turn, box_values

    def decide(
        self,
        rolls: IntArray,
        left: int,
        endings: FloatArray,
        chances: kernel.Turn,
        hard: kernel.Turn,
        box_values: FloatArray,
    ) -> Choices:
        """Each column's choice with dice ``rolls[c]`` and ``left`` rolls left."""
        columns = len(rolls)
        every = np.arange(columns)
        box_chance = endings[:, rolls, every]  # (boxes, columns)
        box_worth = box_values[:, rolls, every]
        best = box_chance.max(axis=0)
        if left:
            options = self.shape.subs[rolls]  # (columns, keeps of the roll)
            keep_chance = chances.keeps[left][options, every[:, None]]
            keep_worth = hard.keeps[left][options, every[:, None]]
            best = np.maximum(best, keep_chance.max(axis=1))
        # Among the options of the best chance, the best expected total; argmax takes the first on a
        # tie (the top box, the first keep in the advisor's order) and a keep must be strictly better
        # than the box, as in the advisor's order.
        box_tied = np.where(box_chance >= best[None, :] - TIE, box_worth, -np.inf)
        chosen_box = box_tied.argmax(axis=0)
        if not left:
            return Choices(chosen_box, np.full(columns, -1), np.zeros(columns, dtype=bool), best)
        keep_tied = np.where(keep_chance >= best[:, None] - TIE, keep_worth, -np.inf)
        which = keep_tied.argmax(axis=1)
        reroll = keep_tied[every, which] > box_tied[chosen_box, every]
        return Choices(chosen_box, options[every, which], reroll, best)

    def goal(self) -> bytes:
        """What the turns play for, as a key: the plan of a turn depends on its positions and this."""
        return self.target.to_bytes(8, "little", signed=True)

    def turn(self, masks: IntArray, totals: IntArray, points: IntArray) -> TurnPlan:
        """Everything a turn's decisions need for these columns. A turn's plan serves all its
        decisions (the positions and the goal stay the same until a box is filled), so the last one
        is kept: only a turn's first decision works it out."""
        key = (masks.tobytes(), totals.tobytes(), points.tobytes(), self.goal())
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        endings = self.endings(masks, totals, points)
        chances = kernel.turn_from(self.tables, endings.max(axis=0))
        hard, box_values = self.hard_values(masks, totals)
        plan = TurnPlan(self, endings, chances, hard, box_values)
        self._last = (key, plan)
        return plan


@dataclass(frozen=True)
class TurnPlan:
    """One turn of the target player for a set of columns: what :meth:`TargetTurns.decide` reads."""

    turns: TargetTurns
    endings: FloatArray
    chances: kernel.Turn
    hard: kernel.Turn
    box_values: FloatArray

    def decide(self, rolls: IntArray, left: int) -> Choices:
        return self.turns.decide(rolls, left, self.endings, self.chances, self.hard, self.box_values)

    def box_chance(self, box: int, roll: int, column: int = 0) -> float:
        """Column ``column``'s chance of the target after entering roll ``roll`` (flat index) in box
        ``box`` (0-based): from the next turn start on, the hard player's futures."""
        return float(self.endings[box, roll, column])

    def keep_chance(self, keep: int, left: int, column: int = 0) -> float:
        """Column ``column``'s chance of the target after keeping ``keep`` (a flat keep index over the
        sizes 0 to dice-1) and rolling with ``left`` rolls left, the rest of the turn played for the
        target as this plan plays it (``left`` >= 1)."""
        if left < 1:
            raise ValueError("no roll left: only a box can be chosen")
        return float(self.chances.keeps[left][keep, column])

    def start_chance(self) -> FloatArray:
        """Each column's chance of the target from the start of this turn, as the player plays."""
        last = self.chances.choose[-1]
        result: FloatArray = self.turns.rules.space.roll_probabilities @ last
        return result


class TargetPlayer:
    """A computer player for Kismet that plays for the chance of a final total of ``target`` or more."""

    level = TARGET

    def __init__(self, futures: Futures, table: StrategyTable, target: int) -> None:
        self.turns = TargetTurns(futures, table, target)
        space = table.rules.space
        self._keeps = [keep for level in space.levels[: table.rules.dice] for keep in level]

    @property
    def target(self) -> int:
        return self.turns.target

    def choose(self, game: Game) -> Action:
        return play(self.turns, game, self._keeps)


def play(turns: TargetTurns, game: Game, keeps: list[Multiset]) -> Action:
    """The next action of the player whose turn it is, as ``turns`` plan its turn (``keeps``: the
    keeps by flat index): the first roll, a roll holding the plan's keep, or the plan's box."""
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: nobody has a move")
    sheet, dice = game.sheet(seat), game.dice
    if not dice:
        return Roll()
    rules = turns.rules
    mask, total = position_key(sheet, rules.cap)
    plan = turns.turn(
        np.array([mask], dtype=np.intp), np.array([total], dtype=np.intp), np.array([raw_points(sheet)])
    )
    roll = rules.space.roll_index[tuple(sorted(dice))]
    choice = plan.decide(np.array([roll], dtype=np.intp), game.rolls_left)
    if choice.reroll[0]:
        return Roll(hold_for(dice, keeps[int(choice.keep[0])]))
    return Score(Box(int(choice.box[0]) + 1))


class HallPlayer:
    """The ``target`` computer at a table: the :class:`TargetPlayer` of the total ``goal()`` says.

    The goal is asked at each decision rather than fixed when the game starts: a game may be saved
    and resumed days later, and on a server other tables' games enter the Hall of Fame meanwhile;
    the computer plays for the Hall as it stands, and nothing about its goal needs keeping with the
    game. The player of the last goal is kept, so a goal that stays the same costs nothing more.
    """

    level = TARGET

    def __init__(self, futures: Futures, table: StrategyTable, goal: Goal) -> None:
        if not futures.survival:
            raise ValueError("the target player needs every layer of the futures (future_pass keep=None)")
        self._futures = futures
        self._table = table
        self._goal = goal
        self._player: TargetPlayer | None = None

    def choose(self, game: Game) -> Action:
        target = self._goal()
        if self._player is None or self._player.target != target:
            self._player = TargetPlayer(self._futures, self._table, target)
        return self._player.choose(game)
