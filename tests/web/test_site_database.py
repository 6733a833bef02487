"""The web app on a site's PostgreSQL database: games kept there, and a second app (another
server process, as far as the store can tell) picks a game up where the first left it."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from kismet_dice.storage import Storage
from kismet_dice.web import create_app
from tests.support.web import QueuedDice, faces, new_game, seat, seat_tokens, state


def test_a_game_made_on_one_app_is_kept_in_postgresql_and_played_on_through_another(
    tmp_path: Path, postgres_url: str
) -> None:
    dice = QueuedDice(6, 2, 4, 5, 5, 1, 2)
    first = TestClient(create_app(tmp_path / "one", dice, pace=0.0, database=postgres_url))
    with first:
        game = new_game(first, "Ann", "Bob")
        ann, _bob = seat_tokens(game)
        rolled = first.post(f"/api/games/{game['id']}/roll", json={}, headers=seat(ann))
        assert rolled.status_code == 200, rolled.text
    assert not (tmp_path / "one").exists()  # nothing went to a SQLite file

    with Storage.open(database=postgres_url) as site:
        assert site.tables.unfinished() == (game["id"],)

    second = TestClient(create_app(tmp_path / "two", QueuedDice(), pace=0.0, database=postgres_url))
    with second:
        assert faces(state(second, game["id"])) == [4, 5, 5, 1, 2]
        scored = second.post(f"/api/games/{game['id']}/score", json={"box": "FIVES"}, headers=seat(ann))
        assert scored.status_code == 200, scored.text
        assert scored.json()["players"][0]["total"] == 10
    with Storage.open(database=postgres_url) as site:
        [(version,)] = site.database.read("SELECT version FROM saved_game")
        assert version == 2
