"""The futures of every position, stored once per machine beside the strategy table.

The target player (:mod:`kismet_dice.strategy.target`) reads, at every decision, the chance of
reaching its total from each position a turn can lead to: the survival functions of the points
still to come from every turn-start position (:func:`~kismet_dice.strategy.distribution.future_pass`
with every layer kept), within a stated error (:data:`~kismet_dice.strategy.distribution.ERROR_BOUND`).
Working them out takes seconds; they are worked out once, stored, and afterwards read in an instant.

The store is a directory beside the strategy table: ``row_of.npy`` (a position's row in its
layer), for every layer kept (:func:`~kismet_dice.strategy.distribution.stored_layer`: every other
one) three files ``layer-KK-values.npy``, ``-start.npy`` and ``-low.npy`` (the trimmed survival
functions in 1/65535, where each row begins, and the points it begins at) and ``header.json``
(format and version, the rule set's fingerprint, and every file's shape, type and size). The
layers left out are worked out one turn on when asked, so the store is a quarter of a full one.
The arrays are memory-mapped when loaded, so loading costs nothing and a process holds in memory
only the pages it reads; several processes share them.

A store is written in a temporary directory and renamed into place, so a killed computation
leaves no half store under the name a reader looks at; one whose header is missing, or whose
files do not match it (another version, other rules, another size), reads as absent, never as a
wrong answer. The files are not hashed on load (reading a quarter of a gigabyte would undo the instant load):
their shapes, types and sizes are checked, the rest is trusted to the rename.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from kismet_dice.strategy.distribution import Futures, Rows, future_pass, stored_layer
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import StrategyTable, computing_lock, table_dir

FORMAT = "kismet-dice futures of every position"
VERSION = 2
HEADER = "header.json"
ROWS = "row_of.npy"


def futures_path(rules: RuleSet, directory: Path | None = None) -> Path:
    """The store's directory: beside the strategy table, named after the same rules."""
    return (directory or table_dir()) / f"{rules.name}-{rules.fingerprint[:16]}.futures"


PARTS: tuple[tuple[str, type[np.generic]], ...] = (
    ("values", np.uint16),
    ("start", np.intp),
    ("low", np.intp),
)
"""The arrays of a stored layer (:class:`~kismet_dice.strategy.distribution.Rows`) and their types."""


def _layer_names(filled: int) -> list[str]:
    return [f"layer-{filled:02d}-{part}.npy" for part, _ in PARTS]


def _stored_names(rules: RuleSet) -> set[str]:
    return {
        name
        for filled in range(len(rules.boxes) + 1)
        if stored_layer(rules, filled)
        for name in _layer_names(filled)
    }


def load_futures(table: StrategyTable, directory: Path | None = None) -> Futures | None:
    """The stored futures of ``table``'s rules, memory-mapped; ``None`` when there are none, or
    the store is damaged, half written or made for other rules (never a wrong answer)."""
    rules = table.rules
    path = futures_path(rules, directory)
    try:
        header = json.loads((path / HEADER).read_text())
    except (OSError, ValueError):
        return None
    boxes = len(rules.boxes)
    expected = {"format": FORMAT, "version": VERSION, "rules": rules.fingerprint, "boxes": boxes}
    if not isinstance(header, dict) or any(header.get(key) != value for key, value in expected.items()):
        return None
    files = header.get("files")
    if not isinstance(files, dict):
        return None
    row_of = _mapped(path, ROWS, files, np.int32)
    if row_of is None or row_of.shape != (1 << boxes, rules.cap + 1):
        return None
    futures = Futures(rules, row_of, survival=True, table=table)
    for filled in range(boxes + 1):
        if not stored_layer(rules, filled):
            continue
        parts = [
            _mapped(path, name, files, dtype)
            for name, (_, dtype) in zip(_layer_names(filled), PARTS, strict=True)
        ]
        values, start, low = parts
        if values is None or start is None or low is None or values.ndim != 1:
            return None
        if len(start) != len(low) + 1 or (len(start) and int(start[-1]) != len(values)):
            return None
        futures.layers[filled] = Rows(values, start, low, survival=True)
    return futures


