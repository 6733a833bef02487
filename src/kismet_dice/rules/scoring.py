"""What a roll scores in each box, and the Basic bonus."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from kismet_dice.rules.boxes import Box, Section
from kismet_dice.rules.dice import Colour, check_dice, colour_of, counts
from kismet_dice.rules.errors import IllegalAction

STRAIGHT_POINTS: Final = 30
FLUSH_POINTS: Final = 35
FULL_HOUSE_EXTRA: Final = 15
FULL_HOUSE_SAME_COLOR_EXTRA: Final = 20
FOUR_OF_A_KIND_EXTRA: Final = 25
KISMET_EXTRA: Final = 50

# Faces whose pips share a colour: the pairs that make Two Pair Same Color.
_SAME_COLOUR_FACES: Final = ((1, 6), (2, 5), (3, 4))

BONUS_TIERS: Final = ((78, 75), (71, 55), (63, 35))
"""(lowest Basic total, bonus) from the highest tier down; below 63 there is no bonus."""


def _is_full_house(tally: Sequence[int]) -> bool:
    # Five of a kind counts as a full house (RULES.md).
    shape = sorted(n for n in tally if n)
    return shape in ([2, 3], [5])


def _is_flush(dice: Sequence[int]) -> bool:
    colours: set[Colour] = {colour_of(face) for face in dice}
    return len(colours) == 1


def qualifies(box: Box, dice: Sequence[int]) -> bool:
    """Whether the dice meet the box's requirements (Basic boxes and Yarborough need nothing).

    >>> qualifies(Box.STRAIGHT, (2, 3, 4, 5, 6)), qualifies(Box.FLUSH, (2, 5, 5, 5, 5))
    (True, True)
    >>> qualifies(Box.TWO_PAIR_SAME_COLOR, (3, 3, 4, 4, 1))
    True
    """
    faces = check_dice(dice)
    tally = counts(faces)
    most = max(tally)
    if box.section is Section.BASIC or box is Box.YARBOROUGH:
        return True
    if box is Box.TWO_PAIR_SAME_COLOR:
        return most >= 4 or any(tally[a] >= 2 and tally[b] >= 2 for a, b in _SAME_COLOUR_FACES)
    if box is Box.THREE_OF_A_KIND:
        return most >= 3
    if box is Box.STRAIGHT:
        return sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    if box is Box.FLUSH:
        return _is_flush(faces)
    if box is Box.FULL_HOUSE:
        return _is_full_house(tally)
    if box is Box.FULL_HOUSE_SAME_COLOR:
        return _is_full_house(tally) and _is_flush(faces)
    if box is Box.FOUR_OF_A_KIND:
        return most >= 4
    assert box is Box.KISMET
    return most == 5


def score(box: Box, dice: Sequence[int]) -> int:
    """The points the dice score in ``box``: zero when they do not meet its requirements.

    ``dice`` is any sequence of five ints 1..6, in any order; anything else raises
    :class:`~kismet_dice.IllegalAction`.

    >>> [score(box, (4, 5, 5, 5, 5)) for box in (Box.FIVES, Box.TWO_PAIR_SAME_COLOR,
    ...     Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.YARBOROUGH, Box.FOURS)]
    [20, 24, 24, 49, 24, 4]
    """
    if not isinstance(box, Box):
        raise IllegalAction(f"{box!r} is not a box of the sheet")
    faces = check_dice(dice)
    if box.face is not None:
        return box.face * faces.count(box.face)
    if not qualifies(box, faces):
        return 0
    total = sum(faces)
    return {
        Box.TWO_PAIR_SAME_COLOR: total,
        Box.THREE_OF_A_KIND: total,
        Box.STRAIGHT: STRAIGHT_POINTS,
        Box.FLUSH: FLUSH_POINTS,
        Box.FULL_HOUSE: total + FULL_HOUSE_EXTRA,
        Box.FULL_HOUSE_SAME_COLOR: total + FULL_HOUSE_SAME_COLOR_EXTRA,
        Box.FOUR_OF_A_KIND: total + FOUR_OF_A_KIND_EXTRA,
        Box.YARBOROUGH: total,
        Box.KISMET: total + KISMET_EXTRA,
    }[box]


def scores(dice: Sequence[int]) -> dict[Box, int]:
    """What the dice would score in every box, in sheet order.

    >>> scores((1, 1, 1, 6, 6))[Box.FULL_HOUSE_SAME_COLOR]
    35
    """
    return dict(_scores(tuple(sorted(check_dice(dice)))))


@cache
def _scores(faces: tuple[int, ...]) -> tuple[tuple[Box, int], ...]:
    # What five dice score depends on their faces alone (a face has one colour), in any order: the
    # 252 sets of faces are each worked out once. Every view of a turn asks.
    return tuple((box, score(box, faces)) for box in Box)


def bonus(basic_total: int) -> int:
    """The bonus a complete Basic section earns.

    >>> bonus(62), bonus(63), bonus(70), bonus(71), bonus(77), bonus(78)
    (0, 35, 35, 55, 55, 75)
    """
    for lowest, points in BONUS_TIERS:
        if basic_total >= lowest:
            return points
    return 0


def is_kismet(dice: Sequence[int]) -> bool:
    """Five of one face.

    >>> is_kismet((6, 6, 6, 6, 6)), is_kismet((6, 6, 6, 6, 1))
    (True, False)
    """
    return len(set(check_dice(dice))) == 1
