"""The table's own features over the API: the rematch that reseats everyone, resigning a seat, the
turn timer, and what the limits say of them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.web import QueuedDice, new_game, seat, seat_tokens, state

# A page waits for messages: a message that never comes fails the test instead of stalling it.
pytestmark = pytest.mark.timeout(60)


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
