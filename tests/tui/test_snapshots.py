"""What a person sees, compared with the SVG snapshots under ``__snapshots__/`` (refresh them with
``--snapshot-update`` and look at them). Names, dice and the storage are fixed, so they are stable.

The 80x24 and 120x40 tables are also written under build/ (docs/ with ``KISMET_SCREENSHOT=docs``)
for the README.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from kismet_dice.game import ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Setup
from kismet_dice.storage import Storage
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.widgets import KEY_OF_BOX
from tests.game.test_solo_game import TURNS
from tests.support.games import draws

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / ("docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build")

Snap = Callable[..., bool]

# The Hall of Fame shows dates: they are the snapshot's own, so it stays the same every day.
pytestmark = pytest.mark.timeout(120)


def app_for(storage: Storage, names: tuple[str, ...], faces: list[int]) -> KismetApp:
    storage.settings.put(SETUP_KEY, Setup(tuple(Seat(name) for name in names)).to_json())
    return KismetApp(storage, rng=ScriptedDice(faces), pace=0)


def mid_turn(players: int, save_as: str | None = None) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Start, then Ann enters Threes and rolls again holding two dice, and chooses Full House;
    ``save_as`` also keeps the picture under that name for the README."""

    async def run(pilot: Pilot[Any]) -> None:
        await pilot.press("enter")
        if players > 1:
            await pilot.press("enter")  # close the roll-off
        await pilot.press("space", "1", "2", "5", "space", KEY_OF_BOX[Box.THREES], KEY_OF_BOX[Box.THREES])
        for _ in range(players - 1):
            await pilot.press("space", KEY_OF_BOX[Box.YARBOROUGH], KEY_OF_BOX[Box.YARBOROUGH])
        await pilot.press("space", "2", "3", KEY_OF_BOX[Box.FULL_HOUSE])
        await pilot.pause()
        if save_as is not None:
            FOLDER.mkdir(exist_ok=True)
            pilot.app.save_screenshot(filename=save_as, path=str(FOLDER))

    return run


def table_faces(players: int) -> list[int]:
    # The roll-off (Ann highest), Ann's two turns, and a turn for each other player between them.
    roll_off = [6, 2, 1][:players]
    ann = [3, 3, 5, 4, 3] + [3, 3]
    others = [1, 2, 3, 4, 6] * (players - 1)
    return roll_off + ann + others + [2, 5, 5, 1, 6]


NAMES = {1: ("Ann",), 3: ("Ann", "Bob", "Cid")}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("players", [1, 3])
def test_the_table(storage: Storage, snap_compare: Snap, size: tuple[int, int], players: int) -> None:
    app = app_for(storage, NAMES[players], table_faces(players))
    # The README's pictures are the three-player tables.
    readme = f"tui-table-{size[0]}x{size[1]}.svg" if players == 3 else None
    assert snap_compare(app, terminal_size=size, run_before=mid_turn(players, readme))


async def steady_cursors(pilot: Pilot[Any]) -> None:
    """A text field's cursor blinks every half second: drawn steadily, the picture does not depend
    on how long the machine took to get to it (a slow one caught it blinked off)."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def test_the_start_screen(storage: Storage, snap_compare: Snap) -> None:
    app = app_for(storage, ("Ann", "Bob"), [])
    assert snap_compare(app, terminal_size=(80, 24), run_before=steady_cursors)


def solo_game(storage: Storage) -> KismetApp:
    faces = [4]
    for rolls, holds, _, _ in TURNS:
        faces += draws(*rolls, holds=holds)
    return app_for(storage, ("Ann",), faces)


async def play_solo(pilot: Pilot[Any]) -> None:
    await pilot.press("enter")
    for _rolls, holds, box, _ in TURNS:
        await pilot.press("space")
        for hold in holds:
            table = pilot.app.screen
            for position in range(5):
                if (position in hold) != (position in table.hold):  # type: ignore[attr-defined]
                    await pilot.press(str(position + 1))
            await pilot.press("r")
        await pilot.press(KEY_OF_BOX[box], KEY_OF_BOX[box])
    await pilot.pause()


def test_the_end_screen(storage: Storage, snap_compare: Snap) -> None:
    async def run(pilot: Pilot[Any]) -> None:
        await play_solo(pilot)
        await pilot.press("escape")  # no name for the Hall of Fame: the end screen
        await pilot.pause()

    assert snap_compare(solo_game(storage), terminal_size=(80, 24), run_before=run)


def test_the_hall_of_fame_after_a_game(storage: Storage, snap_compare: Snap) -> None:
    async def run(pilot: Pilot[Any]) -> None:
        await play_solo(pilot)
        await pilot.press("enter")  # Ann's name, as offered
        await pilot.pause()
        # The date is today's: blank it out of the picture so the snapshot stays the same.
        table = pilot.app.screen.query_one("#hall-table")
        table.update_cell_at((0, 3), "(today)")  # type: ignore[attr-defined]
        await pilot.pause()

    assert snap_compare(solo_game(storage), terminal_size=(80, 24), run_before=run)
