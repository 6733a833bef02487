"""``kismet score`` and ``kismet rules``."""

from __future__ import annotations

import json

import pytest

from kismet_dice import Box
from kismet_dice.cli import main


def test_score_prints_every_box(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "4", "5", "5", "5", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "4G 5R 5R 5R 5R" in lines[0]
    rows = {line[4:26].strip(): int(line[26:]) for line in lines[1:]}
    assert list(rows) == [box.label for box in Box]
    assert rows["Four of a Kind"] == 49 and rows["Fives"] == 20 and rows["Kismet"] == 0


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--json", "1", "1", "1", "6", "6"]) == 0
    points = json.loads(capsys.readouterr().out)
    assert list(points) == [box.name for box in Box]
    assert points["FULL_HOUSE_SAME_COLOR"] == 35 and points["FLUSH"] == 35 and points["SIXES"] == 12


@pytest.mark.parametrize("dice", [["45555"], ["4,5,5,5,5"]])
def test_score_reads_dice_written_together(dice: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--json", *dice]) == 0
    assert json.loads(capsys.readouterr().out)["FOUR_OF_A_KIND"] == 49


@pytest.mark.parametrize("dice", [[], ["4", "5", "7", "1", "1"], ["1", "2", "3"], ["a", "b", "c", "d", "e"]])
def test_bad_dice_get_one_line_and_no_traceback(dice: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *dice]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "five dice from 1 to 6" in captured.err
    assert "Traceback" not in captured.err


def test_rules_prints_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert "The second Kismet" in text and "Two Pair Same Color" in text


@pytest.mark.parametrize(("command", "title"), [("rules", "THE RULES OF KISMET"), ("help", "HOW TO PLAY")])
def test_rules_and_help_piped_are_plain_text(
    command: str, title: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Captured output is not a terminal, like a pipe or a file.
    assert main([command]) == 0
    text = capsys.readouterr().out
    assert text.startswith(title)
    for markup in ("|---", "**", "`", "## "):
        assert markup not in text
    assert "\x1b" not in text


def test_help_tells_how_to_enter_a_box(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help"]) == 0
    text = capsys.readouterr().out
    assert "Entering a box takes two steps" in text and "enter at once" in text
