"""A rule set of the Yahtzee family, as the solver sees it: boxes with scoring tables and a bonus.

The solver knows nothing of Kismet itself. A rule set lists the dice, the boxes (each with
what every roll scores in it, and whether it counts toward the bonus), and the bonus as a
table over the capped bonus-section total. Kismet and plain Yahtzee are both such rule sets.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from kismet_dice.rules import BONUS_TIERS, Box, Section, bonus, score
from kismet_dice.strategy.dice_space import DiceSpace, Multiset


@dataclass(frozen=True)
class BoxRule:
    """One box: its name, the points of every roll (in :attr:`DiceSpace.rolls` order), and
    whether those points count toward the bonus (the Basic section)."""

    name: str
    points: tuple[int, ...]
    basic: bool


@dataclass(frozen=True)
class RuleSet:
    """Dice, boxes and bonus of a solo box-filling dice game.

    ``bonus[t]`` is the bonus earned when every basic box is filled and their total, capped at
    ``len(bonus) - 1``, is ``t``.

    >>> rules = kismet_rules()
    >>> len(rules.boxes), rules.cap, rules.bonus[63], rules.space.dice
    (15, 78, 35, 5)
    """

    name: str
    dice: int
    faces: int
    rolls_per_turn: int
    boxes: tuple[BoxRule, ...]
    bonus: tuple[int, ...]

    def __post_init__(self) -> None:
        rolls = len(self.space.rolls)
        for box in self.boxes:
            if len(box.points) != rolls:
                raise ValueError(f"box {box.name} scores {len(box.points)} rolls, not {rolls}")
            if min(box.points) < 0:
                raise ValueError(f"box {box.name} has a negative score")
        if not self.bonus or not self.boxes or self.rolls_per_turn < 1:
            raise ValueError("a rule set needs a bonus table, a box and a roll per turn")
        if len({box.name for box in self.boxes}) != len(self.boxes):
            raise ValueError("two boxes share a name")

    @cached_property
    def space(self) -> DiceSpace:
        return DiceSpace(self.dice, self.faces)

    @property
    def cap(self) -> int:
        """The bonus-section total beyond which more points change nothing."""
        return len(self.bonus) - 1

    @cached_property
    def basic_boxes(self) -> tuple[int, ...]:
        """Positions of the boxes that count toward the bonus."""
        return tuple(i for i, box in enumerate(self.boxes) if box.basic)

    @cached_property
    def basic_mask(self) -> int:
        """The bits of the boxes that count toward the bonus, as in a mask of filled boxes."""
        return sum(1 << box for box in self.basic_boxes)

    @cached_property
    def fingerprint(self) -> str:
        """A hash of everything that decides the optimal values: the key of a stored table."""
        canonical = json.dumps(
            {
                "dice": self.dice,
                "faces": self.faces,
                "rolls": self.rolls_per_turn,
                "boxes": [[box.name, box.basic, list(box.points)] for box in self.boxes],
                "bonus": list(self.bonus),
            },
            separators=(",", ":"),
        )
        return hashlib.sha256(canonical.encode()).hexdigest()


def rule_set(
    name: str,
    dice: int,
    faces: int,
    boxes: Sequence[tuple[str, Callable[[Multiset], int], bool]],
    bonus_table: Sequence[int],
    rolls_per_turn: int = 3,
) -> RuleSet:
    """A rule set from scoring functions: ``boxes`` lists ``(name, points_of(roll), basic)``.

    >>> tiny = rule_set("tiny", 1, 2, [("ONES", lambda r: r.count(1), True)], [0, 5])
    >>> tiny.boxes[0].points, tiny.cap
    ((1, 0), 1)
    """
    space = DiceSpace(dice, faces)
    return RuleSet(
        name=name,
        dice=dice,
        faces=faces,
        rolls_per_turn=rolls_per_turn,
        boxes=tuple(
            BoxRule(box_name, tuple(points(roll) for roll in space.rolls), basic)
            for box_name, points, basic in boxes
        ),
        bonus=tuple(bonus_table),
    )


def tiny_rules(rolls_per_turn: int = 3) -> RuleSet:
    """Two three-faced dice, two Basic boxes with a bonus and a pair box: small enough to search by
    brute force, and to run every compiled loop on in a moment (they are compiled for the types of
    their arrays, which are the same as Kismet's).

    >>> rules = tiny_rules()
    >>> [box.name for box in rules.boxes], rules.cap
    (['ONES', 'THREES', 'PAIR'], 4)
    """
    boxes = [
        ("ONES", lambda roll: roll.count(1), True),
        ("THREES", lambda roll: 3 * roll.count(3), True),
        ("PAIR", lambda roll: sum(roll) + 4 if len(set(roll)) == 1 else 0, False),
    ]
    return rule_set("tiny", 2, 3, boxes, [0, 0, 0, 0, 5], rolls_per_turn)


@cache
def kismet_rules() -> RuleSet:
    """The rules of Kismet (RULES.md), taken from :mod:`kismet_dice.rules` itself.

    Made once per process (scoring every roll in every box takes a moment) and shared: a rule
    set is immutable.

    A solo game is just the box-filling game: the second Kismet only costs *other* players
    a turn, so in one player's game it changes nothing.
    """
    cap = max(lowest for lowest, _ in BONUS_TIERS)

    def points_in(box: Box) -> Callable[[Multiset], int]:
        return lambda roll: score(box, roll)

    return rule_set(
        "kismet",
        5,
        6,
        [(box.name, points_in(box), box.section is Section.BASIC) for box in Box],
        [bonus(total) for total in range(cap + 1)],
    )


def yahtzee_rules() -> RuleSet:
    """Plain Yahtzee: 13 boxes, 35 bonus at 63, no Yahtzee bonus, no joker.

    A full house needs two different faces.

    >>> yahtzee_rules().boxes[-1].points[0]  # (1, 1, 1, 1, 1) in Chance
    5
    """

    def of_a_kind(n: int) -> Callable[[Multiset], int]:
        return lambda roll: sum(roll) if max(Counter(roll).values()) >= n else 0

    def straight(length: int, points: int) -> Callable[[Multiset], int]:
        def check(roll: Multiset) -> int:
            faces = set(roll)
            runs = (set(range(low, low + length)) for low in range(1, 8 - length))
            return points if any(run <= faces for run in runs) else 0

        return check

    def upper(face: int) -> Callable[[Multiset], int]:
        return lambda roll: face * roll.count(face)

    boxes: list[tuple[str, Callable[[Multiset], int], bool]] = [
        (name, upper(face), True)
        for face, name in enumerate(("ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES"), 1)
    ]
    boxes += [
        ("THREE_OF_A_KIND", of_a_kind(3), False),
        ("FOUR_OF_A_KIND", of_a_kind(4), False),
        ("FULL_HOUSE", lambda roll: 25 if sorted(Counter(roll).values()) == [2, 3] else 0, False),
        ("SMALL_STRAIGHT", straight(4, 30), False),
        ("LARGE_STRAIGHT", straight(5, 40), False),
        ("YAHTZEE", lambda roll: 50 if len(set(roll)) == 1 else 0, False),
        ("CHANCE", sum, False),
    ]
    return rule_set("yahtzee", 5, 6, boxes, [0] * 63 + [35])
