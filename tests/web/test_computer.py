"""Computer seats at the web table: they play on the server, action by action, and after a restart."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kismet_dice.game import Game, Roll, Score, ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Setup
from kismet_dice.session.tables import Stores, Tables
from kismet_dice.storage import LocalClaims, Storage
from kismet_dice.strategy import Advisor, Computer, Level, StrategyTable
from kismet_dice.strategy.solver import Progress
from kismet_dice.web.computer import ComputerTurns, Readiness
from tests.support.live import LiveGame, turn_of
from tests.support.web import QueuedDice, client, entries, new_game, seat, seat_tokens, state

T = TypeVar("T")

# Pages wait for the computer's moves: a computer that stops fails the test instead of stalling it.
pytestmark = pytest.mark.timeout(120)


def filled(view: dict[str, Any], seat_number: int) -> int:
    return sum(points is not None for points in entries(view, seat_number).values())


def test_computer_seats_get_no_link_and_play_their_turns_by_themselves(
    tmp_path: Path, computer: Computer
) -> None:
    # The roll-off: Ann 6, Hal 2, Eve 1; Ann begins, then the dice are the test's own seeded ones.
    dice = QueuedDice(6, 2, 1)
    with client(tmp_path, dice, computer) as web:
        created = new_game(
            web, "Ann", "Hal", "Computer (easy)", computers={"Hal": "hard", "Computer (easy)": "easy"}
        )
        assert [invitation["name"] for invitation in created["invitations"]] == ["Ann"]
        players = created["game"]["players"]
        assert [player["computer"] for player in players] == [None, "hard", "easy"]
        # A computer named by its level is not told it twice.
        assert [player["described"] for player in players] == [
            "Ann",
            "Hal (computer, hard)",
            "Computer (easy)",
        ]
        (ann,) = seat_tokens(created)
        game_id = created["id"]
        with web.websocket_connect(f"/api/games/{game_id}/live") as socket:
            page = LiveGame(socket)
            page.wait_for(turn_of(0))
            dice.push(1, 2, 3, 4, 6)
            web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
            dice.push(*random.Random(4).choices(range(1, 7), k=15 * 2))
            scored = web.post(f"/api/games/{game_id}/score", json={"box": "SIXES"}, headers=seat(ann)).json()
            assert scored["current_player"] == 1
            # Every action of the computers comes as a page of its own, one event at a time.
            versions = [scored["version"]]
            while True:
                view = page.wait_for(lambda _view: True, after=versions[-1])
                versions.append(view["version"])
                if view["current_player"] == 0:
                    break
        assert versions == list(range(versions[0], versions[0] + len(versions)))
        assert view["round"] == 2 and [filled(view, number) for number in range(3)] == [1, 1, 1]
        played = view["events"][len(scored["events"]) :]
        assert [event["seat"] for event in played if event["kind"] == "scored"] == [1, 2]
        for event in played:
            if event["kind"] == "scored":
                assert entries(view, event["seat"])[event["box"]] == event["points"]
        # What the pages were shown is what the server keeps.
        assert state(web, game_id) == view


def test_a_game_of_computers_plays_to_the_end_and_enters_no_hall_of_fame(
    tmp_path: Path, computer: Computer
) -> None:
    with client(tmp_path, random.Random(7), computer) as web:
        created = new_game(web, "Max", "Eve", computers={"Max": "medium", "Eve": "easy"})
        assert created["invitations"] == []
        with web.websocket_connect(f"/api/games/{created['id']}/live") as socket:
            over = LiveGame(socket).wait_for(lambda view: view["over"])
        assert [filled(over, number) for number in range(2)] == [15, 15]
        assert over["hall_of_fame"] == []
        assert web.get("/api/hall").json() == []


def test_stored_levels_survive_a_restart_and_the_computer_plays_on(
    tmp_path: Path, computer: Computer
) -> None:
    # The first server pauses an hour between the computer's actions: it stops before Hal moves.
    dice = QueuedDice(6, 1, 1, 2, 3, 4, 5, 6)
    with client(tmp_path, dice, computer, pace=3600) as first:
        created = new_game(first, "Ann", "Hal", "Max", computers={"Hal": "hard", "Max": "medium"})
        (ann,) = seat_tokens(created)
        game_id = created["id"]
        first.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
        stopped = first.post(
            f"/api/games/{game_id}/score", json={"box": "STRAIGHT"}, headers=seat(ann)
        ).json()
        assert stopped["current_player"] == 1
        # While the computer has the turn, no seat token acts for it.
        refused = first.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
        assert refused.status_code == 409 and "Hal's turn" in refused.json()["error"]
    with client(tmp_path, random.Random(3), computer) as second:
        with second.websocket_connect(f"/api/games/{game_id}/live") as socket:
            view = LiveGame(socket).wait_for(turn_of(0), after=stopped["version"])
        assert [player["computer"] for player in view["players"]] == [None, "hard", "medium"]
        assert entries(view, 0)["STRAIGHT"] == 30
        assert [filled(view, number) for number in range(3)] == [1, 1, 1]
        # Ann's old link still plays her seat.
        assert second.get(f"/api/games/{game_id}/seat", headers=seat(ann)).json() == {
            "seat": 0,
            "name": "Ann",
        }


def test_after_a_restart_the_computer_plays_on_before_anyone_looks(
    tmp_path: Path, computer: Computer
) -> None:
    dice = QueuedDice(6, 1, 1, 2, 3, 4, 5)
    with client(tmp_path, dice, computer, pace=3600) as first:
        created = new_game(first, "Ann", "Hal", computers={"Hal": "easy"})
        (ann,) = seat_tokens(created)
        game_id = created["id"]
        first.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
        first.post(f"/api/games/{game_id}/score", json={"box": "STRAIGHT"}, headers=seat(ann))

    def hal_has_played() -> bool:
        with Storage.open(tmp_path) as storage:
            [(record,)] = storage.database.read("SELECT record FROM saved_game")
        return len(Game.from_json(str(record)).sheet(1).open_boxes) < 15

    assert not hal_has_played()
    # The second server is asked nothing about the game: its start alone sets Hal going.
    with client(tmp_path, random.Random(3), computer):
        for _ in range(400):
            if hal_has_played():
                break
            time.sleep(0.05)
        assert hal_has_played()


def test_a_computer_that_wins_the_roll_off_begins(tmp_path: Path, computer: Computer) -> None:
    # Hal's 5 beats Ann's 2; then Hal's dice.
    dice = QueuedDice(2, 5, *random.Random(2).choices(range(1, 7), k=15))
    with client(tmp_path, dice, computer) as web:
        created = new_game(web, "Ann", "Hal", computers={"Hal": "hard"})
        assert created["game"]["current_player"] == 1
        with web.websocket_connect(f"/api/games/{created['id']}/live") as socket:
            view = LiveGame(socket).wait_for(turn_of(0))
        assert filled(view, 1) == 1 and filled(view, 0) == 0


def test_a_computer_level_must_be_one_of_the_three(tmp_path: Path) -> None:
    with client(tmp_path, QueuedDice()) as web:
        for level in ("expert", "", 3):
            answer = web.post(
                "/api/games", json={"players": [{"name": "Ann"}, {"name": "Hal", "computer": level}]}
            )
            assert answer.status_code == 422 and "computer" in answer.json()["error"], answer.text


class SlowComputer(Computer):
    """A computer whose table loads only when the test says so, counting the loads."""

    def __init__(self, table: StrategyTable) -> None:
        super().__init__()
        self._table = table
        self._loaded: Advisor | None = None
        self._gate = threading.Lock()
        self.release = threading.Event()
        self.loads = 0

    @property
    def ready(self) -> bool:
        return self._loaded is not None

    @property
    def stored(self) -> bool:
        # Its table is on no disk, whatever this machine holds: a server waits until it is needed.
        return self.ready

    def advisor(self, progress: Progress | None = None) -> Advisor:
        with self._gate:
            if self._loaded is None:
                self.loads += 1
                # Bounded only so that a failed test leaves no thread behind for ever.
                self.release.wait(timeout=120)
                self._loaded = Advisor(self._table)
            return self._loaded


def test_while_the_computer_gets_ready_the_server_serves_and_says_so(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    slow = SlowComputer(kismet_table)
    dice = QueuedDice(1, 6, *random.Random(8).choices(range(1, 7), k=15))  # Hal begins
    with client(tmp_path, dice, slow) as web:
        created = new_game(web, "Ann", "Hal", computers={"Hal": "hard"})
        game_id = created["id"]
        with web.websocket_connect(f"/api/games/{game_id}/live") as socket:
            page = LiveGame(socket)
            waiting = page.wait_for(lambda view: True)
            assert waiting["computer"] == "getting_ready" and waiting["current_player"] == 1
            # The load runs beside the server: it still answers, and Hal has not moved.
            assert state(web, game_id)["events"] == created["game"]["events"]
            slow.release.set()
            view = page.wait_for(turn_of(0))
        assert view["computer"] == "ready" and filled(view, 1) == 1
        assert slow.loads == 1


def test_advice_asked_while_the_computer_gets_ready_comes_once_it_is(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    slow = SlowComputer(kismet_table)
    dice = QueuedDice(4, 6, 6, 6, 6, 6)  # a game of one: the roll-off, then five sixes
    with client(tmp_path, dice, slow) as web, ThreadPoolExecutor(1) as asking:
        created = new_game(web, "Ann")
        (ann,) = seat_tokens(created)
        game_id = created["id"]
        web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
        with web.websocket_connect(f"/api/games/{game_id}/live") as socket:
            page = LiveGame(socket)
            # Nothing has needed the computer yet: a table that must be worked out waits for that.
            assert page.wait_for(lambda view: True)["computer"] == "not_loaded"
            answer = asking.submit(web.post, f"/api/games/{game_id}/advice", headers=seat(ann))
            # The pages are told the computer is getting ready; the answer waits for it.
            pushed = page.wait_for(lambda view: True)
            assert pushed["computer"] == "getting_ready" and not pushed["assisted"]
            assert not answer.done()
            slow.release.set()
            assert page.wait_for(lambda view: view["assisted"])["computer"] == "ready"
        advice = answer.result()
        assert advice.status_code == 200 and advice.json()["options"][0]["box"] == "KISMET"


class HeldRelease(LocalClaims):
    """A process's claims whose release of a game waits, on the event loop, until ``letting_go`` is
    set: the moment when the computer has seen a person's turn and is letting the game go."""

    def __init__(self) -> None:
        super().__init__()
        self.releasing = asyncio.Event()
        self.letting_go = asyncio.Event()

    def release(self, game_id: int) -> None:
        super().release(game_id)
        self.releasing.set()


