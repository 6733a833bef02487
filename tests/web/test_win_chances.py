"""Everyone's chance of winning on the web: in the game's view and in a message after each change."""

from __future__ import annotations

from pathlib import Path

import pytest

from kismet_dice.session.win_chances import MODEL
from kismet_dice.strategy import Computer, StrategyTable
from tests.support.futures import late_futures
from tests.support.games import ANN, BASIC, BOB, MORE, late_game
from tests.support.web import QueuedDice, client, new_game, seat, seat_tokens, state

BASIC_BOXES = ["ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES"]


def test_the_game_view_and_the_live_pages_tell_everyones_chance_of_winning(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    # The same late game as the session's test, played through the API; the futures of the
    # positions it reaches are the computer's.
    futures = late_futures(kismet_table, late_game().sheet(0))
    dice = QueuedDice(6, 1)
    with client(tmp_path, dice, Computer(table=kismet_table, futures=futures)) as web:
        created = new_game(web, "Ann", "Bob")
        ann, bob = seat_tokens(created)
        game_id = created["id"]
        turns = [
            (rolled, box, token)
            for rolled, box in zip(BASIC, BASIC_BOXES, strict=True)
            for token in (ann, bob)
        ]
        turns += [
            (rolled, box.name, token)
            for a, b, box in zip(ANN, BOB, MORE, strict=True)
            for rolled, token in ((a, ann), (b, bob))
        ]
        for rolled, box, token in turns:
            dice.push(*rolled)
            assert web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token)).status_code == 200
            assert (
                web.post(f"/api/games/{game_id}/score", json={"box": box}, headers=seat(token)).status_code
                == 200
            )
        view = state(web, game_id)
        chances = [player["win_chance"] for player in view["players"]]
        assert sum(chances) == pytest.approx(1.0)
        assert view["players"][0]["total"] > view["players"][1]["total"] and chances[0] > chances[1]
        with web.websocket_connect(f"/api/games/{game_id}/live") as page:
            assert page.receive_json()["type"] == "state"
            told = page.receive_json()
            assert told == {
                "type": "chances",
                "version": view["version"],
                "win_chances": chances,
                "model": MODEL,
            }
            dice.push(6, 6, 6, 6, 6)
            assert web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann)).status_code == 200
            assert page.receive_json()["type"] == "update"
            after = page.receive_json()
            assert after["type"] == "chances" and after["version"] == view["version"] + 1
            assert after["win_chances"][0] > chances[0]  # five sixes to play with
            # The advice gives each option's chance of winning: the best option's is the chance of
            # playing on from these dice, as the hard player does.
            advice = web.post(f"/api/games/{game_id}/advice", headers=seat(ann)).json()
            options = advice["options"]
            assert all(0.0 <= option["win_chance"] <= 1.0 for option in options)
            assert options[0]["win_chance"] == pytest.approx(after["win_chances"][0], abs=1e-9)


def test_without_the_futures_the_view_has_no_chances_and_no_message_is_sent(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    with client(tmp_path, QueuedDice(6, 1, 1, 2, 3, 4, 5), Computer(tmp_path, table=kismet_table)) as web:
        created = new_game(web, "Ann", "Bob")
        ann, _ = seat_tokens(created)
        assert [player["win_chance"] for player in state(web, created["id"])["players"]] == [None, None]
        with web.websocket_connect(f"/api/games/{created['id']}/live") as page:
            assert page.receive_json()["type"] == "state"
            assert web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann)).status_code == 200
            assert page.receive_json()["type"] == "update"
            page.send_json({"type": "sync"})
            assert page.receive_json()["type"] == "state"  # nothing else came between


def test_the_chart_of_the_chances_over_a_game_needs_the_futures_and_says_so(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    with client(tmp_path, QueuedDice(6, 1), Computer(tmp_path, table=kismet_table)) as web:
        created = new_game(web, "Ann", "Bob")
        refused = web.get(f"/api/games/{created['id']}/chances.svg")
    assert refused.status_code == 503
    assert refused.json() == {
        "error": "the chances of winning need the futures of every position, not on this server"
    }
