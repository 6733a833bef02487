"""What a person's finished games add up to: games, mean, spread, bonus and Kismet rates, the mean
of every box and of the last ten games.

Computed here, in Python, from the finished games storage reads
(:class:`~kismet_dice.storage.FinishedGame`): each record is replayed through the rules, so a
second Kismet's penalties and the bonus are the engine's own. The same on either store.

How games are counted:

* a seat is a person's unless it has a computer level; computer seats count only when asked for
  (``computers=True``), under their seat's name;
* games are grouped by the exact name at the seat;
* a game in which anyone asked the computer for advice (an *assisted* game) is counted apart:
  every figure is over the unassisted games, and ``assisted`` says how many others there were;
* the standard deviation is the sample's (divided by games - 1), 0 for a single game;
* the Kismet rate is the share of games with more than zero in the Kismet box; ``second_kismets``
  counts every second Kismet rolled, over all the games;
* the last ten are the ten unassisted games that ended last;
* a stored record that no longer replays is left out and counted in ``unreadable``.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from kismet_dice.game import Game, RecordError, SecondKismet
from kismet_dice.rules import Box
from kismet_dice.storage import FinishedGame

BONUS_TIERS = (0, 35, 55, 75)
"""Every bonus a sheet can earn, no bonus first."""

RECENT = 10
"""How many of the last games ``recent_mean`` is over."""

NO_FINISHED_GAMES = "No finished games yet: the statistics come from games played to the end."
"""What the command and the terminal say when no one has a finished game."""


class NoGames(LookupError):
    """A name with no finished game to count."""


@dataclass(frozen=True)
class PlayedSheet:
    """One seat's finished sheet of one game: what statistics need of it."""

    total: int
    bonus: int
    boxes: tuple[int, ...]  # points in each box, in Box order
    second_kismets: int
    assisted: bool


@dataclass(frozen=True)
class PlayerStatistics:
    """The figures of one name over its unassisted finished games (``None`` where there are none).

    ``totals`` lists those games' totals in the order they ended, for the charts.
    """

    name: str
    computer: bool
    games: int
    assisted: int
    mean: float | None
    best: int | None
    worst: int | None
    std: float | None
    bonus_rate: dict[int, float]
    kismet_rate: float | None
    second_kismets: int
    box_mean: dict[str, float]
    recent_mean: float | None
    totals: tuple[int, ...] = field(repr=False)

    def as_json(self) -> dict[str, object]:
        """The figures as a JSON object (rates as shares from 0 to 1; bonus tiers keyed "0" to "75")."""
        return {
            "name": self.name,
            "computer": self.computer,
            "games": self.games,
            "assisted": self.assisted,
            "mean": _rounded(self.mean),
            "best": self.best,
            "worst": self.worst,
            "std": _rounded(self.std),
            "bonus_rate": {str(tier): round(rate, 4) for tier, rate in self.bonus_rate.items()},
            "kismet_rate": None if self.kismet_rate is None else round(self.kismet_rate, 4),
            "second_kismets": self.second_kismets,
            "box_mean": {box: round(mean, 2) for box, mean in self.box_mean.items()},
            "recent_mean": _rounded(self.recent_mean),
            "totals": list(self.totals),
        }


@dataclass(frozen=True)
class Statistics:
    """Every name's figures (sorted by name) and how many stored games could not be replayed."""

    players: tuple[PlayerStatistics, ...]
    unreadable: int

    def player(self, name: str) -> PlayerStatistics | None:
        """The figures of ``name`` (exactly as written), or ``None`` if it has no finished game."""
        return next((player for player in self.players if player.name == name), None)

    def as_json(self) -> dict[str, object]:
        return {"players": [player.as_json() for player in self.players]}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def sheets(game: Game, assisted: bool) -> list[PlayedSheet]:
    """Every seat's finished sheet of a game that is over."""
    seconds = [0] * len(game.names)
    for event in game.history:
        if isinstance(event, SecondKismet):
            seconds[event.seat] += 1
    played = []
    for seat in range(len(game.names)):
        sheet = game.sheet(seat)
        boxes = tuple(sheet[box] or 0 for box in Box)
        played.append(PlayedSheet(sheet.total, sheet.bonus, boxes, seconds[seat], assisted))
    return played


def statistics(games: Iterable[FinishedGame], *, computers: bool = False) -> Statistics:
    """The figures of every name that has played the finished ``games`` (in the order they ended).

    >>> from datetime import UTC, datetime
    >>> from kismet_dice.game import ScriptedDice
    >>> game = Game(["Ann"], rng=ScriptedDice([6] * (1 + 5 * 15)))
    >>> for box in Box:
    ...     _ = game.roll()
    ...     _ = game.score(box)
    >>> when = datetime(2024, 5, 1, tzinfo=UTC)
    >>> ann = statistics([FinishedGame(1, game.to_json(), (None,), False, when)]).players[0]
    >>> ann.games, ann.best, ann.bonus_rate[0], ann.kismet_rate, ann.second_kismets
    (1, 385, 1.0, 1.0, 0)
    """
    by_name: dict[tuple[str, bool], list[PlayedSheet]] = {}
    unreadable = 0
    for stored in games:
        replayed = REPLAYS.replayed(stored)
        if replayed is None or len(stored.levels) != len(replayed[0]):
            unreadable += 1
            continue
        names, seats = replayed
        for seat, played in enumerate(seats):
            computer = stored.levels[seat] is not None
            if computer and not computers:
                continue
            by_name.setdefault((names[seat], computer), []).append(replace(played, assisted=stored.assisted))
    players = tuple(
        figures(name, computer, played)
        for (name, computer), played in sorted(
            by_name.items(), key=lambda item: (item[0][0].casefold(), item[0])
        )
    )
    return Statistics(players, unreadable)


