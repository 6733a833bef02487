"""The table's own features over the API: the rematch that reseats everyone, resigning a seat, the
turn timer, and what the limits say of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kismet_dice.strategy import Computer
from tests.support.web import QueuedDice, client, entries, faces, new_game, seat, seat_tokens, state

# A page waits for messages: a message that never comes fails the test instead of stalling it.
# Most of these tests' time is spent waiting (see tests/conftest.py).
pytestmark = [pytest.mark.timeout(60), pytest.mark.waits]


def refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def finish(web: TestClient, dice: QueuedDice, created: dict[str, Any], tokens: list[str]) -> dict[str, Any]:
    """Play a game of people to its end: every turn rolls 2 3 4 5 6 and fills the first open box."""
    game_id = created["id"]
    view = state(web, game_id)
    while not view["over"]:
        token = tokens[view["current_player"]]
        dice.push(2, 3, 4, 5, 6)
        assert web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token)).status_code == 200
        current = state(web, game_id)
        box = next(
            entry["box"]
            for entry in current["players"][current["current_player"]]["sheet"]
            if entry["points"] is None
        )
        answer = web.post(f"/api/games/{game_id}/score", json={"box": box}, headers=seat(token))
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


def message_of_kind(socket: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` a page is sent (the others on the way are passed over)."""
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind:
            return message


def test_a_rematch_sends_each_seats_page_its_own_new_seat_and_a_watcher_the_watch_link(
    web: TestClient, game: dict[str, Any], dice: QueuedDice
) -> None:
    ann, bob = seat_tokens(game)
    finish(web, dice, game, [ann, bob])
    live = f"/api/games/{game['id']}/live"
    with (
        web.websocket_connect(live) as ann_page,
        web.websocket_connect(live) as bob_page,
        web.websocket_connect(live) as watcher,
    ):
        for page, token in ((ann_page, ann), (bob_page, bob)):
            message_of_kind(page, "state")
            page.send_json({"type": "hello", "token": token})
            message_of_kind(page, "presence")
        message_of_kind(watcher, "state")
        dice.push(6, 2)  # the new game's roll-off
        answer = web.post(f"/api/games/{game['id']}/again", headers=seat(ann))
        assert answer.status_code == 201
        new_id = answer.json()["id"]
        to_ann, to_bob, to_watcher = (
            message_of_kind(page, "again") for page in (ann_page, bob_page, watcher)
        )
    assert to_watcher == {"type": "again", "watch_link": f"/games/{new_id}", "seat_link": None}
    for told, name, number, other in ((to_ann, "Ann", 0, to_bob), (to_bob, "Bob", 1, to_ann)):
        assert told["watch_link"] == f"/games/{new_id}"
        link = told["seat_link"]
        assert link.startswith(f"/games/{new_id}#seat=") and link != other["seat_link"]
        token = link.split("#seat=", 1)[1]
        assert token not in str(other) and token not in str(to_watcher)
        assert web.get(f"/api/games/{new_id}/seat", headers=seat(token)).json() == {
            "seat": number,
            "name": name,
        }


def test_a_resigning_seat_gets_zeros_the_game_goes_on_for_the_others_and_a_restart_replays_it(
    web: TestClient, game: dict[str, Any], dice: QueuedDice, tmp_path: Path
) -> None:
    ann, bob = seat_tokens(game)
    game_id = game["id"]
    dice.push(2, 3, 4, 5, 6)
    assert web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann)).status_code == 200
    # Bob leaves in Ann's turn: his sheet is all zeros, and Ann's dice stay on the table.
    view = web.post(f"/api/games/{game_id}/resign", headers=seat(bob)).json()
    assert set(entries(view, 1).values()) == {0} and view["players"][1]["total"] == 0
    assert view["current_player"] == 0 and faces(view) == [2, 3, 4, 5, 6] and not view["over"]
    told = [event for event in view["events"] if event["kind"] == "resigned"]
    assert len(told) == 1 and told[0]["seat"] == 1 and len(told[0]["zeros"]) == 15
    assert (
        told[0]["text"].startswith("Bob resigns: 0 in Ones, Twos")
        and "goes on without Bob" in told[0]["text"]
    )
    refused(web.post(f"/api/games/{game_id}/resign", headers=seat(bob)), 409, "resigned already")
    refused(web.post(f"/api/games/{game_id}/resign"), 401, "seat token")
    # Ann plays on alone: her turns follow one another.
    answer = web.post(f"/api/games/{game_id}/score", json={"box": "STRAIGHT"}, headers=seat(ann)).json()
    assert answer["current_player"] == 0 and answer["round"] == 2
    # Read again from the store by a server that never held it, the record replays to the same.
    with client(tmp_path, dice) as restarted:
        again = state(restarted, game_id)
    assert [event["text"] for event in again["events"]] == [event["text"] for event in answer["events"]]
    assert entries(again, 1) == entries(answer, 1)


