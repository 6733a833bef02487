"""Stopping the server loses no game: a new app on the same data goes on where the old one stopped."""

from __future__ import annotations

from pathlib import Path

from kismet_dice.storage import Storage
from tests.support.web import QueuedDice, client, entries, faces, new_game, seat, seat_tokens, state


def test_a_restarted_server_continues_the_game(tmp_path: Path) -> None:
    with client(tmp_path, QueuedDice(2, 5, 1, 1, 3, 4, 6)) as first:  # Bob wins the roll-off, then rolls
        created = new_game(first, "Ann", "Bob")
        ann, bob = seat_tokens(created)
        game_id = created["id"]
        assert first.post(f"/api/games/{game_id}/roll", json={}, headers=seat(bob)).status_code == 200
        before = state(first, game_id)
    assert faces(before) == [1, 1, 3, 4, 6]

    dice = QueuedDice()
    with client(tmp_path, dice) as second:
        assert state(second, game_id) == before
        # Bob holds his ones and goes on with the same turn; his old link still plays his seat.
        dice.push(1, 1, 1)
        rolled = second.post(f"/api/games/{game_id}/roll", json={"hold": [0, 1]}, headers=seat(bob))
        assert rolled.status_code == 200 and faces(rolled.json()) == [1, 1, 1, 1, 1]
        assert rolled.json()["rolls_left"] == 1
        scored = second.post(f"/api/games/{game_id}/score", json={"box": "KISMET"}, headers=seat(bob))
        # Five ones in the Kismet box: the total of the dice and 50.
        assert entries(scored.json(), 1)["KISMET"] == 55
        assert scored.json()["current_player"] == 0
        seat_of_ann = second.get(f"/api/games/{game_id}/seat", headers=seat(ann)).json()
        assert seat_of_ann == {"seat": 0, "name": "Ann"}

    with client(tmp_path, QueuedDice()) as third:
        assert state(third, game_id) == scored.json()


def test_the_data_holds_no_seat_token(tmp_path: Path) -> None:
    with client(tmp_path, QueuedDice(6, 1)) as web:
        created = new_game(web, "Ann", "Bob")
    kept = b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.is_file())
    assert created["id"].encode() in kept
    for token in seat_tokens(created):
        assert token.encode() not in kept


def test_web_games_are_not_offered_to_the_terminal_for_resuming(tmp_path: Path) -> None:
    with client(tmp_path, QueuedDice(6, 1, 2, 2, 3, 4, 5)) as web:
        created = new_game(web, "Ann", "Bob")
        ann, _ = seat_tokens(created)
        assert web.post(f"/api/games/{created['id']}/roll", json={}, headers=seat(ann)).status_code == 200
        with Storage.open(tmp_path) as storage:
            # The server saves it from its own copy; resumed elsewhere, its saves would overwrite.
            assert storage.games.unfinished().games == ()
