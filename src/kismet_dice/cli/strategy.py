"""``kismet solve``, ``kismet hint`` and ``kismet simulate``: the optimal strategy at the command line."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from kismet_dice.cli.errors import UserError
from kismet_dice.rules import Box, IllegalAction, Sheet
from kismet_dice.session import narration
from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.compiled import telling_compiles
from kismet_dice.strategy.players import LEVELS, Level
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.simulate import Played, run, run_target, summarise
from kismet_dice.strategy.table import StrategyTable, load, load_or_solve, table_path, telling_waits
from kismet_dice.strategy.target import TARGET


def register(subparsers: Any) -> None:
    solve = subparsers.add_parser(
        "solve",
        help="compute the optimal strategy table (stored for later)",
        description="Solve solo Kismet exactly and print the optimal expected score from an empty sheet.",
    )
    solve.add_argument("--force", action="store_true", help="recompute even if a stored table exists")
    solve.add_argument("--json", action="store_true", help='print {"expected_score": ..., "seconds": ...}')
    solve.set_defaults(run=run_solve)

    hint = subparsers.add_parser(
        "hint",
        help="rank every option of a position by expected final total",
        description="Rank the options of a position (dice, rolls left, filled boxes) by expected total.",
    )
    hint.add_argument("--dice", nargs="+", required=True, metavar="DIE", help="five dice, e.g. 1 3 3 5 6")
    hint.add_argument(
        "--rolls-left",
        type=int,
        required=True,
        metavar="N",
        help="rolls left this turn: 2 after the first roll, 1 after the second, 0 after the third",
    )
    hint.add_argument(
        "--filled", default="", metavar="BOX=POINTS,...", help="filled boxes, e.g. ONES=3,SIXES=24,KISMET=0"
    )
    hint.add_argument("--json", action="store_true", help="print a JSON list, best first")
    hint.add_argument(
        "--target",
        type=int,
        metavar="T",
        help="also each option's chance of a final total of T or more: playing for T where the target "
        "player's futures are stored (any sheet), else playing for the expected total",
    )
    hint.set_defaults(run=run_hint)

    chances = subparsers.add_parser(
        "chances",
        help="the chance that perfect play reaches a total, or each player's chance of winning",
        description="The chance that perfect play from a sheet (at the start of a turn) ends with T or "
        "more; or, with --win, each player's chance of winning from the sheets of a game.",
    )
    goal = chances.add_mutually_exclusive_group(required=True)
    goal.add_argument("--target", type=int, metavar="T", help="the total to reach")
    goal.add_argument(
        "--win",
        action="store_true",
        help="each player's chance of winning: one --sheet per player, the one whose turn it is first",
    )
    chances.add_argument(
        "--sheet",
        action="append",
        default=[],
        metavar="BOX=POINTS,...",
        help="with --win: a player's filled boxes (repeat for each player, in turn order; '' for an "
        "empty sheet)",
    )
    chances.add_argument(
        "--dice", nargs="+", metavar="DIE", help="with --win: the dice of the first player's turn, if rolled"
    )
    chances.add_argument(
        "--rolls-left", type=int, default=0, metavar="N", help="with --win and --dice: rolls left this turn"
    )
    chances.add_argument(
        "--filled", default="", metavar="BOX=POINTS,...", help="filled boxes, e.g. ONES=3,SIXES=24,KISMET=0"
    )
    chances.add_argument("--seed", type=int, help="ignored: every chance is exact now (kept for scripts)")
    chances.add_argument(
        "--json",
        action="store_true",
        help='print {"target": T, "chance": p, "expected": e, "exact": true, "interval": null}',
    )
    chances.set_defaults(run=run_chances)

    simulate = subparsers.add_parser(
        "simulate",
        help="play many games with a computer player and show the statistics",
        description="Play many solo games with a computer player, on all cores, and summarise them.",
    )
    simulate.add_argument(
        "--player",
        type=_simulated_player,
        choices=LEVELS,
        default=Level.HARD,
        help="computer player: easy, medium, hard or target (default hard)",
    )
    simulate.add_argument(
        "--target",
        type=int,
        metavar="T",
        help="the total the target player plays for (needed with --player target, refused otherwise)",
    )
    simulate.add_argument(
        "--games", type=int, default=10000, metavar="N", help="games to play (default 10000)"
    )
    simulate.add_argument("--seed", type=int, help="make the games repeatable")
    simulate.add_argument("--json", action="store_true", help="print the statistics as JSON")
    simulate.set_defaults(run=run_simulate)


def _simulated_player(text: str) -> Level:
    """A level (``target`` plays for the total given by ``--target``; ``win`` needs a table of
    players to beat, which solo games have not)."""
    try:
        level = Level.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if level is Level.WIN:
        raise argparse.ArgumentTypeError(
            "a win player plays against a table; alone it plays as hard (--player hard)"
        )
    return level


class _PlainProgress:
    """Progress for a pipe or a log: a line on stderr as each tenth of a long job is done (a bar's
    redrawing would fill a log with control characters)."""

    def __init__(self) -> None:
        self._tasks: dict[int, tuple[str, float | None, int]] = {}

    def __enter__(self) -> _PlainProgress:
        return self

    def __exit__(self, *_: object) -> None:
        self._tasks.clear()

    def add_task(self, description: str, total: float | None = None) -> int:
        task = len(self._tasks)
        self._tasks[task] = (description, total, -1)
        return task

    def remove_task(self, task: int) -> None:
        self._tasks.pop(task, None)

    def update(self, task: int, completed: float, total: float | None = None) -> None:
        description, known, said = self._tasks[task]
        total = total if total is not None else known
        tenths = int(10 * completed / total) if total else -1
        if tenths > said:
            print(f"{description}: {10 * tenths}%", file=sys.stderr, flush=True)
        self._tasks[task] = (description, total, max(said, tenths))


@contextmanager
def progress_bar() -> Iterator[Any]:
    """A progress bar on stderr (lines in tenths for a pipe or a log) that also says, once per
    command, when the first run on this machine compiles the strategy first, and when the command
    waits for another one doing the same work (the bar then shows that one's progress)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    bar: Any = (
        Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        if console.is_terminal
        else _PlainProgress()
    )

    def say(line: str) -> None:
        if isinstance(bar, _PlainProgress):
            print(line, file=sys.stderr, flush=True)
        else:
            bar.console.print(line)  # above the bar, which goes on below

    def say_waiting(waiting: bool) -> None:
        if waiting:  # its end needs no line: the bar ends or goes on as the command's own
            say(narration.WAITING)

    with bar, saying_compiles(say), telling_waits(say_waiting):
        yield bar


