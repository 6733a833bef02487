"""The PostgreSQL store: a site's database, shared by any number of server processes.

Chosen by a ``postgresql://`` URL (``--database`` or ``$KISMET_DATABASE_URL``). The schema and the
migrations are the SQLite file's (:mod:`kismet_dice.storage.database`). psycopg is imported only
here, and only when a URL asks for it, so a player's machine never needs it (the ``site`` extra).

- One :class:`PostgresDatabase` serves every thread of a process from one connection pool.
- Each write is one transaction at READ COMMITTED. A saved game's write names its version in the
  UPDATE's WHERE clause: a concurrent writer of the row waits, then finds the version moved on
  and is refused. The Hall of Fame's "qualifies, insert, trim to ten" locks the table first. A
  transaction the server aborts (deadlock, serialization) is run again from the start.
- Migrations run under an advisory lock: servers starting together migrate once
  (DDL is transactional in PostgreSQL, so a failed migration leaves nothing).
- Every write of a saved game sends ``NOTIFY kismet_games, '<id>:<version>'`` in its transaction,
  delivered on commit; :meth:`PostgresDatabase.listen` receives them.
- A URL's password appears in no message: errors name the database by :func:`describe`.
"""

from __future__ import annotations

import logging
import select
import selectors
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, TypeVar

from kismet_dice.storage.database import (
    SCHEMA_VERSION,
    Claims,
    Connection,
    Cursor,
    Database,
    Listener,
    newer_schema,
    stored_version,
    upgrade,
)
from kismet_dice.storage.errors import StorageError

try:
    import psycopg
    import psycopg.conninfo
    import psycopg.errors
    import psycopg_pool
except ImportError:  # pragma: no cover - the message is the point
    psycopg = None  # type: ignore[assignment]

T = TypeVar("T")

log = logging.getLogger(__name__)

# The channel that carries "game G reached version V" between processes.
CHANNEL = "kismet_games"
# The connections one process keeps open at most; threads beyond wait for one to come free.
POOL_SIZE = 10
# The advisory lock key held while migrating ("kismet" in ASCII): any 64-bit number of our own.
MIGRATION_LOCK = 0x6B69736D6574
# The first key of the advisory locks that claim a game's computer seats ("kd"); the second is the
# saved game's id.
CLAIM_LOCKS = 0x6B64
# How often a transaction aborted by the server (deadlock, serialization failure) is run again.
RETRIES = 5
IDLE_CHECK_SECONDS = 2.0
"""A pooled connection that sat unused longer than this is checked (one round trip) before it is
used again, so that one the server dropped meanwhile (a restart, say) is replaced instead of
failing a request. One in steady use is not checked: that round trip was one in three of a
game action's. One the server closed is found anyway (:func:`_has_input`), and a read that meets
a connection lost on its way is asked again."""
CONNECT_SECONDS = 10
POOL_WAIT_SECONDS = 1.5
"""The longest a call waits for a pooled connection. A database that is down or has every
connection stuck leaves the pool empty: the call fails soon with a clear line (the web answers
503 within its two seconds) rather than holding its thread for half a minute."""
CLAIM_CONNECT_SECONDS = 2
"""The claims' own connection is made again when it is needed (by the thread playing the
computers): a database that does not answer holds that thread this long at most."""
GATHER_SECONDS = 0.05
"""How long a listener lets notifications gather after the first: what other processes' pages
see of a move is that much later, at most, and well within the second they are promised."""
LISTEN_STOP_SECONDS = 1.0
"""The longest :meth:`Listener.stop` waits for the listener's thread. Between calls it looks every
quarter second whether it is asked to stop; in a call the database does not answer (connecting
again, or its LISTEN) it may wait ten seconds, or for good: that thread, a daemon, is left to end
with the process rather than hold up the end of a server."""

_PUBLIC = "the game store cannot be used right now"


