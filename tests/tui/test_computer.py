"""The terminal game with the computer: computer seats, advice, proficiency."""

from __future__ import annotations

import random
import threading
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, ProgressBar, Static

from kismet_dice.game import Game, ScriptedDice, SecondKismet
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Setup, narration
from kismet_dice.storage import Storage
from kismet_dice.strategy import Advisor, Computer, Level, StrategyTable
from kismet_dice.strategy.chances import Continuations
from kismet_dice.strategy.distribution import Distribution, distribution_path
from kismet_dice.strategy.distribution import save as save_distribution
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import save, table_path
from kismet_dice.tui import KismetApp
from kismet_dice.tui.app import SETUP_KEY
from kismet_dice.tui.screens.dialogs import ConfirmScreen, NoticeScreen, RollOffScreen
from kismet_dice.tui.screens.end import EndScreen
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.strategy import AdviceScreen, PreparingScreen, option_text
from kismet_dice.tui.screens.table import TableScreen
from kismet_dice.tui.widgets import KEY_OF_BOX
from tests.support.compiles import call, fresh_loops
from tests.support.games import fill_hall, late_solo_faces
from tests.support.locks import OtherKismet
from tests.support.pilot import shown, until


async def test_two_people_and_a_computer_with_its_second_kismet(storage: Storage) -> None:
    seats = (Seat("Ann"), Seat("Bob"), Seat("Cid", Level.EASY))
    storage.settings.put(SETUP_KEY, Setup(seats).to_json())
    # Cid wins the roll-off; five sixes are a Kismet for an easy player, then a second Kismet.
    faces = [1, 2, 6] + [6] * 5 + [1, 2, 3, 4, 6] * 2 + [6] * 5
    app = KismetApp(storage, computer=Computer(), rng=ScriptedDice(faces), pace=0)
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.press("enter")
        await shown(pilot, RollOffScreen)
        # Behind the roll-off, Cid waits: it plays once the dialog is closed.
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        status = str(table.query_one("#status").render())
        assert "Cid (computer, easy)'s turn\nwaits for the dialog above to close" in status
        assert table.session.game.sheet(2)[Box.KISMET] is None
        await pilot.press("enter")
        await pilot.pause()
        assert table.is_current
        assert table.session.game.sheet(2)[Box.KISMET] == 80  # the computer played its turn
        assert table.session.game.current_player == 0
        await pilot.press("space", KEY_OF_BOX[Box.YARBOROUGH], KEY_OF_BOX[Box.YARBOROUGH])  # Ann
        await pilot.press("space", KEY_OF_BOX[Box.YARBOROUGH], KEY_OF_BOX[Box.YARBOROUGH])  # Bob
        await pilot.pause()
        assert isinstance(app.screen, NoticeScreen)
        text = str(app.screen.query_one("#notice").render())
        assert "Second Kismet! Cid rolled five of a kind" in text
        assert "Ann loses a turn: 0 in Ones." in text and "Bob loses a turn: 0 in Ones." in text
        game = table.session.game
        assert isinstance(game.history[-1], SecondKismet) and game.leader == 2
        assert game.sheet(2)[Box.FOUR_OF_A_KIND] == 55
        log = "\n".join(str(line.text) for line in table.query_one("#log").lines)  # type: ignore[attr-defined]
        assert "Cid enters 80 in Kismet; total 80." in log
    # The computer's seat and level are saved, for resuming.
    [saved] = storage.games.unfinished().games
    assert saved.levels == (None, None, "easy")


def nearly_done(storage: Storage) -> int:
    """A saved solo game with only Kismet open and the dice 6-6-6-6-1 after one roll."""
    faces = [3] + [1, 2, 3, 4, 6] * 14 + [6, 6, 6, 6, 1]
    game = Game(["Ann"], rng=ScriptedDice(faces))
    for box in list(Box)[:-1]:
        game.roll()
        game.score(box)
    game.roll()
    return storage.games.start(game, levels=[None]).id


async def finish_nearly_done(pilot: Pilot[None]) -> EndScreen:
    """Resume the game :func:`nearly_done` saved, roll a sixth six and enter the Kismet: its end
    screen (under the Hall of Fame's question, which a new total is asked)."""
    await pilot.press("shift+tab", "enter")  # resume the offered game
    await pilot.press("1", "2", "3", "4", "space")  # keeps the four sixes: the fifth is one too
    await pilot.press(KEY_OF_BOX[Box.KISMET], KEY_OF_BOX[Box.KISMET])

    def ends() -> list[EndScreen]:
        return [screen for screen in pilot.app.screen_stack if isinstance(screen, EndScreen)]

    await until(pilot, lambda: bool(ends()), "at the end")
    [end] = ends()
    return end


