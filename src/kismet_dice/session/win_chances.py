"""Every player's chance of winning a game, for every interface, where this machine holds the
futures of every position (the target player's; ``kismet chances --win`` or a target computer
works them out once). They are never worked out unasked: without them there are no chances.

What the chances assume is :data:`kismet_dice.strategy.win.MODEL`, said wherever they are shown.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from kismet_dice import charts
from kismet_dice.game import Game, Scored, SecondKismet
from kismet_dice.rules import Sheet
from kismet_dice.strategy import Computer, ComputerUnavailable, Option
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.win import (
    MODEL,
    Place,
    final_totals,
    game_win_chances,
    option_win_chances,
    win_chances,
)

__all__ = ["MODEL", "Course", "WinChances", "course_chart", "words"]


@dataclass(frozen=True)
class Course:
    """Everyone's chance of winning over a game: ``chances[t][seat]`` before the first entry
    (``t`` = 0) and after each entry (the ``t``-th)."""

    names: tuple[str, ...]
    chances: tuple[tuple[float, ...], ...]


def words(names: Sequence[str], chances: Sequence[float]) -> str:
    """The chances in one line, as every interface says them.

    >>> words(("Ann", "Hal"), (0.625, 0.375))
    'Chances of winning: Ann 62.5%, Hal 37.5%.'
    """
    return (
        "Chances of winning: "
        + ", ".join(f"{name} {chance:.1%}" for name, chance in zip(names, chances, strict=True))
        + "."
    )


COURSE_TITLE = "Chances of winning over the game"
COURSE_X = "Entries made"
COURSE_Y = "Chance of winning"
"""The words of the chart of everyone's chance over a game, in every interface that draws it."""


def course_chart(course: Course) -> str:
    """Everyone's chance of winning over the game as an SVG chart, a line per player."""
    series = {name: [step[seat] for step in course.chances] for seat, name in enumerate(course.names)}
    return charts.lines_chart(series, title=COURSE_TITLE, x_name=COURSE_X, y_name=COURSE_Y)


class WinChances:
    """The chances of the games of one interface or server, remembered for the last few
    positions asked about (a page and its answer ask about the same one)."""

    def __init__(self, computer: Computer | None, *, memory: int = 64) -> None:
        self._computer = computer
        self._memory = memory
        self._known: OrderedDict[tuple[object, ...], tuple[float, ...]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        """Whether the futures are on this machine (loaded, or stored: then loaded when first asked,
        with the strategy table, off any screen's thread)."""
        return self._computer is not None and self._computer.futures_stored

    def of(self, game: Game) -> tuple[float, ...] | None:
        """Each player's chance of winning ``game`` as it stands; ``None`` without the futures, and
        for a game of one player (who wins it whatever the total)."""
        if len(game.names) < 2:
            return None
        futures = self._futures()
        if futures is None or self._computer is None:
            return None
        key = (
            tuple(game.sheet(seat).entries for seat in range(len(game.names))),
            game.current_player,
            tuple(game.dice),
            game.rolls_left,
        )
        with self._lock:
            known = self._known.get(key)
        if known is not None:
            return known
        found = game_win_chances(futures, self._computer.advisor().table, game)
        with self._lock:
            self._known[key] = found
            while len(self._known) > self._memory:
                self._known.popitem(last=False)
        return found

    def advice(self, game: Game, options: Sequence[Option]) -> tuple[float, ...] | None:
        """The chance of winning of the player whose turn it is after each of the advice's
        ``options``; ``None`` without the futures or for one player."""
        if len(game.names) < 2:
            return None
        futures = self._futures()
        if futures is None or self._computer is None:
            return None
        return option_win_chances(futures, self._computer.advisor().table, game, options)

    def course(self, game: Game) -> Course | None:
        """Everyone's chances before the first entry and after each entry (a second Kismet's
        zeroed boxes with the entry that made them); ``None`` without the futures or for one player."""
        if len(game.names) < 2:
            return None
        futures = self._futures()
        if futures is None or self._computer is None:
            return None
        table = self._computer.advisor().table
        sheets = [Sheet() for _ in game.names]
        found = [win_chances([final_totals(futures, table, Place(sheet)) for sheet in sheets])]
        history = game.history
        for index, event in enumerate(history):
            if isinstance(event, Scored):
                sheets[event.seat] = sheets[event.seat].with_entry(event.box, event.points)
            elif isinstance(event, SecondKismet):
                for penalty in event.penalties:
                    sheets[penalty.seat] = sheets[penalty.seat].with_entry(penalty.box, 0)
            else:
                continue
            following = history[index + 1] if index + 1 < len(history) else None
            if isinstance(event, Scored) and isinstance(following, SecondKismet):
                continue  # the entry's second Kismet comes next: one point for both
            found.append(win_chances([final_totals(futures, table, Place(sheet)) for sheet in sheets]))
        return Course(game.names, tuple(found))

    def _futures(self) -> Futures | None:
        """The futures if this machine holds them, loading the table (and mapping the futures) the
        first time; never worked out here."""
        computer = self._computer
        if computer is None or not computer.futures_stored:
            return None
        try:
            if not computer.ready:
                computer.advisor()  # stored with the futures: loaded, not solved
            return computer.stored_futures()
        except ComputerUnavailable:
            return None
