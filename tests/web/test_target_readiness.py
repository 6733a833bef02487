"""A table with a target computer while its futures are worked out (minutes, the first time on a
server): its pages see what the computer works out and how far it is, and advice works meanwhile."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

import httpx2
from playwright.sync_api import expect

from kismet_dice.session import narration
from kismet_dice.strategy import Computer, ComputerUnavailable, Level, StrategyTable
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.solver import Progress
from tests.support.browser import Pages, served
from tests.support.compiles import call, fresh_loops
from tests.support.live import LiveGame
from tests.support.web import QueuedDice, client, new_game, seat, seat_tokens


class SlowFutures(Computer):
    """A computer with its table loaded whose futures get a third of the way, then wait for the test
    and are refused (a test cannot work out the real ones: they take minutes)."""

    def __init__(self, table: StrategyTable) -> None:
        super().__init__(table=table)
        self.release = threading.Event()

    @property
    def futures_stored(self) -> bool:
        return False

    def stored_futures(self) -> Futures | None:
        return None

    def futures(self, progress: Progress | None = None) -> Futures:
        if progress is not None:
            progress(1, 3)
        # Bounded only so that a failed test leaves no thread behind for ever.
        self.release.wait(timeout=120)
        raise ComputerUnavailable("the test ends here")


def test_while_the_target_computers_futures_are_worked_out_its_pages_see_how_far_and_advice_works(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    slow = SlowFutures(kismet_table)
    dice = QueuedDice(6, 1, 6, 6, 6, 6, 6)  # Ann begins, then rolls five sixes
    try:
        with client(tmp_path, dice, slow) as web:
            created = new_game(web, "Ann", "Tess", computers={"Tess": "target"})
            (ann,) = seat_tokens(created)
            game_id = created["id"]
            with web.websocket_connect(f"/api/games/{game_id}/live") as socket:
                page = LiveGame(socket)
                view = page.wait_for(lambda view: view["computer_progress"] is not None)
                assert view["computer"] == "getting_ready" and view["computer_task"] == "futures"
                assert view["computer_progress"] == 0.333
                # Only the target seat waits: Ann plays and is advised meanwhile.
                web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
                advice = web.post(f"/api/games/{game_id}/advice", headers=seat(ann))
                assert advice.status_code == 200, advice.text
                assert advice.json()["options"][0]["box"] == "KISMET"
                assert advice.json()["game"]["computer_task"] == "futures"
    finally:
        slow.release.set()


class FirstRunStrategy(Computer):
    """A computer that, getting ready, first compiles its strategy (as the first run on a machine
    does), then waits for the test before it loads its table."""

    def __init__(self, table: StrategyTable) -> None:
        super().__init__(table=table)
        self.release = threading.Event()
        self.loaded = False

    @property
    def ready(self) -> bool:
        return self.loaded

    def ready_for(self, levels: Iterable[Level | None]) -> bool:
        return self.loaded

    def prepare(self, levels: Iterable[Level | None], progress: Progress | None = None) -> None:
        assert progress is not None
        progress(0, 2)
        call(fresh_loops("kismet_dice.strategy.first_strategy")["outer"], 1)
        self.release.wait(timeout=120)  # bounded, so that a failed test leaves no thread for ever
        progress(2, 2)
        self.loaded = True


def test_while_the_computer_first_compiles_its_strategy_its_pages_are_told_in_the_servers_words(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    first_run = FirstRunStrategy(kismet_table)
    try:
        with client(tmp_path, QueuedDice(6, 1), first_run) as web:
            assert web.get("/api/words").json()["compiling"] == narration.compiling("this server")
            created = new_game(web, "Ann", "Hal", computers={"Hal": "hard"})
            with web.websocket_connect(f"/api/games/{created['id']}/live") as socket:
                page = LiveGame(socket)
                view = page.wait_for(lambda view: view["computer_compiling"])
                assert view["computer"] == "getting_ready" and view["computer_task"] == "strategy"
                first_run.release.set()
                view = page.wait_for(lambda view: view["computer"] == "ready")
                assert not view["computer_compiling"]
    finally:
        first_run.release.set()


def test_a_page_says_in_the_servers_words_that_the_computer_first_compiles_its_strategy(
    browser: Pages, tmp_path: Path, kismet_table: StrategyTable
) -> None:
    first_run = FirstRunStrategy(kismet_table)
    try:
        with served(tmp_path, seed=1, computer=first_run) as address:
            http = httpx2.Client(base_url=address, timeout=60)
            players = [{"name": "Ann"}, {"name": "Hal", "computer": "hard"}]
            created = http.post("/api/games", json={"players": players}).json()
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            page.goto(address + created["invitations"][0]["link"])
            status = page.locator("#computer-status")
            expect(status).to_contain_text("The computer is getting ready")
            expect(status).to_contain_text(narration.compiling("this server"))
            first_run.release.set()
            expect(status).to_have_text("")  # ready: nothing more to say
            page.close()
    finally:
        first_run.release.set()
