"""Advice at the web table, and how well everyone played once the game is over."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kismet_dice.game import Game, ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import narration
from kismet_dice.session.narration import HALL_ANY_TOTAL, HALL_FUTURES_MISSING, hall_chances
from kismet_dice.storage import Storage
from kismet_dice.strategy import Advisor, Computer, StrategyTable
from kismet_dice.strategy.chances import Continuations
from kismet_dice.strategy.distribution import distribution_path
from kismet_dice.web.computer import STOPPING
from kismet_dice.web.service import WebService
from tests.support.games import fill_hall, late_solo_faces
from tests.support.live import LiveGame, turn_of
from tests.support.web import QueuedDice, client, faces, new_game, seat, seat_tokens, state

BOXES_TOP_DOWN = [
    "ONES",
    "TWOS",
    "THREES",
    "FOURS",
    "FIVES",
    "SIXES",
    "TWO_PAIR_SAME_COLOR",
    "THREE_OF_A_KIND",
    "STRAIGHT",
    "FLUSH",
    "FULL_HOUSE",
    "FULL_HOUSE_SAME_COLOR",
    "FOUR_OF_A_KIND",
    "YARBOROUGH",
    "KISMET",
]

# Pages wait for the computer's moves and advice: one that never comes fails the test.
pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def dice() -> QueuedDice:
    return QueuedDice(6, 2)  # Ann wins the roll-off


@pytest.fixture
def web(tmp_path: Path, dice: QueuedDice, computer: Computer) -> Iterator[TestClient]:
    with client(tmp_path, dice, computer) as started:
        yield started


def advise(web: TestClient, game_id: str, headers: dict[str, str]) -> Any:
    return web.post(f"/api/games/{game_id}/advice", headers=headers)


def test_advice_ranks_every_option_of_the_dice_and_marks_the_game_assisted(
    web: TestClient, dice: QueuedDice, tmp_path: Path, computer: Computer
) -> None:
    created = new_game(web, "Ann", "Bob")
    ann, _bob = seat_tokens(created)
    dice.push(6, 6, 3, 6, 6)
    web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann))
    with web.websocket_connect(f"/api/games/{created['id']}/live") as socket:
        bob_page = LiveGame(socket)
        assert bob_page.wait_for(lambda view: True)["assisted"] is False
        answer = advise(web, created["id"], seat(ann))
        assert answer.status_code == 200, answer.text
        # Every page is told that the game is now assisted.
        assert bob_page.wait_for(lambda view: view["assisted"]) == answer.json()["game"]
    options = answer.json()["options"]
    assert answer.json()["game"]["assisted"] is True
    # The Hall of Fame is empty: any finished total would make it, so one line says so, no chances.
    assert answer.json()["hall"] == {
        "target": None,
        "heading": None,
        "line": HALL_ANY_TOTAL,
        "pending": False,
        "playing_for": False,
        "best": None,
        "best_mark": None,
        "tip": None,
    }
    assert all(option["chance"] is None for option in options)
    expected = [option["expected"] for option in options]
    assert expected == sorted(expected, reverse=True)
    # One option per open box, and one per choice of dice to keep: with 6 6 3 6 6 the sixes can
    # be kept 0-4 times and the 3 kept or not, 5 x 2 = 10 ways, less keeping all five (no roll).
    assert len([option for option in options if option["box"]]) == 15
    keeps = [option for option in options if option["keep"] is not None]
    assert len(keeps) == 9
    for option in keeps:
        kept = option["keep"]
        assert option["words"] == (
            f"keep {' '.join(map(str, kept))}, roll {5 - len(kept)}" if kept else "roll all five"
        )
        # The positions to hold are dice showing exactly the values to keep.
        assert sorted(faces(answer.json()["game"])[position] for position in option["hold"]) == kept
    # Asking again changes nothing; the mark is stored and a restarted server still shows it.
    assert advise(web, created["id"], seat(ann)).json()["options"] == options
    with client(tmp_path, QueuedDice(), computer) as restarted:
        assert state(restarted, created["id"])["assisted"] is True


def test_five_sixes_at_the_first_roll_are_best_scored_as_a_kismet(web: TestClient, dice: QueuedDice) -> None:
    created = new_game(web, "Ann", "Bob")
    ann, _ = seat_tokens(created)
    dice.push(6, 6, 6, 6, 6)
    web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann))
    best, *others = advise(web, created["id"], seat(ann)).json()["options"]
    # 80 points now, and every other box and every roll still to come.
    assert best["box"] == "KISMET" and best["words"] == "enter 80 in Kismet"
    assert all(option["expected"] < best["expected"] for option in others)


@pytest.mark.parametrize(
    ("who", "rolled", "status", "words"),
    [
        (None, True, 401, "seat token"),
        ("wrong", True, 403, "seat token"),
        ("bob", True, 409, "Ann's turn"),
        ("ann", False, 409, "roll first"),
    ],
)
def test_refused_advice_leaves_the_game_unassisted(
    web: TestClient, dice: QueuedDice, who: str | None, rolled: bool, status: int, words: str
) -> None:
    created = new_game(web, "Ann", "Bob")
    ann, bob = seat_tokens(created)
    if rolled:
        dice.push(1, 2, 3, 4, 6)
        web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann))
    before = state(web, created["id"])
    token = {"ann": ann, "bob": bob, "wrong": "not-a-token-of-this-game", None: None}[who]
    answer = advise(web, created["id"], seat(token) if token else {})
    assert answer.status_code == status and words in answer.json()["error"], answer.text
    assert set(answer.json()) == {"error"}
    assert state(web, created["id"]) == before and before["assisted"] is False


def test_advice_for_an_unknown_game_is_refused(web: TestClient) -> None:
    answer = advise(web, "nosuchgame1", seat("whatever"))
    assert answer.status_code == 404 and "nosuchgame1" in answer.json()["error"]


def play_solo(web: TestClient, dice: QueuedDice, token: str, game_id: str, ask_advice_at: int | None) -> Any:
    """Ann's whole game: 2-3-4-5-6 every turn, the boxes filled top down."""
    for turn, box in enumerate(BOXES_TOP_DOWN):
        dice.push(2, 3, 4, 5, 6)
        assert web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(token)).status_code == 200
        if turn == ask_advice_at:
            assert advise(web, game_id, seat(token)).status_code == 200
        assert (
            web.post(f"/api/games/{game_id}/score", json={"box": box}, headers=seat(token)).status_code == 200
        )
    return state(web, game_id)