def describe(url: str) -> str:
    """The database named for the person at the machine: the URL without its password.

    >>> describe("postgresql://kismet:s3cret@db.example:5433/site?sslmode=require")
    'postgresql://kismet@db.example:5433/site'
    >>> describe("postgres:///kismet")
    'postgresql://localhost/kismet'
    """
    _require_psycopg()
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL database (its URL does not parse)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def _password(url: str) -> str | None:
    try:
        value = psycopg.conninfo.conninfo_to_dict(url).get("password")
    except psycopg.Error:
        return None
    return str(value) if value else None


def _require_psycopg() -> None:
    if psycopg is None:
        raise StorageError(
            "a PostgreSQL database needs psycopg and psycopg-pool: pip install 'kismet-dice[site]'",
            public=_PUBLIC,
        )


@lru_cache(maxsize=256)
def _placeholders(sql: str) -> str:
    """A statement written with ``?`` as psycopg takes it (``%s``; a literal ``%`` doubled).

    >>> _placeholders("SELECT 1 FROM t WHERE a = ? AND b LIKE '%x'")
    "SELECT 1 FROM t WHERE a = %s AND b LIKE '%%x'"
    """
    return sql.replace("%", "%%").replace("?", "%s")


class _PostgresConnection(Connection):
    dialect = "postgresql"

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        if not parameters:  # no parameters: psycopg sends the text as it is, % and all
            return self.raw.execute(sql.encode())
        return self.raw.execute(_placeholders(sql).encode(), parameters)

    def has_table(self, name: str) -> bool:
        row = self.raw.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()
        return bool(row and row[0])

    def lock_table(self, table: str) -> None:
        # EXCLUSIVE: other writers (and other lockers) wait until this transaction ends; plain
        # reads of the list go on.
        self.raw.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE".encode())

    def notify_saved(self, game_id: int, version: int) -> None:
        self.raw.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{version}"))


def _with_notify(sql: str) -> str:
    """A saved game's ``UPDATE ... RETURNING ..., id, version`` followed by its NOTIFY, in one statement."""
    notify = f"pg_notify('{CHANNEL}', saved.id || ':' || saved.version)"
    return f"WITH saved AS ({sql}) SELECT saved.*, {notify} FROM saved"


@lru_cache(maxsize=64)
def _numbered(sql: str) -> bytes:
    """A statement written with ``?`` as the server prepares it (``$1``, ``$2``...).

    >>> _numbered("UPDATE t SET a = ? WHERE id = ?")
    b'UPDATE t SET a = $1 WHERE id = $2'
    """
    parts = sql.split("?")
    numbered = "".join(f"{part}${number}" for number, part in enumerate(parts[:-1], 1))
    return (numbered + parts[-1]).encode()


_INTEGERS = frozenset({20, 21, 23})  # the type oids of int8, int2 and int4
_TEXTS = frozenset({25, 1043})  # text and varchar
_VOID = 2278  # what pg_notify returns


