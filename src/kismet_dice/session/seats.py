"""Who sits at a table, and the limits every interface shares (each defined once, here)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Final

from kismet_dice.game import MAX_NAME_LENGTH, HouseRules, check_name
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.strategy import Level

MAX_SEATS: Final = 6
"""The most players at one table."""

COMPUTER_PACE: Final = 0.6
"""Seconds between a computer player's actions: slow enough for a person to follow."""


MIN_TURN_SECONDS: Final = 10
"""The shortest time a table may give each person's turn (when it gives one at all)."""

MAX_TURN_SECONDS: Final = 600
"""The longest."""

TURN_SECONDS_CHOICES: Final = (30, 60, 120, 300)
"""The times per turn a set-up offers first."""


LEVEL_WORDS: Final = {
    Level.EASY: "a casual player: keeps the most common face and takes the box that scores most now",
    Level.MEDIUM: "a careful player who knows what each box is usually worth; goes for straights and flushes",
    Level.HARD: "perfect play: the best expected total from every position",
    Level.TARGET: (
        "plays for the Hall of Fame: each turn it aims at the least total that enters the Hall of Fame now "
        "(one more than its tenth entry) and takes the best chance of reaching it, rather than the best "
        "expected total; while the Hall has fewer than ten entries every total enters, so it plays as hard"
    ),
    Level.WIN: (
        "plays to win: at each decision it takes the best chance of ending above everyone else at the "
        "table as their sheets stand (one turn ahead, perfect play after), rather than the best expected "
        "total; alone at a table it plays as hard"
    ),
}
"""How each computer level plays, as a set-up explains it."""


def default_name(number: int, level: Level | None = None) -> str:
    """The name a seat takes when none is given: a person's by their place, a computer's by its level.

    >>> default_name(2), default_name(3, Level.HARD)
    ('Player 2', 'Computer (hard)')
    """
    return f"Player {number}" if level is None else f"Computer ({level.value})"


class BadSetup(IllegalAction):
    """A set-up that cannot be played: no seats or too many, a bad or shared name, an unknown level."""


@dataclass(frozen=True)
class Seat:
    """A place at the table: a person, or a computer player at ``level``."""

    name: str
    level: Level | None = None

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    @classmethod
    def from_words(cls, name: str, level: str | None = None) -> Seat:
        """A seat from words, the level checked: :class:`BadSetup` names the levels there are.

        >>> Seat.from_words("Hal", "Hard")
        Seat(name='Hal', level=<Level.HARD: 'hard'>)
        """
        if level is None or not level.strip():
            return cls(name)
        try:
            return cls(name, Level.parse(level))
        except ValueError as error:
            raise BadSetup(str(error)) from None

    def describe(self) -> str:
        """The seat as a person reads it in a list of players.

        >>> Seat("Hal", Level.HARD).describe(), Seat("Ann").describe()
        ('Hal (computer, hard)', 'Ann')

        A computer seat named by its level says it once:

        >>> Seat(default_name(2, Level.HARD), Level.HARD).describe()
        'Computer (hard)'
        """
        if self.level is None:
            return self.name
        if self.name == default_name(0, self.level):
            return self.name
        return f"{self.name} (computer, {self.level.value})"


@dataclass(frozen=True)
class Setup:
    """What a new game needs: the seats in seating order and the house rules."""

    seats: tuple[Seat, ...] = (Seat("Player 1"),)
    house_rules: HouseRules = field(default_factory=HouseRules)

    def checked(self) -> Setup:
        """The set-up with names trimmed, or :class:`BadSetup` saying what is wrong."""
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise BadSetup(f"a table has 1 to {MAX_SEATS} players")
        try:
            seats = tuple(replace(seat, name=check_name(seat.name)) for seat in self.seats)
        except IllegalAction as error:
            raise BadSetup(str(error)) from None
        for each in seats:
            if each.level is not None and not isinstance(each.level, Level):
                raise BadSetup(f"{each.level!r} is not a computer player's level")
        if len({each.name for each in seats}) != len(seats):
            raise BadSetup("two players cannot share a name")
        return Setup(seats, self.house_rules)

    def to_json(self) -> str:
        seats = [{"name": each.name, "level": each.level} for each in self.seats]
        return json.dumps({"seats": seats, "zero_kismet_counts": self.house_rules.zero_kismet_counts})

    @classmethod
    def from_json(cls, text: str) -> Setup:
        """A set-up written by :meth:`to_json`; anything else raises :class:`BadSetup`."""
        try:
            data = json.loads(text)
            seats = tuple(Seat.from_words(str(each["name"]), each["level"]) for each in data["seats"])
            rules = HouseRules(zero_kismet_counts=bool(data["zero_kismet_counts"]))
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise BadSetup(f"not a set-up: {error}") from None
        return Setup(seats, rules).checked()


@dataclass(frozen=True)
class Limits:
    """The limits a front end must know, as one value the server hands it."""

    max_seats: int = MAX_SEATS
    max_name_length: int = MAX_NAME_LENGTH
    levels: tuple[Level, ...] = tuple(Level)
    boxes: tuple[Box, ...] = tuple(Box)
    computer_pace: float = COMPUTER_PACE
    min_turn_seconds: int = MIN_TURN_SECONDS
    max_turn_seconds: int = MAX_TURN_SECONDS
    turn_seconds_choices: tuple[int, ...] = TURN_SECONDS_CHOICES
    level_words: tuple[tuple[Level, str], ...] = tuple(LEVEL_WORDS.items())
    computer_names: tuple[tuple[Level, str], ...] = tuple((level, default_name(0, level)) for level in Level)


LIMITS: Final = Limits()
