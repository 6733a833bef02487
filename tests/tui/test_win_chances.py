"""Everyone's chance of winning at the terminal's table, where the futures are on the machine."""

from __future__ import annotations

from textual.widgets import DataTable
from textual_plotext import PlotextPlot

from kismet_dice.game import ScriptedDice
from kismet_dice.session import narration
from kismet_dice.session.win_chances import COURSE_TITLE, MODEL, Course, WinChances, words
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer, StrategyTable
from kismet_dice.tui import KismetApp
from kismet_dice.tui.screens.end import EndScreen
from kismet_dice.tui.screens.strategy import AdviceScreen
from kismet_dice.tui.screens.table import TableScreen
from kismet_dice.tui.widgets import StoryLog
from tests.support.futures import late_futures
from tests.support.games import finished_two_player_game, late_game


async def test_a_resumed_late_game_shows_everyones_chance_and_once_what_they_assume(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    game = late_game()
    storage.games.start(game, levels=[None, None])
    computer = Computer(table=kismet_table, futures=late_futures(kismet_table, game.sheet(0)))
    expected = WinChances(computer).of(game)
    assert expected is not None
    app = KismetApp(storage, computer=computer, rng=ScriptedDice([6] * 10), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("shift+tab", "enter")  # resume the offered game
        table = app.screen
        assert isinstance(table, TableScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = str(table.query_one("#chances").render())
        assert shown == words(game.names, expected)
        await pilot.press("space")  # Ann rolls five sixes
        await app.workers.wait_for_complete()
        await pilot.pause()
        after = str(table.query_one("#chances").render())
        assert after != shown and after.startswith("Chances of winning: Ann ")
        # What the chances assume is told once in the story, the first time they show.
        assert table.query_one(StoryLog).story.count(MODEL) == 1


async def test_the_advice_shows_each_options_chance_of_winning(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    game = late_game()
    storage.games.start(game, levels=[None, None])
    computer = Computer(table=kismet_table, futures=late_futures(kismet_table, game.sheet(0)))
    app = KismetApp(storage, computer=computer, rng=ScriptedDice([6, 6, 6, 2, 1]), pace=0)
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.press("shift+tab", "enter", "space", "h", "y")  # resume, roll, advice (assisted)
        await app.workers.wait_for_complete()
        await pilot.pause()
        advice = app.screen
        assert isinstance(advice, AdviceScreen)
        rows = advice.query_one(DataTable)
        headings = [str(column.label) for column in rows.columns.values()]
        assert headings[-1] == narration.WIN_COLUMN
        table = app.screen_stack[-2]  # the table, under the advice
        assert isinstance(table, TableScreen) and table.session.game.dice == (6, 6, 6, 2, 1)
        expected = WinChances(computer).advice(table.session.game, advice.every)
        assert expected is not None
        shown = [str(rows.get_row(str(rank))[-1]) for rank in advice.ranks]
        assert shown == [f"{expected[rank]:.1%}" for rank in advice.ranks]


async def test_the_end_screen_draws_everyones_chance_over_the_game_once_it_is_known(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    app = KismetApp(storage, computer=None, pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        end = EndScreen(session, None)
        await app.push_screen(end)
        await pilot.pause()
        chart = end.query_one("#chances-chart", PlotextPlot)
        assert not chart.display  # nothing known: no futures on the machine
        end.show_chances(Course(("Ann", "Bob"), ((0.5, 0.5), (0.7, 0.3), (1.0, 0.0))))
        await pilot.pause()
        assert chart.display
        drawn = str(chart.render())
        assert COURSE_TITLE in drawn and "Ann" in drawn and "Bob" in drawn
