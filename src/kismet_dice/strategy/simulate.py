"""Many solo games of one computer player, on both cores where that pays, and what they add up to.

``easy`` and ``medium`` play through the game engine. ``hard`` plays hundreds of games in
lockstep straight on the rules, one NumPy column per game: the same turn values, the same
option order and the same tie-breaks as :class:`~kismet_dice.strategy.players.HardPlayer`
(a test replays such games through the engine and gets the same sheets). The ``target`` player
(:mod:`kismet_dice.strategy.target`) plays in lockstep too, on threads that share its futures.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kismet_dice.game import ROLLS_PER_TURN, Game
from kismet_dice.rules import BASIC_BOXES, Box, Sheet, bonus
from kismet_dice.strategy import kernel
from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.dice_space import IntArray
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.players import computer_player
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.target import TargetTurns
from kismet_dice.strategy.workers import STALL_SECONDS, Workers

GAMES_PER_TASK = 250
"""Games in one piece of work: the hard player's lockstep batch, and the unit of progress."""

HARD_GAMES_AT_HOME = 10_000
"""Hard games a simulation plays in its own process unless told how many to use: two workers pay
some 0.8 s to start (the fork server, then each its Numba and the table) before their first games,
and one process plays 9,000-12,000 hard games a second. Measured on the 2-core machine (whose two
cores share much, it seems): 10,000 games took 0.9 s in one process and 1.2 s on two workers,
80,000 7.3 s either way. Where two cores give twice one's pace, the workers pay from some 19,000
games on, so below this number one process is the quicker on either kind of machine."""

BONUS_LEVELS = (0, 35, 55, 75)

GAMES_PER_BATCH = 500
"""Games the target player plays in lockstep on one thread: the chances of a turn's endings take
boxes x rolls x games floats (15 x 252 x 500 x 8 bytes = 15 MB for Kismet)."""


@dataclass(frozen=True)
class Played:
    """Finished sheets: ``entries[g, b]`` is the points of game g in box b (sheet order)."""

    entries: IntArray

    @property
    def totals(self) -> IntArray:
        basic = self.entries[:, : len(BASIC_BOXES)].sum(axis=1)
        bonuses = np.array([bonus(int(t)) for t in basic], dtype=np.intp)
        result: IntArray = self.entries.sum(axis=1) + bonuses
        return result


Start = tuple[int | None, ...]
"""A sheet to play on from: each box's points, ``None`` where open."""


def play_hard(
    table: StrategyTable,
    games: int,
    rng: np.random.Generator,
    start: Start | None = None,
    *,
    drawn: list[list[int]] | None = None,
) -> Played:
    """Play ``games`` solo games optimally in lockstep.

    ``start`` is a sheet to play on from (an empty one by default); its entries are in the result.
    ``drawn``, if given (an empty list), gets each game's fresh dice in draw order, to replay the
    games with: kept only when asked, since listing them took a tenth of the games' time.
    """
    rules = table.rules
    tables = kernel.tables_of(rules)
    values = table.values
    boxes = len(rules.boxes)
    points = np.array([box.points for box in rules.boxes], dtype=np.intp)  # (boxes, rolls)
    basic = np.array([box.basic for box in rules.boxes])
    lookup, keep_size, keep_faces = _lockstep_tables(rules)
    subs = rules.space.sub_keeps

    sheet = start if start is not None else (None,) * boxes
    masks, totals, entries = _starting(rules, sheet, games, basic)
    if drawn is not None:
        drawn.extend([] for _ in range(games))
    everyone = np.arange(games)
    for _ in range(sum(points is None for points in sheet)):
        turn = kernel.turn(tables, values, masks, totals)
        dice = np.sort(rng.integers(1, rules.faces + 1, size=(games, rules.dice)), axis=1)
        if drawn is not None:
            for g in range(games):
                drawn[g].extend(dice[g].tolist())
        playing = np.ones(games, dtype=bool)
        for left in range(ROLLS_PER_TURN - 1, -1, -1):
            rolls = lookup[_code(dice, rules.faces)]
            # Every box's value, -inf where filled; argmax takes the top box on a tie, as the advisor does.
            bits = 1 << np.arange(boxes)
            open_ = (masks[:, None] & bits[None, :]) == 0
            got = points[:, rolls].T
            after = np.where(basic[None, :], np.minimum(totals[:, None] + got, rules.cap), totals[:, None])
            box_values = np.where(open_, got + values[masks[:, None] | bits[None, :], after], -np.inf)
            best_box = box_values.argmax(axis=1)
            scoring = playing.copy()
            if left:
                flat = turn.keeps[left]
                options = subs[rolls]
                keep_values = flat[options, everyone[:, None]]
                choice = keep_values.argmax(axis=1)
                best_keep = options[everyone, choice]
                # Boxes come before keeps in the advisor's order, so a tie goes to the box.
                rerolling = playing & (keep_values[everyone, choice] > box_values[everyone, best_box])
                scoring &= ~rerolling
                fresh = rng.integers(1, rules.faces + 1, size=(games, rules.dice))
                sizes = keep_size[best_keep]
                kept = np.arange(rules.dice)[None, :] < sizes[:, None]
                rolled = np.where(kept, keep_faces[best_keep], fresh)
                if drawn is not None:
                    for game in np.flatnonzero(rerolling).tolist():
                        drawn[game].extend(fresh[game, sizes[game] :].tolist())
                dice = np.where(rerolling[:, None], np.sort(rolled, axis=1), dice)
            chosen = best_box[scoring]
            gained = points[chosen, rolls[scoring]]
            entries[scoring, chosen] = gained
            totals[scoring] = np.where(
                basic[chosen], np.minimum(totals[scoring] + gained, rules.cap), totals[scoring]
            )
            masks[scoring] |= 1 << chosen
            playing &= ~scoring
    return Played(entries)


