"""Every test gets its own empty KISMET_HOME: no test reads or writes the person's real data,
and no saved game of one test is offered to another.

The ``storage`` fixture is each store in turn: the SQLite file, then a new database of a
throwaway PostgreSQL cluster (tests/support/postgres.py, started once per run when a test needs
it), for the tests of the stores and of the session; the others use the SQLite file. A test of
the stores about the SQLite file alone is marked ``@pytest.mark.sqlite_only``.
"""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from kismet_dice.storage import Storage
from kismet_dice.strategy.distribution import Distribution, distribution_path, load_or_compute
from kismet_dice.strategy.reference import OTHER_GAMES, PERFECT_GAMES, reference_path, stored_or_played
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import StrategyTable, load_or_solve, table_path
from tests.support.postgres import Cluster

# The tests' processes collect garbage less often, and never look again at what was there once the
# tests were collected (the modules and what they made): with Python's defaults, collecting took 8.3
# of the 26.5 s of processor time of the terminal game's two largest files (Textual makes many
# short-lived objects, and each full collection went over every module's), with these 2.0 of 18.3.
GARBAGE_THRESHOLDS = (10_000, 10, 10)
gc.set_threshold(*GARBAGE_THRESHOLDS)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data directory (not yet created), set as KISMET_HOME."""
    directory = tmp_path / "kismet-home"
    monkeypatch.setenv("KISMET_HOME", str(directory))
    # A site's database set in the person's environment must not catch the tests' writes.
    monkeypatch.delenv("KISMET_DATABASE_URL", raising=False)
    return directory


STORES = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: about the SQLite file itself; runs on SQLite alone")
    config.addinivalue_line("markers", "waits: a file whose tests spend most of their time waiting (below)")


# The tests of the stores themselves, and of the session that keeps games in them, run on both;
# the terminal game and plain text keep a person's games in the SQLite file, so theirs run there.
BOTH_STORES = ("tests/storage/", "tests/test_session.py")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    where = Path(str(metafunc.definition.fspath)).as_posix()
    if "store_kind" in metafunc.fixturenames and any(part in where for part in BOTH_STORES):
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("store_kind", STORES[:1] if sqlite_only else STORES)


# The order files are handed to the workers in (`make test` keeps it, with --no-loadscope-reorder;
# pytest-xdist's own puts the files with the most tests first). The folders whose files take longest
# (browsers, servers, the terminal game, the strategy's passes) go first and the many quick files
# last, so that the run does not end with one long file on one core. A file marked ``waits`` spends
# most of its time waiting (for a server's timeout, a database taken down and started again: 7 s
# of processor time in 27 s, say): two of them at once leave a core idle, so they are spread evenly
# among the long files, which keep the cores busy meanwhile (spread among every file, the last two
# still met, the quick files after the long ones going by fast). With the four waiting files handed
# out last, side by side, some 15 s of the cores' time was idle.
FIRST = ("tests/web/", "tests/tui/", "tests/strategy/")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def folder(item: pytest.Item) -> int:
        path = item.path.as_posix()
        return next((rank for rank, part in enumerate(FIRST) if part in path), len(FIRST))

    files: dict[Path, list[pytest.Item]] = {}
    for item in sorted(items, key=folder):  # a stable sort: files and tests keep their order
        files.setdefault(item.path, []).append(item)
    waiting = [tests for tests in files.values() if tests[0].get_closest_marker("waits")]
    others = [tests for tests in files.values() if not tests[0].get_closest_marker("waits")]
    long_ones = sum(folder(tests[0]) < len(FIRST) for tests in others)
    spacing = max(long_ones // max(len(waiting), 1), 1)
    ordered: list[list[pytest.Item]] = []
    for index, tests in enumerate(others):
        if waiting and index % spacing == 0:
            ordered.append(waiting.pop(0))
        ordered.append(tests)
    items[:] = [item for tests in ordered + waiting for item in tests]


@pytest.fixture
def store_kind() -> str:
    """The SQLite file, unless the test is one of those run on both stores (see above)."""
    return STORES[0]


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    cluster = Cluster.start()  # fails the run if PostgreSQL cannot start: no skips
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """The URL (with its password) of a new, empty database, dropped after the test."""
    url = postgres_cluster.create_database()
    try:
        yield url
    finally:
        postgres_cluster.drop_database(url)


@pytest.fixture
def store_url(store_kind: str, request: pytest.FixtureRequest) -> str | None:
    """``None`` for the SQLite file in KISMET_HOME, or a new PostgreSQL database's URL."""
    if store_kind == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def storage(home: Path, store_url: str | None) -> Iterator[Storage]:
    with Storage.open(database=store_url) as opened:
        yield opened


# The Kismet table and its distribution, worked out once per test run and kept where every
# worker of the run finds them (the first to need one works it out, the others wait for it), then
# linked into each worker's own KISMET_HOME: a command a test runs there may store more beside them
# without another worker seeing it.
def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's folder for what its workers share: the parent of each worker's own under
    pytest-xdist, the run's own otherwise (never one shared with another run)."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if "PYTEST_XDIST_WORKER" in os.environ else base) / "kismet-shared"


def _linked(shared: Path, home: Path) -> None:
    """``shared`` in the folder ``home`` under its own name (a copy where no link can be made)."""
    home.mkdir(parents=True, exist_ok=True)
    target = home / shared.name
    if not target.exists():
        try:
            os.link(shared, target)
        except OSError:
            shutil.copyfile(shared, target)


def solved_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, StrategyTable]:
    """A ``KISMET_HOME`` holding the solved table; any test directory asking again gets the same one."""
    home = tmp_path_factory.getbasetemp() / "kismet-home"
    shared = _run_folder(tmp_path_factory)
    table = load_or_solve(kismet_rules(), directory=shared)
    _linked(table_path(table.rules, shared), home / "tables")
    return str(home), table


@pytest.fixture(scope="session")
def kismet_home(kismet_table: StrategyTable, tmp_path_factory: pytest.TempPathFactory) -> str:
    return solved_home(tmp_path_factory)[0]


@pytest.fixture(scope="session")
def kismet_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    return solved_home(tmp_path_factory)[1]


@pytest.fixture(scope="session")
def kismet_distribution(
    kismet_table: StrategyTable, tmp_path_factory: pytest.TempPathFactory
) -> Distribution:
    """The distribution of perfect play from an empty sheet, computed once per test run and
    stored beside the session's table (where ``kismet chances`` run on ``kismet_home`` finds it)."""
    home, _ = solved_home(tmp_path_factory)
    shared = _run_folder(tmp_path_factory)
    path = distribution_path(kismet_table.rules, shared)
    distribution = load_or_compute(kismet_table, directory=shared)
    _linked(path, Path(home) / "tables")
    return distribution


@pytest.fixture(scope="session")
def shared_charts_reference(kismet_table: StrategyTable, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The games the charts compare with, in their full numbers, played once per test run (seconds
    of several processors) where every worker finds them, rather than once per worker."""
    path = reference_path(kismet_table, _run_folder(tmp_path_factory))
    stored_or_played(kismet_table, path, PERFECT_GAMES, OTHER_GAMES)
    return path


@pytest.fixture
def charts_reference(shared_charts_reference: Path, home: Path) -> None:
    """This test's home holds the charts' games, as that of a machine that has shown a chart before:
    for a test of what a chart shows, not of how the first chart on a machine comes to be (those
    tests play fewer games, stored under the same name and played again because the number differs).
    A test whose ``tables`` is linked elsewhere asks for that link first."""
    _linked(shared_charts_reference, home / "tables")
