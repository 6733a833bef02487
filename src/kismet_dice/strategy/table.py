"""The solved table of a rule set, stored in the user's cache and checked when loaded.

The file is one JSON header line (format, version, the rule set's fingerprint, the shape and
a SHA-256 of the data) followed by the values as little-endian float64. It is written to a
temporary file and renamed into place, so a reader never sees half a table; a file that is
damaged, truncated or made for other rules is recomputed, never trusted.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import platformdirs

from kismet_dice.strategy.dice_space import FloatArray
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
    """Write atomically: a temporary file in the same directory, then a rename."""
    data = np.ascontiguousarray(table.values, dtype="<f8").tobytes()
    header = {
        "format": FORMAT,
        "version": VERSION,
        "rules": table.rules.fingerprint,
        "shape": list(table.values.shape),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(json.dumps(header).encode() + b"\n")
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load(rules: RuleSet, path: Path) -> StrategyTable | None:
    """The table stored at ``path`` for ``rules``, or ``None`` if it is missing, damaged or foreign."""
    try:
        content = path.read_bytes()
    except OSError:
        return None
    line_end = content.find(b"\n")
    if line_end < 0:
        return None
    try:
        header = json.loads(content[:line_end])
    except ValueError:
        return None
    shape = (1 << len(rules.boxes), rules.cap + 1)
    data = content[line_end + 1 :]
    if (
        not isinstance(header, dict)
        or header.get("format") != FORMAT
        or header.get("version") != VERSION
        or header.get("rules") != rules.fingerprint
        or header.get("shape") != list(shape)
        or len(data) != shape[0] * shape[1] * 8
        or header.get("sha256") != hashlib.sha256(data).hexdigest()
    ):
        return None
    values = np.frombuffer(data, dtype="<f8").astype(np.float64).reshape(shape)
    return StrategyTable(rules, values)


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
    with _solving(path):
        if not force:
            stored = load(rules, path)  # solved by another process while this one waited
            if stored is not None:
                return stored
        table = StrategyTable(rules, solve(rules, progress))
        with contextlib.suppress(OSError):
            save(table, path)
    return table


@contextlib.contextmanager
def _solving(path: Path) -> Iterator[None]:
    """Hold the lock file beside ``path`` (released when the process ends, even by a kill).

    Where no lock file can be made (a read-only cache), each process solves on its own.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_name(path.name + ".lock"), "ab")  # noqa: SIM115 - closed below
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing the file drops the lock