@functools.cache
def _lockstep_tables(rules: RuleSet) -> tuple[IntArray, IntArray, IntArray]:
    """What the players in lockstep look up, made once per process and rule set (every batch of
    games asks): a roll's index from its code (:func:`_code`), and for every keep in the dice
    space's order how many dice it keeps and its faces padded with zeros to a full hand (what the
    players put back on the table)."""
    space = rules.space
    dice = np.array(space.rolls, dtype=np.intp)
    lookup = np.full((rules.faces + 1) ** rules.dice, -1, dtype=np.intp)
    lookup[_code(dice, rules.faces)] = np.arange(len(space.rolls))
    keeps = [keep for level in space.levels[: rules.dice] for keep in level]
    sizes = np.array([len(keep) for keep in keeps], dtype=np.intp)
    faces = np.array([list(keep) + [0] * (rules.dice - len(keep)) for keep in keeps], dtype=np.intp)
    for table in (lookup, sizes, faces):
        table.flags.writeable = False  # shared by every caller
    return lookup, sizes, faces


def _starting(
    rules: RuleSet, sheet: Sequence[int | None], games: int, basic: npt.NDArray[np.bool_]
) -> tuple[IntArray, IntArray, IntArray]:
    """``games`` copies of a starting sheet: the filled boxes' mask, the Basic total (capped) and
    the entries (0 where open)."""
    first = np.array([points or 0 for points in sheet], dtype=np.intp)
    mask = sum(1 << box for box, points in enumerate(sheet) if points is not None)
    masks = np.full(games, mask, dtype=np.intp)
    totals = np.full(games, min(int(first[basic].sum()), rules.cap), dtype=np.intp)
    return masks, totals, np.repeat(first[None, :], games, axis=0)


def _code(dice: IntArray, faces: int) -> IntArray:
    weights = (faces + 1) ** np.arange(dice.shape[1])
    result: IntArray = dice @ weights
    return result


def play_engine(level: str, games: int, seed: int, advisor: Advisor | None = None) -> Played:
    """Play ``games`` solo games through the game engine with a seeded generator."""
    player = computer_player(level, advisor)
    rng = random.Random(seed)
    rows = []
    for _ in range(games):
        game = Game([level], rng=rng)
        while not game.is_over:
            game.apply(player.choose(game))
        sheet: Sheet = game.sheet(0)
        rows.append([sheet[box] or 0 for box in Box])
    return Played(np.array(rows, dtype=np.intp).reshape(games, len(Box)))


