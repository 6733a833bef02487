"""The terminal game never loses a game: saved after every action, resumed on the next start."""

from __future__ import annotations

import random

from textual.widgets import Checkbox, Input, OptionList

from kismet_dice.game import ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Setup, local_session
from kismet_dice.storage import Storage
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.screens.dialogs import ConfirmScreen, RollOffScreen
from kismet_dice.tui.screens.hall import HallScreen
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.table import TableScreen
from kismet_dice.tui.widgets import KEY_OF_BOX
from tests.support.pilot import shown


async def test_quit_and_resume_restore_the_same_state(storage: Storage) -> None:
    storage.settings.put(SETUP_KEY, Setup((Seat("Ann"), Seat("Bob"))).to_json())
    faces = [6, 1] + [2, 2, 2, 5, 5] + [1, 2, 3, 4, 6] + [3, 3, 3, 3, 1]
    app = KismetApp(storage, rng=ScriptedDice(faces), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter", "enter")  # start; close the roll-off
        await pilot.press("space", KEY_OF_BOX[Box.FULL_HOUSE], KEY_OF_BOX[Box.FULL_HOUSE])  # Ann: 16 + 15
        await pilot.press("space", "1", "2")  # Bob rolls and means to keep two dice
        assert isinstance(app.screen, TableScreen)
        before = app.screen.session.game.to_json()
        await pilot.press("q", "y")
        # Leaving the table is back to the start screen, which offers the game just left.
        assert app.is_running and isinstance(app.screen, StartScreen)
        assert app.screen.query_one(OptionList).option_count == 1
        await pilot.press("escape")
    assert not app.is_running
    [saved] = storage.games.unfinished().games
    assert saved.names == ("Ann", "Bob") and saved.totals == (31, 0) and saved.current_player == 1

    again = KismetApp(storage, rng=ScriptedDice([6, 6, 6]), pace=0)
    async with again.run_test(size=(100, 30)) as pilot:
        assert isinstance(again.screen, StartScreen)
        assert again.screen.query_one(OptionList).option_count == 1
        await pilot.press("shift+tab", "enter")  # the unfinished game is one shift+tab away
        table = again.screen
        assert isinstance(table, TableScreen)
        assert table.session.game.to_json() == before
        assert table.session.game.dice == (1, 2, 3, 4, 6) and table.session.game.rolls_left == 2
        await pilot.press("1", "2", "space")  # plays on from there
        assert table.session.game.dice == (1, 2, 6, 6, 6)
    # The resumed game is saved on, under the same saved game, with the new roll.
    [resumed] = storage.games.unfinished().games
    assert resumed.id == saved.id
    assert storage.games.load(saved.id)[1].dice == (1, 2, 6, 6, 6)


async def test_the_question_before_leaving_says_what_is_saved_from_before_the_first_roll_on(
    storage: Storage,
) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4, 2, 2, 2, 5, 5]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "q")  # leaving before any roll (one player: no roll-off to close)
        asked = app.screen
        assert isinstance(asked, ConfirmScreen)
        assert (
            asked.question == "Leave the table? Nothing has been rolled yet, so there is nothing to resume."
        )
        await pilot.press("n", "space", "q")  # the first roll: the game is saved from here
        asked = app.screen
        assert isinstance(asked, ConfirmScreen)
        assert asked.question == (
            "Leave the table? The game is saved as it is now, with this turn's dice and rolls left: "
            "the start screen offers it for resuming."
        )
        await pilot.press("n", "1", "q")  # a die marked to hold is the screen's own until the roll
        asked = app.screen
        assert isinstance(asked, ConfirmScreen)
        assert "rolls left (not the dice marked to hold): the start screen" in asked.question
        await pilot.press("y")
        assert isinstance(app.screen, StartScreen)
        await pilot.press("shift+tab", "enter")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.session.game.dice == (2, 2, 2, 5, 5) and table.session.game.rolls_left == 2
        assert table.hold == frozenset()


async def test_after_a_failed_save_the_question_before_leaving_says_what_is_lost(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4, 2, 2, 2, 5, 5, 1, 1, 1]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space")
        storage.close()  # every write fails from here, as on a disk that went away
        await pilot.press("1", "2", "space", "q")
        asked = app.screen
        assert isinstance(asked, ConfirmScreen)
        assert (
            asked.question
            == "Leave the table? Saving failed during the game: what was played after that is lost."
        )
        await pilot.press("n")


async def test_no_at_the_question_before_leaving_stays_at_the_table(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4, 2, 2, 2, 5, 5]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space", "q", "n")
        table = app.screen
        assert isinstance(table, TableScreen) and app.is_running
        assert table.session.game.dice == (2, 2, 2, 5, 5)


async def test_resuming_as_the_readme_says_shift_tab_then_arrows_and_enter(storage: Storage) -> None:
    for names, seed in ((("Ann",), 1), (("Bob", "Cid"), 2)):
        session = local_session(storage, Setup(tuple(Seat(name) for name in names)), rng=random.Random(seed))
        session.roll(session.game.current_player or 0)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.screen
        assert isinstance(start, StartScreen)
        assert app.focused is start.query(Input).first()  # "The cursor starts in the first name"
        await pilot.press("shift+tab")  # "shift+tab from the first name reaches the list"
        listing = start.query_one(OptionList)
        assert listing.has_focus and listing.option_count == 2
        await pilot.press("down", "enter")  # the second listed: the one saved first, Ann's
        table = app.screen
        assert isinstance(table, TableScreen) and table.session.game.names == ("Ann",)
        assert table.session.game.rolls_left == 2


async def test_the_last_set_up_is_remembered(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4, 2]), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert [row.read() for row in screen.query("SeatRow")] == [Seat("Player 1")]  # type: ignore[attr-defined]
        await pilot.press("ctrl+a")
        await pilot.pause()
        inputs = list(screen.query(Input))
        inputs[0].value = "Ann"
        inputs[1].value = "Bob"
        screen.query_one(Checkbox).value = True
        await pilot.click("#start")
        await shown(pilot, RollOffScreen)
    remembered = Setup.from_json(storage.settings.get(SETUP_KEY) or "")
    assert [seat.name for seat in remembered.seats] == ["Ann", "Bob"]
    assert remembered.house_rules.zero_kismet_counts


async def test_a_bad_set_up_is_explained_and_nothing_starts(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4, 2]), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+a")
        await pilot.pause()
        for box in app.screen.query(Input):
            box.value = "Same"
        await pilot.click("#start")
        assert isinstance(app.screen, StartScreen)
        assert "share a name" in str(app.screen.query_one("#problem").render())


async def test_the_hall_of_fame_is_reachable_from_the_start(storage: Storage) -> None:
    storage.hall.submit("Ann", 250, players=1, computer=False, assisted=False)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f2")
        assert isinstance(app.screen, HallScreen)
        table = app.screen.query_one("#hall-table")
        assert "Ann" in str(table.get_row_at(0))  # type: ignore[attr-defined]
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)
