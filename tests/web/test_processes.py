"""Several ``kismet serve`` processes on one PostgreSQL database, as a site runs them: any process
serves any game, pages on each see every move made through the others, a computer seat is played
by one process at a time and finishes its game when that process is killed, and ``--workers``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kismet_dice.game import Rolled, Scored
from kismet_dice.storage import Storage
from tests.support.live import LiveGame
from tests.support.processes import KISMET, Server, servers
from tests.support.web import options, seat, seat_tokens

# Most of these tests' time is spent waiting (see tests/conftest.py).
pytestmark = pytest.mark.waits


def play_a_move(server: Server, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Roll once if the turn has not begun, else enter the dice in the first open box."""
    view: dict[str, Any] = server.http.get(f"/api/games/{game_id}").json()
    token = seat(tokens[view["current_player"]])
    if view["rolls_left"] == 3:
        answer = server.http.post(f"/api/games/{game_id}/roll", json={}, headers=token)
    else:
        box = next(iter(options(view)))
        answer = server.http.post(f"/api/games/{game_id}/score", json={"box": box}, headers=token)
    assert answer.status_code == 200, answer.text
    played: dict[str, Any] = answer.json()
    return played


def without_computer_state(view: dict[str, Any]) -> dict[str, Any]:
    # Whether the computer's table is loaded is each process's own affair.
    return {key: value for key, value in view.items() if key not in ("computer", "computer_problem")}


@pytest.mark.timeout(180)
def test_a_game_set_up_on_one_server_and_played_through_another_is_seen_live_on_both(
    home: Path, postgres_url: str
) -> None:
    with servers(home, 2, "--database", postgres_url, "--pace", "0") as (one, other):
        created = one.http.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        game_id, tokens = created["id"], seat_tokens(created)
        with one.page(game_id) as on_one, other.page(game_id) as on_other:
            pages = [LiveGame(on_one), LiveGame(on_other)]
            for page in pages:
                page.next()  # the whole game, first

            answers = [play_a_move(server, game_id, tokens) for _ in range(6) for server in (other, one)]

            last = answers[-1]
            assert [answer["version"] for answer in answers] == list(range(1, 13))
            for page in pages:
                seen = page.wait_for(lambda view: view["version"] == last["version"])
                assert without_computer_state(seen) == without_computer_state(last)
                # Each move reached the page by itself or with the ones before it: never a version twice.
                versions = [message["version"] for message in page.messages if message["type"] == "update"]
                assert versions == sorted(set(versions))


@pytest.mark.timeout(240)
def test_a_computer_seat_finishes_its_game_after_the_process_playing_it_is_killed(
    home: Path, postgres_url: str
) -> None:
    with servers(home, 2, "--database", postgres_url, "--pace", "0.05") as (playing, other):
        created = playing.http.post(
            "/api/games", json={"players": [{"name": "Hal", "computer": "easy"}]}
        ).json()
        game_id = created["id"]
        with other.page(game_id) as socket:
            page = LiveGame(socket)
            page.wait_for(lambda view: view["version"] >= 8)  # played by the process that set it up
            playing.kill()
            with Storage.open(database=postgres_url) as site:
                assert site.tables.unfinished() == (game_id,)  # the kill came mid-game
            end = page.wait_for(lambda view: view["over"])

    with Storage.open(database=postgres_url) as site:
        found = site.tables.find(game_id)
        assert found is not None
        # Loading replays every action through the rules: the stored history is a legal game.
        saved, game = site.games.load(found[0], finished=True)
    assert game.is_over and saved.version == end["version"]
    scored = [event for event in game.history if isinstance(event, Scored)]
    assert len(scored) == 15  # one entry per round: no turn played twice, none lost
    assert len({event.box for event in scored}) == 15
    # One save per action (a roll or an entry; a second Kismet's news is no action of its own):
    # every version the page saw was one action, none made twice.
    actions = [event for event in game.history if isinstance(event, (Rolled, Scored))]
    assert saved.version == len(actions)


@pytest.mark.timeout(180)
def test_workers_serve_one_port_on_postgresql_and_are_refused_on_sqlite(
    home: Path, postgres_url: str
) -> None:
    with servers(home, 1, "--database", postgres_url, "--workers", "2", "--pace", "0") as (site,):
        assert len(site.workers()) == 2
        created = site.http.post("/api/games", json={"players": [{"name": "Ann"}]}).json()
        tokens = seat_tokens(created)
        # Whichever worker answers each request, the game moves on from the store's version.
        answers = [play_a_move(site, created["id"], tokens) for _ in range(10)]
        assert [answer["version"] for answer in answers] == list(range(1, 11))

    refused = subprocess.run(
        [*KISMET, "serve", "--workers", "2"],
        env={**os.environ, "KISMET_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2
    assert refused.stderr == (
        "kismet: --workers needs a PostgreSQL database (--database): SQLite is for one process\n"
    )


SOLVE = """
import sys, time
from pathlib import Path
import kismet_dice.strategy.table as table
from kismet_dice.strategy.ruleset import rule_set

solves = []
real = table.solve

def slow_solve(rules, progress=None):
    solves.append(rules.name)
    time.sleep(2)  # as long as a real solve seems to the others: they must wait, not solve too
    return real(rules, progress)

table.solve = slow_solve
boxes = [("TWOS", lambda r: 2 * r.count(2), True), ("PAIR", lambda r: sum(r) if r[0] == r[1] else 0, False)]
small = rule_set("small", 2, 6, boxes, [0] * 4 + [5])
table.load_or_solve(small, directory=Path(sys.argv[1]))
print(len(solves))
"""


@pytest.mark.timeout(120)
def test_processes_that_need_the_strategy_table_together_solve_it_once(tmp_path: Path) -> None:
    started = [
        subprocess.Popen([sys.executable, "-c", SOLVE, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    solved = [int(process.communicate(timeout=100)[0]) for process in started]
    assert sorted(solved) == [0, 1]
    assert [path.name for path in tmp_path.glob("*.table")] != []
