"""The README's picture of the table, made by the app itself (one snapshot of the table screen)."""

from __future__ import annotations

import os
from pathlib import Path

from kismet_dice.game import ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Setup
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer, Level
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.widgets import KEY_OF_BOX

ROOT = Path(__file__).resolve().parents[2]
# Every run keeps its screenshot under build/; KISMET_SCREENSHOT=docs refreshes the README's copy.
FOLDER = ROOT / ("docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build")


async def test_the_table_as_the_readme_shows_it(storage: Storage) -> None:
    storage.settings.put(SETUP_KEY, Setup((Seat("Ann"), Seat("Cid", Level.MEDIUM))).to_json())
    faces = [5, 2] + [3, 3, 5, 4, 3] + [3, 3] + [2, 5, 5, 1, 6] + [5, 5, 2] + [5, 2, 5, 5, 2, 1, 6, 3, 4]
    app = KismetApp(storage, computer=Computer(), rng=ScriptedDice(faces), pace=0)
    async with app.run_test(size=(100, 28)) as pilot:
        await pilot.press("enter", "enter")  # start; close the roll-off
        await pilot.press("space", "1", "2", "5", "space", KEY_OF_BOX[Box.THREES], KEY_OF_BOX[Box.THREES])
        await pilot.pause()
        await pilot.press("space", "2", "3")
        await pilot.pause()
        FOLDER.mkdir(exist_ok=True)
        path = Path(app.save_screenshot(filename="tui-table.svg", path=str(FOLDER)))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "Yarborough" in text and "Cid" in text
