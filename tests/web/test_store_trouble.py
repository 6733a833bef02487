"""A site's PostgreSQL that stops answering or goes down, under a real ``kismet serve`` process:
the server goes on serving everything that needs no store, answers every action 503 (and changes
nothing), comes back by itself with the database, and stops at once when told.

The clients' timeouts below are guards against a server that hangs (the fault these tests are
about), not measures of its speed: its own deadline is two seconds.
"""

from __future__ import annotations

import logging
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
from fastapi.testclient import TestClient

from kismet_dice.web import create_app
from tests.support.postgres import Cluster
from tests.support.processes import Server
from tests.support.web import seat

# Most of these tests' time is spent waiting (see tests/conftest.py).
pytestmark = pytest.mark.waits

GUARD_SECONDS = 8.0
"""A client's longest wait for an answer: four times the server's deadline for the store."""
ENDING_SECONDS = 15.0
"""The longest a server may take to end on SIGTERM with its database not answering: uvicorn's
graceful wait (3 s) and the store's (2 s), with room for a loaded machine (the tests run beside
each other); a server waiting on the database would not end at all."""
RECOVERY_SECONDS = 60.0
"""The longest the server may take to use the database again once it is back (its connection
pool tries to connect again at growing intervals)."""


@pytest.fixture
def site(tmp_path: Path, postgres_url: str) -> Iterator[Server]:
    server = Server(tmp_path, "--database", postgres_url)
    try:
        yield server
    finally:
        server.stop()


def solo_game(server: Server) -> tuple[str, str]:
    """A one-player game on ``server``: its id and the seat's token."""
    created = server.http.post("/api/games", json={"players": [{"name": "Ann"}]})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body["id"], body["invitations"][0]["link"].split("#seat=", 1)[1]


def once_answered(client: httpx2.Client, method: str, address: str, **request: Any) -> httpx2.Response:
    """The first answer that is not a 503, asked every half second once the database is back."""
    deadline = time.monotonic() + RECOVERY_SECONDS
    while True:
        answer = client.request(method, address, **request)
        if answer.status_code != 503 or time.monotonic() > deadline:
            return answer
        time.sleep(0.5)


def answers_without_the_store(client: httpx2.Client) -> None:
    """The pages, the page's files and the limits answer as usual."""
    for address in ("/api/limits", "/", "/static/main.js", "/rules"):
        assert client.get(address).status_code == 200, address


def test_a_database_that_stops_answering_leaves_the_pages_served_and_actions_refused(
    site: Server, postgres_cluster: Cluster
) -> None:
    game_id, token = solo_game(site)
    client = httpx2.Client(base_url=site.url, timeout=GUARD_SECONDS)
    with postgres_cluster.paused():
        answers_without_the_store(client)
        rolled = client.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token))
        assert rolled.status_code == 503
        assert "did not answer" in rolled.json()["error"]
        # Asked again while the first is still stuck in the store: refused too, not queued for good.
        assert client.get(f"/api/games/{game_id}").status_code == 503
        assert client.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token)).status_code == 503
        answers_without_the_store(client)
    # The database answers again, and so does the server: the game is where it was (one roll at
    # most, the one under way when the database stopped, may have been kept after all).
    view = once_answered(client, "GET", f"/api/games/{game_id}").json()
    assert view["rolls_left"] in (3, 2)
    client.close()


def test_a_database_that_goes_down_is_reported_and_the_server_comes_back_with_it(
    site: Server, postgres_cluster: Cluster
) -> None:
    game_id, token = solo_game(site)
    client = httpx2.Client(base_url=site.url, timeout=GUARD_SECONDS)
    with postgres_cluster.down():
        answers_without_the_store(client)
        rolled = client.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token))
        assert rolled.status_code == 503
        assert "Traceback" not in rolled.text and "postgresql://" not in rolled.text
        assert client.post("/api/games", json={"players": [{"name": "Bob"}]}).status_code == 503
    # Waited for by reading, not by rolling: a roll asked while the store is coming back may be
    # answered 503 at the deadline and still be kept (work under way is left to end), and the
    # next try would then roll a second time.
    view = once_answered(client, "GET", f"/api/games/{game_id}")
    assert view.status_code == 200, view.text
    assert view.json()["rolls_left"] == 3  # the refused roll rolled nothing
    rolled = client.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token))
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["rolls_left"] == 2
    client.close()


def test_a_server_whose_database_stopped_answering_ends_at_once_on_sigterm(
    site: Server, postgres_cluster: Cluster
) -> None:
    game_id, token = solo_game(site)
    with postgres_cluster.paused():
        client = httpx2.Client(base_url=site.url, timeout=GUARD_SECONDS)
        # A request stuck in the store, and the store thread with it.
        assert client.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token)).status_code == 503
        client.close()
        site.process.send_signal(signal.SIGTERM)
        try:
            site.process.wait(timeout=ENDING_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail("the server did not end on SIGTERM while its database did not answer")


DISK_FULL = """
CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
END $$;
CREATE TRIGGER disk_full BEFORE UPDATE ON saved_game FOR EACH ROW EXECUTE FUNCTION disk_full();
"""


def test_a_computer_whose_moves_cannot_be_kept_rests_and_says_so_once_a_rest_not_at_every_look(
    tmp_path: Path, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(tmp_path, random.Random(3), pace=0.2, database=postgres_url)
    with TestClient(app) as web, psycopg.connect(postgres_url, autocommit=True) as admin:
        players = [{"name": "Hal", "computer": "easy"}, {"name": "Eve", "computer": "easy"}]
        game_id = web.post("/api/games", json={"players": players}).json()["id"]
        admin.execute(DISK_FULL.encode())  # PostgreSQL's own error for a full disk, at every save
        caplog.set_level(logging.WARNING, logger="kismet_dice.web.computer")
        stuck = web.get(f"/api/games/{game_id}").json()
        looked_until = time.monotonic() + 3.0
        while time.monotonic() < looked_until:  # a page looking again and again
            assert web.get(f"/api/games/{game_id}").json()["version"] == stuck["version"]
            time.sleep(0.05)
        told = [record for record in caplog.records if "stopped playing" in record.getMessage()]
        # Rests of 1 s, then 2 s: two or three tries in those 3 seconds, not one per look.
        assert 1 <= len(told) <= 3
        assert told[0].getMessage().endswith("the disk holding the game store is full")
        admin.execute(b"DROP TRIGGER disk_full ON saved_game")
        deadline = time.monotonic() + RECOVERY_SECONDS
        while web.get(f"/api/games/{game_id}").json()["version"] == stuck["version"]:
            assert time.monotonic() < deadline, "the computer did not play again"
            time.sleep(0.2)
