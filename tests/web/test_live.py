"""The live WebSocket: every open page gets every change; a refused message gets an error and stays open."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from kismet_dice.web import live as live_pages
from kismet_dice.web.live import Hub
from kismet_dice.web.service import WebService
from tests.support.live import LiveGame
from tests.support.web import QueuedDice, faces, new_game, seat, seat_tokens, state

# A page waits for messages: a message that never comes fails the test instead of stalling it.
pytestmark = pytest.mark.timeout(60)


def live(game: dict[str, Any]) -> str:
    return f"/api/games/{game['id']}/live"


def test_a_page_gets_the_game_at_once_and_every_change_after(
    web: TestClient, game: dict[str, Any], dice: QueuedDice
) -> None:
    ann, _bob = seat_tokens(game)
    with web.websocket_connect(live(game)) as watching, web.websocket_connect(live(game)) as playing:
        watcher, player = LiveGame(watching), LiveGame(playing)
        assert watcher.next() == state(web, game["id"])
        player.next()
        dice.push(3, 3, 4, 4, 1)
        playing.send_json({"type": "roll", "token": ann, "hold": []})
        assert faces(player.next()) == [3, 3, 4, 4, 1]
        assert faces(watcher.next()) == [3, 3, 4, 4, 1]
        # An action by HTTP reaches the open pages too.
        response = web.post(
            f"/api/games/{game['id']}/score", json={"box": "TWO_PAIR_SAME_COLOR"}, headers=seat(ann)
        )
        assert response.status_code == 200
        for page in (player, watcher):
            pushed = page.next()
            assert pushed["current_player"] == 1
            # 3-3-4-4 is two pairs of green: the total of all five dice.
            assert pushed["players"][0]["sheet"][6] == {
                "box": "TWO_PAIR_SAME_COLOR",
                "label": "Two Pair Same Color",
                "points": 15,
                "option": None,
            }
            # A page that applies the changes holds what the server shows.
            assert pushed == state(web, game["id"])


@pytest.mark.parametrize(
    ("message", "status", "words"),
    [
        ("{not json", 400, "JSON"),
        (json.dumps({"type": "cheat", "dice": [6, 6, 6, 6, 6]}), 422, "type"),
        (json.dumps({"type": "roll", "hold": []}), 422, "token"),
        (json.dumps({"type": "roll", "token": "forged", "hold": []}), 403, "seat token"),
        (json.dumps({"type": "roll", "token": "", "hold": []}), 401, "seat token"),
        (json.dumps({"type": "roll", "token": "BOB", "hold": []}), 409, "Ann's turn"),
        (json.dumps({"type": "roll", "token": "ANN", "hold": [2]}), 409, "first roll"),
        (json.dumps({"type": "roll", "token": "ANN", "hold": [9]}), 422, "hold"),
        (json.dumps({"type": "score", "token": "ANN", "box": "ONES"}), 409, "roll"),
        (json.dumps({"type": "score", "token": "ANN", "box": "SEVENS"}), 422, "SEVENS"),
        (json.dumps({"type": "roll", "token": "ANN", "hold": [], "pad": "x" * 5000}), 413, "at most"),
        ("[]", 422, ""),
    ],
)
def test_a_refused_message_gets_an_error_and_the_page_stays_connected(
    web: TestClient, game: dict[str, Any], dice: QueuedDice, message: str, status: int, words: str
) -> None:
    ann, bob = seat_tokens(game)
    message = message.replace('"ANN"', json.dumps(ann)).replace('"BOB"', json.dumps(bob))
    before = state(web, game["id"])
    with web.websocket_connect(live(game)) as socket:
        page = LiveGame(socket)
        page.next()
        socket.send_text(message)
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["status"] == status
        assert isinstance(answer["error"], str) and words in answer["error"]
        assert state(web, game["id"]) == before
        # Still connected: the same page can go on playing.
        dice.push(1, 2, 3, 4, 6)
        socket.send_json({"type": "roll", "token": ann, "hold": []})
        assert faces(page.next()) == [1, 2, 3, 4, 6]


def test_binary_data_is_refused_and_the_page_stays_connected(web: TestClient, game: dict[str, Any]) -> None:
    before = state(web, game["id"])
    with web.websocket_connect(live(game)) as socket:
        LiveGame(socket).next()
        socket.send_bytes(b"\x00\x01")
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["status"] == 400 and "binary" in answer["error"]
        socket.send_text("{}")
        assert socket.receive_json()["type"] == "error"
    assert state(web, game["id"]) == before


def test_an_unknown_game_gets_an_error_then_the_socket_closes(web: TestClient) -> None:
    with web.websocket_connect("/api/games/nosuchgame1/live") as socket:
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["status"] == 404 and "nosuchgame1" in answer["error"]
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()


def test_a_page_that_reconnects_gets_the_game_where_it_is(
    web: TestClient, game: dict[str, Any], dice: QueuedDice
) -> None:
    ann, _ = seat_tokens(game)
    with web.websocket_connect(live(game)) as socket:
        LiveGame(socket).next()
    # While the page is away, the game goes on.
    dice.push(6, 6, 6, 1, 2)
    web.post(f"/api/games/{game['id']}/roll", json={}, headers=seat(ann))
    with web.websocket_connect(live(game)) as socket:
        again = LiveGame(socket).next()
    assert faces(again) == [6, 6, 6, 1, 2] and again["rolls_left"] == 2


@pytest.mark.timeout(60)
def test_a_page_over_the_cap_of_its_game_is_closed_with_try_again_later_and_a_reason(
    web: TestClient, game: dict[str, Any], dice: QueuedDice
) -> None:
    service: WebService = web.app.state.service  # type: ignore[attr-defined]
    service.hub = Hub(per_table=2)
    with web.websocket_connect(live(game)) as first, web.websocket_connect(live(game)) as second:
        for socket in (first, second):
            LiveGame(socket).next()
        assert service.hub.count == 2
        with web.websocket_connect(live(game)) as third, pytest.raises(WebSocketDisconnect) as closed:
            third.receive_json()
        assert closed.value.code == 1013
        assert "2 open pages" in closed.value.reason
        # The pages within the cap are still served.
        assert service.hub.count == 2
        dice.push(4)  # the roll-off of a game of one
        other = new_game(web, "Cy")
        with web.websocket_connect(live(other)) as elsewhere:
            assert LiveGame(elsewhere).next()["id"] == other["id"]
    # Once they close, their places are free again.
    with web.websocket_connect(live(game)) as again:
        assert LiveGame(again).next()["id"] == game["id"]


class StuckSocket:
    """A page's socket whose sends never finish: the buffers toward a page that stopped reading are full."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self._never = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self._never.wait()


class LiveSocket:
    """A page's socket that takes every message at once."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def test_a_page_whose_message_does_not_get_through_in_time_is_closed_and_the_others_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live_pages, "SEND_SECONDS", 0.3)
    monkeypatch.setattr(live_pages, "WATCH_SECONDS", 0.05)
    hub = Hub()
    stuck = StuckSocket()

    async def join(socket: object) -> live_pages.Page:
        return hub.join("t1", socket)  # type: ignore[arg-type]

    page = await asyncio.create_task(join(stuck))
    reading = LiveSocket()
    other = await asyncio.create_task(join(reading))
    hub.publish("t1", "first")
    await asyncio.sleep(0.1)
    assert stuck.sent == ["first"] and reading.sent == ["first"] and hub.count == 2
    await asyncio.sleep(0.5)
    # Closed with the reason, its reader ended; the page that reads is still sent every change.
    assert page.closing is not None and "seconds to reach this page" in page.closing
    assert hub.count == 1 and other.closing is None
    hub.publish("t1", "second")
    await asyncio.sleep(0.05)
    assert reading.sent == ["first", "second"] and stuck.sent == ["first"]
    await hub.close()
    assert reading.closed == 1001 and hub.count == 0  # the server is going away
