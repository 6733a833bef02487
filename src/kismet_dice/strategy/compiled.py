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

>>> @jit(cache=False)
... def twice(x):  # type: ignore[no-untyped-def]
...     return 2 * x
>>> type(twice).__name__
'Deferred'
>>> twice(21)
42
"""

from __future__ import annotations

import functools
import threading
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


def _listen() -> None:
    """Follow Numba's compiles, once per process. Numba announces a compile only on a cache miss,
    around the work itself (type inference and code generation), in the thread that compiles."""
    global _listening
    if _listening:
        return
    from numba.core import event

    class Compiles(event.Listener):
        def on_start(self, happened: event.Event) -> None:
            global _under_way
            if not _ours(happened):
                return
            with _watch:
                _under_way += 1
                began = _under_way == 1
            if began:
                _compiles.tell()

        def on_end(self, happened: event.Event) -> None:
            global _under_way
            if _ours(happened):
                with _watch:
                    _under_way -= 1

    event.register("numba:compile", Compiles())  # type: ignore[no-untyped-call]
    _listening = True


def _ours(happened: Any) -> bool:
    """Whether a compile event is for one of the package's loops (Numba compiles its own helpers too)."""
    function = getattr(happened.data.get("dispatcher"), "py_func", None)
    return str(getattr(function, "__module__", "")).startswith(PACKAGE + ".")