def _mapped(path: Path, name: str, files: dict[str, Any], dtype: type[np.generic]) -> Any:
    """The array in ``path / name`` memory-mapped, if it is what the header says; else ``None``."""
    said = files.get(name)
    place = path / name
    try:
        if not isinstance(said, dict) or place.stat().st_size != said.get("bytes"):
            return None
        array = np.load(place, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    if array.dtype != np.dtype(dtype) or list(array.shape) != said.get("shape"):
        return None
    return array


class _StoreWriter:
    """A store written file by file in a temporary directory beside ``path``, renamed into place by
    :meth:`finish`; :meth:`abort` removes what was written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.temporary = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
        self.files: dict[str, object] = {}

    def write(self, name: str, array: np.ndarray[Any, Any]) -> None:
        place = self.temporary / name
        with open(place, "wb") as handle:
            np.save(handle, array, allow_pickle=False)
            handle.flush()
            os.fsync(handle.fileno())
        self.files[name] = {"shape": list(array.shape), "bytes": place.stat().st_size}

    def write_layer(self, filled: int, rows: Rows) -> None:
        for name, array, (_, dtype) in zip(
            _layer_names(filled), (rows.values, rows.start, rows.low), PARTS, strict=True
        ):
            self.write(name, np.asarray(array, dtype=dtype))

    def finish(self, rules: RuleSet) -> None:
        boxes = len(rules.boxes)
        missing = {ROWS, *_stored_names(rules)} - set(self.files)
        if missing:
            raise ValueError(f"the store lacks {', '.join(sorted(missing))}")
        header = {"format": FORMAT, "version": VERSION, "rules": rules.fingerprint, "boxes": boxes}
        # The header is written last: a directory without it is never read, whatever else it holds.
        with open(self.temporary / HEADER, "w") as handle:
            json.dump({**header, "files": self.files}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        _replace(self.temporary, self.path)

    def abort(self) -> None:
        shutil.rmtree(self.temporary, ignore_errors=True)


def save_futures(futures: Futures, path: Path) -> None:
    """Store every layer of ``futures`` at ``path`` (a directory), atomically: written beside it
    under a temporary name, then renamed into place (a store already there is replaced)."""
    if not futures.survival:
        raise ValueError("only the survival functions of every layer are stored")
    rules = futures.rules
    writer = _StoreWriter(path)
    try:
        writer.write(ROWS, np.asarray(futures.row_of, dtype=np.int32))
        for filled in range(len(rules.boxes) + 1):
            if stored_layer(rules, filled):
                writer.write_layer(filled, futures.layers[filled])
        writer.finish(rules)
    except BaseException:
        writer.abort()
        raise


def compute_and_store(
    table: StrategyTable, progress: Progress | None = None, directory: Path | None = None
) -> Futures:
    """The futures of every position worked out and stored (in ``directory``) layer by layer, each layer
    written as soon as it is final and then let go (so the pass holds two layers' distributions at a
    time, not all of them); returned as stored, memory-mapped. Raises :class:`OSError` if they
    cannot be stored (nothing is left under the store's name then)."""
    path = futures_path(table.rules, directory)
    writer = _StoreWriter(path)
    try:
        futures = future_pass(table, keep=None, progress=progress, sink=writer.write_layer)
        writer.write(ROWS, np.asarray(futures.row_of, dtype=np.int32))
        writer.finish(table.rules)
    except BaseException:
        writer.abort()
        raise
    stored = load_futures(table, directory)
    if stored is None:
        raise OSError(f"the futures stored at {path} do not load")
    return stored


def _replace(temporary: Path, path: Path) -> None:
    """Rename the directory ``temporary`` to ``path``; an old store there is moved aside first
    (a directory cannot be renamed over another that holds files) and then removed."""
    old: Path | None = None
    if path.exists():
        old = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".old"))
        os.replace(path, old / "store")
    os.replace(temporary, path)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def load_or_compute_futures(
    table: StrategyTable, progress: Progress | None = None, directory: Path | None = None
) -> Futures:
    """The stored futures of ``table`` if a sound store exists; else computed now (seconds for
    Kismet) and stored.

    Processes that need them at once compute them once: the first takes the lock beside the
    store, the others wait and then load what it stored. What was computed is returned
    memory-mapped from the store, each layer written as soon as it is final, so the layers worked
    out are never all held; where they cannot be stored (a read-only cache), they are worked out
    (again) and kept in memory.
    """
    path = futures_path(table.rules, directory)
    found = load_futures(table, directory)
    if found is not None:
        return found
    with computing_lock(path, progress) as working:
        found = load_futures(table, directory)  # computed by another process while this one waited
        if found is not None:
            return found
        try:
            return compute_and_store(table, working, directory)
        except OSError:
            pass
        # Where they cannot be stored (a read-only cache), worked out again and kept in memory.
        return future_pass(table, keep=None, progress=working)
