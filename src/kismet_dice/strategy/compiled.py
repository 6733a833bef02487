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
from typing import Any

_compiling = threading.Lock()


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

            for name, value in deferred.items():
                namespace[name] = numba.njit(**value.options)(value.function)
    return namespace
