"""The start screen, help, rules, settings, discarding a saved game, and the table on small and
large terminals, driven by key presses with every die scripted."""

from __future__ import annotations

import random

from textual import events
from textual.widgets import Button, Checkbox, Footer, Input, Markdown, OptionList, Select, Static
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectOverlay

from kismet_dice.game import HouseRules, ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Preferences, Seat, Setup, local_session
from kismet_dice.storage import Storage
from kismet_dice.strategy import LEVELS, Computer
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.screens.dialogs import ConfirmScreen, HelpScreen, RulesScreen
from kismet_dice.tui.screens.settings import SettingsScreen
from kismet_dice.tui.screens.start import START_COLUMNS, THREE_BUTTONS_COLUMNS, SeatRow, StartScreen
from kismet_dice.tui.screens.table import TableScreen
from kismet_dice.tui.widgets import KEY_OF_BOX, TABLE_COLUMNS, SheetView, sheets_hint


def remember(storage: Storage, *names: str) -> None:
    storage.settings.put(SETUP_KEY, Setup(tuple(Seat(name) for name in names)).to_json())


async def test_the_start_screen_types_names_at_once_and_q_is_a_letter_there(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        name = screen.query(Input).first()
        assert app.focused is name and name.value == "Player 1"
        name.value = ""
        await pilot.press(*"Quinn")
        assert name.value == "Quinn" and app.is_running
        await pilot.press("ctrl+a")  # a second seat, named by its place
        await pilot.pause()
        assert [row.read().name for row in screen.query(SeatRow)] == ["Quinn", "Player 2"]
        await pilot.press("escape")  # nothing would be lost: esc quits at once
    assert not app.is_running


def typed_while_starting(app: KismetApp, *keys: str) -> None:
    """Keys typed while the program starts: the terminal hands them over all at once, so they wait
    in the app's queue before it has shown anything (here: posted before it runs)."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def test_keys_typed_while_the_program_starts_go_into_the_first_name(storage: Storage) -> None:
    # A game to resume: its list comes first on the screen, and there d discards and q quits.
    session = local_session(storage, Setup((Seat("Ann"),)), rng=random.Random(1))
    session.roll(0)
    app = KismetApp(storage, rng=ScriptedDice([4]), pace=0)
    typed_while_starting(app, *"quad")
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.screen
        assert isinstance(start, StartScreen) and app.is_running
        name = start.query(Input).first()
        assert app.focused is name and name.value == "quad"
        assert len(storage.games.unfinished().games) == 1
        await pilot.press("enter")  # and the next key, pressed at once, starts with that name
        table = app.screen
        assert isinstance(table, TableScreen) and table.session.game.names == ("quad",)
        assert table.query_one(SheetView).has_focus


async def test_an_enter_typed_while_the_program_starts_starts_with_the_name_typed_before_it(
    storage: Storage,
) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4]), pace=0)
    # Before the program has the terminal, the terminal turns enter into a newline (ctrl+j).
    typed_while_starting(app, *"bob", "ctrl+j")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.session.game.names == ("bob",)


async def test_the_start_screen_offers_every_computer_level_the_target_and_win_players_too(
    storage: Storage,
) -> None:
    app = KismetApp(storage, computer=Computer(), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        select = app.screen.query_one(Select)
        select.focus()
        select.expanded = True
        await pilot.pause()
        shown = select.query_one(SelectOverlay)
        prompts = [str(shown.get_option_at_index(index).prompt) for index in range(shown.option_count)]
        assert prompts == ["Human", *(f"Computer, {level}" for level in LEVELS)]
        assert prompts[-2:] == ["Computer, target", "Computer, win"]


async def test_q_quits_from_the_start_screen_outside_a_name(storage: Storage) -> None:
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#start").focus()
        await pilot.press("q")
    assert not app.is_running


async def test_enter_on_a_closed_drop_down_opens_it_and_never_starts_a_game(storage: Storage) -> None:
    app = KismetApp(storage, computer=Computer(), rng=ScriptedDice([4]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab")  # from the first name to its drop-down
        select = app.screen.query_one(Select)
        assert app.focused is select and not select.expanded
        await pilot.press("enter")  # opens it
        assert isinstance(app.screen, StartScreen) and select.expanded
        await pilot.press("down", "enter")  # picks the next kind in the open drop-down
        assert isinstance(app.screen, StartScreen) and not select.expanded
        assert select.value == LEVELS[0]
        await pilot.press("enter")  # closed again: opens again, still no game
        assert isinstance(app.screen, StartScreen) and select.expanded
        await pilot.press("up", "enter")  # back to a person
        assert select.value == "human" and not select.expanded
        await pilot.press("shift+tab", "enter")  # from the name, enter starts
        assert isinstance(app.screen, TableScreen)


async def test_help_and_rules_open_from_the_start_screen_and_the_table(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("?")  # from the name field too: ? is not typed into a name
        assert isinstance(app.screen, HelpScreen)
        assert "Entering a box takes two steps" in app.screen.query_one(Markdown).source
        await pilot.press("f1")  # from the help, the rules
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.query_one(Markdown).source.startswith("# The rules of Kismet")
        await pilot.press("escape", "enter")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape", "?")
        assert isinstance(app.screen, HelpScreen)


async def test_the_help_opens_again_where_it_was_left(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("?", "pagedown")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        read_to = help_screen.query_one("#rules-text").scroll_y
        assert read_to > 0
        await pilot.press("escape", "enter", "?")  # closed, then opened again from the table
        assert app.screen is help_screen
        assert help_screen.query_one("#rules-text").scroll_y == read_to


async def test_settings_are_saved_and_used(storage: Storage) -> None:
    app = KismetApp(storage, rng=ScriptedDice([4, 1, 1, 2, 3, 4]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        dialog = app.screen
        assert isinstance(dialog, SettingsScreen)
        dialog.query_one("#default-name", Input).value = "Ann"
        dialog.query_one("#pace", Input).value = "abc"
        await pilot.press("enter")  # refused, with the reason
        assert isinstance(app.screen, SettingsScreen)
        assert "pace is a number of seconds" in str(dialog.query_one("#problem").render())
        dialog.query_one("#pace", Input).value = "0"
        dialog.query_one("#theme", Select).value = "textual-light"
        dialog.query_one("#enter-at-once").toggle()  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert isinstance(app.screen, StartScreen)
    stored = Preferences.load(storage.settings)
    assert stored == Preferences(default_name="Ann", pace=0, theme="textual-light", enter_at_once=True)

    again = KismetApp(storage, rng=ScriptedDice([4, 1, 1, 2, 3, 4]))
    async with again.run_test(size=(80, 24)) as pilot:
        assert again.theme == "textual-light" and again.pace == 0
        assert [row.read().name for row in again.screen.query(SeatRow)] == ["Ann"]
        await pilot.press("enter", "space", KEY_OF_BOX[Box.ONES])  # enter at once: one key
        table = again.screen
        assert isinstance(table, TableScreen)
        assert table.session.game.sheet(0)[Box.ONES] == 2


async def test_enter_on_the_closed_theme_drop_down_opens_it_and_saves_nothing(storage: Storage) -> None:
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3", "tab", "tab")  # the name, the pace, then the theme
        dialog = app.screen
        assert isinstance(dialog, SettingsScreen)
        theme = dialog.query_one("#theme", Select)
        assert app.focused is theme
        await pilot.press("enter")
        assert app.screen is dialog and theme.expanded
        await pilot.press("escape", "escape")  # closes the drop-down, then cancels
        assert isinstance(app.screen, StartScreen)
    assert Preferences.load(storage.settings) == Preferences()


async def test_the_settings_show_their_keys_in_a_footer_and_still_fit_80x24(storage: Storage) -> None:
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        dialog = app.screen
        assert isinstance(dialog, SettingsScreen)
        footer = dialog.query_one(Footer)
        await pilot.pause()  # the footer lists the dialog's keys once it has seen its bindings
        keys = {(key.key_display, key.description) for key in footer.query(FooterKey)}
        assert keys == {("⏎", "Save"), ("esc", "Cancel")}
        dialog.query_one("#pace", Input).value = ""
        await pilot.press("enter")  # the problem line shown too: the dialog stays above the footer
        box = dialog.query_one("#settings-dialog").region
        assert box.bottom <= footer.region.y and box.y >= 0
        assert dialog.query_one("#cancel").region.bottom <= box.bottom


async def test_the_resume_list_tells_games_apart_and_discards_one_after_asking(storage: Storage) -> None:
    for names in (("Ann",), ("Bob", "Cid")):
        session = local_session(storage, Setup(tuple(Seat(n) for n in names)), rng=random.Random(1))
        session.roll(session.game.current_player or 0)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        listing = app.screen.query_one(OptionList)
        first_focus: object = app.focused
        assert first_focus is app.screen.query(Input).first()  # a name comes first
        await pilot.press("shift+tab")
        assert app.focused is listing and listing.option_count == 2
        first = str(listing.get_option_at_index(0).prompt)
        assert first.startswith("Bob has 0, Cid has 0; round 1, ") and " · saved 20" in first
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert len(storage.games.unfinished().games) == 2
        await pilot.press("d", "y")
        await pilot.pause()
        assert [saved.names for saved in storage.games.unfinished().games] == [("Ann",)]
        assert app.screen.query_one(OptionList).option_count == 1
        # The person was at the list: it keeps the focus, to resume or discard the next one.
        assert app.focused is app.screen.query_one(OptionList)


async def test_at_80x24_three_sheets_are_shown_a_page_at_a_time_and_the_screen_says_how(
    storage: Storage,
) -> None:
    remember(storage, "Ann", "Bob", "Cid")
    app = KismetApp(storage, rng=ScriptedDice([6, 1, 2]), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        table = app.screen
        assert isinstance(table, TableScreen)
        hint = table.query_one("#sheet-hint", Static)
        assert table.shown_seats() == (0,)
        assert hint.display and str(hint.render()) == sheets_hint(1, 3)
        await pilot.press("s")
        assert table.shown_seats() == (1,)
        assert str(table.query_one(SheetView).ordered_columns[1].label) == "Bob"
        await pilot.press("s", "s")
        assert table.shown_seats() == (0,)
        assert "63 more for a 35 bonus" in str(table.query_one("#status").render())


async def test_a_narrow_start_screen_wraps_the_house_rule_and_stacks_the_buttons(storage: Storage) -> None:
    # Three rows of buttons (two a row) on a phone's width, two rows of three, then one row.
    for width, rows in (
        (THREE_BUTTONS_COLUMNS - 1, 3),
        (THREE_BUTTONS_COLUMNS, 2),
        (START_COLUMNS - 1, 2),
        (START_COLUMNS, 1),
    ):
        app = KismetApp(storage, rng=ScriptedDice([]), pace=0)
        async with app.run_test(size=(width, 30)):
            start = app.screen
            assert isinstance(start, StartScreen)
            actions = list(start.query_one("#actions").query(Button).results(Button))
            assert [button.id for button in actions] == ["start", "help", "rules", "hall", "settings"]
            assert all(button.region.right <= width for button in actions), width
            # Every label on one line within its button.
            assert all(len(str(button.label)) <= button.content_region.width for button in actions), width
            assert len({button.region.y for button in actions}) == rows, width
            rule = start.query_one("#zero-kismet", Checkbox)
            assert rule.region.right <= width
            assert rule.region.height == (4 if width < START_COLUMNS else 3)  # two lines inside its border


async def test_at_the_narrowest_width_for_a_sheet_the_line_above_it_shows_whole(storage: Storage) -> None:
    # At 74 columns the sheet's scroll bar and last padding fall off the screen (see TABLE_COLUMNS).
    remember(storage, "Ann", "Bob", "Cid")
    app = KismetApp(storage, rng=ScriptedDice([6, 1, 2]), pace=0)
    async with app.run_test(size=(TABLE_COLUMNS, 24)) as pilot:
        await pilot.press("enter", "enter")
        hint = app.screen.query_one("#sheet-hint", Static)
        said = str(hint.render())
        assert hint.display and said == sheets_hint(1, 3)
        assert hint.content_region.x + len(said) <= TABLE_COLUMNS


async def test_at_120x40_the_log_takes_the_width_the_sheets_leave(storage: Storage) -> None:
    remember(storage, "Ann", "Bob", "Cid")
    app = KismetApp(storage, rng=ScriptedDice([6, 1, 2]), pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter", "enter")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.shown_seats() == (0, 1, 2) and not table.query_one("#sheet-hint").display
        left = table.query_one("#left").size.width
        sheets = table.query_one(SheetView).size.width
        assert left + sheets == 120 and left > 60


async def test_names_given_on_the_command_line_start_their_game_at_once(storage: Storage) -> None:
    # The roll-off: Ann 2, Bob 5, so Bob begins.
    seats = (Seat("Ann"), Seat("Bob"))
    app = KismetApp(storage, rng=ScriptedDice([2, 5]), pace=0, seats=seats)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the roll-off's dialog: play
        table = app.screen
        assert isinstance(table, TableScreen) and table.session.game.names == ("Ann", "Bob")
        assert table.session.game.current_player == 1
        # The set-up is remembered for the next game, as one started from the start screen is.
        assert Setup.from_json(storage.settings.get(SETUP_KEY) or "").seats == seats


async def test_a_house_rule_asked_for_on_the_command_line_is_set_on_the_start_screen(
    storage: Storage,
) -> None:
    remember(storage, "Ann")
    app = KismetApp(storage, pace=0, house_rules=HouseRules(zero_kismet_counts=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert start.query_one("#zero-kismet", Checkbox).value
        assert [row.read().name for row in start.query(SeatRow)] == ["Ann"]
