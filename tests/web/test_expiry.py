"""A server deletes the unfinished web games nobody touched for its expiry time when it starts
(and every hour after); finished games stay."""

from __future__ import annotations

import logging
import random
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kismet_dice.web import create_app
from kismet_dice.web.guard import Protections
from tests.support.web import new_game


def started(home: Path, expire_days: float = 30.0) -> TestClient:
    app = create_app(home, random.Random(3), pace=0.0, protections=Protections(expire_days=expire_days))
    return TestClient(app, raise_server_exceptions=False)


def last_touched(home: Path, table_id: str, days_ago: float) -> None:
    """Make a game look as if its last move were ``days_ago`` days ago (as the file keeps it)."""
    moment = (datetime.now(UTC) - timedelta(days=days_ago)).replace(microsecond=0).isoformat()
    with closing(sqlite3.connect(home / "kismet.sqlite3")) as database, database:
        database.execute(
            "UPDATE saved_game SET saved = ? WHERE id = (SELECT saved_game FROM web_table WHERE id = ?)",
            (moment, table_id),
        )


def test_a_server_starting_deletes_the_games_untouched_for_its_expiry_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with started(tmp_path) as web:
        stale = new_game(web, "Ann")["id"]
        recent = new_game(web, "Bob")["id"]
    last_touched(tmp_path, stale, days_ago=31)
    last_touched(tmp_path, recent, days_ago=29)
    with caplog.at_level(logging.INFO, logger="kismet_dice.web.expiry"), started(tmp_path) as web:
        assert web.get(f"/api/games/{stale}").status_code == 404
        assert web.get(f"/api/games/{recent}").status_code == 200
    assert "1 unfinished web game(s) untouched since" in caplog.text


def test_the_expiry_time_is_the_servers_to_choose_and_zero_keeps_every_game(tmp_path: Path) -> None:
    with started(tmp_path) as web:
        game = new_game(web, "Ann")["id"]
    last_touched(tmp_path, game, days_ago=400)
    with started(tmp_path, expire_days=0) as web:
        assert web.get(f"/api/games/{game}").status_code == 200
        assert web.get("/api/limits").json()["expire_days"] is None
    with started(tmp_path, expire_days=365) as web:
        assert web.get(f"/api/games/{game}").status_code == 404
