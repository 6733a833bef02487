"""A public server's protections: security headers on every answer, the Origin checked on what
changes state, rate limits with Retry-After, 405 with Allow, and what /api/limits and the schema say."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from kismet_dice.game import DiceSource
from kismet_dice.web import create_app
from kismet_dice.web.guard import Protections
from kismet_dice.web.ratelimit import Rate
from kismet_dice.web.security import SECURITY_HEADERS
from tests.support.server import serving
from tests.support.web import QueuedDice, new_game, seat, seat_tokens

PLAYERS = {"players": [{"name": "Ann"}]}


def protected(directory: Path, dice: DiceSource | None = None, **chosen: Any) -> TestClient:
    dice = dice if dice is not None else random.Random(1)
    app = create_app(directory, dice, pace=0.0, protections=Protections(**chosen))
    return TestClient(app, raise_server_exceptions=False)


def assert_guarded(response: Any) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (response.request.url, name)


# --- security headers --------------------------------------------------------------------------


def test_every_page_file_and_api_answer_carries_the_security_headers(
    web: TestClient, game: dict[str, Any]
) -> None:
    answers = [
        web.get("/"),
        web.get(f"/games/{game['id']}"),
        web.get("/rules"),
        web.get("/hall"),
        web.get("/static/main.js"),
        web.get("/static/style.css"),
        web.get("/openapi.json"),
        web.get("/api/limits"),
        web.get("/api/hall"),
        web.get(f"/api/games/{game['id']}"),
        web.get("/api/games/nothing-here"),
        web.delete("/api/games"),
        web.post("/api/games", content="not json", headers={"content-type": "application/json"}),
        web.post("/api/games", content="x" * 10_000),
        web.post("/api/games", json=PLAYERS, headers={"Origin": "https://elsewhere.example"}),
    ]
    assert [answer.status_code for answer in answers] == [200] * 10 + [404, 405, 400, 413, 403]
    for answer in answers:
        assert_guarded(answer)
    policy = answers[0].headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_a_failure_of_the_server_carries_the_security_headers_too(
    web: TestClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    # Every game answer, the JSON and the view alike, is put together there.
    monkeypatch.setattr("kismet_dice.web.service.game_json", broken)
    answer = web.get(f"/api/games/{game['id']}")
    assert answer.status_code == 500
    assert_guarded(answer)


def test_the_page_has_no_inline_script_style_or_handler_for_the_policy_to_block(web: TestClient) -> None:
    page = web.get("/").text
    assert "<script>" not in page and "<style" not in page and "style=" not in page
    assert " on" not in page.replace(" one", "")  # no onclick= and the like
    assert '<script type="module" src="/static/' in page


# --- the Origin -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        (None, 201),  # a program, not a page: let through (see web/security.py)
        ("http://testserver", 201),
        ("http://testserver:80", 201),
        ("https://testserver", 403),  # another scheme is another origin
        ("http://testserver:8000", 403),
        ("https://elsewhere.example", 403),
        ("null", 403),  # a sandboxed or local page
    ],
)
def test_a_new_game_is_refused_to_a_page_of_another_origin(
    tmp_path: Path, origin: str | None, status: int
) -> None:
    headers = {} if origin is None else {"Origin": origin}
    with protected(tmp_path) as web:
        answer = web.post("/api/games", json=PLAYERS, headers=headers)
        assert answer.status_code == status, answer.text
        if status == 403:
            assert answer.json() == {"error": "requests from pages of another site are refused"}
            assert web.get("/api/hall").status_code == 200


def test_an_action_from_another_origin_changes_nothing(web: TestClient, game: dict[str, Any]) -> None:
    ann, _ = seat_tokens(game)
    headers = {**seat(ann), "Origin": "https://elsewhere.example"}
    assert web.post(f"/api/games/{game['id']}/roll", json={}, headers=headers).status_code == 403
    assert (
        web.get(f"/api/games/{game['id']}", headers={"Origin": "https://elsewhere.example"}).json()
        == (game["game"])
    )


def test_an_origin_given_with_allow_origin_may_act(tmp_path: Path) -> None:
    with protected(tmp_path, allow_origins=("https://Play.Example",)) as web:
        headers = {"Origin": "https://play.example"}
        assert web.post("/api/games", json=PLAYERS, headers=headers).status_code == 201
        assert (
            web.post("/api/games", json=PLAYERS, headers={"Origin": "https://other.example"}).status_code
            == 403
        )


def test_an_origin_that_is_not_one_is_refused_as_a_setting() -> None:
    with pytest.raises(ValueError, match="an origin is like"):
        Protections(allow_origins=("play.example",))


def test_a_websocket_from_another_origin_is_closed_with_1008_and_a_reason(tmp_path: Path) -> None:
    with protected(tmp_path, QueuedDice(6)) as web:
        created = new_game(web, "Ann")
        live = f"/api/games/{created['id']}/live"
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            web.websocket_connect(live, headers={"Origin": "https://elsewhere.example"}) as socket,
        ):
            socket.receive_text()
        assert closed.value.code == 1008
        assert closed.value.reason == "requests from pages of another site are refused"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    chosen = Protections(rate_games=Rate(2, 3600.0), rate_actions=Rate(3, 3600.0))
    with serving(create_app(tmp_path, random.Random(5), pace=0.0, protections=chosen)) as address:
        yield address


def post(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, _lower(answer.headers.items()), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, _lower(error.headers.items()), json.loads(error.read())


def test_a_real_server_closes_a_websocket_from_another_origin_and_keeps_its_own(server: str) -> None:
    _, _, created = post(server + "/api/games", PLAYERS)
    live = server.replace("http://", "ws://") + f"/api/games/{created['id']}/live"
    with (
        connect(live, origin=Origin("https://elsewhere.example"), proxy=None) as socket,
        pytest.raises(ConnectionClosed) as closed,
    ):
        socket.recv(timeout=30)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "requests from pages of another site are refused"
    with connect(live, origin=Origin(server), proxy=None) as socket:
        assert json.loads(socket.recv(timeout=30))["type"] == "state"


def test_behind_a_trusted_proxy_the_forwarded_scheme_and_the_host_make_the_origin(server: str) -> None:
    proxied = {"Host": "kismet.example", "X-Forwarded-Proto": "https"}
    assert post(server + "/api/games", PLAYERS, {**proxied, "Origin": "https://kismet.example"})[0] == 201
    assert post(server + "/api/games", PLAYERS, {**proxied, "Origin": "http://kismet.example"})[0] == 403


# --- rate limits ------------------------------------------------------------------------------


def test_a_real_server_answers_429_with_retry_after_over_the_rate_of_new_games(server: str) -> None:
    assert [post(server + "/api/games", PLAYERS)[0] for _ in range(2)] == [201, 201]
    status, headers, body = post(server + "/api/games", PLAYERS)
    assert status == 429
    # Two an hour: the next one in half an hour, give or take the test's own seconds.
    assert 1700 <= int(headers["retry-after"]) <= 1800
    assert body["error"].startswith("too many new games from this address; try again in")
    assert_guarded_dict(headers)


def _lower(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers}


def assert_guarded_dict(headers: dict[str, str]) -> None:
    assert all(headers[name.lower()] == value for name, value in SECURITY_HEADERS.items())


def test_actions_by_post_and_by_websocket_count_against_one_rate(tmp_path: Path) -> None:
    dice = QueuedDice(6, 2)
    with protected(tmp_path, dice, rate_actions=Rate(3, 3600.0)) as web:
        created = new_game(web, "Ann", "Bob")
        ann, _ = seat_tokens(created)
        dice.push(*[1, 2, 3, 4, 5] * 3)
        assert web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann)).status_code == 200
        with web.websocket_connect(f"/api/games/{created['id']}/live") as socket:
            assert json.loads(socket.receive_text())["type"] == "state"
            socket.send_text(json.dumps({"type": "roll", "token": ann, "hold": []}))
            rolled = json.loads(socket.receive_text())
            assert rolled["type"] == "update", rolled
            socket.send_text(json.dumps({"type": "score", "token": ann, "box": "YARBOROUGH"}))
            assert json.loads(socket.receive_text())["type"] == "update"
            socket.send_text(json.dumps({"type": "roll", "token": ann, "hold": []}))
            refused = json.loads(socket.receive_text())
            assert refused["type"] == "error" and refused["status"] == 429
            assert "too many actions" in refused["error"]
            # The socket stays open: it may still ask for the whole game.
            socket.send_text(json.dumps({"type": "sync"}))
            assert json.loads(socket.receive_text())["type"] == "state"
        over = web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann))
        assert over.status_code == 429 and int(over.headers["Retry-After"]) >= 1
        assert dice.remaining == 5  # the refused rolls rolled nothing


def test_a_new_game_over_the_rate_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    with protected(tmp_path, rate_games=Rate(1, 60.0)) as web:
        assert web.post("/api/games", json=PLAYERS).status_code == 201
        over = web.post("/api/games", json=PLAYERS)
        assert over.status_code == 429
        assert 1 <= int(over.headers["Retry-After"]) <= 60
        assert over.json()["error"].startswith("too many new games")


def test_starting_a_game_again_counts_against_the_rate_of_new_games(tmp_path: Path) -> None:
    with protected(tmp_path, rate_games=Rate(1, 60.0)) as web:
        created = web.post("/api/games", json=PLAYERS).json()
        (token,) = seat_tokens(created)
        over = web.post(f"/api/games/{created['id']}/again", headers=seat(token))
        assert over.status_code == 429 and over.json()["error"].startswith("too many new games")


def test_no_rate_limit_when_the_rates_are_off(tmp_path: Path) -> None:
    with protected(tmp_path, rate_games=None) as web:
        assert {web.post("/api/games", json=PLAYERS).status_code for _ in range(15)} == {201}


# --- the host a request names ------------------------------------------------------------------


def test_a_request_naming_another_host_is_refused_and_addresses_and_given_names_are_served(
    tmp_path: Path,
) -> None:
    with protected(tmp_path, allow_hosts=("kismet.example",)) as web:
        rebound = web.get("/api/limits", headers={"host": "evil.example:8000"})
        assert rebound.status_code == 400
        assert rebound.json() == {"error": "this server does not answer for 'evil.example'"}
        refused = web.post("/api/games", json=PLAYERS, headers={"host": "evil.example"})
        assert refused.status_code == 400
        # Nothing was created.
        assert web.get("/api/hall", headers={"host": "kismet.example"}).json() == []
        for host in ("kismet.example", "KISMET.example:443", "127.0.0.1:8000", "[::1]:8000", "localhost"):
            assert web.get("/api/limits", headers={"host": host}).status_code == 200, host


def test_a_websocket_naming_another_host_is_closed_with_1008_and_a_reason(tmp_path: Path) -> None:
    with protected(tmp_path, allow_hosts=()) as web:
        created = web.post("/api/games", json=PLAYERS, headers={"host": "127.0.0.1"}).json()
        live = f"/api/games/{created['id']}/live"
        with (
            web.websocket_connect(live) as socket,
            pytest.raises(WebSocketDisconnect) as closed,
        ):  # Host: testserver
            socket.receive_json()
        assert closed.value.code == 1008 and "does not answer for 'testserver'" in closed.value.reason


def test_a_host_name_that_is_not_one_is_refused_as_a_setting() -> None:
    with pytest.raises(ValueError, match="a host name is like"):
        Protections(allow_hosts=("https://kismet.example",))


# --- what the server says of itself ---------------------------------------------------------


def test_a_method_an_address_does_not_take_is_405_with_allow(web: TestClient) -> None:
    answer = web.delete("/api/games")
    assert answer.status_code == 405
    assert answer.headers["Allow"] == "POST"
    assert answer.json() == {"error": "Method Not Allowed"}
    assert web.put("/api/hall").headers["Allow"] == "GET"


def test_the_limits_tell_the_rates_and_the_expiry(tmp_path: Path) -> None:
    with protected(tmp_path, rate_games=Rate(4, 3600.0), rate_actions=None) as web:
        limits = web.get("/api/limits").json()
    assert limits["new_games"] == {"count": 4, "seconds": 3600.0}
    assert limits["actions"] is None
    assert limits["expire_days"] == 30


def test_the_schema_documents_429_where_there_is_a_rate_and_only_there(web: TestClient) -> None:
    paths = web.get("/openapi.json").json()["paths"]
    limited = {
        (path, method)
        for path, methods in paths.items()
        for method in methods
        if "429" in methods[method]["responses"]
    }
    assert limited == {
        ("/api/games", "post"),
        ("/api/games/{table_id}/roll", "post"),
        ("/api/games/{table_id}/score", "post"),
        ("/api/games/{table_id}/resign", "post"),
        ("/api/games/{table_id}/advice", "post"),
        ("/api/games/{table_id}/advice/chances", "post"),
        ("/api/games/{table_id}/hall", "post"),
        ("/api/games/{table_id}/again", "post"),
    }
    answer = paths["/api/games"]["post"]["responses"]["429"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    assert "Retry-After" in answer["headers"]
