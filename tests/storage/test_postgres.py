"""The PostgreSQL store, where several processes share one database: what only it must do.

Each test gets a new database of the throwaway cluster (tests/postgres.py). "Processes" are real
ones, started with the spawn context (never fork a threaded process), each with its own pool.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from kismet_dice.game import Game
from kismet_dice.storage import SCHEMA_VERSION, Storage, StorageError, VersionConflict, postgres
from kismet_dice.storage.database import upgrade
from kismet_dice.storage.postgres import (
    CHANNEL,
    CONNECT_SECONDS,
    PostgresDatabase,
    _PostgresConnection,
    describe,
)
from tests.support.games import take_turn_step
from tests.support.postgres import PASSWORD, USER, Cluster
from tests.support.relay import Relay

THREADS = 8
SUBMISSIONS = 12  # per thread


@pytest.fixture
def site(postgres_url: str) -> Iterator[Storage]:
    with Storage.open(database=postgres_url) as opened:
        yield opened


def test_a_url_opens_postgresql_and_the_schema_is_the_current_one(site: Storage, postgres_url: str) -> None:
    assert (site.dialect, site.shared, site.path) == ("postgresql", True, None)
    assert PASSWORD not in site.where and site.where == describe(postgres_url)
    assert site.database.read("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    tables = {
        row[0]
        for row in site.database.read(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    }
    assert tables == {"hall_of_fame", "saved_game", "setting", "web_table", "schema_version"}


def test_the_environment_variable_chooses_postgresql_when_no_place_is_given(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KISMET_DATABASE_URL", postgres_url)
    with Storage.open() as storage:
        assert storage.dialect == "postgresql"
    with Storage.open(tmp_path) as storage:  # a directory given: its file
        assert (storage.dialect, storage.path) == ("sqlite", tmp_path / "kismet.sqlite3")


def test_an_older_database_is_migrated_and_keeps_its_hall_of_fame(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as raw, raw.transaction():
        connection = _PostgresConnection(raw)
        upgrade(connection, "test", target=1)
        connection.execute(
            "INSERT INTO hall_of_fame (name, total, date, players) VALUES (?, ?, ?, ?)",
            ("Old Timer", 275, "2020-01-02T03:04:05+00:00", 2),
        )
    with Storage.open(database=postgres_url) as storage:
        [entry] = storage.hall.entries()
        assert (entry.name, entry.total, entry.date.year) == ("Old Timer", 275, 2020)
        assert storage.database.read("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
        # The identity goes on from the rows already there.
        storage.hall.submit("New", 280, players=1, computer=False, assisted=False)
        assert [e.name for e in storage.hall.entries()] == ["New", "Old Timer"]


def test_a_database_from_a_newer_version_is_refused(site: Storage, postgres_url: str) -> None:
    site.database.write(lambda c: c.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,)))
    with pytest.raises(StorageError, match="newer kismet-dice"):
        Storage.open(database=postgres_url)


def test_two_processes_objects_on_one_database_refuse_a_stale_save(postgres_url: str) -> None:
    with Storage.open(database=postgres_url) as first, Storage.open(database=postgres_url) as second:
        game = Game(["Ann", "Bob"], rng=random.Random(3))
        saved = first.games.start(game)
        read_by_second, copy = second.games.load(saved.id, random.Random(4))
        take_turn_step(game)
        first.games.save(saved.id, game, version=saved.version)
        take_turn_step(copy)
        with pytest.raises(VersionConflict):
            second.games.save(saved.id, copy, version=read_by_second.version)
        assert second.games.load(saved.id)[1].to_json() == game.to_json()


def test_connections_the_server_drops_while_in_use_are_replaced_and_reads_go_on(
    site: Storage, postgres_url: str
) -> None:
    game = Game(["Ann"], rng=random.Random(5))
    saved = site.games.start(game)
    for _ in range(3):
        assert site.games.version(saved.id) == saved.version  # the pool's connections in steady use
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        assert dropped and all(row[0] for row in dropped)
        # Used a moment ago, so not checked when handed out: the read meets the dropped connection
        # and is asked again on a new one.
        assert site.games.version(saved.id) == saved.version
    take_turn_step(game)
    assert site.games.save(saved.id, game, version=saved.version).version == saved.version + 1


def test_after_a_restart_the_idle_connections_are_checked_and_replaced_and_the_first_read_is_answered(
    site: Storage, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(["Ann"], rng=random.Random(5))
    saved = site.games.start(game)
    with contextlib.ExitStack() as held:  # three connections in use at once: the pool holds three
        for _ in range(3):
            held.enter_context(site.database._connection())  # type: ignore[attr-defined]
    # As after a quiet spell: every connection handed out is checked first.
    monkeypatch.setattr(postgres, "IDLE_CHECK_SECONDS", 0.0)
    with psycopg.connect(postgres_url, autocommit=True) as admin:  # the restart drops them all
        dropped = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    assert len(dropped) >= 3  # the three, and any the pool made beside them
    # Each dropped one fails its check and is replaced; the read waits for a new one, not for the
    # pool's pause between checks (a second each, doubling: past its wait with two or more).
    assert site.games.version(saved.id) == saved.version
    take_turn_step(game)
    assert site.games.save(saved.id, game, version=saved.version).version == saved.version + 1


def test_a_write_after_the_server_dropped_the_connections_is_made_on_a_new_one(
    site: Storage, postgres_url: str
) -> None:
    game = Game(["Ann"], rng=random.Random(5))
    saved = site.games.start(game)
    assert site.games.version(saved.id) == saved.version  # the pool's connections in steady use
    others = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        ended = [row[0] for row in admin.execute(others).fetchall()]
        assert ended
        admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (ended,))
        # Until each of them has ended, its connection closed (a connection the pool was making
        # meanwhile may have come in since, and is not waited for).
        for _ in range(500):
            if not admin.execute(f"{others} AND pid = ANY(%s)", (ended,)).fetchall():
                break
            time.sleep(0.01)
        else:
            pytest.fail("the terminated backends did not end")
    # Not checked by a round trip (used a moment ago), but the server's last word to it is there
    # to read: the save is made on a new connection, not refused.
    take_turn_step(game)
    assert site.games.save(saved.id, game, version=saved.version).version == saved.version + 1
    assert site.games.load(saved.id)[1].to_json() == game.to_json()


def test_threads_share_one_storage_and_each_save_is_checked(site: Storage) -> None:
    game = Game(["Ann"], rng=random.Random(5))
    saved = site.games.start(game)
    take_turn_step(game)
    outcomes: queue.Queue[str] = queue.Queue()
    barrier = threading.Barrier(THREADS)

    def save() -> None:
        barrier.wait()
        try:
            site.games.save(saved.id, game, version=saved.version)
            outcomes.put("saved")
        except VersionConflict:
            outcomes.put("refused")

    threads = [threading.Thread(target=save) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results = sorted(outcomes.get() for _ in range(THREADS))
    assert results == ["refused"] * (THREADS - 1) + ["saved"]
    assert site.games.version(saved.id) == 1


def _submit_from_threads(url: str, process: int, totals: list[list[int]]) -> None:
    """One process: one storage, THREADS threads submitting their totals at once."""
    with Storage.open(database=url) as storage:
        barrier = threading.Barrier(THREADS)

        def submit(thread: int) -> None:
            barrier.wait()
            for number, total in enumerate(totals[thread]):
                name = f"p{process}-t{thread}-{number}"
                storage.hall.submit(name, total, players=1, computer=False, assisted=False)

        threads = [threading.Thread(target=submit, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


@pytest.mark.timeout(240)
def test_two_processes_of_eight_threads_keep_exactly_the_ten_best(postgres_url: str) -> None:
    chance = random.Random(20240502)
    # A narrow range, so ties are common, at the cut-off too.
    totals = [
        [[chance.randint(150, 260) for _ in range(SUBMISSIONS)] for _ in range(THREADS)] for _ in range(2)
    ]
    Storage.open(database=postgres_url).close()  # the schema first, so both start on the submissions
    spawn = multiprocessing.get_context("spawn")
    processes = [
        spawn.Process(target=_submit_from_threads, args=(postgres_url, p, totals[p])) for p in range(2)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(200)
    assert [process.exitcode for process in processes] == [0, 0]

    submitted = {
        f"p{p}-t{t}-{n}": total
        for p in range(2)
        for t in range(THREADS)
        for n, total in enumerate(totals[p][t])
    }
    with Storage.open(database=postgres_url) as storage:
        entries = storage.hall.entries()
        (count,) = storage.database.read("SELECT COUNT(*) FROM hall_of_fame")[0]
    assert count == 10  # trimmed to ten, never more
    assert [entry.total for entry in entries] == sorted(submitted.values(), reverse=True)[:10]
    assert all(submitted[entry.name] == entry.total for entry in entries)
    assert [entry.rank for entry in entries] == list(range(1, 11))


def _open_and_report(url: str, results: multiprocessing.Queue[str]) -> None:
    try:
        with Storage.open(database=url) as storage:
            results.put(f"ok {storage.database.read('SELECT version FROM schema_version')}")
    except Exception as error:  # reported to the test, which shows it
        results.put(f"failed {type(error).__name__}: {error}")


@pytest.mark.timeout(120)
def test_servers_starting_together_on_a_new_database_migrate_it_once(postgres_url: str) -> None:
    spawn = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue[str] = spawn.Queue()
    processes = [spawn.Process(target=_open_and_report, args=(postgres_url, results)) for _ in range(4)]
    for process in processes:
        process.start()
    reports = sorted(results.get(timeout=100) for _ in processes)
    for process in processes:
        process.join(20)
    # A second run of the migrations would have failed on CREATE TABLE: every start succeeded.
    assert reports == [f"ok [({SCHEMA_VERSION},)]"] * 4
    with psycopg.connect(postgres_url) as raw:
        assert raw.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)


def test_a_urls_password_is_in_no_message_and_clients_learn_no_host_or_user(
    postgres_cluster: Cluster, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = postgres_cluster.url(postgres_url.rsplit("/", 1)[1], password="wrong-" + PASSWORD)
    missing = postgres_cluster.url("no_such_database")
    failures: list[StorageError] = []
    for url in (wrong, missing):
        with pytest.raises(StorageError) as caught:
            Storage.open(database=url)
        failures.append(caught.value)
    with Storage.open(database=postgres_url) as storage, pytest.raises(StorageError) as caught:
        storage.database.write(lambda c: c.execute("INSERT INTO nowhere VALUES (?)", (PASSWORD,)))
    failures.append(caught.value)
    with pytest.raises(StorageError) as caught:
        Storage.open(database="mysql://" + PASSWORD)
    failures.append(caught.value)

    assert "password authentication failed" in str(failures[0])
    assert "no_such_database" in str(failures[1])
    for failure in failures:
        assert PASSWORD not in str(failure) and PASSWORD not in failure.public
        assert "127.0.0.1" not in failure.public and USER not in failure.public
    assert all(PASSWORD not in record.getMessage() for record in caplog.records)


def test_every_save_notifies_a_listening_connection_when_it_commits(site: Storage, postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as listening:
        listening.execute(f"LISTEN {CHANNEL}".encode())
        game = Game(["Ann"], rng=random.Random(6))
        saved = site.games.start(game)
        take_turn_step(game)
        site.games.save(saved.id, game, version=0)
        take_turn_step(game)
        with pytest.raises(VersionConflict):  # refused: rolled back, so nothing is told
            site.games.save(saved.id, game, version=0)
        site.games.save(saved.id, game, version=1)
        told = [note.payload for note in listening.notifies(timeout=10, stop_after=3)]
    assert told == [f"{saved.id}:0", f"{saved.id}:1", f"{saved.id}:2"]


def test_a_listener_hears_the_saves_of_another_storage(site: Storage, postgres_url: str) -> None:
    heard: queue.Queue[tuple[int, int]] = queue.Queue()
    listener = site.listen(lambda game_id, version: heard.put((game_id, version)))
    try:
        assert listener.wait_until_listening(30)
        with Storage.open(database=postgres_url) as other:
            game = Game(["Ann", "Bob"], rng=random.Random(7))
            saved = other.tables.create("t1", game, ["a", "b"], [None, None])
            take_turn_step(game)
            other.games.save(saved.id, game, version=0)
        assert [heard.get(timeout=10) for _ in range(2)] == [(saved.id, 0), (saved.id, 1)]
    finally:
        listener.stop()


def test_a_listener_whose_connection_the_server_drops_listens_again_and_says_so(
    site: Storage, postgres_url: str
) -> None:
    heard: queue.Queue[tuple[int, int]] = queue.Queue()
    again = threading.Event()
    starts: list[int] = []

    def listening() -> None:
        starts.append(1)
        if len(starts) > 1:
            again.set()

    listener = site.listen(lambda game_id, version: heard.put((game_id, version)), listening)
    try:
        assert listener.wait_until_listening(30)
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query LIKE 'LISTEN%'"
            ).fetchall()
        assert dropped == [(True,)]
        # Told it listens again, so that its caller can look at what it may have missed meanwhile.
        assert again.wait(30)
        game = Game(["Ann"], rng=random.Random(2))
        saved = site.games.start(game)
        assert heard.get(timeout=10) == (saved.id, 0)
    finally:
        listener.stop()


def test_a_listener_connecting_to_a_database_that_does_not_answer_stops_without_waiting_for_it(
    site: Storage, postgres_cluster: Cluster
) -> None:
    with postgres_cluster.paused():
        listener = site.listen(lambda game_id, version: None)
        assert not listener.wait_until_listening(0.5)  # its connection waits for an answer
        asked = time.monotonic()
        listener.stop()
        waited = time.monotonic() - asked
    # Not the connection's timeout (nor for good, had its LISTEN been sent): a server told to end
    # then ends, and the thread left behind ends with the process.
    assert waited < CONNECT_SECONDS / 2


@pytest.mark.sqlite_only
def test_a_sqlite_store_has_no_one_to_listen_to(storage: Storage) -> None:
    assert not storage.shared
    with pytest.raises(StorageError, match="one server process"):
        storage.listen(lambda game_id, version: None)


def test_a_save_whose_connection_is_lost_on_its_way_is_refused_whole_and_the_next_is_prepared_anew(
    postgres_url: str, postgres_cluster: Cluster
) -> None:
    with Relay(postgres_cluster.port) as relay, Storage.open(database=relay.url(postgres_url)) as site:
        game = Game(["Ann", "Bob"], rng=random.Random(8))
        saved = site.games.start(game)
        take_turn_step(game)
        # Prepared on the pool's connection:
        saved = site.games.save(saved.id, game, version=saved.version)
        database = site.games._database
        assert isinstance(database, PostgresDatabase)
        with contextlib.ExitStack() as held:
            # Every connection of the pool used a moment ago, so the save's is not checked first
            # (a check would meet the drop instead, and the save go on a new connection).
            for _ in range(database._pool.get_stats()["pool_size"]):
                held.enter_context(database._connection())
        relay.drop_at_next_statement()
        take_turn_step(game)
        # A write is not asked again (it may have been kept): the save whose connection is lost
        # on its way is refused, and says so without the URL.
        with pytest.raises(StorageError) as refused:
            site.games.save(saved.id, game, version=saved.version)
        assert refused.value.public == "the game store cannot be reached"
        assert site.games.version(saved.id) == saved.version
        # The pool's new connection has never seen the statement: it is prepared there before it runs.
        again = site.games.save(saved.id, game, version=saved.version)
        assert again.version == saved.version + 1
        assert site.games.load(saved.id)[1].to_json() == game.to_json()


def test_a_save_whose_prepared_statement_the_server_forgot_is_prepared_again(site: Storage) -> None:
    game = Game(["Ann", "Bob"], rng=random.Random(10))
    saved = site.games.start(game)
    take_turn_step(game)
    saved = site.games.save(saved.id, game, version=saved.version, known=saved)
    database = site.games._database
    assert isinstance(database, PostgresDatabase)
    with contextlib.ExitStack() as held:
        # Every connection of the pool at once (it hands them out in turn), each made to forget its
        # prepared statements, as a connection pooler's DISCARD ALL would.
        pooled = [
            held.enter_context(database._connection()) for _ in range(database._pool.get_stats()["pool_size"])
        ]
        forgotten = []
        for raw in pooled:
            forgotten += raw.execute("SELECT name FROM pg_prepared_statements").fetchall()
            raw.execute("DEALLOCATE ALL")
        assert ("kismet_0",) in forgotten
    take_turn_step(game)
    again = site.games.save(saved.id, game, version=saved.version, known=saved)
    assert again.version == saved.version + 1
    assert site.games.load(saved.id)[1].to_json() == game.to_json()


def test_a_save_refused_by_the_server_raises_psycopgs_own_error_as_a_storage_error(site: Storage) -> None:
    game = Game(["Ann"], rng=random.Random(9))
    saved = site.games.start(game)
    take_turn_step(game)
    with pytest.raises(StorageError) as refused:
        # A version beyond what the column holds: the server refuses the statement itself.
        site.games.save(saved.id, game, version=2**40)
    assert "out of range" in str(refused.value)
    assert refused.value.public == "the game store cannot be used right now"
