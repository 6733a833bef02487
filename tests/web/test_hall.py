"""The Hall of Fame at the web table: asked once per qualifying seat when the game is over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kismet_dice.storage import Storage
from tests.web.helpers import QueuedDice, client, new_game, seat, seat_tokens, state


def play_solo(web: TestClient, dice: QueuedDice, name: str = "Ann") -> tuple[str, str]:
    """A one-player game to its end, rolling 2-3-4-5-6 every turn and filling the boxes top down."""
    created = new_game(web, name)
    (token,) = seat_tokens(created)
    for entry in created["game"]["players"][0]["sheet"]:
        dice.push(2, 3, 4, 5, 6)
        assert web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(token)).status_code == 200
        box = {"box": entry["box"]}
        answer = web.post(f"/api/games/{created['id']}/score", json=box, headers=seat(token))
        assert answer.status_code == 200
    return created["id"], token


@pytest.fixture
def dice() -> QueuedDice:
    return QueuedDice(4)


@pytest.fixture
def web(tmp_path: Path, dice: QueuedDice) -> Iterator[TestClient]:
    with client(tmp_path, dice) as started:
        yield started


def test_the_prompt_waits_for_the_end_of_the_game(web: TestClient, dice: QueuedDice) -> None:
    created = new_game(web, "Ann")
    (token,) = seat_tokens(created)
    assert created["game"]["hall_of_fame"] == []
    answer = web.post(f"/api/games/{created['id']}/hall", json={"name": "Ann"}, headers=seat(token))
    assert answer.status_code == 409 and "not over" in answer.json()["error"]
    assert web.get("/api/hall").json() == []


def test_a_qualifying_player_enters_once(web: TestClient, dice: QueuedDice, tmp_path: Path) -> None:
    game_id, token = play_solo(web, dice)
    over = state(web, game_id)
    assert over["over"] and over["hall_of_fame"] == [0]
    total = over["players"][0]["total"]
    for body, headers, status, words in (
        ({"name": "Ann\u0000"}, seat(token), 422, "control"),
        ({"name": "A" * 25}, seat(token), 422, "24"),
        ({"name": "A" * 101}, seat(token), 422, "name"),
        ({"name": "Ann"}, seat("forged"), 403, "seat token"),
        ({"name": "Ann"}, {}, 401, "seat token"),
        ({}, seat(token), 422, "name"),
    ):
        answer = web.post(f"/api/games/{game_id}/hall", json=body, headers=headers)
        assert answer.status_code == status and words in answer.json()["error"], answer.text
        assert state(web, game_id) == over
    assert web.get("/api/hall").json() == []

    entered = web.post(f"/api/games/{game_id}/hall", json={"name": "  Ann the Bold "}, headers=seat(token))
    assert entered.status_code == 200
    assert entered.json()["entry"]["rank"] == 1 and entered.json()["entry"]["name"] == "Ann the Bold"
    assert entered.json()["game"]["hall_of_fame"] == []
    [listed] = web.get("/api/hall").json()
    assert (listed["name"], listed["total"], listed["players"]) == ("Ann the Bold", total, 1)
    assert listed["rank"] == 1
    again = web.post(f"/api/games/{game_id}/hall", json={"name": "Ann"}, headers=seat(token))
    assert again.status_code == 409
    # The Hall of Fame is the storage's, shared with every interface.
    with Storage.open(tmp_path) as storage:
        assert [(entry.name, entry.total) for entry in storage.hall.entries()] == [("Ann the Bold", total)]


def test_a_player_may_decline_and_is_not_asked_again(
    tmp_path: Path, dice: QueuedDice, web: TestClient
) -> None:
    game_id, token = play_solo(web, dice)
    declined = web.post(f"/api/games/{game_id}/hall", json={"name": None}, headers=seat(token))
    assert declined.status_code == 200 and declined.json()["entry"] is None
    assert web.get("/api/hall").json() == []
    # After a restart the finished game still shows, and the prompt stays answered.
    with client(tmp_path, QueuedDice()) as restarted:
        after: dict[str, Any] = state(restarted, game_id)
    assert after["over"] and after["hall_of_fame"] == []