def _text(value: object) -> bytes | None:
    """A parameter in the server's text format: only what a saved game's row holds."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value).encode()
    raise TypeError(f"a saved game's update takes text, whole numbers and NULL, not {type(value).__name__}")


class _Prepared:
    """Statements prepared once per connection and run straight through libpq: the saved game's
    update and the reads of one row by its key.

    They are what a server runs at every action of every game; psycopg's cursor around them
    (adapting, preparing, the result's loaders) cost as much processor time as the round trip
    itself. A row comes back as psycopg would give it: whole numbers as ``int``, text as ``str``.
    """

    def __init__(self) -> None:
        self._names: weakref.WeakKeyDictionary[psycopg.Connection[Any], dict[bytes, bytes]]
        self._names = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def update(
        self, raw: psycopg.Connection[Any], sql: str, parameters: Sequence[Any]
    ) -> tuple[Any, ...] | None:
        """The row an ``UPDATE ... RETURNING`` of one saved game returns, its NOTIFY sent with it."""
        row = self.row(raw, _with_notify(sql), parameters)
        return None if row is None else row[:-1]  # the last column is the NOTIFY's (void)

    def row(
        self, raw: psycopg.Connection[Any], sql: str, parameters: Sequence[Any]
    ) -> tuple[Any, ...] | None:
        """The first row of the statement ``sql`` (``?`` for each parameter), or ``None``."""
        statement = _numbered(sql)
        # NULL is a None among the values (libpq's null pointer), which the stubs leave out.
        values: list[Any] = [_text(value) for value in parameters]
        with raw.lock:
            result = raw.pgconn.exec_prepared(self._name(raw, statement), values)
            if _sqlstate(result) == _NO_SUCH_STATEMENT:
                # The server no longer has it (a DISCARD ALL by a proxy in between, say): nothing
                # ran, so it is prepared again and run once more.
                with self._lock:
                    self._names.pop(raw, None)
                result = raw.pgconn.exec_prepared(self._name(raw, statement), values)
            if result.status != psycopg.pq.ExecStatus.TUPLES_OK:
                raise _failure(raw, result)
        if result.ntuples == 0:
            return None
        return tuple(_value(result, column) for column in range(result.nfields))

    def _name(self, raw: psycopg.Connection[Any], statement: bytes) -> bytes:
        with self._lock:
            names = self._names.setdefault(raw, {})
            name = names.get(statement)
        if name is None:
            name = f"kismet_{len(names)}".encode()
            result = raw.pgconn.prepare(name, statement)
            if result.status != psycopg.pq.ExecStatus.COMMAND_OK:
                raise _failure(raw, result)
            with self._lock:
                names[statement] = name
        return name


def _value(result: psycopg.pq.abc.PGresult, column: int) -> object:
    value = result.get_value(0, column)
    if value is None:
        return None
    kind = result.ftype(column)
    if kind in _INTEGERS:
        return int(value)
    if kind in _TEXTS:
        return bytes(value).decode()
    if kind == _VOID:
        return None
    raise TypeError(f"a column of type oid {kind} is read as neither a whole number nor text")


_NO_SUCH_STATEMENT = b"26000"  # invalid_sql_statement_name


def _sqlstate(result: psycopg.pq.abc.PGresult) -> bytes | None:
    return result.error_field(psycopg.pq.DiagnosticField.SQLSTATE)


def _failure(raw: psycopg.Connection[Any], result: psycopg.pq.abc.PGresult) -> psycopg.Error:
    """The error of a statement run through libpq, as psycopg raises it for its own."""
    if raw.pgconn.status == psycopg.pq.ConnStatus.BAD:
        return psycopg.OperationalError(raw.pgconn.get_error_message() or "the connection was lost")
    return psycopg.errors.error_from_result(result, encoding=raw.info.encoding)


class PostgresDatabase(Database):
    """A PostgreSQL database at :data:`SCHEMA_VERSION`, shared by every thread of the process.

    Open it with :meth:`open`; several processes (and machines) may use one database at once.
    """

    dialect = "postgresql"
    shared = True

    def __init__(self, url: str, pool: psycopg_pool.ConnectionPool[Any], idle: _IdleCheck) -> None:
        self._url = url
        self._pool = pool
        self._idle = idle
        self.where = describe(url)
        self.path = None
        self._secret = _password(url)
        self._prepared = _Prepared()

    @classmethod
    def open(cls, url: str) -> PostgresDatabase:
        """Connect to the database at ``url``, bringing its schema up to date.

        Raises :class:`StorageError` when it cannot be reached or used.
        """
        _require_psycopg()
        where = describe(url)
        secret = _password(url)
        idle = _IdleCheck()
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS) as raw:
                _migrate(raw, where)
            pool: psycopg_pool.ConnectionPool[Any] = psycopg_pool.ConnectionPool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                kwargs={"autocommit": True, "connect_timeout": CONNECT_SECONDS},
                # No ``reset``: the pool would hand every returned connection to its worker
                # thread, a thread switch per statement; _connection notes the return itself.
                # No ``check`` either: the pool pauses a second after each connection that fails
                # it (two seconds after the next, and so on), so after a restart a call that met
                # two dropped ones ran out of its wait. _connection checks them itself.
                timeout=POOL_WAIT_SECONDS,
                name="kismet",
                open=True,
            )
        except psycopg.Error as error:
            raise _storage_error(where, secret, error) from None
        return cls(url, pool, idle)

    def close(self) -> None:
        self._pool.close()

    def read(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (one statement: a consistent snapshot)."""
        with self._reporting():
            for attempt in range(2):
                with self._connection() as raw:
                    try:
                        return _PostgresConnection(raw).execute(sql, parameters).fetchall()
                    except psycopg.OperationalError:
                        if attempt or not raw.broken:
                            raise
                # Dropped by the server since its last use (a restart drops them all): the pool
                # replaces it and checks the others, and a read is safely asked again. (A write
                # is not: it may have been kept.)
                self._pool.check()
            raise AssertionError("unreachable")  # pragma: no cover

    def read_row(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The row of a query by a key, prepared once per connection (see :class:`_Prepared`)."""
        with self._reporting():
            for attempt in range(2):
                with self._connection() as raw:
                    try:
                        return self._prepared.row(raw, sql, parameters)
                    except psycopg.OperationalError:
                        if attempt or not raw.broken:
                            raise
                self._pool.check()  # as read() does: a read is safely asked again
            raise AssertionError("unreachable")  # pragma: no cover

    def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in one transaction and commit it; if ``work`` raises, nothing is kept.

        A transaction the server aborted to break a deadlock is run again, up to :data:`RETRIES` times.
        """
        with self._reporting():
            for attempt in range(RETRIES):
                try:
                    with self._connection() as raw, raw.transaction():
                        return work(_PostgresConnection(raw))
                except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
                    if attempt == RETRIES - 1:
                        raise
                    time.sleep(0.01 * (attempt + 1))
            raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, noted as used when it goes back (see :class:`_IdleCheck`)."""
        raw = self._checked_connection()
        try:
            with raw:  # as the pool's own connection() does: rolled back on an error, never closed
                yield raw
        finally:
            self._idle.returned(raw)
            self._pool.putconn(raw)

    def _checked_connection(self) -> psycopg.Connection[Any]:
        """A connection of the pool within :data:`POOL_WAIT_SECONDS`, checked first if it sat idle.

        So is one the server has sent something to since its last use: what it sends a connection
        no query waits on is mostly its last word, as it drops the connection (a restart, a
        terminated backend). Found that way, a write after a restart is made on a new connection
        rather than refused as the store out of reach. One that fails its check goes back (the
        pool replaces it), and so, checked now, do the others the server dropped with it: then
        the call waits for a new one, and no longer."""
        deadline = time.monotonic() + POOL_WAIT_SECONDS
        while True:
            # A wait of nothing left is one the pool refuses at once (PoolTimeout).
            raw: psycopg.Connection[Any] = self._pool.getconn(timeout=deadline - time.monotonic())
            if not (self._idle.needs_check(raw) or _has_input(raw)):
                return raw
            try:
                psycopg_pool.ConnectionPool.check_connection(raw)
            except psycopg.Error:
                self._pool.putconn(raw)  # broken: discarded, and a new one made
                self._pool.check()
                continue
            except BaseException:  # not lost to the pool, whatever stopped the check
                self._pool.putconn(raw)
                raise
            return raw

    def update_saved(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The UPDATE and its NOTIFY as one statement on an autocommit connection: one round trip,
        where a transaction around it would add a BEGIN and a COMMIT."""
        with self._reporting(), self._connection() as raw:
            return self._prepared.update(raw, sql, parameters)

    def listen(
        self, callback: Callable[[int, int], None], listening: Callable[[], None] | None = None
    ) -> Listener:
        """Call ``callback(game_id, version)`` for every saved game's write any process commits.

        A dedicated connection runs ``LISTEN kismet_games`` in a thread of its own; stop it with
        :meth:`Listener.stop`. A lost connection is made again; what was sent meanwhile is not
        told again, so ``listening()`` is called each time listening (re)starts: a caller that
        must not miss a version checks the stored ones then.
        """
        return _PostgresListener(self._url, self.where, self._secret, callback, listening)

    def claims(self) -> Claims:
        """Claims held as session advisory locks on a connection of their own: when the process
        ends, killed or not, its connection closes and PostgreSQL drops its locks."""
        return _PostgresClaims(self._url, self.where, self._secret)

    @contextmanager
    def _reporting(self) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as error:
            raise _storage_error(self.where, self._secret, error) from None
        except psycopg_pool.PoolTimeout:
            raise StorageError(
                f"{self.where} had no free connection for {POOL_WAIT_SECONDS} seconds",
                public="the game store is busy; try again in a moment",
            ) from None
        except psycopg_pool.PoolClosed:
            raise StorageError(f"{self.where} is closed", public=_PUBLIC) from None


def _has_input(raw: psycopg.Connection[Any]) -> bool:
    """Whether the server's side of ``raw`` has anything to read, or has closed: one system call, no
    round trip (measured: 0.7 microseconds, where a game's version read took 74 and a save 690)."""
    try:
        socket = raw.fileno()
    except psycopg.Error:  # closed already: the check that follows finds it broken
        return True
    waiting = select.poll()
    waiting.register(socket, select.POLLIN)
    return bool(waiting.poll(0))


class _IdleCheck:
    """Which connections the pool hands out are checked first: those unused for :data:`IDLE_CHECK_SECONDS`."""

    def __init__(self) -> None:
        # When each connection last came back; one the pool closes is forgotten with it.
        self._returned: weakref.WeakKeyDictionary[psycopg.Connection[Any], float]
        self._returned = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def returned(self, raw: psycopg.Connection[Any]) -> None:
        """Called as each connection goes back to the pool."""
        with self._lock:
            self._returned[raw] = time.monotonic()

    def needs_check(self, raw: psycopg.Connection[Any]) -> bool:
        """Whether ``raw`` was never handed out, or came back more than :data:`IDLE_CHECK_SECONDS` ago."""
        with self._lock:
            returned = self._returned.get(raw)
        return returned is None or time.monotonic() - returned > IDLE_CHECK_SECONDS


def _migrate(raw: psycopg.Connection[Any], where: str) -> None:
    connection = _PostgresConnection(raw)
    version = stored_version(connection)  # most starts: already current, no lock needed
    if version > SCHEMA_VERSION:
        raise newer_schema(where, version)
    if version == SCHEMA_VERSION:
        return
    # A second server starting now waits here, then finds the schema current and changes nothing.
    # The lock is taken before the transaction begins: a transaction that began before the wait
    # could still see the catalog as it was (no table yet) and try to create it again.
    raw.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        with raw.transaction():
            upgrade(connection, where)
    finally:
        raw.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))


