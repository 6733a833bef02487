"""Benchmark: the win computer against the hard one, and how well the chances of winning are told.

Run with the project's environment: ``.venv/bin/python bench/bench_win.py [--games N] [--players 2|3]
[--seed S]``. It plays N games of one win player against hard players (the win player's seat moves
round the table from game to game), on the strategy table and the futures of every position stored
on this machine (worked out the first time), and prints:

- the win player's win rate (ties shared) with its standard error, beside the share a hard player
  would win (1 / players), measured in the same games: the hard players' own rate;
- the time of each of its decisions (p50, p99): the hard player's, measured in the same run, beside it;
- the calibration of the chances the interfaces show: at the start of each turn, every player's
  chance of winning, grouped in tenths, against how often those players won (``--hard-only``: in
  games of hard players only, as the chances' model assumes).

The targets (a win rate of at least 51.0% against one hard player over 200,000 games, 34.5% against
two) need far more games than a quick run: the standard error printed says what a run can tell.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from kismet_dice.game import Game, Scored
from kismet_dice.strategy import Computer
from kismet_dice.strategy.players import HardPlayer
from kismet_dice.strategy.win import game_win_chances
from kismet_dice.strategy.win_player import WinPlayer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--hard-only",
        action="store_true",
        help="every seat hard: the calibration of the chances where everyone plays as their model assumes",
    )
    options = parser.parse_args()
    computer = Computer()
    table = computer.advisor().table
    futures = computer.futures(lambda done, total: None)
    win, hard = WinPlayer(futures, table), HardPlayer(computer.advisor())
    rng = random.Random(options.seed)
    won = np.zeros(options.players)  # by role: 0 the win player, then the hard ones
    times: dict[str, list[float]] = {"win": [], "hard": []}
    told: list[tuple[float, float]] = []  # (chance shown at a turn's start, share of the win)
    started = time.perf_counter()
    for number in range(options.games):
        seat_of_win = number % options.players
        names = tuple("Win" if seat == seat_of_win else f"Hard {seat}" for seat in range(options.players))
        game = Game(names, rng=rng)
        shown: list[tuple[float, ...]] = []
        while not game.is_over:
            if not game.dice and (not game.history or isinstance(game.history[-1], Scored)):
                shown.append(game_win_chances(futures, table, game))
            player = win if game.current_player == seat_of_win and not options.hard_only else hard
            began = time.perf_counter()
            action = player.choose(game)
            if game.dice:
                times["win" if player is win else "hard"].append(time.perf_counter() - began)
            game.apply(action)
        totals = [game.total(seat) for seat in range(options.players)]
        best = max(totals)
        winners = [seat for seat, total in enumerate(totals) if total == best]
        shares = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(options.players)]
        for seat, share in enumerate(shares):
            won[0 if seat == seat_of_win else 1 + (seat - (seat > seat_of_win))] += share
        told += [(chances[seat], shares[seat]) for chances in shown for seat in range(options.players)]
        if (number + 1) % max(1, options.games // 10) == 0:
            print(f"{number + 1} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    games = options.games
    rate = won[0] / games
    error = np.sqrt(rate * (1 - rate) / games)
    who = "hard players only" if options.hard_only else "one win player against hard ones (seats in turn)"
    print(f"{games} games, {options.players} players, {who}")
    first = "the seat in turn (a hard player too)" if options.hard_only else "win player"
    print(
        f"{first}'s win rate {rate:.2%} (standard error {error:.2%}); the other hard players' "
        f"{np.mean(won[1:]) / games:.2%}; even would be {1 / options.players:.2%}"
    )
    for name, found in times.items():
        if not found:
            continue  # no win player in games of hard players only
        print(
            f"{name} decision: p50 {np.percentile(found, 50) * 1000:.1f} ms, "
            f"p99 {np.percentile(found, 99) * 1000:.1f} ms ({len(found)} decisions)"
        )
    print("calibration of the chances shown at each turn's start (tenth: shown, won, count):")
    chances = np.array(told)
    for tenth in range(10):
        inside = (chances[:, 0] >= tenth / 10) & (chances[:, 0] < (tenth + 1) / 10 + (tenth == 9))
        if inside.any():
            print(
                f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}: {chances[inside, 0].mean():6.1%} "
                f"{chances[inside, 1].mean():6.1%} {int(inside.sum()):7d}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
