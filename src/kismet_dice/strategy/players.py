"""Computer players: ``easy`` and ``medium`` play rules a person could follow, ``hard`` plays perfectly,
``target`` plays for the Hall of Fame (:mod:`kismet_dice.strategy.target`).

Every player has one method, ``choose(game)``, which returns the action for the current
player of a live game: :class:`~kismet_dice.game.Roll` (with the positions to hold) or
:class:`~kismet_dice.game.Score`. In a game of several players each plays its own sheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Final, Protocol

from kismet_dice.game import Action, Game, Roll, Score
from kismet_dice.rules import Box, Dice, Sheet, colour_of, score
from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.dice_space import Multiset


class Level(StrEnum):
    """How well a computer player plays: the one closed set every interface offers.

    >>> Level("hard").needs_table, [level.value for level in Level]
    (True, ['easy', 'medium', 'hard', 'target', 'win'])
    """

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    TARGET = "target"
    """Plays for the Hall of Fame: the best chance of a total that enters it."""
    WIN = "win"
    """Plays to win: the best chance of beating the others at the table as they stand."""

    @property
    def needs_table(self) -> bool:
        """Whether this player reads the solved strategy table (which takes a moment to load)."""
        return self in (Level.HARD, Level.TARGET, Level.WIN)

    @property
    def needs_futures(self) -> bool:
        """Whether this player reads the stored futures of every position (worked out once per
        machine, in under a minute; :mod:`kismet_dice.strategy.stored_futures`).

        >>> [level.value for level in Level if level.needs_futures]
        ['target', 'win']
        """
        return self in (Level.TARGET, Level.WIN)

    @classmethod
    def parse(cls, text: str) -> Level:
        """A level from a person's word, or ``ValueError`` naming the levels there are.

        >>> Level.parse(" Hard ")
        <Level.HARD: 'hard'>
        """
        try:
            return cls(text.strip().lower())
        except ValueError:
            choices = ", ".join(level.value for level in cls)
            raise ValueError(f"a computer player is {choices}, not {text!r}") from None


LEVELS: Final = tuple(Level)

Goal = Callable[[], int]
"""The total the ``target`` player plays for, asked at each of its decisions (the total that enters
the Hall of Fame as it stands then)."""


class ComputerPlayer(Protocol):
    """Decides the current player's next action in a live game."""

    @property
    def level(self) -> str:
        """The player's :class:`Level`."""
        ...

    def choose(self, game: Game) -> Action: ...


def hold_for(dice: Sequence[int], keep: Sequence[int]) -> tuple[int, ...]:
    """Positions of the dice to hold so that ``keep`` (face values) stays on the table.

    >>> hold_for((5, 3, 3, 1, 3), (3, 3))
    (1, 2)
    """
    wanted = Counter(keep)
    held = []
    for position, face in enumerate(dice):
        if wanted[face]:
            wanted[face] -= 1
            held.append(position)
    return tuple(held)


def _turn(game: Game) -> tuple[Sheet, Dice, int]:
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: nobody has a move")
    return game.sheet(seat), game.dice, game.rolls_left


class HardPlayer:
    """Always the option with the highest expected final total (the optimal solo strategy)."""

    level = Level.HARD

    def __init__(self, advisor: Advisor) -> None:
        self.advisor = advisor

    def choose(self, game: Game) -> Action:
        sheet, dice, rolls_left = _turn(game)
        if not dice:
            return Roll()
        best = self.advisor.best(sheet, dice, rolls_left)
        if best.box is not None:
            return Score(best.box)
        return Roll(hold_for(dice, best.keep or ()))


def _most_common(dice: Sequence[int], faces: Sequence[int] = (1, 2, 3, 4, 5, 6)) -> tuple[int, int]:
    """(face, count) of the most common face among ``faces``; the higher face on a tie."""
    tally = Counter(face for face in dice if face in faces)
    if not tally:
        return 0, 0
    face = max(tally, key=lambda f: (tally[f], f))
    return face, tally[face]


