"""The statistics screen of the terminal game: reached with F4 from the start, names to choose,
figures and three charts drawn."""

from __future__ import annotations

import html

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from kismet_dice.session import narration
from kismet_dice.session.statistics import NO_FINISHED_GAMES, table_lines
from kismet_dice.storage import Storage
from kismet_dice.strategy import StrategyTable
from kismet_dice.strategy.reference import Reference, reference
from kismet_dice.tui.app import KismetApp
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.stats import StatsScreen
from tests.support.stats import TOP_DOWN, HeldReference, store_game, total


async def opened(pilot: Pilot[None], made: Reference) -> StatsScreen:
    """The statistics, opened with F4 from the start screen, making ``made`` as their reference."""
    await pilot.press("f4")
    screen = pilot.app.screen
    assert isinstance(screen, StatsScreen)
    screen.make_reference = lambda progress: made
    return screen


@pytest.mark.usefixtures("charts_reference")
async def test_f4_shows_each_name_with_its_figures_and_charts(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    ann = total(store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])[0])
    bob = total(store_game(storage, [("Bob", [1, 1, 2, 2, 3], TOP_DOWN)])[0])
    made = reference(kismet_table)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await opened(pilot, made)
        figures = screen.query_one("#stats-figures")
        assert str(figures.render()).startswith("Ann: 1 game(s)")
        assert f"best {ann}" in str(figures.render())
        await pilot.press("down")  # the names list has the focus: Bob
        await pilot.pause()
        assert screen.chosen is not None and screen.chosen.name == "Bob"
        assert f"best {bob}" in str(screen.query_one("#stats-figures").render())
        screen.load_reference()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.reference is made
        # The totals chart is the tab shown: its title and the legend of its references.
        shown = html.unescape(app.export_screenshot()).replace("\xa0", " ")
        assert "Bob's totals" in shown
        assert "perfect play" in shown and "easy player" in shown
        # The legend names whose games they are: the list holds every name, not only the reader's.
        assert "Bob's games" in shown and "your games" not in shown
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)


def shown_whole(widget: Widget, within: Widget) -> str:
    """The words ``widget`` shows, its lines joined; the test fails unless every line of it lies
    inside ``within``'s content, so none is cut at the dialog's edge."""
    assert within.content_region.contains_region(widget.region), (widget.region, within.content_region)
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return " ".join(" ".join(line.text.split()) for line in lines if line.text.strip())


async def test_with_no_finished_games_the_screen_says_so_whole_at_80x24(storage: Storage) -> None:
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert (
            shown_whole(screen.query_one("#stats-none"), screen.query_one("#stats-dialog"))
            == NO_FINISHED_GAMES
        )
        # No strategy table in this home: no chart of the computer players either (nothing is solved).
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not screen.query_one("#chart-totals").display
        await pilot.press("f4")
        assert isinstance(app.screen, StartScreen)


@pytest.mark.usefixtures("charts_reference")
async def test_with_no_finished_games_the_screen_shows_what_there_is_to_aim_at(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    made = reference(kismet_table)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, made)
        screen.load_reference()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.query_one("#chart-totals").display
        shown = html.unescape(app.export_screenshot()).replace("\xa0", " ")
        assert NO_FINISHED_GAMES.split(":")[0] in shown
        assert "What perfect play and the computer players score" in shown
        assert "perfect play" in shown and "medium player" in shown and "easy player" in shown


async def test_at_80x24_every_line_of_the_figures_shows_whole(storage: Storage) -> None:
    # The longest first line there is: a name of 24 characters with games assisted and not.
    name = "Maximiliana Featherstone"
    store_game(storage, [(name, [6, 6, 6, 6, 5], TOP_DOWN)])
    store_game(storage, [(name, [1, 1, 2, 2, 3], TOP_DOWN)], assisted=True)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.chosen is not None
        dialog = screen.query_one("#stats-dialog")
        shown = shown_whole(screen.query_one("#stats-figures"), dialog)
        assert shown == " ".join(" ".join(line.split()) for line in table_lines(screen.chosen)[:5])
        assert "standard deviation 0.0" in shown and "1 assisted game(s) not counted" in shown
        assert dialog.content_region.contains_region(screen.query_one("#chart-totals").region)


async def test_the_first_time_the_statistics_say_how_far_the_games_they_compare_with_are(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])
    held = HeldReference(1200)  # in this test's home, where no games are stored

    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        await app.workers.wait_for_complete()  # no table in this home: no reference, nothing said
        playing = screen.query_one("#stats-reference", Static)
        assert not playing.display and screen.reference is None
        screen.make_reference = lambda progress: held(kismet_table, progress=progress)
        screen.load_reference()
        try:
            for _ in range(200):
                if held.reached.is_set() and playing.display:
                    break
                await pilot.pause(0.05)
            said = str(playing.render())
            assert playing.display and said.startswith(narration.PLAYING_REFERENCE) and said.endswith("%")
            assert 0 < int(said.removeprefix(narration.PLAYING_REFERENCE).strip(" %")) < 100
        finally:
            held.go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not playing.display and screen.reference is not None
