"""Markdown printed for the stream it goes to: rich's rendering on a terminal, plain text elsewhere."""

from __future__ import annotations

import sys
from typing import TextIO

from kismet_dice.texts import to_plain


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a closed or unusual stream is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def write_markdown(markdown: str, stream: TextIO | None = None) -> None:
    """Write ``markdown`` to ``stream`` (default stdout): styled on a terminal, plain text otherwise.

    A pipe, a file or a screen reader's log gets words and aligned columns, no ``**``, ``#`` or
    ``|---|``.
    """
    out = sys.stdout if stream is None else stream
    if not is_terminal(out):
        out.write(to_plain(markdown))
        return
    # Imported here: the plain path, used by scripts and pipes, needs none of rich.
    from rich.console import Console
    from rich.markdown import Markdown

    Console(file=out).print(Markdown(markdown))