def test_the_last_person_resigning_ends_a_game_with_a_computer_and_the_computer_is_not_asked_to_play(
    tmp_path: Path, computer: Computer
) -> None:
    dice = QueuedDice(6, 2)
    with client(tmp_path, dice, computer) as web:
        created = new_game(web, "Ann", "Hal", computers={"Hal": "easy"})
        (ann,) = seat_tokens(created)
        view = web.post(f"/api/games/{created['id']}/resign", headers=seat(ann)).json()
        assert view["over"] and view["current_player"] is None
        assert view["events"][-1]["text"].endswith("No person is left to play, so the game ends here.")
        # A seat that resigned did not play its game out: it is not asked for the Hall of Fame.
        assert view["hall_of_fame"] == []
        assert dice.remaining == 0


def test_a_solo_player_resigning_ends_the_game(web: TestClient, dice: QueuedDice) -> None:
    created = new_game(web, "Cy")
    (cy,) = seat_tokens(created)
    view = web.post(f"/api/games/{created['id']}/resign", headers=seat(cy)).json()
    assert view["over"] and view["result"] == "The game is over: Cy scores 0."
    refused(web.post(f"/api/games/{created['id']}/resign", headers=seat(cy)), 409, "over")


def test_a_table_with_a_time_per_turn_shows_the_deadline_and_plays_a_turn_whose_time_ran_out(
    web: TestClient, dice: QueuedDice
) -> None:
    limits = web.get("/api/limits").json()
    shortest = limits["min_turn_seconds"]
    assert limits["turn_seconds_choices"] and "open box that scores most" in limits["time_out_rule"]
    for wrong in (shortest - 1, limits["max_turn_seconds"] + 1, "30", 12.5):
        body = {"players": [{"name": "Ann"}], "turn_seconds": wrong}
        answer = web.post("/api/games", json=body)
        assert answer.status_code == 422 and "\n" not in answer.json()["error"]
    untimed = new_game(web, "Ann", "Bob")["game"]
    assert untimed["turn_seconds"] is None and untimed["turn_deadline"] is None
    dice.push(6, 2)
    created = new_game(web, "Ann", "Bob", turn_seconds=shortest)
    ann, bob = seat_tokens(created)
    view = state(web, created["id"])
    assert view["turn_seconds"] == shortest and view["current_player"] == 0
    deadline = view["turn_deadline"]
    # Rolling does not give the turn more time.
    dice.push(2, 3, 4, 5, 6)
    rolled = web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann)).json()
    assert rolled["turn_deadline"] == deadline
    with web.websocket_connect(f"/api/games/{created['id']}/live") as page:
        message_of_kind(page, "state")
        played = message_of_kind(page, "update")
    assert played["news"] == [
        "Ann's time ran out: the table entered 30 in Straight, the open box that scores most."
    ]
    assert played["turn"]["current_player"] == 1 and played["turn"]["turn_deadline"] > deadline
    assert entries(state(web, created["id"]), 0)["STRAIGHT"] == 30
    # Bob plays in time: his turn is his own.
    dice.push(1, 1, 1, 1, 1)
    assert web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(bob)).status_code == 200


def test_a_turns_deadline_is_the_same_in_every_process_and_after_a_restart(tmp_path: Path) -> None:
    with client(tmp_path, QueuedDice(6, 2)) as first:  # the roll-off: Ann begins
        created = new_game(first, "Ann", "Bob", turn_seconds=60)
        ann, _ = seat_tokens(created)
        deadline = state(first, created["id"])["turn_deadline"]
        # A second process on the same store draws the same turn with the same deadline.
        with client(tmp_path, QueuedDice(2, 3, 4, 5, 6)) as second:
            assert state(second, created["id"])["turn_deadline"] == deadline
            rolled = second.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann)).json()
            assert rolled["turn_deadline"] == deadline
    # A restarted server gives the turn only the time it had left.
    with client(tmp_path, QueuedDice()) as again:
        view = state(again, created["id"])
        assert view["turn_deadline"] == deadline and view["dice"]
