"""What a player met at the terminal: a resized terminal keeps the current sheet in view, a roll
drops a choice made for the dice before it, and a new default name reaches the start screen."""

from __future__ import annotations

from textual.widgets import Input

from kismet_dice.game import ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Setup
from kismet_dice.storage import Storage
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.screens.settings import SettingsScreen
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.table import TableScreen


def make_app(storage: Storage, faces: list[int], *names: str) -> KismetApp:
    if names:
        storage.settings.put(SETUP_KEY, Setup(tuple(Seat(name) for name in names)).to_json())
    return KismetApp(storage, rng=ScriptedDice(faces), pace=0)


async def test_a_terminal_made_smaller_still_shows_the_sheet_of_the_player_whose_turn_it_is(
    storage: Storage,
) -> None:
    # Roll-off: Ann 5, Bob 5, Cid 2, then Ann 3, Bob 6: Bob begins.
    app = make_app(storage, [5, 5, 2, 3, 6], "Ann", "Bob", "Cid")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter", "enter")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.session.game.current_player == 1
        assert table.shown_seats() == (0, 1, 2)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert table.shown_seats() == (1,)


async def test_a_roll_drops_the_box_chosen_for_the_dice_before_it(storage: Storage) -> None:
    # One roll-off die, then two rolls of five.
    app = make_app(storage, [4, 1, 2, 3, 4, 6, 6, 6, 6, 6, 6], "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space", "a")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.chosen is Box.ONES
        await pilot.press("space")
        assert table.session.game.dice and table.chosen is None
        await pilot.press("enter")  # nothing chosen: nothing entered
        assert table.session.game.sheet(0)[Box.ONES] is None


async def test_a_new_default_name_renames_the_first_seat_unless_a_name_was_typed(storage: Storage) -> None:
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.screen
        assert isinstance(start, StartScreen)
        first = start.query(Input).first()
        assert first.value == "Player 1"
        await pilot.press("f3")
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#default-name", Input).value = "Ann"
        await pilot.press("enter")
        await pilot.pause()
        shown: object = app.screen  # mypy still takes it for the settings screen asserted above
        assert shown is start and first.value == "Ann"
        first.value = "Zoe"
        await pilot.press("f3")
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#default-name", Input).value = "Bea"
        await pilot.press("enter")
        await pilot.pause()
        assert first.value == "Zoe"