def _storage_error(where: str, secret: str | None, error: Exception) -> StorageError:
    detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if secret:
        detail = detail.replace(secret, "***")
    # A full disk first: psycopg counts it among the operational errors, with a lost connection.
    if isinstance(error, psycopg.errors.DiskFull):
        return StorageError(f"cannot use {where}: {detail}", public="the disk holding the game store is full")
    if isinstance(error, psycopg.OperationalError) and not isinstance(error, psycopg.errors.QueryCanceled):
        return StorageError(f"cannot reach {where}: {detail}", public="the game store cannot be reached")
    if isinstance(error, psycopg.errors.ReadOnlySqlTransaction):
        return StorageError(f"{where} is read-only: {detail}", public="the game store is read-only")
    return StorageError(f"cannot use {where}: {detail}", public=_PUBLIC)


class _PostgresListener(Listener):
    def __init__(
        self,
        url: str,
        where: str,
        secret: str | None,
        callback: Callable[[int, int], None],
        listening: Callable[[], None] | None = None,
    ) -> None:
        self._url = url
        self._where = where
        self._secret = secret
        self._callback = callback
        self._on_listening = listening
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kismet-listen", daemon=True)
        self._thread.start()

    def wait_until_listening(self, timeout: float) -> bool:
        return self._listening.wait(timeout)

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(LISTEN_STOP_SECONDS)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                with (
                    psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_SECONDS) as raw,
                    selectors.DefaultSelector() as selector,
                ):
                    raw.execute(f"LISTEN {CHANNEL}".encode())
                    self._listening.set()
                    if self._on_listening is not None:
                        try:
                            self._on_listening()
                        except Exception:
                            log.exception("the call on listening again failed")
                    # Straight through libpq: psycopg's generator of notifications cost more processor
                    # time per notification than the whole of telling a page about it.
                    pgconn = raw.pgconn
                    selector.register(pgconn.socket, selectors.EVENT_READ)
                    self._take(pgconn)  # any that came with the LISTEN's answer
                    while not self._stopping.is_set():
                        # Wakes at the first notification (or every quarter second, to see whether
                        # it is asked to stop), then lets more gather for a moment and takes them
                        # together: under load a wake of this thread (and the switch to it from the
                        # server's) per saved action cost more than the work of the action's answer.
                        if not selector.select(timeout=0.25):
                            continue
                        if self._stopping.wait(GATHER_SECONDS):
                            break
                        self._take(pgconn)
            except psycopg.Error as error:
                self._listening.clear()
                log.warning("%s", _storage_error(self._where, self._secret, error))
                self._stopping.wait(1.0)

    def _take(self, pgconn: psycopg.pq.abc.PGconn) -> None:
        """Every notification the server has sent so far (never waits for one)."""
        pgconn.consume_input()  # a lost connection raises OperationalError here
        while (note := pgconn.notifies()) is not None:
            self._tell(bytes(note.extra).decode())

    def _tell(self, payload: str) -> None:
        try:
            game, version = (int(part) for part in payload.split(":"))
        except ValueError:
            log.warning("ignored a notification that names no game and version: %r", payload[:40])
            return
        try:
            self._callback(game, version)
        except Exception:  # one failing callback must not end the listening for every game
            log.exception("the callback for game %s at version %s failed", game, version)


