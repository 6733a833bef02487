"""The JSON API: setting up a game, acting for a seat, and every refusal leaving the game as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kismet_dice.game import Game
from kismet_dice.rules import Box
from kismet_dice.storage import SavedGame, SavedGames, Storage, StorageError, WebTables
from tests.support.web import QueuedDice, client, entries, faces, new_game, options, seat, seat_tokens, state


def test_a_new_game_has_one_secret_link_per_seat_and_a_plain_link(game: dict[str, Any]) -> None:
    tokens = seat_tokens(game)
    assert [invitation["name"] for invitation in game["invitations"]] == ["Ann", "Bob"]
    assert len(set(tokens)) == 2 and all(len(token) >= 32 for token in tokens)
    assert game["watch_link"] == f"/games/{game['id']}"
    assert "seat" not in game["watch_link"]
    assert game["game"]["current_player"] == 0
    assert game["game"]["events"][0] == {
        "index": 0,
        "kind": "roll_off",
        "text": "Roll-off: Ann rolls 6, Bob rolls 2. Ann begins.",
        "seat": None,
        "faces": [[0, 6], [1, 2]],
        "hold": [],
        "dice": [],
        "box": None,
        "points": None,
        "penalties": [],
        "zeros": [],
    }


def test_the_seat_link_tells_which_seat_it_plays(web: TestClient, game: dict[str, Any]) -> None:
    _ann, bob = seat_tokens(game)
    response = web.get(f"/api/games/{game['id']}/seat", headers=seat(bob))
    assert response.status_code == 200
    assert response.json() == {"seat": 1, "name": "Bob"}


def test_a_turn_rolls_on_the_server_and_scores_what_the_rules_say(
    web: TestClient, game: dict[str, Any], dice: QueuedDice
) -> None:
    ann, _bob = seat_tokens(game)
    dice.push(4, 5, 5, 1, 2)
    first = web.post(f"/api/games/{game['id']}/roll", json={}, headers=seat(ann))
    assert first.status_code == 200
    assert faces(first.json()) == [4, 5, 5, 1, 2]
    # The colours of RULES.md: 4 green, 5 red, 1 black, 2 red.
    assert [(die["colour"], die["letter"]) for die in first.json()["dice"]] == [
        ("green", "G"),
        ("red", "R"),
        ("red", "R"),
        ("black", "B"),
        ("red", "R"),
    ]
    dice.push(5, 5)
    second = web.post(f"/api/games/{game['id']}/roll", json={"hold": [0, 1, 2]}, headers=seat(ann)).json()
    # RULES.md's worked example: 4-5-5-5-5.
    assert faces(second) == [4, 5, 5, 5, 5]
    assert second["rolls_left"] == 1
    assert options(second)["FIVES"] == 20
    assert options(second)["TWO_PAIR_SAME_COLOR"] == 24
    assert options(second)["FOUR_OF_A_KIND"] == 49
    assert options(second)["STRAIGHT"] == 0
    scored = web.post(f"/api/games/{game['id']}/score", json={"box": "FOUR_OF_A_KIND"}, headers=seat(ann))
    assert scored.status_code == 200
    after = scored.json()
    assert entries(after, 0)["FOUR_OF_A_KIND"] == 49
    assert after["players"][0]["total"] == 49
    assert after["current_player"] == 1
    assert after["dice"] == [] and after["rolls_left"] == 3
    assert state(web, game["id"]) == after


def test_names_are_kept_as_typed_and_sent_as_data(web: TestClient) -> None:
    created = new_game(web, "<script>x()</script>", 'Bob & "Co"')
    view = state(web, created["id"])
    assert [player["name"] for player in view["players"]] == ["<script>x()</script>", 'Bob & "Co"']


# --- refusals: each one a 4xx with a JSON body that says what was wrong, and the game unchanged ---


def refused(response: Any, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str) and message
    for word in words:
        assert word in message


def test_a_body_that_is_not_json_is_refused(web: TestClient, game: dict[str, Any]) -> None:
    ann, _ = seat_tokens(game)
    before = state(web, game["id"])
    response = web.post(
        f"/api/games/{game['id']}/roll",
        content=b'{"hold": [0',
        headers={**seat(ann), "Content-Type": "application/json"},
    )
    refused(response, 400, "JSON")
    assert state(web, game["id"]) == before


def test_an_oversized_body_is_refused_before_it_is_read(web: TestClient, game: dict[str, Any]) -> None:
    ann, _ = seat_tokens(game)
    before = state(web, game["id"])
    padding = " " * 10_000
    response = web.post(
        f"/api/games/{game['id']}/roll",
        content=f'{{"hold": []{padding}}}'.encode(),
        headers={**seat(ann), "Content-Type": "application/json"},
    )
    refused(response, 413, "larger")
    assert state(web, game["id"]) == before


def test_an_oversized_body_without_a_length_is_refused_while_it_streams(
    web: TestClient, game: dict[str, Any]
) -> None:
    ann, _ = seat_tokens(game)
    before = state(web, game["id"])

    def chunks() -> Any:
        yield b'{"hold": []'
        for _ in range(20):
            yield b" " * 1000
        yield b"}"

    response = web.post(
        f"/api/games/{game['id']}/roll",
        content=chunks(),
        headers={**seat(ann), "Content-Type": "application/json"},
    )
    refused(response, 413, "larger")
    assert state(web, game["id"]) == before


@pytest.mark.parametrize("rule", [0, 1, "true", None])
def test_the_house_rule_is_true_or_false_and_nothing_else(web: TestClient, tmp_path: Path, rule: Any) -> None:
    response = web.post("/api/games", json={"players": [{"name": "Ann"}], "zero_kismet_counts": rule})
    refused(response, 422, "zero_kismet_counts")
    with Storage.open(tmp_path) as storage:
        assert storage.games.unfinished().games == ()


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ([], "players"),
        ([{"name": f"P{n}"} for n in range(7)], "players"),
        ([{"name": "x" * 101}], "name"),
        ([{"name": "x" * 25}], "24"),
        ([{"name": "   "}], "empty"),
        ([{"name": "Ann\u0007"}], "control"),
        ([{"name": "Ann"}, {"name": " Ann "}], "share"),
        ([{"name": 7}], "name"),
        ([{}], "name"),
    ],
)
def test_bad_players_are_refused_and_no_game_is_made(
    web: TestClient, tmp_path: Path, players: list[Any], words: str
) -> None:
    response = web.post("/api/games", json={"players": players})
    refused(response, 422, words)
    with Storage.open(tmp_path) as storage:
        assert storage.games.unfinished().games == ()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([{"name": "Ann"}, {"name": "  "}], "seat 2: a player's name cannot be empty"),
        ([{"name": "x" * 25}], "seat 1, name: String should have at most 24 characters"),
        ([{"name": "Ann"}, {}], "seat 2, name: Field required"),
        (
            [{"name": "Ann"}, {"name": "Bo", "computer": "genius"}],
            "seat 2, computer: Input should be 'easy', 'medium', 'hard', 'target' or 'win'",
        ),
    ],
)
def test_a_refused_seat_is_named_by_its_number_as_the_lobby_shows_it(
    web: TestClient, players: list[Any], message: str
) -> None:
    answer = web.post("/api/games", json={"players": players})
    assert answer.status_code == 422 and answer.json() == {"error": message}


def test_an_unknown_game_is_refused_everywhere(web: TestClient, game: dict[str, Any]) -> None:
    ann, _ = seat_tokens(game)
    for missing in ("no-such-game-at-all", "../../etc/passwd", "x"):
        refused(web.get(f"/api/games/{missing}"), 404)
    refused(web.get("/api/games/nosuchgame1"), 404, "nosuchgame1")
    refused(web.post("/api/games/nosuchgame1/roll", json={}, headers=seat(ann)), 404)
    refused(web.post("/api/games/nosuchgame1/score", json={"box": "ONES"}, headers=seat(ann)), 404)
    refused(web.get("/api/games/nosuchgame1/seat", headers=seat(ann)), 404)


def act(web: TestClient, game_id: str, what: str, body: Any, headers: dict[str, str]) -> Any:
    return web.post(f"/api/games/{game_id}/{what}", json=body, headers=headers)


@pytest.mark.parametrize(
    ("token_of", "what", "body", "status", "words"),
    [
        (None, "roll", {}, 401, "seat token"),
        ("wrong", "roll", {}, 403, "seat token"),
        ("bob", "roll", {}, 409, "Ann's turn"),
        ("bob", "score", {"box": "ONES"}, 409, "Ann's turn"),
        ("ann", "score", {"box": "ONES"}, 409, "roll"),
        ("ann", "roll", {"hold": [0]}, 409, "first roll"),
        ("ann", "roll", {"hold": [5]}, 422, "hold"),
        ("ann", "roll", {"hold": [-1]}, 422, "hold"),
        ("ann", "roll", {"hold": "01"}, 422, "hold"),
        ("ann", "roll", {"hold": ["0"]}, 422, "hold"),
        ("ann", "roll", {"hold": [True]}, 422, "hold"),
        ("ann", "roll", {"hold": [0.0]}, 422, "hold"),
        ("ann", "roll", {"hold": [0, 1, 2, 3, 4, 0]}, 422, "hold"),
        ("ann", "roll", [], 422, ""),
        ("ann", "score", {"box": "CHANCE"}, 422, "CHANCE"),
        ("ann", "score", {"box": 7}, 422, "box"),
        ("ann", "score", {}, 422, "box"),
        ("ann", "score", {"box": "x" * 41}, 422, "box"),
    ],
)
def test_refused_actions_leave_the_game_unchanged(
    web: TestClient,
    game: dict[str, Any],
    dice: QueuedDice,
    token_of: str | None,
    what: str,
    body: Any,
    status: int,
    words: str,
) -> None:
    ann, bob = seat_tokens(game)
    token = {"ann": ann, "bob": bob, "wrong": "not-a-token-of-this-game", None: None}[token_of]
    headers = seat(token) if token else {}
    before = state(web, game["id"])
    refused(act(web, game["id"], what, body, headers), status, words)
    assert state(web, game["id"]) == before
    # The right seat can still act afterwards: the refusal changed nothing.
    dice.push(1, 2, 3, 4, 6)
    assert act(web, game["id"], "roll", {}, seat(ann)).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"hold": [0, 0]}, 409, "once"),
        ({"hold": [0, 1, 2, 3, 4]}, 409, "five"),
        ({"hold": [0, 1, 2, 3, 4, 0]}, 422, "hold"),
    ],
)
def test_impossible_holds_after_a_roll_are_refused(
    web: TestClient, game: dict[str, Any], dice: QueuedDice, body: Any, status: int, words: str
) -> None:
    ann, _ = seat_tokens(game)
    dice.push(1, 2, 3, 4, 6)
    act(web, game["id"], "roll", {}, seat(ann))
    before = state(web, game["id"])
    refused(act(web, game["id"], "roll", body, seat(ann)), status, words)
    assert state(web, game["id"]) == before


def test_a_fourth_roll_and_a_filled_box_are_refused(
    web: TestClient, game: dict[str, Any], dice: QueuedDice
) -> None:
    ann, bob = seat_tokens(game)
    dice.push(1, 2, 3, 4, 6, 1, 2, 3, 4, 6, 1, 2, 3, 4, 6)
    for _ in range(3):
        assert act(web, game["id"], "roll", {}, seat(ann)).status_code == 200
    before = state(web, game["id"])
    refused(act(web, game["id"], "roll", {}, seat(ann)), 409, "no rolls")
    assert state(web, game["id"]) == before
    assert act(web, game["id"], "score", {"box": "ONES"}, seat(ann)).status_code == 200
    dice.push(1, 1, 1, 1, 1, 2, 2, 2, 2, 2)
    act(web, game["id"], "roll", {}, seat(bob))
    act(web, game["id"], "score", {"box": "KISMET"}, seat(bob))
    act(web, game["id"], "roll", {}, seat(ann))
    before = state(web, game["id"])
    refused(act(web, game["id"], "score", {"box": "ONES"}, seat(ann)), 409, "already filled")
    assert state(web, game["id"]) == before


def test_a_finished_game_takes_no_more_actions(tmp_path: Path) -> None:
    dice = QueuedDice(3)
    with client(tmp_path, dice) as web:
        finish_a_game(web, dice)


def finish_a_game(web: TestClient, dice: QueuedDice) -> None:
    created = new_game(web, "Ann")
    (ann,) = seat_tokens(created)
    boxes = [entry["box"] for entry in created["game"]["players"][0]["sheet"]]
    for box in boxes:
        dice.push(2, 3, 4, 5, 6)
        assert act(web, created["id"], "roll", {}, seat(ann)).status_code == 200
        assert act(web, created["id"], "score", {"box": box}, seat(ann)).status_code == 200
    final = state(web, created["id"])
    assert final["over"] and final["winners"] == [0] and final["current_player"] is None
    # 2-3-4-5-6: a straight (30) and a total of 20 in Yarborough; Basic 20, so no bonus.
    assert entries(final, 0)["STRAIGHT"] == 30 and entries(final, 0)["YARBOROUGH"] == 20
    assert final["players"][0]["bonus"] == 0
    refused(act(web, created["id"], "roll", {}, seat(ann)), 409, "over")
    assert state(web, created["id"]) == final


def test_a_server_failure_is_one_line_of_json_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def on_fire(self: WebTables, *args: object) -> SavedGame:
        raise RuntimeError("disk on fire at /secret/path")

    monkeypatch.setattr(WebTables, "create", on_fire)
    with client(tmp_path, QueuedDice(6, 1)) as web:
        response = web.post("/api/games", json={"players": [{"name": "Ann"}]})
    assert response.status_code == 500
    assert set(response.json()) == {"error"}
    assert "Traceback" not in response.text and "/secret/path" not in response.text


def test_a_game_that_cannot_be_saved_is_not_shown_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saving = SavedGames.save
    failing = {"now": False}

    def save_or_fail(
        self: SavedGames,
        game_id: int,
        game: Game,
        *,
        version: int,
        assisted: bool = False,
        known: SavedGame | None = None,
    ) -> SavedGame:
        if failing["now"]:
            failing["now"] = False
            raise StorageError(f"{tmp_path}/kismet.sqlite3: the disk is full", public="the disk is full")
        return saving(self, game_id, game, version=version, assisted=assisted, known=known)

    monkeypatch.setattr(SavedGames, "save", save_or_fail)
    dice = QueuedDice(6, 1)
    with client(tmp_path, dice) as web:
        created = new_game(web, "Ann", "Bob")
        ann, _ = seat_tokens(created)
        before = state(web, created["id"])
        failing["now"] = True
        dice.push(1, 2, 3, 4, 5)
        refused(act(web, created["id"], "roll", {}, seat(ann)), 503, "disk is full")
        assert str(tmp_path) not in act(web, created["id"], "roll", {"hold": [9]}, seat(ann)).text
        assert state(web, created["id"]) == before


def test_every_api_endpoint_is_in_the_openapi_schema_with_its_answers(web: TestClient) -> None:
    schema = web.get("/openapi.json").json()
    operations = [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if path.startswith("/api/")
    ]
    assert len(operations) >= 9
    for path, method, operation in operations:
        success = next(status for status in operation["responses"] if status.startswith("2"))
        content = operation["responses"][success]["content"]
        if "image/svg+xml" in content:  # the QR code of a link is a picture
            continue
        assert "schema" in content["application/json"], (path, method)
        if "{table_id}" in path:
            assert operation["responses"]["404"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorBody"
            }


def test_the_schema_states_the_real_limits(web: TestClient) -> None:
    schemas = web.get("/openapi.json").json()["components"]["schemas"]
    name = schemas["SeatRequest"]["properties"]["name"]
    assert (name["minLength"], name["maxLength"]) == (1, 24)
    assert schemas["ScoreRequest"]["properties"]["box"]["enum"] == [box.name for box in Box]
    assert schemas["NewGameRequest"]["properties"]["players"]["maxItems"] == 6
    limits = web.get("/api/limits").json()
    assert limits["max_seats"] == 6 and limits["max_name_length"] == 24
    assert limits["levels"] == ["easy", "medium", "hard", "target", "win"] and len(limits["boxes"]) == 15
    # The rate limits and expiry a server keeps are stated too, and a 429 where a rate applies.
    assert {"new_games", "actions", "expire_days"} <= set(schemas["LimitsView"]["properties"])
    assert limits["new_games"] == {"count": 10, "seconds": 60.0} and limits["expire_days"] == 30
    new_game_answers = web.get("/openapi.json").json()["paths"]["/api/games"]["post"]["responses"]
    assert "Retry-After" in new_game_answers["429"]["headers"]


def test_the_limits_tell_the_pace_the_server_was_started_with(tmp_path: Path, dice: QueuedDice) -> None:
    # kismet serve --pace 0.25: the computer players pause a quarter second, and the limits say so.
    with client(tmp_path, dice, pace=0.25) as paced:
        assert paced.get("/api/limits").json()["computer_pace"] == 0.25
    with client(tmp_path, dice, pace=2.0) as slow:
        assert slow.get("/api/limits").json()["computer_pace"] == 2.0


def test_no_page_of_the_server_loads_a_script_from_elsewhere(web: TestClient) -> None:
    assert web.get("/docs").status_code == 404
    assert "http" not in web.get("/").text.replace("http-equiv", "")


def test_a_link_is_drawn_as_an_svg_qr_code_and_nothing_else_is(web: TestClient) -> None:
    drawn = web.post("/api/qr", json={"link": "http://127.0.0.1:8000/games/abc#seat=xyz"})
    assert drawn.status_code == 200
    assert drawn.headers["content-type"].startswith("image/svg+xml")
    assert drawn.text.startswith("<svg") and "<script" not in drawn.text and "style=" not in drawn.text
    assert web.post("/api/qr", json={"link": "javascript:alert(1)"}).status_code in (400, 409, 422)


def test_the_rules_and_the_help_are_pages_rendered_on_the_server(web: TestClient) -> None:
    rules = web.get("/rules")
    assert '<article class="rules"><h1>' in rules.text and "Loading…" not in rules.text
    assert "<title>How to play · Kismet</title>" in web.get("/help").text
    assert web.get("/api/rules.html").json()["text"].startswith("<h1>")


def test_a_finished_game_starts_again_with_the_same_players_and_new_links(web: TestClient) -> None:
    created = new_game(web, "Ann", "Bob")
    ann, _ = seat_tokens(created)
    refused(web.post(f"/api/games/{created['id']}/again", headers=seat(ann)), 409, "once this one is over")


def test_a_seat_that_says_hello_is_shown_connected_and_a_wrong_token_is_refused(web: TestClient) -> None:
    created = new_game(web, "Ann", "Bob")
    _, bob = seat_tokens(created)
    with web.websocket_connect(f"/api/games/{created['id']}/live") as page:
        assert page.receive_json()["game"]["connected"] == []
        page.send_json({"type": "hello", "token": "not a token"})
        assert page.receive_json()["type"] == "error"
        page.send_json({"type": "hello", "token": bob})
        assert page.receive_json() == {"type": "presence", "connected": [1]}
        assert state(web, created["id"])["connected"] == [1]