async def test_advice_warns_marks_the_game_assisted_and_plays_the_best_option(
    storage: Storage, kismet_table: StrategyTable, kismet_distribution: Distribution
) -> None:
    saved_id = nearly_done(storage)
    computer = Computer(table=kismet_table, perfect=kismet_distribution)
    app = KismetApp(storage, computer=computer, rng=ScriptedDice([6]), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.press("shift+tab", "enter")  # resume the offered game
        table = app.screen
        assert isinstance(table, TableScreen)
        await pilot.press("h")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Hall of Fame" in str(app.screen.query_one("#question").render())
        await pilot.press("n")
        assert not table.session.assisted
        await pilot.press("h", "y")
        advice = app.screen
        assert isinstance(advice, AdviceScreen)
        assert table.session.assisted
        [saved] = storage.games.unfinished().games
        assert saved.id == saved_id and saved.assisted
        rows = advice.query_one(DataTable)
        best = [str(cell) for cell in rows.get_row_at(0)]
        # Only Kismet is open: keeping the four sixes beats entering a zero (or keeping fewer).
        assert best[0] == "best" and best[1] == "Keep 6 6 6 6, roll 1"
        await pilot.press("enter")  # plays it: the one die rolled is a six
        await pilot.pause()
        assert table.session.game.dice == (6, 6, 6, 6, 6)
        await pilot.press(KEY_OF_BOX[Box.KISMET], KEY_OF_BOX[Box.KISMET])
        await pilot.pause()
        # An assisted game asks nobody for a Hall of Fame name, and its end screen says why.
        assert isinstance(app.screen, EndScreen)
        assert str(app.screen.query_one("#assisted", Static).render()) == narration.ASSISTED
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = str(app.screen.query_one("#proficiency", Static).render())
        # Fifteen entries and one keep, the scripted start of the game costly, the advice not.
        assert "points in 16 decisions" in text and "The costliest decisions:" in text
        assert "turn 15" not in text
        # No distribution of perfect play stored in this home: the end worked it out (here, the
        # computer's) to say how the total compares.
        game = app.screen.session.game
        total = game.total(0)
        standings = str(app.screen.query_one("#standings", Static).render())
        assert standings == narration.standing(game.names[0], total, kismet_distribution.below(total))
    assert storage.hall.entries() == ()


class SlowComputer(Computer):
    """A computer whose table loads only when the test says so."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.go = threading.Event()

    def advisor(self, progress: Progress | None = None) -> Advisor:
        self.go.wait(timeout=60)
        return super().advisor(progress)


class ThenRandom:
    """The scripted faces first, then seeded random ones."""

    def __init__(self, faces: list[int]) -> None:
        self.script = ScriptedDice(faces)
        self.random = random.Random(1)

    def randint(self, a: int, b: int) -> int:
        return self.script.randint(a, b) if self.script.remaining else self.random.randint(a, b)


async def test_a_hard_player_waits_for_the_table_with_progress(storage: Storage, kismet_home: str) -> None:
    storage.settings.put(SETUP_KEY, Setup((Seat("Bot", Level.HARD),)).to_json())
    computer = SlowComputer(Path(kismet_home) / "tables")  # stored, not yet loaded
    app = KismetApp(storage, computer=computer, rng=ThenRandom([2] + [5] * 5), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, PreparingScreen)
        assert not computer.ready
        computer.go.set()
        for _ in range(200):  # the table loads in a worker thread; wait for it, not for a time
            if isinstance(app.screen, (TableScreen, EndScreen)):
                break
            await pilot.pause(0.05)
        assert computer.ready
        await pilot.pause()
        # With no pause between its actions the computer may already have played the game out.
        screen = app.screen
        assert isinstance(screen, (TableScreen, EndScreen))
        assert screen.session.game.sheet(0)[Box.KISMET] == 75  # five fives: nothing better


class FirstRunComputer(SlowComputer):
    """A computer whose strategy compiles when the test says so, as the first run on a machine does,
    and whose table then loads when the test says so."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.compile = threading.Event()

    def advisor(self, progress: Progress | None = None) -> Advisor:
        self.compile.wait(timeout=60)
        call(fresh_loops("kismet_dice.strategy.first_run")["outer"], 1)
        return super().advisor(progress)


async def test_getting_ready_says_when_the_first_run_on_a_machine_compiles_the_strategy(
    storage: Storage, kismet_home: str
) -> None:
    storage.settings.put(SETUP_KEY, Setup((Seat("Bot", Level.HARD),)).to_json())
    computer = FirstRunComputer(Path(kismet_home) / "tables")
    app = KismetApp(storage, computer=computer, rng=ThenRandom([2] + [5] * 5), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, PreparingScreen)
        notice = app.screen.query_one("#compiling", Static)
        assert not notice.display  # nothing compiles yet
        computer.compile.set()
        for _ in range(200):
            if notice.display:
                break
            await pilot.pause(0.05)
        assert notice.display and str(notice.render()) == narration.COMPILING
        computer.go.set()
        for _ in range(200):
            if isinstance(app.screen, (TableScreen, EndScreen)):
                break
            await pilot.pause(0.05)
        assert computer.ready
        await pilot.pause()
        assert isinstance(app.screen, (TableScreen, EndScreen))


async def test_getting_ready_says_when_it_waits_for_another_kismet_solving_the_table(
    storage: Storage, kismet_table: StrategyTable, tmp_path: Path
) -> None:
    storage.settings.put(SETUP_KEY, Setup((Seat("Bot", Level.HARD),)).to_json())
    directory = tmp_path / "tables"  # no table here yet
    path = table_path(kismet_table.rules, directory)
    other = OtherKismet(path, 4, 10, lambda: save(kismet_table, path))
    computer = Computer(directory)
    app = KismetApp(storage, computer=computer, rng=ThenRandom([2] + [5] * 5), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, PreparingScreen)
        preparing = app.screen
        notice = preparing.query_one("#waiting", Static)
        bar = preparing.query_one(ProgressBar)
        await until(pilot, lambda: notice.display and bar.progress == 4, "told of the wait")
        assert notice.display and str(notice.render()) == narration.WAITING
        assert (bar.progress, bar.total) == (4, 10)  # the other's progress
        other.finish()
        await until(pilot, lambda: isinstance(app.screen, (TableScreen, EndScreen)), "at the table")
        assert computer.ready
        await pilot.pause()
        assert isinstance(app.screen, (TableScreen, EndScreen))


class FirstRunDistribution(Computer):
    """A computer whose distribution of perfect play compiles first, as the first run on a machine
    does, then is there when the test says so."""

    def __init__(self, table: StrategyTable, perfect: Distribution) -> None:
        super().__init__(table=table)
        self.known = perfect
        self.go = threading.Event()

    def perfect_play(self, progress: Progress | None = None) -> Distribution:
        if progress is not None:
            progress(0, 10)
        call(fresh_loops("kismet_dice.strategy.first_distribution")["outer"], 1)
        self.go.wait(timeout=60)
        return self.known


async def test_the_end_says_when_comparing_with_perfect_play_first_compiles_the_strategy(
    storage: Storage, kismet_table: StrategyTable, kismet_distribution: Distribution
) -> None:
    nearly_done(storage)
    computer = FirstRunDistribution(kismet_table, kismet_distribution)
    app = KismetApp(storage, computer=computer, rng=ScriptedDice([6]), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        end = await finish_nearly_done(pilot)
        standings = end.query_one("#standings", Static)
        for _ in range(200):
            if narration.COMPILING in str(standings.render()):
                break
            await pilot.pause(0.05)
        assert str(standings.render()) == f"{narration.COMPARING}\n{narration.COMPILING}"
        computer.go.set()
        for _ in range(200):
            if narration.COMPARING not in str(standings.render()):
                break
            await pilot.pause(0.05)
        total = end.session.game.total(0)
        assert str(standings.render()) == narration.standing("Ann", total, kismet_distribution.below(total))
        await app.workers.wait_for_complete()


async def test_the_end_says_when_comparing_waits_for_another_kismet_working_out_perfect_play(
    storage: Storage, kismet_table: StrategyTable, kismet_distribution: Distribution, tmp_path: Path
) -> None:
    nearly_done(storage)
    path = distribution_path(kismet_table.rules, tmp_path)  # none stored there yet
    other = OtherKismet(path, 2, 10, lambda: save_distribution(kismet_table.rules, kismet_distribution, path))
    computer = Computer(tmp_path, table=kismet_table)
    app = KismetApp(storage, computer=computer, rng=ScriptedDice([6]), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        end = await finish_nearly_done(pilot)
        standings = end.query_one("#standings", Static)
        waiting = f"{narration.COMPARING} 20%\n{narration.WAITING}"
        await until(pilot, lambda: str(standings.render()) == waiting, "told of the wait")
        assert str(standings.render()) == waiting  # the other's progress, and whose it is
        other.finish()
        await until(pilot, lambda: narration.COMPARING not in str(standings.render()), "compared")
        total = end.session.game.total(0)
        assert str(standings.render()) == narration.standing("Ann", total, kismet_distribution.below(total))
        await app.workers.wait_for_complete()


async def test_the_dice_a_computer_kept_are_shown_held(storage: Storage) -> None:
    storage.settings.put(SETUP_KEY, Setup((Seat("Ann"), Seat("Cid", Level.EASY))).to_json())
    # Cid begins; an easy player keeps its three fours and rolls two dice.
    faces = [1, 6] + [4, 4, 1, 4, 2] + [3, 5]
    app = KismetApp(storage, computer=Computer(), rng=ThenRandom(faces), pace=30)
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.press("enter", "enter")
        table = app.screen
        assert isinstance(table, TableScreen)
        table.computer_step()  # the first roll
        table.computer_step()  # keeps the fours, rolls the others
        await pilot.pause()
        assert table.session.game.dice == (4, 4, 3, 4, 5)
        held = [die.has_class("held") for die in table.query(".die")]
        assert held == [True, True, False, True, False]


async def test_late_advice_fills_in_each_options_chance_of_a_hall_of_fame_total(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    game = Game(["Ann"], rng=ScriptedDice(late_solo_faces(3)))
    for _ in range(12):
        game.roll()
        game.score(game.sheet(0).open_boxes[0])
    game.roll()
    storage.games.start(game, levels=[None])
    advisor = Advisor(kismet_table)
    bar = round(advisor.start_value(game.sheet(0)))
    fill_hall(storage, [bar + 9] * 9 + [bar])
    ranked = Continuations(kismet_table, game.sheet(0)).options(game.dice, game.rolls_left, bar + 1, advisor)
    app = KismetApp(storage, computer=Computer(table=kismet_table), rng=ScriptedDice([4] * 20), pace=0)
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.press("shift+tab", "enter")  # resume the offered game
        await pilot.press("h", "y")
        advice = app.screen
        assert isinstance(advice, AdviceScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        rows = advice.query_one(DataTable)
        assert str(rows.ordered_columns[-1].label) == f"Hall of Fame total ({bar + 1}+)"
        chances = [found.chance for found in ranked]
        best = chances.index(max(chances))
        assert best < rows.row_count
        for rank, found in enumerate(ranked[: rows.row_count]):
            cells = [str(cell) for cell in rows.get_row_at(rank)]
            assert cells[1] == option_text(found.option, game.dice)
            mark = " best for the Hall of Fame" if rank == best else ""
            assert cells[-1] == f"{found.chance:.1%}{mark}"
        line = str(advice.query_one("#hall-line", Static).render())
        assert line == narration.hall_chances(bar + 1)
        tip = str(advice.query_one("#hall-tip", Static).render())
        assert tip == narration.HALL_FUTURES_MISSING
        # Closed and asked again in the same turn: the chances are remembered, no work to do.
        await pilot.press("escape", "h")
        again = app.screen
        assert isinstance(again, AdviceScreen) and again.hall is not None
        assert not again.hall.pending and again.hall.chances is not None
        assert str(again.query_one(DataTable).get_row_at(0)[-1]).startswith(f"{ranked[0].chance:.1%}")


def early_game_with_a_full_hall(storage: Storage, kismet_table: StrategyTable) -> KismetApp:
    """A solo game saved after its first roll (2 3 4 5 5), a full Hall of Fame (300 to 309)."""
    game = Game(["Ann"], rng=ScriptedDice([3, 2, 3, 4, 5, 5]))
    game.roll()
    storage.games.start(game, levels=[None])
    fill_hall(storage, range(300, 310))
    return KismetApp(storage, computer=Computer(table=kismet_table), rng=ScriptedDice([6]), pace=0)


async def test_early_advice_says_from_when_the_chances_show(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    app = early_game_with_a_full_hall(storage, kismet_table)
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.press("shift+tab", "enter")
        await pilot.press("h", "y")
        advice = app.screen
        assert isinstance(advice, AdviceScreen)
        rows = advice.query_one(DataTable)
        assert [str(column.label) for column in rows.ordered_columns] == [
            "",
            "Option",
            "Expected",
            "Gives away",
        ]
        line = str(advice.query_one("#hall-line", Static).render())
        assert line == narration.hall_chances_later(301, 15, 8)
        assert "show from when 8 boxes are open (15 are open now)" in line


async def test_on_an_80x24_terminal_the_lines_under_the_advice_still_show(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    app = early_game_with_a_full_hall(storage, kismet_table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("shift+tab", "enter")
        await pilot.press("h", "y")
        await pilot.pause()
        advice = app.screen
        assert isinstance(advice, AdviceScreen)
        rows = advice.query_one(DataTable)
        assert rows.region.height < rows.row_count + 1  # the table gives up rows and scrolls
        for name in ("#advice-more", "#hall-line"):
            region = advice.query_one(name, Static).region
            assert region.height > 0 and region.bottom <= 24, name
        line = str(advice.query_one("#hall-line", Static).render())
        assert line == narration.hall_chances_later(301, 15, 8)
