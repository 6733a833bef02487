"""One narration: an event reads the same in the web's payload, in the session's narration and in
plain text."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from fastapi.testclient import TestClient

from kismet_dice import Game
from kismet_dice.cli.play import EndOfInput, PlainTable
from kismet_dice.game import Penalty, Rolled, Scored, ScriptedDice, SecondKismet
from kismet_dice.rules import Box
from kismet_dice.session import Seat, Session, narration
from tests.support.web import SECOND_KISMET_MOVES, QueuedDice, new_game, seat, seat_tokens

NAMES = ("Ann", "Bob")
# The roll-off (Ann 6, Bob 2, as the web fixture's dice have it); Ann's five fives; Bob's
# 1 2 3 4 6, then a 5 for his 6; Ann's five fives again, her second Kismet.
FACES = (6, 2, 5, 5, 5, 5, 5, 1, 2, 3, 4, 6, 5, 5, 5, 5, 5, 5)


def web_events(web: TestClient, dice: QueuedDice) -> list[dict[str, Any]]:
    dice.push(*FACES[2:])  # the fixture's dice already hold the roll-off
    created = new_game(web, *NAMES)
    ann, bob = seat_tokens(created)
    game_id = created["id"]
    for who, path, body in SECOND_KISMET_MOVES:
        token = (ann, bob)[who]
        answer = web.post(f"/api/games/{game_id}/{path}", json=body, headers=seat(token))
        assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def plain_text() -> str:
    """The same game typed at the plain-text table, up to the question after the second Kismet."""
    game = Game(list(NAMES), rng=ScriptedDice([*FACES, 1, 1, 1, 1, 1]))  # and the next turn's first roll
    sink = io.StringIO()
    typed = "s\nkismet\n1 2 3 4\ns\nyarborough\ns\nfives\n"
    with contextlib.suppress(EndOfInput):  # the test types no more than it needs
        PlainTable(io.StringIO(typed), sink).play(Session(game, [Seat(name) for name in NAMES]))
    return sink.getvalue()


def test_a_roll_an_entry_and_a_second_kismet_read_the_same_on_the_web_and_in_plain_text(
    web: TestClient, dice: QueuedDice
) -> None:
    events = web_events(web, dice)
    by_kind = {event["kind"]: event for event in events}
    [kept] = [event for event in events if event["kind"] == "rolled" and event["hold"]]
    told = {
        "kept": narration.rolled(NAMES, Rolled(1, (0, 1, 2, 3), (1, 2, 3, 4, 5))),
        "entry": narration.scored(NAMES, Scored(1, Box.YARBOROUGH, 15, (1, 2, 3, 4, 5)), 15),
        "second": narration.second_kismet(NAMES, SecondKismet(0, (Penalty(1, Box.ONES),))),
    }
    assert told["kept"] == (
        "Bob kept 1 2 3 4 (dice 1, 2, 3 and 4) and rolls 1 black, 2 red, 3 green, 4 green, 5 red."
    )
    assert kept["text"] == told["kept"]
    [entry] = [event for event in events if event["kind"] == "scored" and event["box"] == "YARBOROUGH"]
    assert entry["text"] == told["entry"] == "Bob enters 15 in Yarborough; total 15."
    assert by_kind["second_kismet"]["text"] == told["second"]
    out = plain_text()
    assert told["entry"] in out
    assert told["second"] in out
    # Every entry, the roll-off and the second Kismet the web told, plain text prints word for word,
    # each ending a line (after the questions it answers: typed answers are not echoed).
    lines = out.splitlines()
    for event in events:
        if event["kind"] != "rolled":
            assert any(line.endswith(event["text"]) for line in lines), event["text"]
