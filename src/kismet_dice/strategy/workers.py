"""Worker processes for the solver and the simulator, safe to start from any thread.

The interfaces solve from a background thread of a process that runs other threads. Forking
such a process copies the locks other threads hold at that instant (a child may then wait on
one for ever) and its signal handlers (a child may then ignore SIGTERM). So workers come from
a fork server, a single-threaded process multiprocessing starts once with a fresh interpreter
(Linux), or else are spawned afresh; what they need travels with them to an initializer.

Each worker has a pipe of its own: no lock is shared between processes, so a worker that dies
(killed, out of memory) leaves no lock held that the parent or another worker would wait on,
as it can with ``multiprocessing.Pool``. The parent waits on the pipes and on the workers'
exit sentinels together, and for each part of a message, with a stall limit, so a dead or stuck
worker becomes :class:`SolveFailed` rather than a wait for ever. Workers end with their parent,
however it ends (a pipe that only the parent holds open), leave Ctrl+C to it, and are always
stopped when the work ends, fails or is interrupted.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing as mp
import os
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from types import TracebackType
from typing import Any, Generic, TypeVar

from kismet_dice.strategy import compiled

STALL_SECONDS = 120.0
"""How long the parent waits for any task to finish before it gives up on the workers: far more
than the longest task takes (well under a second for the Kismet solve)."""

STOP_SECONDS = 5.0
"""How long a stopped worker gets to exit on SIGTERM before it is killed."""

PRELOAD = ("kismet_dice.strategy.solver", "kismet_dice.strategy.simulate")
"""Modules the fork server imports once, so each worker starts without importing NumPy again."""

_PR_SET_PDEATHSIG = 1

_COMPILING = (None, "compiling")
"""What a worker sends when it begins compiling the strategy, before its answer."""
_TOLD: Any = object()

T = TypeVar("T")
R = TypeVar("R")


class SolveFailed(RuntimeError):
    """The work could not finish: a worker process died, failed or made no progress.

    The message is one line for a person: what could not be done and why, without a traceback.
    """


def context() -> ForkServerContext | SpawnContext:
    """The fork server where there is one (Linux), else fresh spawned interpreters; never a fork
    of the calling process."""
    if "forkserver" in mp.get_all_start_methods():
        forkserver: ForkServerContext = mp.get_context("forkserver")
        # Only takes effect before the fork server starts; "__main__" is multiprocessing's default.
        forkserver.set_forkserver_preload(["__main__", *PRELOAD])
        return forkserver
    spawn: SpawnContext = mp.get_context("spawn")
    return spawn


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (which the fork server needs first) with the
    process's own standard error.

    It is started keeping ``sys.stderr.fileno()`` open for it, and a full-screen terminal app
    replaces ``sys.stderr`` with an object whose ``fileno()`` is -1: the start then fails with
    "bad value(s) in fds_to_keep", and the terminal game's first solve with it. For that start,
    and only while ``sys.stderr`` is such an object, the real one stands in.
    """
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        resource_tracker.ensure_running()
        return
    with _STDERR_SWAP:
        captured, sys.stderr = sys.stderr, sys.__stderr__
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = captured


_STDERR_SWAP = threading.Lock()


def _end_with_parent(lifeline: Connection) -> None:
    """In a worker: default SIGTERM, no Ctrl+C (the parent handles it and stops the workers), and
    a SIGTERM as soon as the parent ends, however it ends, even in the middle of a task.

    The parent holds the other end of ``lifeline`` and never writes to it: the read ends when the
    parent closes it or dies. (A worker's parent process is the fork server, which lives as long as
    any worker does; the parent-death signal asked for on Linux only covers the fork server.)
    """
    parent = os.getppid()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the fork server ended before the signal was asked for
            os._exit(1)

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


def _serve(
    connection: Connection,
    lifeline: Connection,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
    function: Callable[[Any], Any],
) -> None:
    """A worker's life: set up, then answer tasks one at a time until told to stop or the parent goes.

    When the worker begins compiling the strategy (the first run on a machine), it says so before
    its answer, so that the parent's interface can tell the person why the work is slow."""
    _end_with_parent(lifeline)
    compiled.no_ahead()  # the parent starts its own, if any
    with compiled.telling_compiles(lambda: connection.send(_COMPILING)):
        try:
            initializer(*initargs)
        except Exception as error:
            connection.send((False, type(error).__name__))
            return
        connection.send((True, None))
        _answer(connection, function)


def _answer(connection: Connection, function: Callable[[Any], Any]) -> None:
    """Answer tasks one at a time until told to stop or the parent goes."""
    while True:
        try:
            task = connection.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            answer = (True, function(task))
        except Exception as error:
            answer = (False, type(error).__name__)
        connection.send(answer)


def receive(connection: Connection, stall: float) -> Any:
    """The next object sent on ``connection``, waiting at most ``stall`` seconds for each part of it:
    :class:`TimeoutError` if none comes in time, :class:`EOFError` if the sender ends within it.

    ``Connection.recv`` reads the rest of a message once its first bytes are there, and would wait
    for ever on a worker stopped half-way through sending: multiprocessing writes a message longer
    than 16 KB (250 games of a simulation are 30 KB) as its length, then its bytes, and a pipe takes
    64 KB at a time. This reads multiprocessing's framing itself (a signed 4-byte big-endian length,
    -1 followed by an 8-byte one for 2 GB and over, then the pickle) with the wait before each read.
    Windows' pipes cannot be waited on that way; there the plain ``recv`` is used.
    """
    if sys.platform == "win32":
        return connection.recv()
    (size,) = struct.unpack("!i", _read(connection, 4, stall))
    if size == -1:
        (size,) = struct.unpack("!Q", _read(connection, 8, stall))
    return ForkingPickler.loads(_read(connection, size, stall))


