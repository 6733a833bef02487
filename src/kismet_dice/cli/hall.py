"""``kismet hall``: the Hall of Fame as a table or JSON, and clearing it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from kismet_dice.cli.errors import UserError
from kismet_dice.cli.saving import open_storage
from kismet_dice.storage import HallEntry, StorageError


def register(subparsers: Any) -> None:
    hall = subparsers.add_parser(
        "hall",
        help="show the Hall of Fame, the ten best game totals",
        description="Show the Hall of Fame: the ten best game totals, with name, date and players.",
    )
    what = hall.add_mutually_exclusive_group()
    what.add_argument(
        "--json", action="store_true", help="print a JSON list of {rank, name, total, date, players}"
    )
    what.add_argument("--clear", action="store_true", help="empty the Hall of Fame (asks first)")
    hall.add_argument("--yes", action="store_true", help="with --clear: do not ask")
    hall.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="a site's PostgreSQL database, postgresql://... (default $KISMET_DATABASE_URL, else this "
        "machine's file)",
    )
    hall.set_defaults(run=run_hall)


def run_hall(options: argparse.Namespace) -> int:
    storage = open_storage(options.database)
    try:
        if options.clear:
            return clear(storage.hall.entries(), storage.hall.clear, options.yes)
        entries = storage.hall.entries()
    except StorageError as error:
        raise UserError(str(error)) from None
    finally:
        storage.close()
    if options.json:
        print(json.dumps([entry.as_json() for entry in entries], ensure_ascii=False))
    else:
        for line in hall_table(entries):
            print(line)
    return 0


def clear(entries: tuple[HallEntry, ...], empty: Callable[[], int], yes: bool) -> int:
    """Empty the list after the person says yes; status 1 when they do not."""
    if not entries:
        print("The Hall of Fame is already empty.")
        return 0
    if not yes:
        sys.stdout.write(f"Remove all {len(entries)} entries from the Hall of Fame for good? (y/n) ")
        sys.stdout.flush()
        answer = sys.stdin.readline().strip().lower()
        if answer not in ("y", "yes"):
            print("Nothing was removed." if answer else "\nNo answer; nothing was removed.")
            return 1
    removed = empty()
    print(f"The Hall of Fame is empty ({removed} entries removed).")
    return 0


def hall_table(entries: tuple[HallEntry, ...]) -> list[str]:
    """The list as lines of plain text, dates in local time.

    >>> from datetime import datetime
    >>> when = datetime(2024, 5, 1, 14, 3)
    >>> for line in hall_table((HallEntry(1, "Ann", 312, when, 2), HallEntry(2, "Bob", 98, when, 1))):
    ...     print(line)
    Hall of Fame
    Rank  Name                      Total  Date              Players
       1  Ann                         312  2024-05-01 14:03        2
       2  Bob                          98  2024-05-01 14:03        1
    """
    if not entries:
        return ["The Hall of Fame is empty: finish a game to enter it."]
    lines = ["Hall of Fame", f"{'Rank':<4}  {'Name':<24}  {'Total':>5}  {'Date':<16}  {'Players':>7}"]
    for entry in entries:
        date = entry.date.astimezone() if entry.date.tzinfo else entry.date
        lines.append(
            f"{entry.rank:>4}  {entry.name:<24}  {entry.total:>5}  {date:%Y-%m-%d %H:%M}  {entry.players:>7}"
        )
    return lines
