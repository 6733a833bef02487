"""What a person's games are compared with: how perfect play, and the easy and medium players, score.

Perfect play is the hard player (every decision maximises the expected total). Its distribution
of totals comes from :func:`perfect_play_distribution`: exact when it is stored, else drawn from
simulated games. The easy and medium players are always simulated.

The simulated games take seconds (about 9 on the 2-core machine), and every ``kismet stats
--chart`` is a process of its own: what they found is stored beside the strategy table, in its
checked format (:mod:`~kismet_dice.strategy.stored`), the first time, and kept for the process;
processes that need them at once play them once.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kismet_dice.rules import Box
from kismet_dice.strategy import stored
from kismet_dice.strategy.distribution import distribution_path, load
from kismet_dice.strategy.simulate import Played, run, summarise
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import StrategyTable, computing_lock, table_dir

PERFECT = "perfect play"
"""The name perfect play goes by in charts and JSON."""

PERFECT_GAMES = 10_000
"""Simulated games of perfect play: for the mean per box, and for the totals while the exact
distribution is not stored on the machine."""

OTHER_GAMES = 600
"""Simulated games of the easy and the medium player each."""

SEED = 13
"""Every reference is made from the same games, so the charts do not move between runs."""

FORMAT = "kismet-dice reference games"
VERSION = 1
"""Raised whenever the players or the simulation change, so that games stored before are played again."""

SIMULATED = ("hard", "medium", "easy")
"""The players whose games are stored, in the file's order."""


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


def perfect_play_distribution(table: StrategyTable, hard: dict[int, float]) -> dict[int, float]:
    """The probability of each final total under perfect play from an empty sheet.

    The exact distribution when it is stored beside the table (``kismet chances`` works it out
    the first time, seconds); otherwise ``hard``, the share of each total among simulated games,
    since a chart should not start a long computation. Everything that draws perfect play (the
    command's charts, the web, the terminal) comes through this function.
    """
    exact = load(table.rules, distribution_path(table.rules))
    return exact.by_total() if exact is not None else hard


@dataclass(frozen=True)
class Simulated:
    """What the simulated games found: each player's share of every total (by :data:`SIMULATED`
    name), and the hard player's mean points in each box (by box name)."""

    distributions: dict[str, dict[int, float]]
    box_mean: dict[str, float]


def simulate(
    table: StrategyTable, perfect_games: int, other_games: int, progress: Progress | None = None
) -> Simulated:
    """Play the reference games now (seconds); ``progress`` is told the games played of all."""
    total = perfect_games + other_games * (len(SIMULATED) - 1)

    def counting(before: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(before + done, total)

    if progress is not None:
        progress(0, total)
    hard = run("hard", perfect_games, seed=SEED, table=table, processes=1, progress=counting(0))
    distributions = {"hard": _distribution(hard)}
    for number, level in enumerate(SIMULATED[1:]):
        played = run(
            level,
            other_games,
            seed=SEED,
            processes=1,
            progress=counting(perfect_games + number * other_games),
        )
        distributions[level] = _distribution(played)
    # The mean per box needs sheets, which a distribution of totals does not hold.
    return Simulated(distributions, dict(summarise("hard", hard).box_mean))


def reference_path(table: StrategyTable, directory: Path | None = None) -> Path:
    """Beside the strategy table, named after the same rules."""
    rules = table.rules
    return (directory or table_dir()) / f"{rules.name}-{rules.fingerprint[:16]}.reference"


def _header(table: StrategyTable, perfect_games: int, other_games: int) -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": table.rules.fingerprint,
        "perfect_games": perfect_games,
        "other_games": other_games,
        "seed": SEED,
        "boxes": [box.name for box in Box],
    }


def save(
    table: StrategyTable, simulated: Simulated, path: Path, perfect_games: int, other_games: int
) -> None:
    """Write atomically: each player's shares from its lowest total on, then the box means."""
    lowest, lengths, parts = [], [], []
    for name in SIMULATED:
        shares = simulated.distributions[name]
        low = min(shares)
        dense = np.zeros(max(shares) - low + 1)
        for total, share in shares.items():
            dense[total - low] = share
        lowest.append(low)
        lengths.append(len(dense))
        parts.append(dense)
    parts.append(np.array([simulated.box_mean[box.name] for box in Box]))
    header = {**_header(table, perfect_games, other_games), "lowest": lowest, "lengths": lengths}
    stored.write(path, header, np.concatenate(parts))


