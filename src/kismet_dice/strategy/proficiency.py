"""How well each player played: every decision of a game scored against the best one.

A decision is the dice kept before a second or third roll, or the box filled at the end of a
turn. Its loss is the expected final total of the best option minus that of the option taken,
both with perfect play afterwards; a perfect game loses nothing. Each sheet is judged as a
game of its own (a second Kismet's penalty zero is the rules' doing, not a decision).
"""

from __future__ import annotations

from dataclasses import dataclass

from kismet_dice.game import ROLLS_PER_TURN, Game, Resigned, Rolled, Scored, SecondKismet
from kismet_dice.rules import Box, Dice, Sheet
from kismet_dice.strategy.advisor import Advisor, Option

NOTHING = 0.005
"""A loss smaller than this rounds to 0.00 points: the choice was as good as the best."""


@dataclass(frozen=True)
class Decision:
    """One choice of one player: the position, the option taken, the best option and the loss."""

    seat: int
    turn: int
    dice: Dice
    rolls_left: int
    chosen: Option
    best: Option

    @property
    def loss(self) -> float:
        """Expected points the choice gave away (0 for a best choice)."""
        return max(0.0, self.best.expected - self.chosen.expected)


@dataclass(frozen=True)
class Proficiency:
    """Every decision of a game, in order, with totals per seat."""

    names: tuple[str, ...]
    decisions: tuple[Decision, ...]

    def total_loss(self, seat: int) -> float:
        return sum(decision.loss for decision in self.decisions if decision.seat == seat)

    def decisions_of(self, seat: int) -> tuple[Decision, ...]:
        return tuple(decision for decision in self.decisions if decision.seat == seat)

    def costliest(self, count: int, seat: int | None = None) -> tuple[Decision, ...]:
        """The ``count`` decisions that gave away most (of ``seat``, or of anyone), costliest first;
        among equals the earliest. Decisions that gave away less than :data:`NOTHING` are never listed."""
        costly = [d for d in self.decisions if (seat is None or d.seat == seat) and d.loss >= NOTHING]
        return tuple(sorted(costly, key=lambda d: -d.loss)[:count])


def _find(options: tuple[Option, ...], keep: tuple[int, ...] | None, box: Box | None) -> Option:
    for option in options:
        if option.box == box and option.keep == keep:
            return option
    raise ValueError(f"the game's choice {keep or box} is not an option of its position")


def proficiency(game: Game, advisor: Advisor) -> Proficiency:
    """Score every decision in ``game``'s history (finished or not) against the optimum."""
    sheets = [Sheet() for _ in game.names]
    turns = [0] * len(game.names)
    dice: Dice = ()
    rolls_left = ROLLS_PER_TURN
    decisions: list[Decision] = []
    seat_rolling: int | None = None  # whose dice are on the table
    for event in game.history:
        if isinstance(event, Rolled):
            if dice:
                kept = tuple(sorted(dice[p] for p in event.hold))
                options = advisor.options(sheets[event.seat], dice, rolls_left)
                chosen = _find(options, kept, None)
                decisions.append(
                    Decision(event.seat, turns[event.seat], dice, rolls_left, chosen, options[0])
                )
            else:
                turns[event.seat] += 1
            dice, rolls_left = event.dice, rolls_left - 1
        elif isinstance(event, Scored):
            options = advisor.options(sheets[event.seat], dice, rolls_left)
            chosen = _find(options, None, event.box)
            decisions.append(Decision(event.seat, turns[event.seat], dice, rolls_left, chosen, options[0]))
            sheets[event.seat] = sheets[event.seat].with_entry(event.box, event.points)
            dice, rolls_left = (), ROLLS_PER_TURN
        elif isinstance(event, SecondKismet):
            for penalty in event.penalties:
                sheets[penalty.seat] = sheets[penalty.seat].with_entry(penalty.box, 0)
        elif isinstance(event, Resigned):
            # Giving up is no choice among the options: its zeros are entered, and a turn it cut
            # short leaves no dice for the next player's first roll.
            for box in event.zeros:
                sheets[event.seat] = sheets[event.seat].with_entry(box, 0)
            if seat_rolling == event.seat:
                dice, rolls_left = (), ROLLS_PER_TURN
        if isinstance(event, Rolled):
            seat_rolling = event.seat
        elif isinstance(event, Scored):
            seat_rolling = None
    return Proficiency(game.names, tuple(decisions))
