"""What happens in a game, as immutable values: the actions a player takes and the events they cause."""

from __future__ import annotations

from dataclasses import dataclass

from kismet_dice.rules import Box, Dice


@dataclass(frozen=True)
class HouseRules:
    """Switches for the points RULES.md leaves to the table; all off by default.

    ``zero_kismet_counts``: a zero in the Kismet box counts as "filled" for the second
    Kismet, so five of a kind after a scratched Kismet box also costs the others a turn.
    """

    zero_kismet_counts: bool = False


# Actions: all a player can decide. Chance (the dice) comes from the game's generator.


@dataclass(frozen=True)
class Roll:
    """Roll every die not held; ``hold`` lists positions 0-4 to keep."""

    hold: tuple[int, ...] = ()


@dataclass(frozen=True)
class Score:
    """Enter the current dice in ``box`` and end the turn."""

    box: Box


Action = Roll | Score
"""A turn's actions. Resigning (:meth:`Game.resign <kismet_dice.game.engine.Game.resign>`) is not
one: a player may leave at any time, not only in their turn."""


# Events: the history of a game, in the order things happened.


@dataclass(frozen=True)
class RollOff:
    """One round of the roll-off for the first player: ``(seat, face)`` in seating order."""

    faces: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Rolled:
    """A roll in a turn: the positions held and the five dice after it."""

    seat: int
    hold: tuple[int, ...]
    dice: Dice


@dataclass(frozen=True)
class Scored:
    """The entry that ends a turn."""

    seat: int
    box: Box
    points: int
    dice: Dice


@dataclass(frozen=True)
class Penalty:
    """A zero entered by the rules, not by the player: the turn a second Kismet costs."""

    seat: int
    box: Box


@dataclass(frozen=True)
class SecondKismet:
    """``seat`` ended a turn with five of a kind and a Kismet already on the sheet.

    ``penalties`` are the zeros entered on the other sheets; the rest of the round is
    skipped and ``seat`` leads from the next round on (in a multi-player game).
    """

    seat: int
    penalties: tuple[Penalty, ...]


@dataclass(frozen=True)
class Resigned:
    """``seat`` left the game for good: each of its open boxes, ``zeros``, got a 0, so it has no
    turn left and the game goes on for the others. ``ended``: the game ended there too (the table
    had no person left to play; which seats are people is the table's to know, not the rules', so
    the record keeps it and a replay ends the same)."""

    seat: int
    zeros: tuple[Box, ...]
    ended: bool = False


Event = RollOff | Rolled | Scored | SecondKismet | Resigned

Recorded = Rolled | Scored | Resigned
"""The events a record keeps as its actions: every decision (the roll-off's dice are kept apart)."""
