"""What a person's games are compared with: how perfect play, and the easy and medium players, score.

Perfect play is the hard player (every decision maximises the expected total). Its distribution
of totals comes from :func:`perfect_play_distribution`: exact when it is stored, else drawn from
simulated games. The easy and medium players are
always simulated. Made once per process for each table and number of games, then kept.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from kismet_dice.strategy.distribution import distribution_path, load
from kismet_dice.strategy.simulate import Played, run, summarise
from kismet_dice.strategy.table import StrategyTable

PERFECT = "perfect play"
"""The name perfect play goes by in charts and JSON."""

PERFECT_GAMES = 10_000
"""Simulated games of perfect play: for the mean per box, and for the totals while the exact
distribution is not stored on the machine."""

OTHER_GAMES = 600
"""Simulated games of the easy and the medium player each."""

SEED = 13
"""Every reference is made from the same games, so the charts do not move between runs."""


@dataclass(frozen=True)
class Reference:
    """Probabilities by total for each reference player (perfect play first, then medium, easy),
    and perfect play's mean total and mean points in each box (by box name)."""

    distributions: dict[str, dict[int, float]]
    perfect_mean: float
    box_mean: dict[str, float]

    @property
    def perfect(self) -> dict[int, float]:
        return self.distributions[PERFECT]


def shares(totals: Mapping[int, int] | Counter[int]) -> dict[int, float]:
    """Counts of totals as probabilities by total.

    >>> shares(Counter([300, 300, 310, 320]))
    {300: 0.5, 310: 0.25, 320: 0.25}
    """
    count = sum(totals.values())
    return {total: seen / count for total, seen in sorted(totals.items())}


def _distribution(played: Played) -> dict[int, float]:
    return shares(Counter(int(total) for total in played.totals))


def perfect_play_distribution(table: StrategyTable, hard: Played) -> dict[int, float]:
    """The probability of each final total under perfect play from an empty sheet.

    The exact distribution when it is stored beside the table (``kismet chances`` works it out
    the first time, seconds); otherwise the share of each total among the simulated games
    ``hard``, since a chart should not start a long computation. Everything that draws perfect
    play (the command's charts, the web, the terminal) comes through this function.
    """
    exact = load(table.rules, distribution_path(table.rules))
    return exact.by_total() if exact is not None else _distribution(hard)


_made: dict[tuple[str, int, int], Reference] = {}
_lock = threading.Lock()


def reference(
    table: StrategyTable, *, perfect_games: int = PERFECT_GAMES, other_games: int = OTHER_GAMES
) -> Reference:
    """The reference for the charts: made the first time (a few seconds), then kept for the process."""
    key = (table.rules.fingerprint, perfect_games, other_games)
    with _lock:
        found = _made.get(key)
        if found is None:
            hard = run("hard", perfect_games, seed=SEED, table=table, processes=1)
            perfect = perfect_play_distribution(table, hard)
            distributions = {PERFECT: perfect}
            for level in ("medium", "easy"):
                distributions[level] = _distribution(run(level, other_games, seed=SEED, processes=1))
            mean = sum(total * p for total, p in perfect.items())
            # The mean per box needs sheets, which a distribution of totals does not hold.
            found = Reference(distributions, mean, dict(summarise("hard", hard).box_mean))
            _made[key] = found
        return found
