"""The futures of every position, stored once per machine beside the strategy table.

The target player (:mod:`kismet_dice.strategy.target`) reads, at every decision, the chance of
reaching its total from each position a turn can lead to: the survival functions of the points
still to come from every turn-start position (:func:`~kismet_dice.strategy.distribution.future_pass`
with every layer kept). Working them out takes minutes and about 1.5 GB; so they are worked out
once, stored, and afterwards read in an instant.

The store is a directory beside the strategy table: ``row_of.npy`` (a position's row in its
layer), one ``layer-KK.npy`` per number of boxes filled (float32 survival functions, one row per
position) and ``header.json`` (format and version, the rule set's fingerprint, and every file's
shape, type and size). The arrays are memory-mapped when loaded, so loading costs nothing and a
process holds in memory only the pages it reads; several processes share them.

A store is written in a temporary directory and renamed into place, so a killed computation
leaves no half store under the name a reader looks at; one whose header is missing, or whose
files do not match it (another version, other rules, another size), reads as absent, never as a
wrong answer. The files are not hashed on load (reading 1.5 GB would undo the instant load):
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

from kismet_dice.strategy.distribution import Float32Array, Futures, future_pass
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import StrategyTable, computing_lock, table_dir

FORMAT = "kismet-dice futures of every position"
VERSION = 1
HEADER = "header.json"
ROWS = "row_of.npy"


def futures_path(rules: RuleSet, directory: Path | None = None) -> Path:
    """The store's directory: beside the strategy table, named after the same rules."""
    return (directory or table_dir()) / f"{rules.name}-{rules.fingerprint[:16]}.futures"


def _layer_name(filled: int) -> str:
    return f"layer-{filled:02d}.npy"


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
    row_of = _mapped(path, ROWS, files, np.intp)
    if row_of is None or row_of.shape != (1 << boxes, rules.cap + 1):
        return None
    futures = Futures(rules, row_of, survival=True)
    for filled in range(boxes + 1):
        layer = _mapped(path, _layer_name(filled), files, np.float32)
        if layer is None or layer.ndim != 2:
            return None
        futures.layers[filled] = layer
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

    def finish(self, rules: RuleSet) -> None:
        boxes = len(rules.boxes)
        missing = {ROWS, *(_layer_name(filled) for filled in range(boxes + 1))} - set(self.files)
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
        writer.write(ROWS, np.asarray(futures.row_of, dtype=np.intp))
        for filled in range(len(rules.boxes) + 1):
            writer.write(_layer_name(filled), np.asarray(futures.layers[filled], dtype=np.float32))
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

        def sink(filled: int, layer: Float32Array) -> None:
            writer.write(_layer_name(filled), layer)

        futures = future_pass(table, keep=None, progress=progress, sink=sink)
        writer.write(ROWS, np.asarray(futures.row_of, dtype=np.intp))
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
    """The stored futures of ``table`` if a sound store exists; else computed now (minutes for
    Kismet) and stored.

    Processes that need them at once compute them once: the first takes the lock beside the
    store, the others wait and then load what it stored. What was computed is returned
    memory-mapped from the store, each layer written as soon as it is final, so the 1.5 GB worked
    out are never all held; where they cannot be stored (a read-only cache), they are worked out
    (again) and kept in memory.
    """
    path = futures_path(table.rules, directory)
    found = load_futures(table, directory)
    if found is not None:
        return found
    with computing_lock(path):
        found = load_futures(table, directory)  # computed by another process while this one waited
        if found is not None:
            return found
        try:
            return compute_and_store(table, progress, directory)
        except OSError:
            pass
        # Where they cannot be stored (a read-only cache), worked out again and kept in memory.
        return future_pass(table, keep=None, progress=progress)