def test_an_assisted_game_cannot_enter_the_hall_of_fame(tmp_path: Path, computer: Computer) -> None:
    dice = QueuedDice()
    with client(tmp_path, dice, computer) as web:
        for ask in (None, 14):
            dice.push(4)  # the roll-off of a game of one
            created = new_game(web, "Ann")
            (ann,) = seat_tokens(created)
            over = play_solo(web, dice, ann, created["id"], ask_advice_at=ask)
            if ask is None:
                # The same game without advice qualifies: the empty Hall of Fame takes any total.
                assert over["hall_of_fame"] == [0] and not over["assisted"]
                continue
            assert over["over"] and over["assisted"] and over["hall_of_fame"] == []
            answer = web.post(f"/api/games/{created['id']}/hall", json={"name": "Ann"}, headers=seat(ann))
            assert answer.status_code == 409
            assert advise(web, created["id"], seat(ann)).status_code == 409


def test_proficiency_waits_for_the_end_of_the_game(web: TestClient, dice: QueuedDice) -> None:
    created = new_game(web, "Ann", "Bob")
    answer = web.get(f"/api/games/{created['id']}/proficiency")
    assert answer.status_code == 409 and "over" in answer.json()["error"]
    assert web.get("/api/games/nosuchgame1/proficiency").status_code == 404


def test_a_review_asked_while_the_server_stops_is_answered_503_and_stores_no_distribution(
    tmp_path: Path, kismet_table: StrategyTable
) -> None:
    # Without perfect play's distribution, given or stored in this test's home: the review of a
    # finished game works it out for the standings (seconds), and stops at its first progress.
    computer = Computer(table=kismet_table)
    dice = QueuedDice(1, *[2, 3, 4, 5, 6] * 15)  # the roll-off, then one roll a turn
    with client(tmp_path, dice, computer) as web:
        created = new_game(web, "Ann")
        (ann,) = seat_tokens(created)
        game_id = created["id"]
        for box in BOXES_TOP_DOWN:
            assert web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann)).status_code == 200
            assert (
                web.post(f"/api/games/{game_id}/score", json={"box": box}, headers=seat(ann)).status_code
                == 200
            )
        assert state(web, game_id)["over"]
        service: WebService = web.app.state.service  # type: ignore[attr-defined]
        service.stopping.stop()  # as the server's stop does, before its last requests end
        answer = web.get(f"/api/games/{game_id}/proficiency")
    assert answer.status_code == 503
    assert answer.json() == {"error": STOPPING}
    assert not distribution_path(kismet_table.rules).exists()


