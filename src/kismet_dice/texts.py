"""The texts shipped for players, and their Markdown as plain text or HTML.

``RULES.md`` (the rules of Kismet) and ``HELP.md`` (how to play Kismet with this program) are
written once in Markdown; the command line prints them, the terminal game shows them and the web
serves them. Every interface may import this module; it imports none of them. Markdown is read by
``markdown-it-py`` (which rich and Textual already depend on), never by a parser of our own.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from importlib import resources

from markdown_it import MarkdownIt
from markdown_it.token import Token

PLAIN_WIDTH = 80
"""Lines of plain text are wrapped to this many characters."""

_INDENT = "  "
_MIN_COLUMN = 8


def rules_markdown() -> str:
    """The rules of Kismet, as Markdown."""
    return _shipped("RULES.md")


def help_markdown() -> str:
    """How to play Kismet with this program, as Markdown."""
    return _shipped("HELP.md")


def _shipped(name: str) -> str:
    return resources.files("kismet_dice").joinpath(name).read_text(encoding="utf-8")


def _parser() -> MarkdownIt:
    # CommonMark plus tables; raw HTML in the text is shown as text, never passed through.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def to_html(markdown: str) -> str:
    """The Markdown as an HTML fragment (no ``<html>`` or ``<body>``); raw HTML is escaped.

    >>> print(to_html("# Rules\\n\\n**Five** dice <b>"), end="")
    <h1>Rules</h1>
    <p><strong>Five</strong> dice &lt;b&gt;</p>
    """
    return str(_parser().render(markdown))


def to_plain(markdown: str, width: int = PLAIN_WIDTH) -> str:
    """The Markdown as plain text: no markup left, paragraphs wrapped, tables as aligned columns.

    The top heading is in capitals, other headings stand on lines of their own; list items keep
    ``-`` or their number; links show their address after the text.

    >>> print(to_plain("# Kismet\\n\\nRoll **five** `dice`.\\n\\n- one\\n- two"), end="")
    KISMET
    <BLANKLINE>
    Roll five dice.
    <BLANKLINE>
    - one
    - two
    >>> print(to_plain("| a | b |\\n|---|---:|\\n| x | 10 |\\n| yy | 5 |"), end="")
    a    b
    --  --
    x   10
    yy   5
    """
    blocks = _Blocks(_parser().parse(markdown), width).render()
    return "\n\n".join(blocks) + "\n"


def _inline(token: Token) -> str:
    """The words of an inline token: emphasis and code marks dropped, breaks as spaces."""
    parts: list[str] = []
    href: str | None = None
    link_start = 0
    for child in token.children or ():
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "image":
            parts.append(str(child.attrs.get("alt") or child.content))
        elif child.type == "link_open":
            href, link_start = str(child.attrs.get("href", "")), len(parts)
        elif child.type == "link_close" and href is not None:
            # Only an address that is not the text itself is worth repeating.
            if href and "".join(parts[link_start:]) != href:
                parts.append(f" ({href})")
            href = None
    return "".join(parts)


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> str:
    lines = []
    for number, line in enumerate(text.split("\n")):
        lines.append(
            textwrap.fill(
                line,
                width=width,
                initial_indent=first if number == 0 else rest,
                subsequent_indent=rest,
                break_on_hyphens=False,
            )
            or (first if number == 0 else rest).rstrip()
        )
    return "\n".join(lines)


class _Blocks:
    """Walks the block tokens of a document, turning each block into plain lines."""

    def __init__(self, tokens: Sequence[Token], width: int) -> None:
        self.tokens = tokens
        self.width = width
        self.position = 0

    def render(self, indent: str = "", until: str | None = None) -> list[str]:
        """The blocks up to the closing token ``until`` (or the end), each as one text."""
        blocks: list[str] = []
        while self.position < len(self.tokens):
            token = self.tokens[self.position]
            self.position += 1
            if token.type == until:
                break
            block = self._block(token, indent)
            if block is not None:
                blocks.append(block)
        return blocks

    def _next_inline(self) -> str:
        # An opening token is followed by its inline content and its closing token.
        text = _inline(self.tokens[self.position])
        self.position += 2
        return text

    def _block(self, token: Token, indent: str) -> str | None:
        width = self.width
        if token.type == "heading_open":
            text = self._next_inline()
            return _wrap(text.upper() if token.tag == "h1" else text, width, indent, indent)
        if token.type == "paragraph_open":
            return _wrap(self._next_inline(), width, indent, indent)
        if token.type in ("bullet_list_open", "ordered_list_open"):
            return self._list(token, indent)
        if token.type == "table_open":
            return self._table(indent)
        if token.type == "blockquote_open":
            return "\n\n".join(self.render(indent + _INDENT, "blockquote_close"))
        if token.type in ("fence", "code_block"):
            return textwrap.indent(token.content.rstrip("\n"), indent + _INDENT * 2)
        if token.type == "hr":
            return indent + "-" * max(3, min(width - len(indent), 20))
        if token.type == "html_block":
            return textwrap.indent(token.content.rstrip("\n"), indent)
        return None

    def _list(self, opening: Token, indent: str) -> str:
        closing = opening.type.replace("_open", "_close")
        # A tight list (no blank lines between its items) has hidden paragraphs.
        tight = any(
            token.type == "paragraph_open" and token.hidden
            for token in self.tokens[self.position : self.position + 3]
        )
        joint = "\n" if tight else "\n\n"
        number = int(str(opening.attrs.get("start", 1)))
        items: list[str] = []
        while self.position < len(self.tokens):
            token = self.tokens[self.position]
            self.position += 1
            if token.type == closing:
                break
            if token.type != "list_item_open":
                continue
            marker = "- " if opening.type == "bullet_list_open" else f"{number}. "
            number += 1
            inner = indent + " " * len(marker)
            body = self.render(inner, "list_item_close")
            text = joint.join(body)
            # The marker takes the place of the first line's indent.
            if text.startswith(inner):
                text = indent + marker + text[len(inner) :]
            items.append(text)
        return joint.join(items)

    def _table(self, indent: str) -> str:
        rows: list[list[str]] = []
        aligns: list[str] = []
        while self.position < len(self.tokens):
            token = self.tokens[self.position]
            self.position += 1
            if token.type == "table_close":
                break
            if token.type == "tr_open":
                rows.append([])
            elif token.type in ("th_open", "td_open"):
                if token.type == "th_open":
                    aligns.append(str(token.attrs.get("style", "")))
                rows[-1].append(self._next_inline())
        return _columns(rows, aligns, self.width - len(indent), indent)


def _columns(rows: list[list[str]], aligns: Sequence[str], width: int, indent: str) -> str:
    """Rows (the first one the heading) as columns two spaces apart, wrapped to fit ``width``."""
    count = max(len(row) for row in rows)
    rows = [row + [""] * (count - len(row)) for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(count)]
    gap = 2
    # Narrow the widest column, a character at a time, until the table fits.
    while sum(widths) + gap * (count - 1) > width and max(widths) > _MIN_COLUMN:
        widths[widths.index(max(widths))] -= 1
    right = [column < len(aligns) and "right" in aligns[column] for column in range(count)]
    lines: list[str] = []
    for number, row in enumerate(rows):
        cells = [textwrap.wrap(cell, widths[column]) or [""] for column, cell in enumerate(row)]
        for line in range(max(len(cell) for cell in cells)):
            parts = []
            for column, cell in enumerate(cells):
                text = cell[line] if line < len(cell) else ""
                parts.append(text.rjust(widths[column]) if right[column] else text.ljust(widths[column]))
            lines.append((indent + (" " * gap).join(parts)).rstrip())
        if number == 0:
            lines.append(indent + (" " * gap).join("-" * size for size in widths))
    return "\n".join(lines)
