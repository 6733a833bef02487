"""The terminal game driven by key presses and clicks, with every die scripted."""

from __future__ import annotations

import html

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import Input, RichLog

from kismet_dice.game import Rolled, ScriptedDice, SecondKismet
from kismet_dice.rules import Box
from kismet_dice.session import Preferences, Seat, Setup, narration
from kismet_dice.storage import Storage
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.screens.dialogs import ConfirmScreen, NameScreen, NoticeScreen, RollOffScreen
from kismet_dice.tui.screens.end import EndScreen
from kismet_dice.tui.screens.hall import HallScreen
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.table import TableScreen
from kismet_dice.tui.widgets import KEY_OF_BOX, SheetView, StoryLog
from tests.game.test_solo_game import TURNS
from tests.support.games import draws, finished_two_player_game, hall_with_one_place_between
from tests.support.pilot import shown


def table_of(app: KismetApp) -> TableScreen:
    """The table the app shows (a test fails here if it shows something else)."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return screen


def make_app(storage: Storage, faces: list[int], *names: str) -> KismetApp:
    """The app with every die scripted and, when names are given, that set-up remembered."""
    if names:
        storage.settings.put(SETUP_KEY, Setup(tuple(Seat(name) for name in names)).to_json())
    return KismetApp(storage, rng=ScriptedDice(faces), pace=0)


async def test_a_whole_solo_game_by_key_presses(storage: Storage) -> None:
    faces = [4]
    for rolls, holds, _, _ in TURNS:
        faces += draws(*rolls, holds=holds)
    app = make_app(storage, faces)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.press("enter")  # starts with the set-up shown: one human player
        assert isinstance(app.screen, TableScreen)
        for rolls, holds, box, points in TURNS:
            await pilot.press("space")
            for hold in holds:
                # Keys hold the dice to keep; a held die is pressed again only to free it.
                for position in hold:
                    if position not in table_of(app).hold:
                        await pilot.press(str(position + 1))
                for position in set(table_of(app).hold) - set(hold):
                    await pilot.press(str(position + 1))
                await pilot.press("r")
            assert table_of(app).session.game.dice == tuple(rolls[-1])
            await pilot.press(KEY_OF_BOX[box], KEY_OF_BOX[box])
            await pilot.pause()
            if box is not Box.KISMET:
                assert table_of(app).session.game.sheet(0)[box] == points
        # The last entry ends the game: the final sheets, then the Hall of Fame asks a name.
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        assert "Player 1, 403 enters the Hall of Fame!" in str(app.screen.query_one("#question").render())
        name_box = app.screen.query_one(Input)
        assert name_box.value == "Player 1"
        name_box.value = ""
        await pilot.press("enter")  # an empty name is refused, with the reason
        assert isinstance(app.screen, NameScreen)
        assert "empty" in str(app.screen.query_one("#problem").render())
        await pilot.press(*"Winner", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HallScreen)
        [entry] = storage.hall.entries()
        assert (entry.rank, entry.name, entry.total, entry.players) == (1, "Winner", 403, 1)
        await pilot.press("escape")
        end = app.screen
        assert isinstance(end, EndScreen)
        assert end.session.game.total(0) == 403
        assert "Player 1 scores 403." in str(end.query_one("#winners").render())
    # The finished game is not offered for resuming.
    assert storage.games.unfinished().games == ()


async def test_arrows_and_enter_score_the_highlighted_box(storage: Storage) -> None:
    app = make_app(storage, [1, 1, 2, 3, 4, 5])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space")
        await pilot.press("down", "down", "down", "down", "down", "down", "down", "down")
        await pilot.press("enter")
        assert table_of(app).session.game.sheet(0)[Box.STRAIGHT] == 30


async def test_arrows_pass_over_filled_boxes_while_dice_are_on_the_table(storage: Storage) -> None:
    # The roll-off's one die (drawn even alone), then Twos and Threes filled in the first two
    # turns; the third roll could go in any other box.
    app = make_app(storage, [1] + [2, 2, 2, 4, 5] + [3, 3, 3, 4, 5] + [1, 2, 3, 4, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space", *KEY_OF_BOX[Box.TWOS] * 2)
        await pilot.press("space", *KEY_OF_BOX[Box.THREES] * 2)
        sheets = app.screen.query_one(SheetView)
        sheets.point_at(Box.ONES)
        await pilot.pause()
        await pilot.press("down")  # before the roll: row by row, onto the filled Twos
        assert sheets.box_at_cursor() is Box.TWOS
        await pilot.press("space", "down")
        assert sheets.box_at_cursor() is Box.FOURS
        await pilot.press("up")
        assert sheets.box_at_cursor() is Box.ONES
        assert table_of(app).chosen is Box.ONES
        sheets.point_at(Box.KISMET)  # the last box: below it, the totals, row by row
        await pilot.pause()
        await pilot.press("down")
        assert sheets.box_at_cursor() is None
        assert sheets.cursor_row == len(Box)


async def test_clicking_a_die_holds_it_and_clicking_a_box_twice_scores(storage: Storage) -> None:
    app = make_app(storage, [1, 6, 6, 1, 2, 3, 6, 6, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space")
        await pilot.click("#die-1")
        await pilot.click("#die-2")
        await pilot.click("#die-3")
        assert table_of(app).hold == {0, 1, 2}
        await pilot.click("#die-3")
        assert table_of(app).hold == {0, 1}
        await pilot.press("space")
        assert table_of(app).session.game.dice == (6, 6, 6, 6, 6)
        row = Box.SIXES.value  # row 0 is the header
        await pilot.click(SheetView, offset=(5, row))
        # The first click chooses the box and says what it would score; nothing is entered.
        assert table_of(app).chosen is Box.SIXES
        assert table_of(app).session.game.sheet(0)[Box.SIXES] is None
        assert "Chosen: Sixes, 30 points." in str(app.screen.query_one("#choice").render())
        await pilot.click(SheetView, offset=(5, row))
        assert table_of(app).session.game.sheet(0)[Box.SIXES] == 30


async def test_a_zero_is_warned_of_when_chosen_and_entered_only_by_the_second_press(storage: Storage) -> None:
    app = make_app(storage, [1, 1, 2, 3, 4, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space", KEY_OF_BOX[Box.KISMET])
        table = table_of(app)
        assert table.chosen is Box.KISMET and table.session.game.sheet(0)[Box.KISMET] is None
        choice = str(app.screen.query_one("#choice").render())
        assert "Kismet would score 0: entering it puts a 0 there for good." in choice
        await pilot.press("escape")  # drops the choice
        assert table.chosen is None and not app.screen.query_one("#choice").display
        await pilot.press(KEY_OF_BOX[Box.KISMET], KEY_OF_BOX[Box.FOURS])  # another box changes the choice
        assert table.chosen is Box.FOURS and table.session.game.sheet(0)[Box.FOURS] is None
        await pilot.press(KEY_OF_BOX[Box.KISMET], "enter")  # chosen, then entered by enter
        assert table.session.game.sheet(0)[Box.KISMET] == 0
        assert table.chosen is None


async def test_enter_at_once_enters_by_one_key_and_still_confirms_a_zero(storage: Storage) -> None:
    Preferences(enter_at_once=True).save(storage.settings)
    app = make_app(storage, [1, 1, 2, 3, 4, 6, 1, 2, 3, 4, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space", KEY_OF_BOX[Box.KISMET])
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert table_of(app).session.game.sheet(0)[Box.KISMET] is None
        await pilot.press(KEY_OF_BOX[Box.KISMET], "y")
        assert isinstance(app.screen, TableScreen)
        assert table_of(app).session.game.sheet(0)[Box.KISMET] == 0
        await pilot.press("space", KEY_OF_BOX[Box.ONES])  # one key enters a box that scores
        assert table_of(app).session.game.sheet(0)[Box.ONES] == 1


async def test_second_kismet_is_announced_and_moves_the_lead(storage: Storage) -> None:
    faces = [6, 1, 2] + [5] * 5 + [1, 2, 3, 4, 6] * 2 + [5] * 5 + [1, 2, 3, 4, 6]
    app = make_app(storage, faces, "Ann", "Bob", "Cid")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await shown(pilot, RollOffScreen)
        await pilot.press("enter")
        await pilot.press("space", KEY_OF_BOX[Box.KISMET], KEY_OF_BOX[Box.KISMET])  # Ann
        await pilot.press("space", KEY_OF_BOX[Box.YARBOROUGH], KEY_OF_BOX[Box.YARBOROUGH])  # Bob
        await pilot.press("space", KEY_OF_BOX[Box.YARBOROUGH], KEY_OF_BOX[Box.YARBOROUGH])  # Cid
        await pilot.press("space", KEY_OF_BOX[Box.FIVES], KEY_OF_BOX[Box.FIVES])  # Ann: second Kismet
        assert isinstance(app.screen, NoticeScreen)
        text = str(app.screen.query_one("#notice").render())
        assert "Second Kismet! Ann rolled five of a kind" in text
        assert "Bob loses a turn: 0 in Ones." in text and "Cid loses a turn: 0 in Ones." in text
        await pilot.press("enter")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert isinstance(table.session.game.history[-1], SecondKismet)
        assert table.session.game.current_player == 0 and table.session.game.leader == 0


async def test_holding_before_the_first_roll_is_refused_with_a_message(storage: Storage) -> None:
    app = make_app(storage, [1, 1, 2, 3, 4, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "1")
        assert table_of(app).hold == frozenset()
        assert any("Roll first" in str(n.message) for n in app._notifications)


async def test_one_player_fits_80_by_24(storage: Storage) -> None:
    app = make_app(storage, [1, 1, 2, 3, 4, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space")
        sheet = app.screen.query_one(SheetView)
        # Every row of the sheet (header, 15 boxes, 4 totals) is on screen, none scrolled away.
        assert sheet.region.bottom <= 23 and sheet.virtual_size.height <= sheet.region.height
        assert sheet.virtual_size.width <= sheet.region.width
        for number in range(1, 6):
            die = app.screen.query_one(f"#die-{number}")
            assert die.region.right <= 80 and die.region.bottom <= 24


async def test_quitting_asks_first_then_goes_back_to_the_start_screen(storage: Storage) -> None:
    app = make_app(storage, [1, 1, 2, 3, 4, 6])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, StartScreen)


async def test_the_roll_off_is_shown_with_its_dice(storage: Storage) -> None:
    app = make_app(storage, [5, 5, 2, 3, 6], "Ann", "Bob", "Cid")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await shown(pilot, RollOffScreen)
        labels = [str(label.render()) for label in app.screen.query("Label")]
        assert "Ann and Bob tie, and roll again:" in labels
        assert "Bob begins. Play moves to the left." in labels
        assert len(app.screen.query(".roll-off .die")) == 5  # three dice, then two
        await pilot.press("enter")
        assert isinstance(app.screen, TableScreen)
        assert table_of(app).session.game.current_player == 1


async def test_the_log_tells_a_roll_in_the_words_of_every_interface(storage: Storage) -> None:
    app = make_app(storage, [1, 6, 3, 5, 3, 1, 2, 4, 6])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter", "space", "2", "4", "space")
        await pilot.pause()
        game = table_of(app).session.game
        last = game.history[-1]
        assert isinstance(last, Rolled) and last.hold == (1, 3)
        lines = [str(line.text) for line in table_of(app).query_one(RichLog).lines]
        sentence = narration.rolled(game.names, last)
        assert (
            sentence
            == "Player 1 kept 3 3 (dice 2 and 4) and rolls 2 red, 3 green, 4 green, 3 green, 6 black."
        )
        # The log wraps long lines: compare the words.
        assert " ".join(sentence.split()) in " ".join(" ".join(lines).split())


async def test_the_log_wraps_its_lines_again_when_the_terminal_is_resized(storage: Storage) -> None:
    app = make_app(storage, [1, 6, 3, 5, 3, 1, 2, 4, 6])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter", "space", "2", "4", "space")
        await pilot.pause()
        log = table_of(app).query_one(StoryLog)
        told = " ".join(" ".join(str(line.text) for line in log.lines).split())
        wide = max(len(str(line.text).rstrip()) for line in log.lines)
        await pilot.resize_terminal(80, 40)
        await pilot.pause()
        narrow = log.scrollable_content_region.width
        assert narrow < wide  # the lines written at 120 columns would not fit any more
        assert all(len(str(line.text).rstrip()) <= narrow for line in log.lines)
        assert " ".join(" ".join(str(line.text) for line in log.lines).split()) == told
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert max(len(str(line.text).rstrip()) for line in log.lines) == wide


async def test_a_terminal_too_narrow_for_the_sheets_scores_says_so_until_it_is_widened(
    storage: Storage,
) -> None:
    app = make_app(storage, [1, 6, 3, 5, 3, 1], "Ann")
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.press("enter")
        table = table_of(app)

        def status() -> str:
            return str(table.query_one("#status").render())

        def drawn() -> str:
            return html.unescape(app.export_screenshot()).replace("\xa0", " ")

        widen = "widen it, or play with kismet play --plain"
        assert "The sheet needs 74 columns (this terminal has 60)" in status() and widen in status()
        assert "Round 1 · Ann's turn" in status()  # the rest of the status still shows
        # At 73 columns the scores lose their last character; at 74 they show whole, and the line goes.
        await pilot.resize_terminal(73, 24)
        await pilot.pause()
        assert "this terminal has 73" in status() and "63→35" not in drawn()
        await pilot.resize_terminal(74, 24)
        await pilot.pause()
        assert widen not in status() and "63→35" in drawn()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert widen not in status()


async def test_the_end_too_says_when_the_terminal_is_too_narrow_for_the_final_sheets(
    storage: Storage,
) -> None:
    session = finished_two_player_game(storage)
    app = make_app(storage, [])
    async with app.run_test(size=(60, 24)) as pilot:
        app.push_screen(EndScreen(session, None))
        await pilot.pause()
        narrow = app.screen.query_one("#narrow")

        def drawn() -> str:
            return html.unescape(app.export_screenshot()).replace("\xa0", " ")

        # Ann's Kismet section (141) is on her sheet alone: cut off at 60 columns, whole at 74.
        assert narrow.display and "need 74 columns (this terminal has 60)" in str(narrow.render())
        assert "141" not in drawn()
        await pilot.resize_terminal(74, 24)
        await pilot.pause()
        assert not narrow.display and "141" in drawn()


async def test_whoever_an_entry_pushes_out_is_told_and_not_asked(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    ann, bob = hall_with_one_place_between(storage, session)
    app = make_app(storage, [])
    async with app.run_test(size=(100, 30)) as pilot:
        app.post_message(TableScreen.GameOver(session))
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        assert f"Ann, {ann} enters the Hall of Fame!" in str(app.screen.query_one("#question").render())
        await pilot.press("enter")
        await pilot.pause()
        # Bob is not asked: the Hall of Fame shows, and he is told why.
        assert isinstance(app.screen, HallScreen)
        told = [str(notification.message) for notification in app._notifications]
        assert (
            f"Bob's {bob} no longer makes the Hall of Fame: Ann's entry just now took the last place." in told
        )


async def test_a_held_die_changes_no_cell_of_the_sheet_and_a_roll_only_the_open_boxes(
    storage: Storage,
) -> None:
    # Each cell changed draws the whole sheet again: a key that changes none must update none.
    app = make_app(storage, [4, 1, 2, 3, 4, 6, 5, 5, 5, 5])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "space")
        sheet = table_of(app).query_one(SheetView)
        updated: list[tuple[int, int]] = []
        update = sheet.update_cell_at

        def counting(coordinate: Coordinate, value: Text, *, update_width: bool = False) -> None:
            updated.append((coordinate.row, coordinate.column))
            update(coordinate, value, update_width=update_width)

        sheet.update_cell_at = counting  # type: ignore[method-assign]
        await pilot.press("1", "1", "2")
        assert updated == []
        await pilot.press("space")  # 1 held: 1 5 5 5 5, and every open box scores anew
        assert updated and {column for _, column in updated} == {1}
        assert str(sheet.get_cell_at(Coordinate(Box.FIVES.value - 1, 1))) == "(20)"
