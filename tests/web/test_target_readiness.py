"""A table with a target computer while its futures are worked out (minutes, the first time on a
server): its pages see what the computer works out and how far it is, and advice works meanwhile."""

from __future__ import annotations

import threading
from pathlib import Path

from kismet_dice.strategy import Computer, ComputerUnavailable, StrategyTable
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.solver import Progress
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