def test_proficiency_counts_what_each_choice_cost_against_perfect_play(
    tmp_path: Path, computer: Computer
) -> None:
    # Ann (6) begins against Hal (1), who plays perfectly; every roll after that is seeded.
    rolls = random.Random(12)
    dice = QueuedDice(6, 1, *rolls.choices(range(1, 7), k=15 * 5 + 15 * 15))
    with client(tmp_path, dice, computer) as web:
        created = new_game(web, "Ann", "Hal", computers={"Hal": "hard"})
        (ann,) = seat_tokens(created)
        game_id = created["id"]
        with web.websocket_connect(f"/api/games/{game_id}/live") as socket:
            page = LiveGame(socket)
            after = -1
            for box in BOXES_TOP_DOWN:
                page.wait_for(turn_of(0), after=after)
                web.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
                after = web.post(f"/api/games/{game_id}/score", json={"box": box}, headers=seat(ann)).json()[
                    "version"
                ]
            over = page.wait_for(lambda view: view["over"], after=after)
        answer = web.get(f"/api/games/{game_id}/proficiency")
    assert answer.status_code == 200, answer.text
    ann_total = over["players"][0]["total"]
    share = computer.perfect_play().below(ann_total)
    # The game's view had no standings (no distribution stored in this home): the review brings them.
    assert over["standings"] == []
    assert answer.json()["standings"] == [narration.standing("Ann", ann_total, share)]
    ann_played, hal_played = answer.json()["players"]
    assert (ann_played["name"], ann_played["computer"]) == ("Ann", None)
    assert (hal_played["name"], hal_played["computer"]) == ("Hal", "hard")
    # Ann chose only boxes, one a turn; Hal chose a box every turn and some dice to keep.
    assert ann_played["decisions"] == 15 and hal_played["decisions"] >= 15
    # Perfect play loses nothing; filling the boxes top down after one roll loses plenty.
    assert hal_played["expected_loss"] == 0 and hal_played["costliest"] == []
    assert ann_played["expected_loss"] > 0
    costliest = ann_played["costliest"]
    assert 1 <= len(costliest) <= 3
    assert [d["loss"] for d in costliest] == sorted((d["loss"] for d in costliest), reverse=True)
    assert sum(d["loss"] for d in costliest) <= ann_played["expected_loss"] + 0.01
    for decision in costliest:
        # Her choice in round r was the r-th box from the top, with the dice of that round's roll.
        assert decision["chosen"]["box"] == BOXES_TOP_DOWN[decision["round"] - 1]
        assert decision["rolls_left"] == 2
        assert decision["loss"] == pytest.approx(
            decision["best"]["expected"] - decision["chosen"]["expected"], abs=0.02
        )
        assert decision["best"]["words"] != decision["chosen"]["words"]
    scored = [e for e in over["events"] if e["kind"] == "scored" and e["seat"] == 0]
    for decision in costliest:
        assert sorted(decision["dice"]) == sorted(scored[decision["round"] - 1]["dice"])


def test_late_advice_then_its_chances_of_a_hall_of_fame_total(
    tmp_path: Path, computer: Computer, kismet_table: StrategyTable
) -> None:
    script = late_solo_faces(3)
    game = Game(["Ann"], rng=ScriptedDice(script))
    for box in BOXES_TOP_DOWN[:12]:
        game.roll()
        game.score(Box[box])
    game.roll()
    advisor = Advisor(kismet_table)
    bar = round(advisor.start_value(game.sheet(0)))
    with Storage.open(tmp_path) as storage:
        fill_hall(storage, [bar + 9] * 9 + [bar])
    ranked = Continuations(kismet_table, game.sheet(0)).options(game.dice, game.rolls_left, bar + 1, advisor)
    with client(tmp_path, QueuedDice(*script), computer) as web:
        created = new_game(web, "Ann")
        [ann] = seat_tokens(created)
        for box in BOXES_TOP_DOWN[:12]:
            web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann))
            web.post(f"/api/games/{created['id']}/score", json={"box": box}, headers=seat(ann))
        web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann))
        first = advise(web, created["id"], seat(ann)).json()
        # The options come at once; their chances are still to be worked out.
        assert first["hall"] == {
            "target": bar + 1,
            "heading": f"Hall of Fame total ({bar + 1}+)",
            "line": "Working out the chances of a Hall of Fame total…",
            "pending": True,
            "playing_for": False,
            "best": None,
            "best_mark": None,
            "tip": HALL_FUTURES_MISSING,
        }
        assert [option["chance"] for option in first["options"]] == [None] * len(ranked)
        answer = web.post(f"/api/games/{created['id']}/advice/chances", headers=seat(ann))
        assert answer.status_code == 200, answer.text
        worked = answer.json()
        assert worked["hall"]["pending"] is False and worked["hall"]["line"] == hall_chances(bar + 1)
        assert [option["words"] for option in worked["options"]] == [
            option["words"] for option in first["options"]
        ]
        assert [option["chance"] for option in worked["options"]] == pytest.approx(
            [found.chance for found in ranked], abs=1e-6
        )
        # The option of the best chance is marked, whatever its place by expected total.
        chances = [found.chance for found in ranked]
        assert worked["hall"]["best"] == chances.index(max(chances))
        assert worked["hall"]["best_mark"] == "best for the Hall of Fame"
        assert worked["hall"]["tip"] == HALL_FUTURES_MISSING and not worked["hall"]["playing_for"]
        # Asked again in the same turn, the chances come with the advice itself.
        assert advise(web, created["id"], seat(ann)).json()["options"] == worked["options"]
