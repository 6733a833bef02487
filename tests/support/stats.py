"""Finished games for the statistics tests: every seat rolls the same five dice each turn, once,
and enters them in its boxes in the order given; the points the engine returned are handed back
so a test can add them up itself."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from kismet_dice import Box, Game
from kismet_dice.game import ScriptedDice
from kismet_dice.storage import Storage
from kismet_dice.strategy import StrategyTable
from kismet_dice.strategy.reference import Reference, reference
from kismet_dice.strategy.solver import Progress

TOP_DOWN = tuple(Box)
KISMET_FIRST = (Box.KISMET, *(box for box in Box if box is not Box.KISMET))


def store_game(
    storage: Storage,
    players: Sequence[tuple[str, Sequence[int], Sequence[Box]]],
    *,
    levels: Sequence[str | None] | None = None,
    assisted: bool = False,
) -> list[dict[Box, int]]:
    """Play a game of ``(name, dice, boxes)`` seats to the end and keep it finished; each seat's points.

    The roll-off gives the first seat a 6 and every other a 1, so seats play in seating order. With
    more than one seat no seat may roll a second Kismet (it would cost the others a turn).
    """
    faces = [6] + [1] * (len(players) - 1) if len(players) > 1 else [6]
    for _ in range(len(Box)):
        for _name, dice, _boxes in players:
            faces += list(dice)
    game = Game([name for name, _, _ in players], rng=ScriptedDice(faces))
    saved = storage.games.start(game, levels=levels, assisted=assisted)
    points: list[dict[Box, int]] = [{} for _ in players]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        assert game.roll() == tuple(players[seat][1])
        box = players[seat][2][len(points[seat])]
        points[seat][box] = game.score(box)
    storage.games.save(saved.id, game, version=saved.version, assisted=assisted)
    return points


def total(points: dict[Box, int]) -> int:
    """The sheet's total, added up here: every box, and the bonus on the Basic section (63, 71, 78)."""
    basic = sum(points[box] for box in (Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES))
    bonus = 75 if basic >= 78 else 55 if basic >= 71 else 35 if basic >= 63 else 0
    return sum(points.values()) + bonus


class HeldReference:
    """The charts' reference as the first chart on a machine makes it, stopped midway: the real
    games (``perfect_games`` of perfect play, a number no other test stores, and 30 of each other
    player), held after their first batch until :attr:`go` is set. Called as
    :func:`~kismet_dice.strategy.reference.reference` is."""

    def __init__(self, perfect_games: int) -> None:
        self.perfect_games = perfect_games
        self.reached = threading.Event()
        """Set once a batch is played and told: the games wait for :attr:`go` from then on."""
        self.go = threading.Event()
        self.ended = threading.Event()
        """Set once the games ended, played or stopped (by what :attr:`raised` then holds)."""
        self.raised: BaseException | None = None

    def __call__(self, table: StrategyTable, *, progress: Progress | None = None) -> Reference:
        def told(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            if done > 0 and not self.reached.is_set():
                self.reached.set()
                self.go.wait(timeout=60)  # bounded, so that a failed test leaves no thread for ever

        try:
            return reference(table, perfect_games=self.perfect_games, other_games=30, progress=told)
        except BaseException as error:
            self.raised = error
            raise
        finally:
            self.ended.set()
