"""The ``kismet`` command. Each sub-command lives in a module of its own with a ``register`` function."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kismet_dice.cli import hall, play, reference, serve, strategy
from kismet_dice.cli.errors import UserError

# Every sub-command module: ``register(subparsers)`` adds its parser and sets ``run``.
COMMANDS = (play, reference, hall, strategy, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kismet",
        description="Kismet, the dice game with coloured pips (Lakeside, 1964).",
    )
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
