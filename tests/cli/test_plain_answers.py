"""Plain text reads what a person types: box names by prefix, each wrong answer explained,
Ctrl+C saves and says so, and unfinished games can be discarded."""

from __future__ import annotations

import io
import random

import pytest

from kismet_dice import Game
from kismet_dice.cli import main
from kismet_dice.cli.answers import WrongAnswer, read_box, read_keep
from kismet_dice.cli.play import SAVED_ON_INTERRUPT, EndOfInput, PlainTable
from kismet_dice.game import ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.session import Preferences, Seat, Session, Setup, local_session
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer


@pytest.mark.parametrize(
    ("typed", "box"),
    [
        ("yar", Box.YARBOROUGH),
        ("YAR", Box.YARBOROUGH),
        ("full house", Box.FULL_HOUSE),
        ("full house s", Box.FULL_HOUSE_SAME_COLOR),
        ("fullhouses", Box.FULL_HOUSE_SAME_COLOR),
        ("str", Box.STRAIGHT),
        ("k", Box.KISMET),
        ("fours", Box.FOURS),
        ("four of", Box.FOUR_OF_A_KIND),
        ("9", Box.STRAIGHT),
    ],
)
def test_a_box_is_named_by_any_unambiguous_start_of_its_name(typed: str, box: Box) -> None:
    assert read_box(typed) is box


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("full", "Full House or Full House Same Color? Type more of the name, or its number."),
        ("four", "Four of a Kind or Fours? Type more of the name, or its number."),
        ("three", "Three of a Kind or Threes? Type more of the name, or its number."),
        ("f", "Five"),  # Fives, Flush, Four of a Kind, Fours, Full House...: all named
        ("", "Nothing was typed. Type a box's number (1-15) or the start of its name"),
        ("   ", "Nothing was typed."),
        ("zebra", "No box's name starts with 'zebra'."),
        ("16", "There is no box 16: boxes are numbered 1 to 15."),
        ("-1", "There is no box -1: boxes are numbered 1 to 15."),
    ],
)
def test_a_box_answer_that_names_no_one_box_says_why(typed: str, said: str) -> None:
    with pytest.raises(WrongAnswer) as refused:
        read_box(typed)
    assert said in str(refused.value)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("9", "There is no die 9: dice are 1 to 5."),
        ("0", "There is no die 0: dice are 1 to 5."),
        ("-1", "There is no die -1: dice are 1 to 5."),
        ("12345678", "Five dice at most, and keeping all five leaves nothing to roll."),
        ("12345", "Keeping all five leaves nothing to roll: type 's' to score."),
        ("1 1", "Die 1 is named twice"),
        ("abc", "'abc' is not a die: type the positions of the dice to keep"),
    ],
)
def test_each_wrong_keep_answer_gets_its_own_reason(typed: str, said: str) -> None:
    with pytest.raises(WrongAnswer) as refused:
        read_keep(typed)
    assert str(refused.value) == said or said in str(refused.value)


def test_an_ambiguous_box_is_asked_again_and_the_answer_then_taken() -> None:
    faces = [1] + [2, 2, 2, 5, 5] + [1, 2, 3, 4, 6]
    sink = io.StringIO()
    game = Game(["Ann"], rng=ScriptedDice(faces))
    table = PlainTable(io.StringIO("s\n\nfull\nfull house\n"), sink)
    with pytest.raises(EndOfInput):
        table.play(Session(game, [Seat("Ann")], computer=Computer().player))
    out = sink.getvalue()
    assert "Nothing was typed." in out
    assert "Full House or Full House Same Color?" in out
    assert "Ann enters 31 in Full House" in out


class Interrupting(io.StringIO):
    """Typed lines, then Ctrl+C at the next question (as the terminal raises it in readline)."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_says_the_game_is_saved_and_exits_130(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", Interrupting("1 2\n"))
    status = main(["play", "--plain", "--seed", "3", "Ann"])
    out, err = capsys.readouterr()
    assert status == 130
    assert out.rstrip().endswith(SAVED_ON_INTERRUPT)
    assert "Traceback" not in out + err
    [saved] = storage.games.unfinished().games
    assert saved.names == ("Ann",)


def test_ctrl_c_after_the_first_roll_alone_says_the_game_is_saved(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", Interrupting(""))  # Ctrl+C at the first "Keep which dice?"
    status = main(["play", "--plain", "--seed", "3", "Ann"])
    out, _ = capsys.readouterr()
    assert status == 130 and "Roll 1 of 3" in out
    assert out.rstrip().endswith(SAVED_ON_INTERRUPT)
    [saved] = storage.games.unfinished().games
    assert saved.names == ("Ann",) and saved.version == 0


def test_ctrl_c_before_any_roll_says_there_is_nothing_to_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", Interrupting(""))
    status = main(["play", "--plain"])
    out, err = capsys.readouterr()
    assert status == 130 and "nothing to resume" in out and "Traceback" not in out + err


def test_a_saved_game_is_discarded_after_a_yes(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for names in (("Ann",), ("Bob", "Cid")):
        setup = Setup(tuple(Seat(name) for name in names))
        session = local_session(storage, setup, rng=random.Random(len(names)))
        session.roll(session.game.current_player or 0)
    assert len(storage.games.unfinished().games) == 2
    # d 3 is no game; d 1 answered no keeps it; d 1 answered yes discards the latest, Bob and Cid's.
    monkeypatch.setattr("sys.stdin", io.StringIO("d 3\nd 1\nn\nd 1\ny\n"))
    status = main(["play", "--plain"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "Type d and a game's number from 1 to 2, like 'd 1'." in out
    assert "Discard game 1 (Bob has 0, Cid has 0; round 1, " in out
    assert "Discarded game 1." in out
    [left] = storage.games.unfinished().games
    assert left.names == ("Ann",)


def test_enter_for_one_player_takes_the_default_name_from_the_settings(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    Preferences(default_name="Zoe", pace=0).save(storage.settings)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    status = main(["play", "--plain", "--seed", "2"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "(Enter for one player, Zoe)" in out and "Kismet for 1: Zoe." in out
