"""``kismet stats``: what the stored finished games of people add up to, as text, JSON or a chart.

A name with no finished games: in text, one line on stderr and status 1; with ``--json``, an empty
list of players and status 0 (the answer is data, and no data is an answer).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kismet_dice.cli.errors import UserError
from kismet_dice.cli.saving import open_storage
from kismet_dice.cli.strategy import load_table, progress_bar
from kismet_dice.session import narration
from kismet_dice.session.stat_charts import CHART_KINDS, ChartKind, chart_svg, reference_svg
from kismet_dice.session.statistics import (
    NO_FINISHED_GAMES,
    PlayerStatistics,
    Statistics,
    statistics,
    table_lines,
)
from kismet_dice.storage import StorageError
from kismet_dice.strategy.reference import Reference, reference


def register(subparsers: Any) -> None:
    stats = subparsers.add_parser(
        "stats",
        help="statistics of the stored finished games, and charts",
        description="Statistics of the stored finished games of people, per name: games, mean, best, "
        "worst, standard deviation, bonus and Kismet rates, second Kismets, mean per box, the mean of the "
        "last ten. Games in which anyone asked for advice are counted apart, not in the figures.",
    )
    stats.add_argument("name", nargs="?", metavar="NAME", help="only this name (exactly as written)")
    stats.add_argument("--json", action="store_true", help='print {"players": [{"name": ..., "games": ...}]}')
    stats.add_argument("--computers", action="store_true", help="count computer seats too")
    stats.add_argument(
        "--chart",
        metavar="FILE.svg",
        type=Path,
        help="write a chart of NAME's games as SVG (with no finished game yet, "
        "the totals of perfect play and the computer players)",
    )
    stats.add_argument(
        "--chart-kind",
        choices=CHART_KINDS,
        default="totals",
        help="totals: a histogram over perfect play and the easy and medium players; time: totals game "
        "by game; boxes: mean points per box against perfect play (default totals)",
    )
    stats.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="a site's PostgreSQL database, postgresql://... (default $KISMET_DATABASE_URL, else this "
        "machine's file)",
    )
    stats.set_defaults(run=run_stats)


def read_statistics(database: str | None, computers: bool) -> Statistics:
    storage = open_storage(database)
    try:
        return statistics(storage.finished.all(), computers=computers)
    except StorageError as error:
        raise UserError(str(error)) from None
    finally:
        storage.close()


def run_stats(options: argparse.Namespace) -> int:
    found = read_statistics(options.database, options.computers)
    players = found.players
    if options.name is not None:
        players = tuple(player for player in players if player.name == options.name)
    if options.chart is not None:
        return write_chart(options.chart, options.chart_kind, players, options.name)
    if options.json:
        print(json.dumps({"players": [player.as_json() for player in players]}, ensure_ascii=False))
        return 0
    if not players:
        if options.name is not None:
            print(f"kismet: {options.name} has no finished games here", file=sys.stderr)
            return 1
        print(NO_FINISHED_GAMES)
        return 0
    for number, player in enumerate(players):
        if number:
            print()
        for line in table_lines(player):
            print(line)
    if found.unreadable:
        print(f"\n{found.unreadable} stored game(s) could not be read and are not counted.")
    return 0


def write_chart(path: Path, kind: ChartKind, players: tuple[PlayerStatistics, ...], name: str | None) -> int:
    if not players and name is None:
        # No one has a finished game: as the page and the terminal's statistics do, the chart of
        # what there is to aim at (the other kinds draw a player's games, and there are none).
        if kind != "totals":
            raise UserError(f"no finished games yet: a {kind} chart draws a player's games")
        _write(path, reference_svg(_reference()))
        print(NO_FINISHED_GAMES)
        print(f"Wrote the totals of perfect play and the computer players to {path}.")
        return 0
    if len(players) != 1:
        if name is not None:
            print(f"kismet: {name} has no finished games here", file=sys.stderr)
            return 1
        raise UserError("name the player whose chart to draw: kismet stats NAME --chart FILE.svg")
    _write(path, chart_svg(kind, players[0], _reference()))
    print(f"Wrote the {kind} chart of {players[0].name} to {path}.")
    return 0


def _write(path: Path, svg: str) -> None:
    try:
        path.write_text(svg, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def _reference() -> Reference:
    """The charts' reference, with a progress bar while its games are played (the first time)."""
    table = load_table()
    with progress_bar() as bar:
        task: list[Any] = []  # added at the first report: a stored reference shows no bar at all

        def progress(done: int, total: int) -> None:
            if not task:
                task.append(bar.add_task(narration.PLAYING_REFERENCE.removesuffix("…"), total=total))
            bar.update(task[0], completed=done, total=total)

        return reference(table, progress=progress)