class _PostgresClaims(Claims):
    """Session advisory locks ``(CLAIM_LOCKS, game id)`` on one connection, used by one thread at a
    time. A connection that breaks has lost its locks: they are forgotten and taken again."""

    def __init__(self, url: str, where: str, secret: str | None) -> None:
        self._url = url
        self._where = where
        self._secret = secret
        self._raw: psycopg.Connection[Any] | None = None
        self._held: set[int] = set()
        self._lock = threading.Lock()

    def _connection(self) -> psycopg.Connection[Any]:
        if self._raw is None or self._raw.closed or self._raw.broken:
            self._held.clear()  # a closed connection holds no locks
            self._raw = psycopg.connect(self._url, autocommit=True, connect_timeout=CLAIM_CONNECT_SECONDS)
        return self._raw

    def claim(self, game_id: int) -> bool:
        with self._lock:
            if game_id in self._held and self._raw is not None and not self._raw.closed:
                return True
            try:
                row = (
                    self._connection()
                    .execute("SELECT pg_try_advisory_lock(%s, %s)", (CLAIM_LOCKS, game_id))
                    .fetchone()
                )
            except psycopg.Error as error:
                raise _storage_error(self._where, self._secret, error) from None
            if row and row[0]:
                self._held.add(game_id)
                return True
            return False

    def release(self, game_id: int) -> None:
        with self._lock:
            if game_id not in self._held or self._raw is None:
                return
            self._held.discard(game_id)
            try:
                self._raw.execute("SELECT pg_advisory_unlock(%s, %s)", (CLAIM_LOCKS, game_id))
            except psycopg.Error as error:
                # The connection is gone, and its locks with it.
                log.warning("%s", _storage_error(self._where, self._secret, error))

    def close(self) -> None:
        with self._lock:
            self._held.clear()
            if self._raw is not None:
                self._raw.close()  # closing the session drops every lock it held
                self._raw = None