def load_simulated(
    table: StrategyTable, path: Path, perfect_games: int, other_games: int
) -> Simulated | None:
    """The games stored at ``path`` for this table and these numbers of games, or ``None`` if
    missing, damaged or another's.

    >>> import tempfile
    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> table = StrategyTable(kismet_rules(), np.zeros((1, 1)))
    >>> found = Simulated({"hard": {300: 1.0}, "medium": {200: 0.5, 202: 0.5}, "easy": {150: 1.0}},
    ...                   {box.name: 1.5 for box in Box})
    >>> place = Path(tempfile.mkdtemp()) / "k.reference"
    >>> save(table, found, place, 10, 6)
    >>> load_simulated(table, place, 10, 6) == found, load_simulated(table, place, 10, 7)
    (True, None)
    """
    read = stored.read(path, _header(table, perfect_games, other_games))
    if read is None:
        return None
    header, values = read
    lowest, lengths = header.get("lowest"), header.get("lengths")
    if (
        not isinstance(lowest, list)
        or not isinstance(lengths, list)
        or len(lowest) != len(SIMULATED)
        or len(lengths) != len(SIMULATED)
        or not all(isinstance(n, int) and n > 0 for n in lengths)
        or not all(isinstance(n, int) for n in lowest)
        or len(values) != sum(lengths) + len(Box)
    ):
        return None
    distributions, start = {}, 0
    for name, low, length in zip(SIMULATED, lowest, lengths, strict=True):
        part = values[start : start + length]
        distributions[name] = {low + i: float(share) for i, share in enumerate(part) if share > 0}
        start += length
    box_mean = {box.name: float(mean) for box, mean in zip(Box, values[start:], strict=True)}
    return Simulated(distributions, box_mean)


_made: dict[tuple[str, int, int], Reference] = {}
_lock = threading.Lock()


def reference(
    table: StrategyTable,
    *,
    perfect_games: int = PERFECT_GAMES,
    other_games: int = OTHER_GAMES,
    progress: Progress | None = None,
) -> Reference:
    """The reference for the charts: the stored games, else games played now (seconds) and stored;
    kept for the process. ``progress`` hears of the games as they are played, if they are."""
    key = (table.rules.fingerprint, perfect_games, other_games)
    with _lock:
        found = _made.get(key)
        if found is None:
            simulated = stored_or_played(table, reference_path(table), perfect_games, other_games, progress)
            found = _reference(table, simulated)
            _made[key] = found
        return found


def stored_or_played(
    table: StrategyTable, path: Path, perfect_games: int, other_games: int, progress: Progress | None = None
) -> Simulated:
    """The games stored at ``path``, else played now and stored there (``progress`` hears of them,
    or of the other process playing them while this one waits)."""
    simulated = load_simulated(table, path, perfect_games, other_games)
    if simulated is not None:
        return simulated
    # The server processes of a site, or commands run at once, play them once: the first takes
    # the lock beside the file, the others wait and read what it stored.
    with computing_lock(path, progress) as playing:
        simulated = load_simulated(table, path, perfect_games, other_games)
        if simulated is None:
            simulated = simulate(table, perfect_games, other_games, playing)
            # A home that cannot be written plays them each time.
            with contextlib.suppress(OSError):
                save(table, simulated, path, perfect_games, other_games)
    return simulated


def _reference(table: StrategyTable, simulated: Simulated) -> Reference:
    # Exact perfect play whenever it is stored, even if it was not when the games were played.
    perfect = perfect_play_distribution(table, simulated.distributions["hard"])
    distributions = {PERFECT: perfect, **{level: simulated.distributions[level] for level in SIMULATED[1:]}}
    mean = sum(total * p for total, p in perfect.items())
    return Reference(distributions, mean, simulated.box_mean)
