"""The game answers and live messages are put together from the parts the service keeps encoded
(each event once, each sheet while it does not change): they must be, byte for byte, what the
schema writes, whatever the game went through."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from kismet_dice.web.schemas import GameView, StateMessage, UpdateMessage
from tests.support.web import SECOND_KISMET_MOVES, QueuedDice, new_game, seat, seat_tokens

# The roll-off (Ann 6, Bob 2, from the fixture); Ann's five fives; Bob's 1 2 3 4 6, then a 5 for
# his 6; Ann's five fives again, her second Kismet (which costs Bob an entry).
FACES = (5, 5, 5, 5, 5, 1, 2, 3, 4, 6, 5, 5, 5, 5, 5, 5)


def test_every_answer_and_every_whole_state_is_the_game_view_as_the_schema_writes_it(
    web: TestClient, dice: QueuedDice
) -> None:
    dice.push(*FACES)
    created = new_game(web, "Ann", "Bob", zero_kismet_counts=True)
    ann, bob = seat_tokens(created)
    game_id = created["id"]
    with web.websocket_connect(f"/api/games/{game_id}/live") as page:
        page.receive_json()
        page.send_json({"type": "hello", "token": bob})  # a seat with a page open: "connected"
        assert page.receive_json() == {"type": "presence", "connected": [1]}
        answers = [web.get(f"/api/games/{game_id}")]
        for who, path, body in SECOND_KISMET_MOVES:
            token = (ann, bob)[who]
            answer = web.post(f"/api/games/{game_id}/{path}", json=body, headers=seat(token))
            assert answer.status_code == 200, answer.text
            assert answer.headers["content-type"] == "application/json"
            answers.append(answer)
            # What the schema reads in the answer, written again by the schema, is the answer.
            assert GameView.model_validate_json(answer.content).model_dump_json().encode() == answer.content
            update = page.receive_text()
            assert UpdateMessage.model_validate_json(update).model_dump_json() == update
            assert json.loads(update)["version"] == answer.json()["version"]
            page.send_json({"type": "sync"})
            state = page.receive_text()
            assert StateMessage.model_validate_json(state).model_dump_json() == state
            assert json.loads(state)["game"] == answer.json()
        answers.append(web.get(f"/api/games/{game_id}"))
    assert [answer.json()["version"] for answer in answers] == [*range(8), 7]
    assert {tuple(answer.json()["connected"]) for answer in answers} == {(1,)}
    assert [event["kind"] for event in answers[-1].json()["events"]][-2:] == ["scored", "second_kismet"]
    assert GameView.model_validate_json(answers[-1].content).model_dump_json().encode() == answers[-1].content