_told_compiling = threading.Event()
"""Set once the command has said that it compiles the strategy (a solve then a distribution both
may: once is enough)."""


def saying_compiles(say: Callable[[str], None]) -> AbstractContextManager[None]:
    """Within this, ``say`` is given :data:`~kismet_dice.session.narration.COMPILING` (from the
    compiling thread) the first time in this command that the strategy compiles."""

    def tell() -> None:
        if not _told_compiling.is_set():
            _told_compiling.set()
            say(narration.COMPILING)

    return telling_compiles(tell)


def load_table(force: bool = False) -> StrategyTable:
    """The Kismet table from the cache, or solved now with a progress bar on stderr."""
    rules = kismet_rules()
    if not force:
        stored = load(rules, table_path(rules))
        if stored is not None:
            return stored
    with progress_bar() as bar:
        task = bar.add_task("Solving Kismet", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            # Not forced unless asked: a table another kismet stores while this one waits is loaded.
            return load_or_solve(rules, force=force, progress=progress)
        except OSError as error:
            raise UserError(f"cannot use the table directory: {error}") from None


def run_solve(options: argparse.Namespace) -> int:
    started = time.perf_counter()
    table = load_table(force=options.force)
    seconds = time.perf_counter() - started
    if options.json:
        print(json.dumps({"expected_score": table.expected_score, "seconds": round(seconds, 3)}))
    else:
        print(f"Optimal expected score from an empty sheet: {table.expected_score:.4f}")
        print(f"Took {seconds:.1f} seconds.")
    return 0


def parse_filled(text: str) -> Sheet:
    """A sheet from ``ONES=3,SIXES=24,KISMET=0`` (names, labels or numbers of boxes).

    >>> parse_filled("ones=3, 6=24")[Box.SIXES]
    24
    """
    sheet = Sheet()
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, points = item.partition("=")
        if not equals or not points.strip().isdigit():
            raise UserError(f"write each filled box as BOX=POINTS, like SIXES=24 (got {item!r})")
        try:
            sheet = sheet.with_entry(Box.parse(name), int(points))
        except IllegalAction as error:
            raise UserError(str(error)) from None
    return sheet


def run_hint(options: argparse.Namespace) -> int:
    from kismet_dice.cli.reference import parse_dice

    dice = parse_dice(options.dice)
    sheet = parse_filled(options.filled)
    if sheet.is_full:
        raise UserError("every box is filled: the game is over")
    advisor = Advisor(load_table())
    try:
        ranked = advisor.options(sheet, dice, options.rolls_left)
    except IllegalAction as error:
        raise UserError(str(error)) from None
    if options.target is not None:
        return _hint_target(options, advisor, sheet, dice)
    if options.json:
        print(json.dumps([option.to_json() for option in ranked]))
        return 0
    best = ranked[0].expected
    left = narration.rolls_left(options.rolls_left)
    print(f"Dice {' '.join(map(str, dice))}, {left}; sheet total {sheet.total}.")
    print(f"{'expected total':>14}  {'vs best':>8}  choice")
    for option in ranked:
        print(f"{option.expected:14.3f}  {option.expected - best:+8.3f}  {narration.option(option, dice)}")
    return 0


def run_simulate(options: argparse.Namespace) -> int:
    if options.games < 1:
        raise UserError("--games needs at least 1")
    target: int | None = options.target
    if options.player == TARGET and target is None:
        raise UserError("--player target needs --target T, the total to play for")
    if options.player != TARGET and target is not None:
        raise UserError("--target is for --player target only")
    started = time.perf_counter()
    if target is not None:
        played = _play_target(options, target)
    else:
        table = load_table() if options.player.needs_table else None
        finished = 0

        def advance(done: int) -> None:
            nonlocal finished
            finished = done
            bar.update(task, completed=done)

        try:
            with progress_bar() as bar:
                task = bar.add_task(f"Playing {options.player}", total=options.games)
                played = run(options.player, options.games, seed=options.seed, table=table, progress=advance)
        except KeyboardInterrupt:
            # The bar goes with the interruption: say that the stop was taken, and how far it got.
            print(f"Stopped after {finished:,} of {options.games:,} games.", file=sys.stderr)
            return 130
    seconds = time.perf_counter() - started
    summary = summarise(str(options.player), played)
    reached = None if target is None else float((played.totals >= target).mean())
    if options.json:
        extra: dict[str, object] = {"seconds": round(seconds, 3)}
        if target is not None and reached is not None:
            extra |= {
                "target": target,
                "reached": reached,
                "reached_standard_error": (reached * (1 - reached) / summary.games) ** 0.5,
            }
        print(json.dumps({**summary.to_json(), **extra}))
        return 0
    out = sys.stdout
    print(f"{summary.games} games of {summary.level} in {seconds:.1f} s", file=out)
    if target is not None and reached is not None:
        error = (reached * (1 - reached) / summary.games) ** 0.5
        print(f"reached {target} or more in {reached:.2%} (standard error {error:.2%})", file=out)
    # Every figure in points has two decimals, percentiles too (they fall between two games'
    # totals), so the columns compare at a glance; best and worst are single games' totals.
    print(
        f"mean {summary.mean:.2f} (standard error {summary.standard_error:.2f}), std {summary.std:.2f}",
        file=out,
    )
    print("percentiles " + ", ".join(f"{p}%: {v:.2f}" for p, v in summary.percentiles.items()), file=out)
    print(f"best {summary.best}, worst {summary.worst}", file=out)
    print("bonus " + ", ".join(f"{b}: {f:.1%}" for b, f in summary.bonus_frequency.items()), file=out)
    print(f"{'box':<22}{'scored':>8}{'mean':>8}", file=out)
    for box in Box:
        print(
            f"{box.label:<22}{summary.box_frequency[box.name]:>8.1%}{summary.box_mean[box.name]:>8.2f}",
            file=out,
        )
    return 0


def _play_target(options: argparse.Namespace, target: int) -> Played:
    """The target player's games: the futures of every position (stored, or worked out and stored
    the first time, under a minute), then the games."""
    from kismet_dice.strategy.stored_futures import load_or_compute_futures

    table = load_table()
    with progress_bar() as bar:
        task = bar.add_task("Following perfect play into every position", total=None)
        futures = load_or_compute_futures(
            table, progress=lambda done, total: bar.update(task, completed=done, total=total)
        )
        bar.remove_task(task)
        task = bar.add_task(f"Playing for {target}", total=options.games)
        return run_target(
            futures,
            table,
            target,
            options.games,
            seed=options.seed,
            progress=lambda done: bar.update(task, completed=done),
        )


def _win_chances(options: argparse.Namespace) -> int:
    """Each player's chance of winning from the sheets given (the futures of every position are
    worked out once, the first time on a machine, with a progress bar)."""
    from kismet_dice.cli.reference import parse_dice
    from kismet_dice.strategy.stored_futures import load_or_compute_futures
    from kismet_dice.strategy.win import MODEL, Place, final_totals, win_chances

    if len(options.sheet) < 2:
        raise UserError("give each player's sheet with --sheet, at least two (--sheet '' is an empty one)")
    sheets = [parse_filled(text) for text in options.sheet]
    dice = None if options.dice is None else parse_dice(options.dice)
    if dice is not None and not 0 <= options.rolls_left < 3:
        raise UserError(f"rolls left are 0, 1 or 2 after a roll, not {options.rolls_left}")
    if dice is not None and sheets[0].is_full:
        raise UserError("the first player's sheet is full: there is no turn to roll for")
    table = load_table()
    with progress_bar() as bar:
        task = bar.add_task("Following perfect play into every position", total=None)
        futures = load_or_compute_futures(
            table, progress=lambda done, total: bar.update(task, completed=done, total=total)
        )
    places = [Place(sheet) for sheet in sheets]
    if dice is not None:
        places[0] = Place(sheets[0], dice, options.rolls_left)
    chances = win_chances([final_totals(futures, table, place) for place in places])
    if options.json:
        players = [
            {"sheet_total": sheet.total, "win_chance": chance}
            for sheet, chance in zip(sheets, chances, strict=True)
        ]
        print(json.dumps({"players": players, "model": MODEL}))
        return 0
    print(MODEL)
    for number, (place, chance) in enumerate(zip(places, chances, strict=True), start=1):
        turn = ""
        if place.dice is not None:
            left = narration.rolls_left(place.rolls_left)
            turn = f", to play with {' '.join(map(str, place.dice))} and {left}"
        print(f"Player {number} (sheet total {place.sheet.total}{turn}): {chance:.2%}")
    return 0


TARGET_MARK = "best chance"
"""The mark of the option with the best chance of the target in ``kismet hint --target``."""


def _hint_target(options: argparse.Namespace, advisor: Advisor, sheet: Sheet, dice: tuple[int, ...]) -> int:
    """Each option's chance of ``--target``: playing this turn for it (the target player's plan) where
    the target player's futures are stored, from any sheet at once; else playing for the expected
    total (the hard player), worked out from the sheet (seconds late in a game, longer early)."""
    from kismet_dice.strategy.chances import Continuations, TargetOption, target_options
    from kismet_dice.strategy.stored_futures import load_futures
    from kismet_dice.strategy.target import TargetTurns

    target: int = options.target
    futures = load_futures(advisor.table)
    ranked: tuple[TargetOption, ...]
    try:
        if futures is not None:
            turns = TargetTurns(futures, advisor.table, target)
            ranked = target_options(turns, sheet, dice, options.rolls_left, advisor)
        else:
            with progress_bar() as bar:
                task = bar.add_task("Following perfect play", total=None)
                continuations = Continuations(
                    advisor.table,
                    sheet,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                )
            ranked = continuations.options(dice, options.rolls_left, target, advisor)
    except IllegalAction as error:
        raise UserError(str(error)) from None
    play = "target" if futures is not None else "hard"
    if options.json:
        print(json.dumps([{**option.to_json(), "play": play} for option in ranked]))
        return 0
    left = narration.rolls_left(options.rolls_left)
    print(f"Dice {' '.join(map(str, dice))}, {left}; sheet total {sheet.total}; target {target}.")
    print(f"{'expected total':>14}  {'chance':>8}  choice")
    best = max(range(len(ranked)), key=lambda rank: ranked[rank].chance)  # the first of the best
    for rank, option in enumerate(ranked):
        mark = f"  ({TARGET_MARK})" if rank == best else ""
        words = narration.option(option.option, dice)
        print(f"{option.option.expected:14.3f}  {option.chance:8.2%}  {words}{mark}")
    if futures is not None:
        print(
            f"Chances of {target} or more playing this turn for it (as --player target does) "
            "and perfectly after."
        )
    else:
        print(
            f"Chances of {target} or more playing perfectly (for the expected total). Playing for {target} "
            "instead needs the target player's futures, worked out once (under a minute): "
            f"kismet simulate --player target --target {target} --games 1"
        )
    return 0


def run_chances(options: argparse.Namespace) -> int:
    from kismet_dice.strategy.chances import chance

    if options.win:
        return _win_chances(options)
    if options.sheet or options.dice:
        raise UserError("--sheet and --dice go with --win; a --target's sheet is given with --filled")

    sheet = parse_filled(options.filled)
    table = load_table()
    with progress_bar() as bar:
        task = bar.add_task("Following perfect play", total=None)
        try:
            found = chance(
                table,
                sheet,
                options.target,
                seed=options.seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except IllegalAction as error:
            raise UserError(str(error)) from None
    if options.json:
        print(json.dumps(found.to_json()))
        return 0
    how = "exact" if found.exact else f"simulated, {found.games} games"
    print(f"Chance of {options.target} or more: {found.chance:.2%} ({how}).")
    if found.interval is not None:
        print(f"95% interval: {found.interval[0]:.2%} to {found.interval[1]:.2%}.")
    print(f"Expected total: {found.expected:.2f}.")
    return 0