class EasyPlayer:
    """A casual player: keeps the most common face, then takes the box that scores most right now.

    Stops rolling early only for a made Straight, Flush or Kismet. When nothing scores, the
    zero goes in the open box nearest the top.
    """

    level = Level.EASY
    MADE: Final = (Box.KISMET, Box.STRAIGHT, Box.FLUSH)

    def choose(self, game: Game) -> Action:
        sheet, dice, rolls_left = _turn(game)
        if not dice:
            return Roll()
        open_boxes = sheet.open_boxes
        made = [box for box in self.MADE if box in open_boxes and score(box, dice) > 0]
        face, count = _most_common(dice)
        if rolls_left and not made and count < len(dice):
            return Roll(hold_for(dice, [face] * count))
        return Score(max(open_boxes, key=lambda box: (score(box, dice), -box.value)))


# What a careful player hopes a box is worth: above it is a gain, below it a sacrifice.
# The Basic marks are three of each face, the pace of the 63-point bonus.
PAR: Final = {
    Box.ONES: 3,
    Box.TWOS: 6,
    Box.THREES: 9,
    Box.FOURS: 12,
    Box.FIVES: 15,
    Box.SIXES: 18,
    Box.TWO_PAIR_SAME_COLOR: 18,
    Box.THREE_OF_A_KIND: 18,
    Box.STRAIGHT: 15,
    Box.FLUSH: 12,
    Box.FULL_HOUSE: 24,
    Box.FULL_HOUSE_SAME_COLOR: 14,
    Box.FOUR_OF_A_KIND: 15,
    Box.YARBOROUGH: 22,
    Box.KISMET: 12,
}

_RUNS: Final = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))


class MediumPlayer:
    """A careful player with a card of par values (:data:`PAR`).

    Fills the box that beats its par by most (or falls short by least); stops early when some
    box beats its par by 10 or more. Otherwise keeps, in this order: four towards an open
    Straight; four of one colour towards an open Flush; the most common face (the higher on a
    tie) among faces whose boxes are still useful.
    """

    level = Level.MEDIUM

    def choose(self, game: Game) -> Action:
        sheet, dice, rolls_left = _turn(game)
        if not dice:
            return Roll()
        open_boxes = sheet.open_boxes
        gain = {box: score(box, dice) - PAR[box] for box in open_boxes}
        best_box = max(open_boxes, key=lambda box: (gain[box], -box.value))
        keep = self.keep(sheet, dice)
        if not rolls_left or gain[best_box] >= 10 or len(keep) == len(dice):
            return Score(best_box)
        return Roll(hold_for(dice, keep))

    @staticmethod
    def keep(sheet: Sheet, dice: Dice) -> Multiset:
        open_boxes = set(sheet.open_boxes)
        if Box.STRAIGHT in open_boxes:
            for run in _RUNS:
                if set(run) <= set(dice):
                    return run
        if open_boxes & {Box.FLUSH, Box.FULL_HOUSE_SAME_COLOR}:
            colours = Counter(colour_of(face) for face in dice)
            colour, count = colours.most_common(1)[0]
            if count >= 4:
                return tuple(sorted(face for face in dice if colour_of(face) is colour))
        of_a_kind = open_boxes & {
            Box.THREE_OF_A_KIND,
            Box.FOUR_OF_A_KIND,
            Box.KISMET,
            Box.FULL_HOUSE,
            Box.TWO_PAIR_SAME_COLOR,
            Box.YARBOROUGH,
        }
        useful = (
            [face for face in range(1, 7) if Box(face) in open_boxes] if not of_a_kind else list(range(1, 7))
        )
        face, count = _most_common(dice, useful or range(1, 7))
        return (face,) * count


def computer_player(level: Level | str, advisor: Advisor | None = None) -> ComputerPlayer:
    """The player of a level; ``hard`` needs an advisor (a loaded table). The ``target`` player
    also needs the futures of every position and its goal: :meth:`kismet_dice.strategy.Computer.player`
    makes it.

    >>> computer_player("easy").level
    <Level.EASY: 'easy'>
    """
    level = Level.parse(level)
    if level is Level.EASY:
        return EasyPlayer()
    if level is Level.MEDIUM:
        return MediumPlayer()
    if level is Level.TARGET:
        raise ValueError("the target player needs the futures of every position and a goal")
    if level is Level.WIN:
        raise ValueError("the win player needs the futures of every position")
    if advisor is None:
        raise ValueError("the hard player needs the solved table")
    return HardPlayer(advisor)