# --- the whole run -------------------------------------------------------------------

_TABLE: StrategyTable | None = None
"""In a worker process, the table :func:`_start_worker` was given."""


Job = tuple[str, int, int, Start | None]


def _play(table: StrategyTable | None, job: Job) -> IntArray:
    level, games, seed, start = job
    if level == "hard":
        assert table is not None
        played = play_hard(table, games, np.random.default_rng(seed), start)
    else:
        played = play_engine(level, games, seed)
    return played.entries


def _start_worker(table: StrategyTable | None) -> None:
    global _TABLE
    _TABLE = table


def _task(job: Job) -> IntArray:
    return _play(_TABLE, job)


def _jobs(level: str, games: int, seed: int | None, start: Start | None = None) -> Iterator[Job]:
    tasks = max(1, -(-games // GAMES_PER_TASK))
    seeds = np.random.SeedSequence(seed).spawn(tasks)
    for index, child in enumerate(seeds):
        count = min(GAMES_PER_TASK, games - index * GAMES_PER_TASK)
        yield level, count, int(child.generate_state(1, dtype=np.uint64)[0]), start


def _processes_for(level: str, games: int) -> int:
    """The processes a simulation takes when not told: workers on both cores, unless the games are
    one piece of work (one worker would play it all) or few hard ones (:data:`HARD_GAMES_AT_HOME`).

    >>> _processes_for("hard", 10_000), _processes_for("easy", 250)
    (1, 1)
    """
    if games <= GAMES_PER_TASK or (level == "hard" and games <= HARD_GAMES_AT_HOME):
        return 1
    return min(2, os.cpu_count() or 1)


def run(
    level: str,
    games: int,
    *,
    seed: int | None = None,
    table: StrategyTable | None = None,
    processes: int | None = None,
    progress: Callable[[int], None] | None = None,
    stall: float = STALL_SECONDS,
    start: Start | None = None,
) -> Played:
    """Play ``games`` games of ``level``; the same ``seed`` gives the same games, whatever ``processes``.

    ``start``: a sheet the ``hard`` player plays on from (the others always start empty).
    ``processes``: 1 plays in this process, more on as many workers; by default two workers, or
    this process for few games (:func:`_processes_for`).

    ``progress`` is called with the number of games finished so far. A worker that dies, fails,
    or finishes no task for ``stall`` seconds stops the run with
    :class:`~kismet_dice.strategy.workers.SolveFailed`.
    """
    if level == "hard" and table is None:
        raise ValueError("the hard player needs the solved table")
    if start is not None and level != "hard":
        raise ValueError("only the hard player plays on from a sheet")
    size = processes if processes is not None else _processes_for(level, games)
    parts: list[IntArray] = []
    with contextlib.ExitStack() as stack:
        play: Callable[[Iterator[Job]], Iterator[IntArray]]
        if size > 1:
            # Each piece of work has its own seed and the results come back in order, so the
            # games do not depend on how many workers share them. Each worker gets the table once.
            workers = stack.enter_context(
                Workers(
                    size, _task, _start_worker, (table,), what="The games could not be played", stall=stall
                )
            )
            play = workers.map
        else:
            play = functools.partial(map, functools.partial(_play, table))
        done = 0
        for part in play(_jobs(level, games, seed, start)):
            parts.append(part)
            done += len(part)
            if progress is not None:
                progress(done)
    return Played(np.concatenate(parts, axis=0))


# --- the target player ---------------------------------------------------------------


def play_target(
    turns: TargetTurns, games: int, rng: np.random.Generator, start: Start | None = None
) -> Played:
    """Play ``games`` solo games of the target player of ``turns`` in lockstep (like
    :func:`kismet_dice.strategy.simulate.play_hard`); ``start`` is a sheet to play on from."""
    rules = turns.rules
    boxes = len(rules.boxes)
    points = turns.shape.points
    basic = turns.shape.basic
    lookup, keep_size, keep_faces = _lockstep_tables(rules)
    sheet = start if start is not None else (None,) * boxes
    masks, totals, entries = _starting(rules, sheet, games, basic)
    for _ in range(sum(entry is None for entry in sheet)):
        plan = turns.turn(masks, totals, entries.sum(axis=1))
        dice = np.sort(rng.integers(1, rules.faces + 1, size=(games, rules.dice)), axis=1)
        playing = np.ones(games, dtype=bool)
        for left in range(rules.rolls_per_turn - 1, -1, -1):
            rolls = lookup[_code(dice, rules.faces)]
            choice = plan.decide(rolls, left)
            scoring = playing & ~choice.reroll
            rerolling = playing & choice.reroll
            if left:
                fresh = rng.integers(1, rules.faces + 1, size=(games, rules.dice))
                keep = np.maximum(choice.keep, 0)
                kept = np.arange(rules.dice)[None, :] < keep_size[keep][:, None]
                rolled = np.where(kept, keep_faces[keep], fresh)
                dice = np.where(rerolling[:, None], np.sort(rolled, axis=1), dice)
            chosen = choice.box[scoring]
            gained = points[chosen, rolls[scoring]]
            entries[scoring, chosen] = gained
            totals[scoring] = np.where(
                basic[chosen], np.minimum(totals[scoring] + gained, rules.cap), totals[scoring]
            )
            masks[scoring] |= 1 << chosen
            playing &= ~scoring
    return Played(entries)


def run_target(
    futures: Futures,
    table: StrategyTable,
    target: int,
    games: int,
    *,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Played:
    """``games`` games of the target player, batch by batch on ``threads`` threads (both cores by
    default); the same ``seed`` gives the same games whatever the threads.

    Threads rather than worker processes: the futures of every layer take over a gigabyte for
    Kismet, which threads share, and NumPy lets go of the interpreter in its loops.
    """
    batches = max(1, -(-games // GAMES_PER_BATCH))
    seeds = np.random.SeedSequence(seed).spawn(batches)
    sizes = [min(GAMES_PER_BATCH, games - index * GAMES_PER_BATCH) for index in range(batches)]

    turns = TargetTurns(futures, table, target)

    def batch(index: int) -> Played:
        return play_target(turns, sizes[index], np.random.default_rng(seeds[index]))

    size = threads if threads is not None else min(2, os.cpu_count() or 1)
    parts = []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        for played in pool.map(batch, range(batches)):
            parts.append(played.entries)
            done += len(played.entries)
            if progress is not None:
                progress(done)
    return Played(np.concatenate(parts, axis=0))


@dataclass(frozen=True)
class Summary:
    """What a run of games adds up to."""

    level: str
    games: int
    mean: float
    std: float
    standard_error: float
    percentiles: dict[int, float]
    bonus_frequency: dict[int, float]
    box_frequency: dict[str, float]
    box_mean: dict[str, float]
    best: int
    worst: int

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.level,
            "games": self.games,
            "mean": self.mean,
            "std": self.std,
            "standard_error": self.standard_error,
            "percentiles": {str(p): v for p, v in self.percentiles.items()},
            "bonus_frequency": {str(b): f for b, f in self.bonus_frequency.items()},
            "box_frequency": self.box_frequency,
            "box_mean": self.box_mean,
            "best": self.best,
            "worst": self.worst,
        }


PERCENTILES = (1, 5, 25, 50, 75, 95, 99)


def summarise(level: str, played: Played) -> Summary:
    """Mean, spread, percentiles, bonus tiers and how often each box scored (more than zero)."""
    totals = played.totals.astype(np.float64)
    games = len(totals)
    std = float(totals.std(ddof=1)) if games > 1 else 0.0
    basic = played.entries[:, : len(BASIC_BOXES)].sum(axis=1)
    bonuses = np.array([bonus(int(t)) for t in basic])
    return Summary(
        level=level,
        games=games,
        mean=float(totals.mean()),
        std=std,
        standard_error=std / games**0.5,
        percentiles={p: float(np.percentile(totals, p)) for p in PERCENTILES},
        bonus_frequency={b: float((bonuses == b).mean()) for b in BONUS_LEVELS},
        box_frequency={box.name: float((played.entries[:, i] > 0).mean()) for i, box in enumerate(Box)},
        box_mean={box.name: float(played.entries[:, i].mean()) for i, box in enumerate(Box)},
        best=int(totals.max()),
        worst=int(totals.min()),
    )
