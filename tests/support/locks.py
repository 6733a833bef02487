"""Another kismet's work, as far as this process can tell: it holds the lock of a stored result."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from kismet_dice.strategy.table import computing_lock


class OtherKismet:
    """Holds the lock of what is stored at ``path`` (from a thread of this process: a second open
    of the lock file is locked out just as a second process is), reports ``done`` of ``total``,
    then, on :meth:`finish`, stores the result with ``store`` and lets go."""

    def __init__(self, path: Path, done: int, total: int, store: Callable[[], object]) -> None:
        self._holding, self._release = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._hold, args=(path, done, total, store), daemon=True)
        self._thread.start()
        assert self._holding.wait(10)

    def _hold(self, path: Path, done: int, total: int, store: Callable[[], object]) -> None:
        with computing_lock(path) as progress:
            progress(done, total)
            self._holding.set()
            self._release.wait(30)
            store()

    def finish(self) -> None:
        self._release.set()
        self._thread.join(10)
        assert not self._thread.is_alive()
