"""Dice, their faces and the colours of their pips.

A Kismet die has its pip colour fixed by its face: opposite faces (which add to 7)
share a colour, so 1 and 6 are black, 2 and 5 red, 3 and 4 green.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from typing import Final, cast

from kismet_dice.rules.errors import IllegalAction

NUMBER_OF_DICE: Final = 5
FACES: Final = (1, 2, 3, 4, 5, 6)

Dice = tuple[int, ...]
"""Five faces, each 1..6. Order matters only for which die is where on the table."""


class Colour(enum.Enum):
    """The colour of a die's pips."""

    BLACK = "black"
    RED = "red"
    GREEN = "green"

    @property
    def letter(self) -> str:
        """One letter that tells the colour without colour: ``B``, ``R`` or ``G``.

        >>> Colour.GREEN.letter
        'G'
        """
        return self.name[0]


_COLOUR_OF_FACE: Final = {
    1: Colour.BLACK,
    6: Colour.BLACK,
    2: Colour.RED,
    5: Colour.RED,
    3: Colour.GREEN,
    4: Colour.GREEN,
}


def colour_of(face: int) -> Colour:
    """The pip colour of a face.

    >>> colour_of(5)
    <Colour.RED: 'red'>
    """
    try:
        return _COLOUR_OF_FACE[face]
    except (KeyError, TypeError):
        raise IllegalAction(f"a die shows 1 to 6, not {face!r}") from None


def check_face(face: object) -> int:
    """Return ``face`` if it is a die face (an int 1..6), else raise :class:`IllegalAction`."""
    # bool is an int subclass, but True is no die face.
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise IllegalAction(f"a die shows 1 to 6, not {face!r}")
    return face


_FACES: Final = frozenset(range(1, 7))
_INT: Final = {int}


def check_dice(dice: Iterable[object]) -> Dice:
    """Return ``dice`` as a tuple of five faces, or raise :class:`IllegalAction`.

    >>> check_dice([4, 5, 5, 5, 5])
    (4, 5, 5, 5, 5)
    >>> check_dice((6, 6, 6, 6, True))
    Traceback (most recent call last):
    ...
    kismet_dice.rules.errors.IllegalAction: a die shows 1 to 6, not True
    >>> check_dice([1, 2, 3])
    Traceback (most recent call last):
    ...
    kismet_dice.rules.errors.IllegalAction: five dice are needed, not 3
    """
    # The engine's own dice, a tuple of five faces, are checked without a call per die: the rules
    # check the dice again at every score and every look at the options.
    if (
        type(dice) is tuple
        and len(dice) == NUMBER_OF_DICE
        and _FACES.issuperset(dice)
        and set(map(type, dice)) == _INT  # not True, which equals 1
    ):
        return cast(Dice, dice)
    if isinstance(dice, (str, bytes)):
        raise IllegalAction(f"five dice are needed, not {dice!r}")
    try:
        faces = tuple(dice)
    except TypeError:
        raise IllegalAction(f"five dice are needed, not {dice!r}") from None
    if len(faces) != NUMBER_OF_DICE:
        raise IllegalAction(f"five dice are needed, not {len(faces)}")
    return tuple(check_face(face) for face in faces)


def counts(dice: Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face, indexed by face (index 0 is unused).

    >>> counts((4, 5, 5, 5, 5))
    (0, 0, 0, 0, 1, 4, 0)
    """
    tally = [0] * 7
    for face in dice:
        tally[face] += 1
    return tuple(tally)


def describe(dice: Sequence[int]) -> str:
    """The dice in words, value and colour, for a screen reader or a pipe.

    >>> describe((1, 2, 3, 4, 5))
    '1 black, 2 red, 3 green, 4 green, 5 red'
    """
    return ", ".join(f"{face} {colour_of(face).value}" for face in dice)


def all_rolls() -> tuple[Dice, ...]:
    """The 252 distinct rolls of five dice, each sorted, in ascending order.

    >>> len(all_rolls())
    252
    """
    return tuple(itertools.combinations_with_replacement(FACES, NUMBER_OF_DICE))
