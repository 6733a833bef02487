"""The ``kismet`` command. Each sub-command lives in a module of its own with a ``register`` function."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from kismet_dice.cli import hall, play, reference, serve, stats, strategy
from kismet_dice.cli.errors import UserError
from kismet_dice.cli.markdown import is_terminal

# Every sub-command module: ``register(subparsers)`` adds its parser and sets ``run``.
COMMANDS = (play, reference, hall, stats, strategy, serve)

NEEDS_A_TERMINAL = "the full-screen game needs a terminal; use 'kismet play --plain' for plain text"


def package_version() -> str:
    """The installed version of kismet-dice (``unknown`` when run from sources never installed)."""
    try:
        return version("kismet-dice")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kismet",
        description="Kismet, the dice game with coloured pips (Lakeside, 1964).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in COMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kismet`` command; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        arguments = ["play"]
    parser = build_parser()
    options = parser.parse_args(arguments)
    if (
        options.run is play.run_play
        and not options.plain
        and not (is_terminal(sys.stdin) and is_terminal(sys.stdout))
    ):
        # The full-screen game would write escape codes into a pipe or a file and wait for keys
        # that never come; say what works instead.
        print(f"kismet: {NEEDS_A_TERMINAL}", file=sys.stderr)
        return 2
    try:
        status: int = options.run(options)
    except UserError as error:
        print(f"kismet: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `kismet score ... | head`); nothing is left to say.
        return 0
    return status
