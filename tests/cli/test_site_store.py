"""Choosing the store from the command line: a site's PostgreSQL database by ``--database`` or
``KISMET_DATABASE_URL``, and one ``kismet serve`` at a time on a SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kismet_dice.storage import Storage, StorageError
from tests.support.ports import free_port
from tests.support.postgres import PASSWORD
from tests.support.processes import Server

KISMET = [sys.executable, "-c", "import sys; from kismet_dice.cli import main; sys.exit(main())"]


def kismet(
    home: Path, *arguments: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*KISMET, *arguments],
        input="",
        env={**os.environ, "KISMET_HOME": str(home), **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def fill(url: str, *totals: int) -> None:
    with Storage.open(database=url) as site:
        for number, total in enumerate(totals):
            site.hall.submit(f"Site{number}", total, players=1, computer=False, assisted=False)


def test_kismet_hall_reads_and_clears_a_sites_list(home: Path, postgres_url: str) -> None:
    fill(postgres_url, 250, 300)
    shown = kismet(home, "hall", "--json", "--database", postgres_url)
    assert shown.returncode == 0, shown.stderr
    assert [(e["name"], e["total"]) for e in json.loads(shown.stdout)] == [("Site1", 300), ("Site0", 250)]
    assert not (home / "kismet.sqlite3").exists()  # the machine's own file is left alone

    cleared = kismet(home, "hall", "--clear", "--yes", "--database", postgres_url)
    assert cleared.returncode == 0, cleared.stderr
    assert "2 entries removed" in cleared.stdout
    with Storage.open(database=postgres_url) as site:
        assert site.hall.entries() == ()


def test_the_environment_names_the_sites_database(home: Path, postgres_url: str) -> None:
    fill(postgres_url, 199)
    shown = kismet(home, "hall", "--json", env={"KISMET_DATABASE_URL": postgres_url})
    assert shown.returncode == 0, shown.stderr
    assert [e["total"] for e in json.loads(shown.stdout)] == [199]


def test_a_database_that_cannot_be_used_is_one_line_without_the_password(
    home: Path, postgres_url: str
) -> None:
    for url in (postgres_url.replace(PASSWORD, "not-" + PASSWORD), "mysql://" + PASSWORD + "@db/kismet"):
        refused = kismet(home, "hall", "--database", url)
        assert refused.returncode == 2
        assert refused.stderr.startswith("kismet: ") and refused.stderr.count("\n") == 1
        assert PASSWORD not in refused.stderr + refused.stdout


@pytest.mark.sqlite_only
def test_only_one_serve_lock_is_held_on_a_file_and_plain_use_goes_on(storage: Storage) -> None:
    lock = storage.lock_for_serving()
    assert lock is not None
    with pytest.raises(StorageError) as refused:
        storage.lock_for_serving()
    assert str(refused.value) == (
        f"another kismet serve is using {storage.path}: SQLite is for one server process; "
        "use PostgreSQL (--database) for several"
    )
    storage.hall.submit("Ann", 120, players=1, computer=False, assisted=False)  # the file is still usable
    lock.release()
    again = storage.lock_for_serving()
    assert again is not None
    again.release()


def test_servers_on_postgresql_take_no_lock(postgres_url: str) -> None:
    with Storage.open(database=postgres_url) as site:
        assert site.lock_for_serving() is None


@pytest.mark.timeout(120)
def test_a_second_kismet_serve_on_the_same_file_is_refused_at_start(home: Path) -> None:
    first = Server(home)  # it answers, so it holds the lock from here on
    try:
        second = kismet(home, "serve", "--port", str(free_port()))
        played = kismet(home, "hall")  # another command may use the file alongside
    finally:
        first.stop()
    assert second.returncode == 2
    assert second.stderr == (
        f"kismet: another kismet serve is using {home / 'kismet.sqlite3'}: SQLite is for one server "
        "process; use PostgreSQL (--database) for several\n"
    )
    assert played.returncode == 0, played.stderr