def _read(connection: Connection, size: int, stall: float) -> bytearray:
    """Exactly ``size`` bytes from ``connection``, each read after at most ``stall`` seconds' wait."""
    buffer = bytearray(size)
    got = 0
    with memoryview(buffer) as view:
        while got < size:
            if not wait([connection], timeout=stall):
                raise TimeoutError(f"nothing came for {stall:g} seconds")
            count = os.readv(connection.fileno(), [view[got:]])
            if count == 0:
                raise EOFError("the sender ended in the middle of a message")
            got += count
    return buffer


class Workers(Generic[T, R]):
    """``processes`` workers applying ``function`` to tasks, each set up by ``initializer(*initargs)``.

    Use as a context manager: leaving it stops every worker. ``function`` and ``initializer`` must
    be module-level functions and ``initargs`` picklable (shared arrays pass as shared memory).
    ``what`` begins the message of :class:`SolveFailed`.
    """

    def __init__(
        self,
        processes: int,
        function: Callable[[T], R],
        initializer: Callable[..., None],
        initargs: tuple[Any, ...],
        *,
        what: str,
        stall: float = STALL_SECONDS,
    ) -> None:
        self._function = function
        self._initializer = initializer
        self._initargs = initargs
        self._size = processes
        self._what = what
        self._stall = stall
        self._processes: list[BaseProcess] = []
        self._connections: list[Connection] = []
        self._lifelines: list[Connection] = []

    def __enter__(self) -> Workers[T, R]:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _start(self) -> None:
        context_ = context()
        _start_resource_tracker()
        for _ in range(self._size):
            mine, theirs = context_.Pipe()
            lifeline, held = context_.Pipe(duplex=False)
            process = context_.Process(
                target=_serve,
                args=(theirs, lifeline, self._initializer, self._initargs, self._function),
                daemon=True,  # also stopped by multiprocessing when the parent exits normally
            )
            self._connections.append(mine)
            self._lifelines.append(held)
            try:
                process.start()
            except OSError as error:
                raise SolveFailed(
                    f"{self._what}: worker processes could not be started ({error.strerror or error})"
                ) from error
            finally:
                theirs.close()
                lifeline.close()
            self._processes.append(process)
        # Each worker says once it is set up, or why it could not be.
        for connection in self._connections:
            while True:
                self._wait([connection])
                if self._receive(connection) is not _TOLD:
                    break

    def _wait(self, busy: list[Connection]) -> list[Connection]:
        """The busy connections with an answer, waiting at most the stall limit; a worker that
        ended or no answer in time is a failure."""
        sentinels = [process.sentinel for process in self._processes]
        ready = wait([*busy, *sentinels], timeout=self._stall)
        answered = [connection for connection in busy if connection in ready]
        if answered:
            return answered
        if ready:
            raise SolveFailed(f"{self._what}: a worker process ended unexpectedly")
        raise self._stalled()

    def _stalled(self) -> SolveFailed:
        return SolveFailed(f"{self._what}: the worker processes made no progress for {self._stall:g} seconds")

    def _receive(self, connection: Connection) -> Any:
        """A worker's answer; :data:`_TOLD` for its notice that it compiles (its answer comes later),
        told on here."""
        try:
            ok, answer = receive(connection, self._stall)
        except TimeoutError as error:  # before OSError, of which it is one
            raise self._stalled() from error
        except (EOFError, OSError) as error:
            raise SolveFailed(f"{self._what}: a worker process ended unexpectedly") from error
        if ok is None:
            compiled.compiling_elsewhere()
            return _TOLD
        if not ok:
            raise SolveFailed(f"{self._what}: a worker process failed ({answer})")
        return answer

    def map(self, tasks: Iterable[T], *, ordered: bool = True) -> Iterator[R]:
        """The results of ``tasks``, in their order (else as they come), one task per idle worker."""
        pending = iter(enumerate(tasks))
        idle = list(self._connections)
        busy: dict[Connection, int] = {}
        early: dict[int, R] = {}
        following = 0
        while True:
            while idle:
                item = next(pending, None)
                if item is None:
                    break
                connection = idle.pop()
                try:
                    connection.send(item[1])
                except OSError as error:  # the worker at the other end has gone
                    raise SolveFailed(f"{self._what}: a worker process ended unexpectedly") from error
                busy[connection] = item[0]
            if not busy:
                return
            for connection in self._wait(list(busy)):
                result: R = self._receive(connection)
                if result is _TOLD:
                    continue  # still at its task
                index = busy.pop(connection)
                idle.append(connection)
                if not ordered:
                    yield result
                    continue
                early[index] = result
                while following in early:
                    yield early.pop(following)
                    following += 1

    def close(self) -> None:
        """Stop every worker (SIGTERM, then SIGKILL if need be) and wait for it to end."""
        for process in self._processes:
            if process.exitcode is None:
                process.terminate()
                if process.pid is not None and hasattr(signal, "SIGCONT"):
                    # A stopped worker acts on SIGTERM only once it runs again.
                    with contextlib.suppress(OSError):
                        os.kill(process.pid, signal.SIGCONT)
        deadline = time.monotonic() + STOP_SECONDS
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()
            with contextlib.suppress(ValueError):
                process.close()
        for connection in [*self._connections, *self._lifelines]:
            connection.close()
        self._processes.clear()
        self._connections.clear()
        self._lifelines.clear()
