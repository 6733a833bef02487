"""The shipped rules and guide, and their Markdown as plain text, styled text and HTML."""

from __future__ import annotations

import os
import re
import threading

import pytest

from kismet_dice import Box
from kismet_dice.cli.markdown import write_markdown
from kismet_dice.texts import help_markdown, rules_markdown, to_html, to_plain
from kismet_dice.tui.widgets import KEY_OF_BOX

# A path to a file of the project: the package ships neither these folders nor these files.
PROJECT_FILE = re.compile(r"seeds/|[\w./-]+\.(md|py)\b", re.IGNORECASE)
MARKUP = ("|---", "**", "`", "](")


@pytest.mark.parametrize("text", [rules_markdown(), help_markdown()], ids=["rules", "help"])
def test_a_shipped_text_names_no_file_of_the_project(text: str) -> None:
    assert PROJECT_FILE.search(text) is None
    assert "seed" not in text.lower()
    assert "this project" not in text.lower()


def test_the_rules_still_state_every_box_and_the_bonus_tiers() -> None:
    rules = rules_markdown()
    for box in Box:
        assert f"| {box.value} | {box.label} |" in rules
    for tier in ("| 63 to 70 | 35 |", "| 71 to 77 | 55 |", "| 78 or more | 75 |", "| 62 or less | 0 |"):
        assert tier in rules
    assert "five of a kind" in rules.lower()
    assert "The second Kismet" in rules and "Hall of Fame" in rules and "House rule" in rules
    assert "asked the computer for advice" in rules


def test_the_guide_gives_each_box_the_letter_of_the_terminal_game() -> None:
    letters = dict(re.findall(r"\| ([a-p]) \| ([A-Z][A-Za-z ]+?) (?=\|)", help_markdown()))
    assert letters == {key: box.label for box, key in KEY_OF_BOX.items()}


def test_the_guide_explains_the_two_step_entry_and_where_to_find_everything() -> None:
    guide = help_markdown()
    for words in (
        "kismet play --plain",
        "kismet serve",
        "two steps",
        "enter at once",
        "assisted",
        "seat link",
        "watch link",
        "resuming",
        "easy",
        "medium",
        "hard",
    ):
        assert words in guide


@pytest.mark.parametrize("text", [rules_markdown(), help_markdown()], ids=["rules", "help"])
def test_plain_text_keeps_no_markdown_syntax(text: str) -> None:
    plain = to_plain(text)
    for mark in MARKUP:
        assert mark not in plain
    assert not re.search(r"^#+ ", plain, re.MULTILINE)
    assert max(len(line) for line in plain.splitlines()) <= 80


def test_plain_text_sets_a_table_in_aligned_columns() -> None:
    plain = to_plain(rules_markdown())
    assert re.search(r"^9 +Straight +1-2-3-4-5 or 2-3-4-5-6 +30$", plain, re.MULTILINE)
    header = next(line for line in plain.splitlines() if line.startswith("Basic total"))
    row = next(line for line in plain.splitlines() if line.startswith("71 to 77"))
    assert header.index("bonus") == row.index("55")


def test_plain_text_wraps_a_long_cell_within_its_column() -> None:
    plain = to_plain("| a | b |\n|---|---|\n| x | " + "word " * 30 + "|\n", width=40)
    lines = plain.splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert all(line.startswith("x  ") or line.startswith("   ") for line in lines[2:])
    assert plain.count("word") == 30


def test_plain_text_keeps_list_numbers_and_link_addresses() -> None:
    plain = to_plain("3. three\n4. four\n\nSee [the lobby](http://127.0.0.1:8000/).")
    assert plain == "3. three\n4. four\n\nSee the lobby (http://127.0.0.1:8000/).\n"


def test_html_has_the_tables_and_escapes_raw_html() -> None:
    html = to_html(rules_markdown())
    assert "<table>" in html and "<td>Full House Same Color</td>" in html
    assert "<h1>The rules of Kismet</h1>" in html
    assert to_html("<script>alert(1)</script>") == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"


def test_markdown_written_to_a_terminal_is_styled_not_raw() -> None:
    main, side = os.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        # The terminal's buffer is small: read while the text is written, until the writer closes.
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    with open(side, "w", encoding="utf-8", closefd=True) as terminal:
        write_markdown("# Kismet\n\nRoll **five** dice.\n", terminal)
    reader.join()
    os.close(main)
    shown = b"".join(chunks).decode()
    assert "\x1b[" in shown
    assert "five" in shown and "**" not in shown and "# Kismet" not in shown
