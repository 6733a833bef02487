"""Benchmark: the win computer against the hard one, and how well the chances of winning are told.

Run with the project's environment: ``.venv/bin/python bench/bench_win.py [--games N] [--players 2|3]
[--seed S] [--workers W]``. It plays N games of one win player against hard players (the win
player's seat moves round the table from game to game), on the strategy table and the futures of
every position stored on this machine (worked out the first time), and prints:

- the win player's win rate (ties shared) with its standard error, beside the share a hard player
  would win (1 / players), measured in the same games: the hard players' own rate;
- the time of each of its decisions (p50, p99): the hard player's, measured in the same run, beside it;
- the calibration of the chances the interfaces show: at the start of each turn, every player's
  chance of winning, grouped in tenths, against how often those players won (``--hard-only``: in
  games of hard players only, as the chances' model assumes).

Each game has dice of its own (drawn from the seed and the game's number), so a run gives the same
figures whatever the number of worker processes (``--workers``, default one per core) that share
its games, and a long run may be played in parts (``--first``): each part prints the sums that
add up to the whole run's figures.

The targets (a win rate of at least 51.0% against one hard player over 200,000 games, 34.5% against
two) need far more games than a quick run: the standard error printed says what a run can tell.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from kismet_dice.game import Game, Scored
from kismet_dice.strategy import Computer
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.players import HardPlayer
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.win import game_win_chances
from kismet_dice.strategy.win_player import WinPlayer

BATCH = 200
"""Games a worker plays before it reports: progress every few seconds, little to send."""


@dataclass
class Tally:
    """What a batch of games found: kept as sums, so that any number of games fits in memory."""

    games: int = 0
    won: np.ndarray = field(
        default_factory=lambda: np.zeros(3)
    )  # by role: the win player, then the hard ones
    squares: float = 0.0  # the sum of the squares of the win player's shares (ties make them halves)
    times: dict[str, list[np.ndarray]] = field(default_factory=lambda: {"win": [], "hard": []})
    shown: np.ndarray = field(default_factory=lambda: np.zeros(10))  # by tenth: the sum of the chances shown
    share: np.ndarray = field(default_factory=lambda: np.zeros(10))  # the sum of the shares won
    count: np.ndarray = field(default_factory=lambda: np.zeros(10, dtype=np.int64))

    def rate(self) -> float:
        """The win player's share of the games (the seat in turn's with hard players only)."""
        return float(self.won[0] / self.games)

    def error(self) -> float:
        """The standard error of :meth:`rate`, from the spread of the shares (ties make halves)."""
        rate = self.rate()
        return float(np.sqrt(max(self.squares / self.games - rate**2, 0.0) / self.games))

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.won += other.won
        self.squares += other.squares
        for name, found in other.times.items():
            self.times[name] += found
        self.shown += other.shown
        self.share += other.share
        self.count += other.count


_players: tuple[StrategyTable, Futures, WinPlayer, HardPlayer] | None = None


def _start() -> None:
    """A worker's players: the table and the futures of every position, loaded once. A worker
    leaves Ctrl-C to the main process, which stops the run there (see :func:`main`)."""
    global _players
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    computer = Computer()
    table = computer.advisor().table
    futures = computer.futures(lambda done, total: None)
    _players = (table, futures, WinPlayer(futures, table), HardPlayer(computer.advisor()))


def _play(first: int, count: int, players: int, seed: int, hard_only: bool, calibrate: bool) -> Tally:
    assert _players is not None, "each worker loads its players first"
    table, futures, win, hard = _players
    tally = Tally()
    times: dict[str, list[float]] = {"win": [], "hard": []}
    for number in range(first, first + count):
        seat_of_win = number % players
        names = tuple("Win" if seat == seat_of_win else f"Hard {seat}" for seat in range(players))
        game = Game(names, rng=random.Random(f"{seed}:{number}"))
        shown: list[tuple[float, ...]] = []
        while not game.is_over:
            if calibrate and not game.dice and (not game.history or isinstance(game.history[-1], Scored)):
                shown.append(game_win_chances(futures, table, game))
            player = win if game.current_player == seat_of_win and not hard_only else hard
            began = time.perf_counter()
            action = player.choose(game)
            if game.dice:
                times["win" if player is win else "hard"].append(time.perf_counter() - began)
            game.apply(action)
        totals = [game.total(seat) for seat in range(players)]
        best = max(totals)
        winners = [seat for seat, total in enumerate(totals) if total == best]
        shares = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        for seat, share in enumerate(shares):
            tally.won[0 if seat == seat_of_win else 1 + (seat - (seat > seat_of_win))] += share
        tally.squares += shares[seat_of_win] ** 2
        for chances in shown:
            for seat in range(players):
                tenth = min(int(chances[seat] * 10), 9)
                tally.shown[tenth] += chances[seat]
                tally.share[tenth] += shares[seat]
                tally.count[tenth] += 1
        tally.games += 1
    tally.times = {name: [np.array(found, dtype=np.float32)] for name, found in times.items()}
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="the number of the first game: a run too long for one sitting is played in parts "
        "(--first 0 --games 100000, then --first 100000 ...), whose sums add up",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--hard-only",
        action="store_true",
        help="every seat hard: the calibration of the chances where everyone plays as their model assumes",
    )
    parser.add_argument(
        "--no-calibration",
        action="store_true",
        help="leave out the chances at each turn's start (a long run of the win rate goes faster)",
    )
    options = parser.parse_args()
    _start()  # worked out here first if need be, so that the workers only load them
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.perf_counter()
    tally = Tally()
    end = options.first + options.games
    batches = [(first, min(BATCH, end - first)) for first in range(options.first, end, BATCH)]
    calibrate = not options.no_calibration
    with concurrent.futures.ProcessPoolExecutor(options.workers, initializer=_start) as pool:
        running = [
            pool.submit(_play, first, count, options.players, options.seed, options.hard_only, calibrate)
            for first, count in batches
        ]
        try:
            for done in concurrent.futures.as_completed(running):
                tally.add(done.result())
                # The figure so far, so that a long run stopped early still tells something.
                print(
                    f"{tally.games} games, {time.perf_counter() - started:.0f} s: win player "
                    f"{tally.rate():.2%} (standard error {tally.error():.2%})",
                    file=sys.stderr,
                    flush=True,
                )
        except KeyboardInterrupt:
            # Ctrl-C: the batches under way end, the others are dropped, and the games played are told.
            print("stopping: the games under way end first", file=sys.stderr, flush=True)
            for waiting in running:
                waiting.cancel()
            for done in running:
                if not done.cancelled():
                    tally.add(done.result())
    games = tally.games
    rate, error = tally.rate(), tally.error()
    who = "hard players only" if options.hard_only else "one win player against hard ones (seats in turn)"
    print(f"{games} games, {options.players} players, {who}, {time.perf_counter() - started:.0f} s")
    first = "the seat in turn (a hard player too)" if options.hard_only else "win player"
    print(
        f"{first}'s win rate {rate:.2%} (standard error {error:.2%}); the other hard players' "
        f"{np.mean(tally.won[1 : options.players]) / games:.2%}; even would be {1 / options.players:.2%}"
    )
    print(
        f"games {options.first} to {options.first + games - 1} (if none was dropped); to add parts up: "
        f"{games} games, {tally.won[0]:.1f} shares won, {tally.squares:.2f} their squares "
        "(rate = shares / games; standard error = sqrt((squares / games - rate^2) / games))"
    )
    for name, found in tally.times.items():
        if not found or not sum(len(part) for part in found):
            continue  # no win player in games of hard players only
        every = np.concatenate(found)
        print(
            f"{name} decision: p50 {np.percentile(every, 50) * 1000:.1f} ms, "
            f"p99 {np.percentile(every, 99) * 1000:.1f} ms ({len(every)} decisions)"
        )
    if options.no_calibration:
        return 0
    print("calibration of the chances shown at each turn's start (tenth: shown, won, count, gap):")
    for tenth in range(10):
        if tally.count[tenth]:
            shown = tally.shown[tenth] / tally.count[tenth]
            won = tally.share[tenth] / tally.count[tenth]
            print(
                f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}: {shown:6.1%} {won:6.1%} "
                f"{int(tally.count[tenth]):9d} {(won - shown) * 100:+5.1f} points"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
