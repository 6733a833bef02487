"""The solved table of a rule set, stored in the user's cache and checked when loaded.

The file is one JSON header line (format, version, the rule set's fingerprint, the shape and
a SHA-256 of the data) followed by the values as little-endian float64. It is written to a
temporary file and renamed into place, so a reader never sees half a table; a file that is
damaged, truncated or made for other rules is recomputed, never trusted.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from kismet_dice.strategy import stored
from kismet_dice.strategy.dice_space import FloatArray
from kismet_dice.strategy.notices import Listeners
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.solver import Progress, solve

FORMAT = "kismet-dice strategy table"
VERSION = 1


@dataclass(frozen=True, eq=False)
class StrategyTable:
    """The optimal expected points still to come from every turn-start position of ``rules``.

    ``values[mask, total]``: ``mask`` has bit i set when box i is filled, ``total`` is the Basic
    total capped at ``rules.cap``; the bonus still to be earned is included.
    """

    rules: RuleSet
    values: FloatArray = field(repr=False)

    def __post_init__(self) -> None:
        self.values.flags.writeable = False

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Unpickled (in a simulation worker) the values come back writable: kept read-only there
        # too, so no worker changes them and the compiled loops meet one kind of array, compiled
        # once on a machine rather than once more for the workers.
        self.__dict__.update(state)
        self.values.flags.writeable = False

    @property
    def expected_score(self) -> float:
        """The optimal expected game total from an empty sheet."""
        return float(self.values[0, 0])


def table_dir() -> Path:
    """Where tables are kept: ``$KISMET_HOME/tables`` if set, else the user cache directory."""
    home = os.environ.get("KISMET_HOME")
    if home:
        return Path(home) / "tables"
    return platformdirs.user_cache_path("kismet-dice", appauthor=False)


def table_path(rules: RuleSet, directory: Path | None = None) -> Path:
    return (directory or table_dir()) / f"{rules.name}-{rules.fingerprint[:16]}.table"


def save(table: StrategyTable, path: Path) -> None:
    """Write atomically, in the checked format of :mod:`~kismet_dice.strategy.stored`."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "rules": table.rules.fingerprint,
        "shape": list(table.values.shape),
    }
    stored.write(path, header, table.values)


def load(rules: RuleSet, path: Path) -> StrategyTable | None:
    """The table stored at ``path`` for ``rules``, or ``None`` if it is missing, damaged or foreign."""
    shape = (1 << len(rules.boxes), rules.cap + 1)
    expected = {"format": FORMAT, "version": VERSION, "rules": rules.fingerprint, "shape": list(shape)}
    found = stored.read(path, expected)
    if found is None or len(found[1]) != shape[0] * shape[1]:
        return None
    return StrategyTable(rules, found[1].reshape(shape))


def load_or_solve(
    rules: RuleSet,
    *,
    directory: Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> StrategyTable:
    """The stored table for ``rules`` if a sound one exists (and not ``force``), else a fresh one, stored.

    A table that cannot be stored (a read-only cache, say) is still returned. Processes that need
    the table at once (the workers of one server) solve it once: the first takes a lock on a file
    beside the table, the others wait for it and then load what it stored.
    """
    path = table_path(rules, directory)
    if not force:
        stored = load(rules, path)
        if stored is not None:
            return stored
    with computing_lock(path, progress) as solving:
        if not force:
            stored = load(rules, path)  # solved by another process while this one waited
            if stored is not None:
                return stored
        table = StrategyTable(rules, solve(rules, solving))
        with contextlib.suppress(OSError):
            save(table, path)
    return table


_WAIT_POLL = 0.1
"""Seconds between a waiting process's looks at the lock and at the holder's progress."""
_RECORD = 32
"""Bytes of the holder's progress record at the start of the lock file: "done total", padded."""


@contextlib.contextmanager
def computing_lock(path: Path, progress: Progress | None = None) -> Iterator[Progress]:
    """Hold the lock file beside ``path`` (released when the process ends, even by a kill), so
    that processes needing the same stored result compute it once.

    What it yields is the progress to give the computation: it tells ``progress`` and writes the
    figures into the lock file, so that a process waiting here with a ``progress`` of its own is
    told them as they come, and its player sees the job go on rather than a still screen.
    Where no lock file can be made (a read-only cache), each process computes on its own.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Read and written (the progress record), made as open() would make it: the umask decides.
        descriptor = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield progress or _unheard
        return
    try:
        _acquire(descriptor, progress)
        # A record left by a holder that was killed is not this computation's.
        _clear(descriptor)

        def recording(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            with contextlib.suppress(OSError):
                os.pwrite(descriptor, f"{done} {total}".ljust(_RECORD).encode(), 0)

        try:
            yield recording
        finally:
            _clear(descriptor)
    finally:
        os.close(descriptor)  # closing the file drops the lock


_waits: Listeners[[bool]] = Listeners()


def telling_waits(tell: Callable[[bool], object]) -> AbstractContextManager[None]:
    """Within this, ``tell(True)`` is called (from the waiting thread) each time this process finds
    another one already computing what it needs, and waits for it: an interface says so, since the
    progress it then shows is the other process's. ``tell(False)`` when the wait is over: what the
    other stored is loaded then, or, if it stored nothing (killed, say), this process computes it
    and the progress is its own again."""
    return _waits.listening(tell)


def _acquire(descriptor: int, progress: Progress | None) -> None:
    """Take the lock, telling ``progress`` of the holder's figures while waiting for it."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        _waits.tell(True)
    try:
        _wait(descriptor, progress)
    finally:
        _waits.tell(False)


def _wait(descriptor: int, progress: Progress | None) -> None:
    """Wait for the lock another holds, telling ``progress`` of the holder's figures meanwhile."""
    if progress is None:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        return
    heard: tuple[int, int] | None = None
    while True:
        figures = _read_record(descriptor)
        if figures is not None and figures != heard:
            heard = figures
            progress(*figures)
        time.sleep(_WAIT_POLL)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass


def _read_record(descriptor: int) -> tuple[int, int] | None:
    """The holder's last "done total", or ``None`` if it has written none (or half of one)."""
    try:
        words = os.pread(descriptor, _RECORD, 0).split()
        done, total = (int(word) for word in words)
    except (OSError, ValueError):
        return None
    return (done, total) if 0 <= done <= total else None


def _clear(descriptor: int) -> None:
    with contextlib.suppress(OSError):
        os.ftruncate(descriptor, 0)


def _unheard(done: int, total: int) -> None:
    """The progress of a job nobody watches."""
