"""Loops compiled afresh, as every loop of the package is the first time on a machine."""

from __future__ import annotations


def fresh_loops(module: str) -> dict[str, object]:
    """A module named ``module`` with two compiled loops, ``outer`` calling ``inner``, not cached:
    each first call compiles, as every loop does the first time on a machine."""
    namespace: dict[str, object] = {"__name__": module}
    exec(
        "from kismet_dice.strategy.compiled import jit\n"
        "@jit(cache=False)\n"
        "def inner(x):\n"
        "    return x * 3\n"
        "@jit(cache=False)\n"
        "def outer(x):\n"
        "    return inner(x) + 1\n",
        namespace,
    )
    return namespace


def call(loop: object, value: int) -> object:
    assert callable(loop)
    return loop(value)


def set_up() -> None:
    """A worker's set-up that needs nothing."""


def compiled_in_a_worker(value: int) -> int:
    """A worker's task that compiles loops of the package afresh (loops of its own, each time), as a
    worker's first game does the first time on a machine."""
    result = call(fresh_loops("kismet_dice.strategy.in_a_worker")["outer"], value)
    assert isinstance(result, int)
    return result
