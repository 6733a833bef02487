"""Loops compiled by Numba, with Numba itself loaded only when one of them first runs.

Importing Numba takes longer than everything else a light command does (0.7 s of a 1.1 s
``kismet hall`` on the 2-core machine), and many commands never run a loop: the Hall of Fame,
the statistics, a game between people. :func:`jit` marks a function to compile as
``numba.njit(**options)`` would, but leaves it plain Python until one of the marked functions of
its module is called. Then Numba is imported and every marked function of that module is
replaced, in the module itself, by its compiled dispatcher, all at once: compiled loops find the
loops they call among the module's globals, so those must be compiled ones by then. After that,
calls go straight to the dispatchers; only a reference taken before (``from module import f``)
still passes through the stand-in, which forwards it.

Numba compiles a loop the first time it runs on a machine (about 7 s for the solve's, 5 s more for
the distribution's), then loads it from its on-disk cache. :func:`telling_compiles` lets an
interface say so meanwhile, rather than show a progress bar standing still.

Numba compiles one loop at a time in a process, and the solve's loops come first wherever the
strategy is used: so when a process first compiles a loop Numba stores, a second process compiles
the passes' loops meanwhile (:mod:`~kismet_dice.strategy.ahead`), where the machine has a core to
spare for it, and the passes wait for it (:func:`await_ahead`) and then load what it stored.

>>> @jit(cache=False)
... def twice(x):  # type: ignore[no-untyped-def]
...     return 2 * x
>>> type(twice).__name__
'Deferred'
>>> twice(21)
42
"""

from __future__ import annotations

import atexit
import functools
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from kismet_dice.strategy.notices import Listeners

_compiling = threading.Lock()

PACKAGE = __name__.split(".")[0]

_watch = threading.Lock()
_under_way = 0
"""How many of the package's loops are being compiled in this process now (one loop's compiling
includes the loops it calls, so they nest)."""
_compiles: Listeners[[]] = Listeners()
_listening = False

AHEAD = ("-m", f"{PACKAGE}.strategy.ahead")
"""What the second process runs, after the interpreter: the passes' loops, compiled ahead."""

AHEAD_SECONDS = 120.0
"""The longest the passes wait for that process: far more than it takes (about 10 s)."""

FORWARD = "forward"
"""What the process compiling ahead says once the hard player's endings and the forward pass
(the distribution from a sheet) are stored: it compiles them first, as the chances need them."""
BACKWARD = "backward"
"""What it says last, once the backward passes (the futures) are stored too."""

_stored: set[Callable[..., Any]] = set()
"""The marked functions that Numba keeps in its on-disk cache (what a second process can compile
for this one)."""
_ahead: subprocess.Popen[bytes] | None = None
_ahead_allowed = True
_ahead_said: set[str] = set()
_ahead_reading = threading.Lock()


class Deferred:
    """A function to compile with Numba on the first call of any such function of its module."""

    def __init__(self, function: Callable[..., Any], options: dict[str, Any]) -> None:
        self.function = function
        self.options = options
        functools.update_wrapper(self, function)

    def __call__(self, *arguments: Any, **keywords: Any) -> Any:
        compiled = compile_module(self.function.__globals__)[self.function.__name__]
        return compiled(*arguments, **keywords)


def jit(**options: Any) -> Callable[[Callable[..., Any]], Deferred]:
    """Mark a function to be compiled as ``numba.njit(**options)``, when its module first needs it."""

    def mark(function: Callable[..., Any]) -> Deferred:
        return Deferred(function, options)

    return mark


def compile_module(namespace: dict[str, Any]) -> dict[str, Any]:
    """Replace every :class:`Deferred` in a module's namespace by its compiled dispatcher.

    Under a lock, since the solver's threads may make their first calls together. Numba compiles
    each dispatcher on its first call (or loads it from its cache), not here.
    """
    with _compiling:
        deferred = {name: value for name, value in namespace.items() if isinstance(value, Deferred)}
        if deferred:
            import numba  # here, not at the top: see the module's docstring

            _listen()
            for name, value in deferred.items():
                if value.options.get("cache"):
                    _stored.add(value.function)
                namespace[name] = numba.njit(**value.options)(value.function)
    return namespace


def compiling() -> bool:
    """Whether one of the package's loops is being compiled in this process just now: the first
    time it runs on a machine (or after an upgrade), before Numba's on-disk cache holds it.

    >>> compiling()
    False
    """
    return _under_way > 0


