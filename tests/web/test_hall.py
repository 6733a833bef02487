"""The Hall of Fame at the web table: asked once per qualifying seat when the game is over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kismet_dice.storage import Storage
from tests.support.live import LiveGame
from tests.support.web import QueuedDice, client, new_game, seat, seat_tokens, state


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
        ({}, seat(token), 422, "name: Field required"),
        ({"name": "  "}, seat(token), 422, "a player's name cannot be empty"),
    ):
        answer = web.post(f"/api/games/{game_id}/hall", json=body, headers=headers)
        assert answer.status_code == status and words in answer.json()["error"], answer.text
        assert state(web, game_id) == over
    assert web.get("/api/hall").json() == []
    # The game's own sentence says what it is about, without the field's path before it.
    empty = web.post(f"/api/games/{game_id}/hall", json={"name": "  "}, headers=seat(token))
    assert empty.json() == {"error": "a player's name cannot be empty"}

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


def fill_hall(home: Path, count: int, total: int = 100) -> None:
    """``count`` entries of ``total`` made by other games."""
    with Storage.open(home) as storage:
        for number in range(count):
            entered = storage.hall.submit(f"Other {number}", total, players=1, computer=False, assisted=False)
            assert entered is not None


def test_a_total_that_no_longer_qualifies_when_answered_is_told_so_not_refused(
    web: TestClient, dice: QueuedDice, tmp_path: Path
) -> None:
    fill_hall(tmp_path, 9)
    game_id, token = play_solo(web, dice)
    over = state(web, game_id)
    total = over["players"][0]["total"]
    assert total < 100 and over["hall_of_fame"] == [0]
    # Another game takes the last place while Ann's page shows the prompt.
    fill_hall(tmp_path, 1)
    assert state(web, game_id)["hall_of_fame"] == []
    answer = web.post(f"/api/games/{game_id}/hall", json={"name": "Ann"}, headers=seat(token))
    assert answer.status_code == 200, answer.text
    assert answer.json()["entry"] is None
    assert answer.json()["told"] == [
        f"Ann's {total} no longer makes the Hall of Fame: other games filled the list meanwhile."
    ]
    assert answer.json()["game"]["hall_of_fame"] == []
    assert [entry["name"] for entry in web.get("/api/hall").json()].count("Ann") == 0
    # The prompt is answered: answering again is refused.
    again = web.post(f"/api/games/{game_id}/hall", json={"name": "Ann"}, headers=seat(token))
    assert again.status_code == 409


@pytest.mark.timeout(120)
def test_when_the_first_entry_pushes_the_second_person_out_the_second_is_told_and_not_asked(
    web: TestClient, dice: QueuedDice, tmp_path: Path
) -> None:
    fill_hall(tmp_path, 9)
    dice.push(2)  # the roll-off: Ann 4, Bob 2, so Ann begins
    created = new_game(web, "Ann", "Bob")
    ann, bob = seat_tokens(created)
    game_id = created["id"]
    with web.websocket_connect(f"/api/games/{game_id}/live") as socket:
        bob_page = LiveGame(socket)
        bob_page.next()
        # Ann rolls 2-3-4-5-6 and Bob 1-2-3-4-6 every turn; both fill their boxes top down.
        for entry in created["game"]["players"][0]["sheet"]:
            for token, faces in ((ann, (2, 3, 4, 5, 6)), (bob, (1, 2, 3, 4, 6))):
                dice.push(*faces)
                rolled = web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token))
                assert rolled.status_code == 200, rolled.text
                scored = web.post(
                    f"/api/games/{game_id}/score", json={"box": entry["box"]}, headers=seat(token)
                )
                assert scored.status_code == 200, scored.text
        over = bob_page.wait_for(lambda view: view["over"])
        ann_total, bob_total = (player["total"] for player in over["players"])
        assert bob_total < ann_total < 100
        # Both totals beat the list's last place (it has a free one): both are asked, Ann first.
        assert over["hall_of_fame"] == [0, 1]

        entered = web.post(f"/api/games/{game_id}/hall", json={"name": "Ann"}, headers=seat(ann))
        assert entered.status_code == 200, entered.text
        assert entered.json()["entry"]["rank"] == 10
        pushed_out = (
            f"Bob's {bob_total} no longer makes the Hall of Fame: Ann's entry just now took the last place."
        )
        assert entered.json()["told"] == [
            f"Ann enters the Hall of Fame at number 10 with {ann_total}.",
            pushed_out,
        ]
        # Bob's page hears it as news of the change, and no longer asks him.
        after = bob_page.wait_for(lambda view: view["hall_of_fame"] == [], after=over["version"])
        assert pushed_out in bob_page.news
        assert after == state(web, game_id)

    # Bob's prompt was withdrawn (and he was told why): there is no prompt left to answer, so a late
    # answer is refused like any second answer, and leaves the game and the list as they were.
    late = web.post(f"/api/games/{game_id}/hall", json={"name": "Bob"}, headers=seat(bob))
    assert late.status_code == 409 and "Bob" in late.json()["error"], late.text
    assert state(web, game_id) == after
    listed = web.get("/api/hall").json()
    assert len(listed) == 10 and [entry["name"] for entry in listed].count("Bob") == 0
