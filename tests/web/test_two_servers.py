"""Two servers on one store: neither acts on a stale copy, and no acknowledged action is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from kismet_dice.session import narration
from kismet_dice.storage import Storage
from tests.support.web import QueuedDice, client, entries, faces, new_game, seat, seat_tokens


@pytest.mark.timeout(60)
def test_a_server_with_a_stale_copy_acts_on_the_game_as_the_store_has_it(tmp_path: Path) -> None:
    dice_a, dice_b = QueuedDice(6, 2), QueuedDice()  # Ann wins the roll-off on A
    with client(tmp_path, dice_a) as a, client(tmp_path, dice_b) as b:
        created = new_game(a, "Ann", "Bob")
        ann, bob = seat_tokens(created)
        game_id = created["id"]
        acknowledged = []

        dice_a.push(3, 3, 4, 4, 1)
        rolled = a.post(f"/api/games/{game_id}/roll", json={}, headers=seat(ann))
        assert rolled.status_code == 200
        acknowledged.append(rolled.json())
        scored = b.post(f"/api/games/{game_id}/score", json={"box": "TWO_PAIR_SAME_COLOR"}, headers=seat(ann))
        assert scored.status_code == 200, scored.text
        acknowledged.append(scored.json())
        assert scored.json()["current_player"] == 1

        # A still holds the game as it was after Ann's roll: by the store, Ann's turn is over.
        # A tries the roll on its copy first (three dice, never shown), finds the store moved on
        # when it keeps it, and takes it again on the store's game, which refuses it.
        dice_a.push(1, 1, 1, 6, 6, 6, 6, 6)
        again = a.post(f"/api/games/{game_id}/roll", json={"hold": [0, 1]}, headers=seat(ann))
        assert again.status_code == 409 and "Bob's turn" in again.json()["error"], again.text
        assert dice_a.remaining == 5  # nothing more was rolled for it
        # Bob's roll on A is a fresh turn of the game as B left it: Ann's entry is there.
        bobs = a.post(f"/api/games/{game_id}/roll", json={}, headers=seat(bob))
        assert bobs.status_code == 200, bobs.text
        acknowledged.append(bobs.json())
        assert faces(bobs.json()) == [6, 6, 6, 6, 6] and bobs.json()["rolls_left"] == 2
        assert entries(bobs.json(), 0)["TWO_PAIR_SAME_COLOR"] == 15
        # B, in turn, sees A's roll.
        shown = b.get(f"/api/games/{game_id}").json()
        assert shown == bobs.json()

    versions = [answer["version"] for answer in acknowledged]
    assert versions == sorted(set(versions))
    with Storage.open(tmp_path) as storage:
        found = storage.tables.find(game_id)
        assert found is not None
        saved, game = storage.games.load(found[0], finished=True)
    assert saved.version == versions[-1]
    stored = [(told.index, told.text) for told in narration.story(game)]
    # Every acknowledged answer's history is the start of the stored one: no action was lost.
    for answer in acknowledged:
        told = [(event["index"], event["text"]) for event in answer["events"]]
        assert told == stored[: len(told)]
    assert [text for _, text in stored[-3:]] == [
        "Ann rolls 3 green, 3 green, 4 green, 4 green, 1 black.",
        "Ann enters 15 in Two Pair Same Color; total 15.",
        "Bob rolls 6 black, 6 black, 6 black, 6 black, 6 black.",
    ]