def telling_compiles(tell: Callable[[], object]) -> AbstractContextManager[None]:
    """Within this, ``tell()`` is called (from the compiling thread) each time the package begins
    compiling in this process after it was not: an interface says then that the first run on this
    machine takes longer. Loading a compiled loop from the cache is not compiling: not told."""
    return _compiles.listening(tell)


def compiling_elsewhere() -> None:
    """A worker process of this one began compiling the strategy: tell it here, as if this process did."""
    _compiles.tell()


def no_ahead() -> None:
    """Start no process to compile ahead from this one: a worker of another process (which would
    start its own), a process already in a pass (:func:`await_ahead`), or the process compiling
    ahead itself."""
    global _ahead_allowed
    with _watch:
        _ahead_allowed = False


def await_ahead(stage: str) -> None:
    """Wait until the process this one started to compile the passes' loops has compiled those of
    ``stage`` (:data:`FORWARD` or :data:`BACKWARD`), or has ended, or :data:`AHEAD_SECONDS` have
    passed: the pass then loads them from the cache rather than compile them a second time. At
    once when no such process was started, or once it has said so.

    A pass that begins before any such process was started compiles its own loops, if any are
    left to compile: one started then would only compile the same ones beside it, so none is."""
    with _ahead_reading:
        helper = _ahead
        if helper is None:
            no_ahead()
            return
        if helper.stdout is None or stage in _ahead_said:
            return
        deadline = time.monotonic() + AHEAD_SECONDS
        while stage not in _ahead_said:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([helper.stdout], [], [], remaining)[0]:
                return  # compiled here too, then: slower, not wrong
            line = helper.stdout.readline()
            if not line:  # it ended (or failed): whatever it did not store is compiled here
                _ahead_said.update((FORWARD, BACKWARD))
                return
            _ahead_said.add(line.decode(errors="replace").strip())


def said_ahead(stage: str) -> None:
    """In the process compiling ahead: the loops of ``stage`` are stored."""
    print(stage, flush=True)


def compiled_ahead() -> bool:
    """Whether a process this one started has compiled every loop it compiles ahead."""
    await_ahead(BACKWARD)
    if _ahead is None:
        return False
    try:
        return _ahead.wait(AHEAD_SECONDS) == 0
    except subprocess.TimeoutExpired:
        return False


def _spare_cores() -> bool:
    """Whether the process may use more than one core (what it is allowed, not what the machine has)."""
    try:
        return len(os.sched_getaffinity(0)) > 1
    except AttributeError:  # no affinity on this system
        return (os.cpu_count() or 1) > 1


def _start_ahead() -> None:
    """Start the second process, once per process (see the module's docstring). It says on its
    output what it has stored (:func:`said_ahead`), and nothing else reaches a person (a
    full-screen game holds the terminal); it is stopped when this process ends first."""
    global _ahead
    if not _spare_cores():
        return
    try:
        _ahead = subprocess.Popen(
            [sys.executable, *AHEAD],
            bufsize=0,  # read a line at a time: nothing kept in a buffer that select() cannot see
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return  # compiled here, then, as without it
    atexit.register(_stop_ahead)


def _stop_ahead() -> None:
    helper = _ahead
    if helper is not None and helper.poll() is None:
        helper.terminate()
        try:
            helper.wait(5)
        except subprocess.TimeoutExpired:
            helper.kill()


def _listen() -> None:
    """Follow Numba's compiles, once per process. Numba announces a compile only on a cache miss,
    around the work itself (type inference and code generation), in the thread that compiles."""
    global _listening
    if _listening:
        return
    from numba.core import event

    class Compiles(event.Listener):
        def on_start(self, happened: event.Event) -> None:
            global _under_way, _ahead_allowed
            if not _ours(happened):
                return
            with _watch:
                _under_way += 1
                began = _under_way == 1
                ahead = _ahead_allowed and _stored_loop(happened)
                if ahead:
                    _ahead_allowed = False
            if ahead:
                _start_ahead()
            if began:
                _compiles.tell()

        def on_end(self, happened: event.Event) -> None:
            global _under_way
            if _ours(happened):
                with _watch:
                    _under_way -= 1

    event.register("numba:compile", Compiles())  # type: ignore[no-untyped-call]
    _listening = True


def _stored_loop(happened: Any) -> bool:
    """Whether a compile event is for one of the package's loops that Numba keeps on disk."""
    return getattr(happened.data.get("dispatcher"), "py_func", None) in _stored


def _ours(happened: Any) -> bool:
    """Whether a compile event is for one of the package's loops (Numba compiles its own helpers too)."""
    function = getattr(happened.data.get("dispatcher"), "py_func", None)
    return str(getattr(function, "__module__", "")).startswith(PACKAGE + ".")