async def test_a_turn_played_while_the_computer_lets_the_game_go_is_still_answered(home: Path) -> None:
    # The roll-off: 2 against 5, so Hal begins; every roll after it is 1, 2, 3, 5, 6.
    computer = Computer()
    stores = Stores(home)
    tables = Tables(stores, computer.player, ScriptedDice([2, 5] + [1, 2, 3, 5, 6] * 100))
    claims = HeldRelease()

    async def run(work: Callable[[], T]) -> T:
        answer = work()
        if claims.releasing.is_set() and not claims.letting_go.is_set():
            await claims.letting_go.wait()  # the release's answer is on its way back
        return answer

    turns = ComputerTurns(tables, run, Readiness(computer), 0.0, lambda table_id, error: None, claims)
    created = tables.create(Setup((Seat("Ann"), Seat("Hal", Level.EASY))))
    table_id, ann = created.table.id, created.seat_tokens[0]
    try:
        turns.follow(created.table)
        await asyncio.wait_for(claims.releasing.wait(), 10)  # Hal's turn is played: Ann's now
        tables.act(table_id, ann, Roll(()))
        change = tables.act(table_id, ann, Score(Box.ONES))
        turns.follow(change.table)  # what the service does after every action
        claims.letting_go.set()

        async def hals_second_turn() -> None:
            while tables.get(table_id).session.game.current_player != 0 or turns.playing(table_id):
                await asyncio.sleep(0.01)

        await asyncio.wait_for(hals_second_turn(), 10)
        hal = tables.get(table_id).session.game.sheet(1)
        assert sum(hal[box] is not None for box in Box) == 2  # Hal played his second turn
    finally:
        turns.stop()
        stores.close()
