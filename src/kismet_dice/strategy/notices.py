"""Notices a job gives whoever listens in this process: an interface says meanwhile why the job
takes longer (the strategy compiles, or another process does the work and this one waits).

A notice is given from the thread the job runs in, to every listener of the moment; one that
cannot be given (a closed terminal, a screen gone) does not stop the job.

>>> heard = []
>>> waits: Listeners[[bool]] = Listeners()
>>> with waits.listening(heard.append):
...     waits.tell(True)
>>> waits.tell(False)  # nobody listens any more
>>> heard
[True]
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Generic, ParamSpec

P = ParamSpec("P")


class Listeners(Generic[P]):
    """Who listens for one kind of notice in this process, each called with its arguments."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listening: list[Callable[P, object]] = []

    @contextlib.contextmanager
    def listening(self, tell: Callable[P, object]) -> Iterator[None]:
        """Within this, ``tell`` is given every notice."""
        with self._lock:
            self._listening.append(tell)
        try:
            yield
        finally:
            with self._lock:
                self._listening.remove(tell)

    def tell(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Give a notice to everyone listening now."""
        with self._lock:
            listening = list(self._listening)
        for tell in listening:
            with contextlib.suppress(Exception):
                tell(*args, **kwargs)
