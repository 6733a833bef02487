"""The statistics screen of the terminal game: reached with F4 from the start, names to choose,
figures and three charts drawn."""

from __future__ import annotations

import html

from kismet_dice.storage import Storage
from kismet_dice.strategy import StrategyTable
from kismet_dice.strategy.reference import reference
from kismet_dice.tui.app import KismetApp
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.stats import StatsScreen
from tests.support.stats import TOP_DOWN, store_game, total


async def test_f4_shows_each_name_with_its_figures_and_charts(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    ann = total(store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])[0])
    bob = total(store_game(storage, [("Bob", [1, 1, 2, 2, 3], TOP_DOWN)])[0])
    made = reference(kismet_table)
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        screen.make_reference = lambda: made
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
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)


async def test_with_no_finished_games_the_screen_says_so(storage: Storage) -> None:
    app = KismetApp(storage, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f4")
        assert isinstance(app.screen, StatsScreen)
        assert "No finished games yet" in str(
            app.screen.query_one("#stats-dialog").query("Label")[1].render()
        )
        await pilot.press("f4")
        assert isinstance(app.screen, StartScreen)
