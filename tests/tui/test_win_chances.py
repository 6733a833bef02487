"""Everyone's chance of winning at the terminal's table, where the futures are on the machine."""

from __future__ import annotations

from kismet_dice.game import ScriptedDice
from kismet_dice.session.win_chances import MODEL, WinChances, words
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer, StrategyTable
from kismet_dice.tui import KismetApp
from kismet_dice.tui.screens.table import TableScreen
from kismet_dice.tui.widgets import StoryLog
from tests.support.futures import late_futures
from tests.support.games import late_game


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