REPLAYED_KEPT = 10_000
"""How many finished games' sheets a process keeps: a page of a site's statistics replays only
the games that ended since the last one was drawn (a replay takes milliseconds a game)."""

Replayed = tuple[tuple[str, ...], tuple[PlayedSheet, ...]]


class Replays:
    """The players and finished sheets of stored games, replayed once each and kept, least recently
    used first let go beyond ``kept``. A finished game never changes, so a game is known by its id,
    when it ended and its record's hash: the records themselves (kilobytes each) are not kept."""

    def __init__(self, kept: int = REPLAYED_KEPT) -> None:
        self._kept = kept
        self._known: OrderedDict[tuple[int, datetime, int], Replayed | None] = OrderedDict()
        self._lock = threading.Lock()
        self.replays = 0  # how many games were replayed
        self.reused = 0  # how many times a game replayed before was asked for again

    def replayed(self, stored: FinishedGame) -> Replayed | None:
        """``stored``'s players and sheets; ``None`` if it does not replay or is not over."""
        key = (stored.id, stored.finished, hash(stored.record))
        with self._lock:
            if key in self._known:
                self._known.move_to_end(key)
                self.reused += 1
                return self._known[key]
        found = _replay(stored.record)
        with self._lock:
            self.replays += 1
            self._known[key] = found
            while len(self._known) > self._kept:
                self._known.popitem(last=False)
        return found

    def clear(self) -> None:
        with self._lock:
            self._known.clear()
            self.replays = self.reused = 0


def _replay(record: str) -> Replayed | None:
    try:
        game = Game.from_json(record)
    except RecordError:
        return None
    if not game.is_over:
        return None
    return game.names, tuple(sheets(game, assisted=False))


REPLAYS = Replays()
"""The process's replayed games, shared by every statistics page and command."""


def figures(name: str, computer: bool, played: Sequence[PlayedSheet]) -> PlayerStatistics:
    """One name's figures from its sheets, in the order the games ended."""
    counted = [sheet for sheet in played if not sheet.assisted]
    totals = tuple(sheet.total for sheet in counted)
    games = len(counted)
    if not games:
        return PlayerStatistics(
            name, computer, 0, len(played), None, None, None, None, {}, None, 0, {}, None, ()
        )
    mean = sum(totals) / games
    std = math.sqrt(sum((total - mean) ** 2 for total in totals) / (games - 1)) if games > 1 else 0.0
    recent = totals[-RECENT:]
    kismet = list(Box).index(Box.KISMET)
    return PlayerStatistics(
        name=name,
        computer=computer,
        games=games,
        assisted=len(played) - games,
        mean=mean,
        best=max(totals),
        worst=min(totals),
        std=std,
        bonus_rate={tier: sum(sheet.bonus == tier for sheet in counted) / games for tier in BONUS_TIERS},
        kismet_rate=sum(sheet.boxes[kismet] > 0 for sheet in counted) / games,
        second_kismets=sum(sheet.second_kismets for sheet in counted),
        box_mean={box.name: sum(sheet.boxes[i] for sheet in counted) / games for i, box in enumerate(Box)},
        recent_mean=sum(recent) / len(recent),
        totals=totals,
    )


def table_lines(player: PlayerStatistics) -> list[str]:
    """One name's figures as lines of plain text, for the command and the terminal."""
    kind = " (computer)" if player.computer else ""
    assisted = f"; {player.assisted} assisted game(s) not counted" if player.assisted else ""
    lines = [f"{player.name}{kind}: {player.games} game(s){assisted}"]
    if not player.games:
        return lines
    assert player.mean is not None
    assert player.std is not None
    assert player.kismet_rate is not None
    assert player.recent_mean is not None
    tiers = ", ".join(f"{tier}: {rate:.0%}" for tier, rate in player.bonus_rate.items())
    lines += [
        f"  mean {player.mean:.1f}, best {player.best}, worst {player.worst}, "
        f"standard deviation {player.std:.1f}",
        f"  mean of the last {min(RECENT, player.games)}: {player.recent_mean:.1f}",
        f"  bonus {tiers}",
        f"  Kismet scored in {player.kismet_rate:.0%} of games; second Kismets: {player.second_kismets}",
        "  mean per box: "
        + ", ".join(f"{Box[box].label} {mean:.1f}" for box, mean in player.box_mean.items()),
    ]
    return lines
