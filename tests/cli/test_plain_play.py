"""``kismet play --plain``: a game in plain text, driven through its input stream."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kismet_dice import Game
from kismet_dice.cli import main
from kismet_dice.cli.play import EndOfInput, PlainTable
from kismet_dice.game import ScriptedDice
from kismet_dice.session import Seat, Session, Setup, local_session, narration
from kismet_dice.storage import Storage
from kismet_dice.strategy import Advisor, Computer, Level, StrategyTable
from kismet_dice.strategy.chances import Continuations
from kismet_dice.strategy.distribution import Distribution
from tests.game.test_solo_game import TURNS
from tests.support.games import (
    draws,
    fill_hall,
    finished_two_player_game,
    hall_with_one_place_between,
    late_solo_faces,
    play_top_boxes,
)


def humans(game: Game) -> Session:
    return Session(game, [Seat(name) for name in game.names], computer=Computer().player)


def run_table(game: Game, typed: str) -> str:
    sink = io.StringIO()
    PlainTable(io.StringIO(typed), sink).play(humans(game))
    return sink.getvalue()


def test_a_whole_solo_game_by_typing() -> None:
    faces = [4]
    typed = []
    for rolls, holds, box, _ in TURNS:
        faces += draws(*rolls, holds=holds)
        for hold in holds:
            typed.append(" ".join(str(position + 1) for position in hold))
        if len(rolls) < 3:
            typed.append("s")
        typed.append(box.label if box.value % 2 else str(box.value))
    out = run_table(Game(["Solo"], rng=ScriptedDice(faces)), "\n".join(typed) + "\n")
    assert "Roll 1 of 3: [1] 1 black, [2] 1 black, [3] 1 black, [4] 2 red, [5] 3 green." in out
    assert "Solo enters 80 in Kismet; total 403." in out
    assert "Solo scores 403." in out
    assert "Bonus" in out


def test_bad_typing_gets_a_hint_and_the_same_question() -> None:
    faces = [1] + [1, 2, 3, 4, 6] + [5, 5, 5, 5, 5]
    typed = "7\nabc\n?\ns\nfoo\n99\nstraight\nn\nyarborough\n"
    sink = io.StringIO()
    table = PlainTable(io.StringIO(typed), sink)
    with pytest.raises(EndOfInput):
        table.play(humans(Game(["Ann"], rng=ScriptedDice(faces))))
    out = sink.getvalue()
    # Each wrong answer says what was wrong; only '?' gets the general help.
    assert "There is no die 7: dice are 1 to 5." in out
    assert "'abc' is not a die: type the positions of the dice to keep" in out
    assert out.count("Type the positions of the dice to keep") == 1
    assert "No box's name starts with 'foo'." in out
    assert "There is no box 99: boxes are numbered 1 to 15." in out
    assert "Straight would score 0. Enter the zero? (y/n)" in out
    assert "Ann enters 16 in Yarborough" in out


def test_second_kismet_is_announced_with_its_penalties() -> None:
    faces = [6, 1] + [5] * 5 + [1, 2, 3, 4, 6] + [5] * 5 + [1, 2, 3, 4, 6]
    typed = "s\n15\ns\n14\ns\nfives\n"
    sink = io.StringIO()
    with pytest.raises(EndOfInput):
        PlainTable(io.StringIO(typed), sink).play(humans(Game(["Ann", "Bob"], rng=ScriptedDice(faces))))
    out = sink.getvalue()
    assert "Roll-off: Ann rolls 6, Bob rolls 1. Ann begins." in out
    assert "Second Kismet! Ann rolled five of a kind with a Kismet already scored." in out
    assert "Bob loses a turn: 0 in Ones." in out
    assert "Ann leads from now on." in out


def play_command(
    typed: str, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    status = main(["play", "--plain", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_end_of_input_ends_the_game_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = play_command("1 2\n", ["--seed", "5", "Ann", "Bob"], monkeypatch, capsys)
    assert status == 0 and err == ""
    assert out.rstrip().endswith(
        "Input ended; the game stops here.\nIt is saved: run kismet play again to resume it."
    )


def test_names_are_asked_when_not_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = play_command(",\nAnn, Ann\nAnn, Bob\n", ["--seed", "1"], monkeypatch, capsys)
    assert status == 0
    assert "cannot be empty. Try again." in out and "cannot share a name. Try again." in out
    assert "Kismet for 2: Ann, Bob." in out


def test_a_seed_makes_the_whole_game_repeatable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Score the boxes top to bottom; a "y" after each answers a zero's confirmation, or is
    # taken as a bad keep answer on the next turn and hinted at: the same either way.
    typed = "".join(f"s\n{number}\ny\n" for number in range(1, 16))
    # Each game in a fresh home, so the second does not meet the first in the Hall of Fame.
    monkeypatch.setenv("KISMET_HOME", str(tmp_path / "first"))
    first = play_command(typed, ["--seed", "42", "Solo"], monkeypatch, capsys)
    monkeypatch.setenv("KISMET_HOME", str(tmp_path / "second"))
    second = play_command(typed, ["--seed", "42", "Solo"], monkeypatch, capsys)
    assert first == second
    assert "The game is over:" in first[1]


def test_bad_names_on_the_command_line_get_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = play_command("", ["Ann", "Ann"], monkeypatch, capsys)
    assert status == 2 and out == ""
    assert err == "kismet: two players cannot share a name\n"


def test_a_computer_seat_plays_its_turn_aloud() -> None:
    game = Game(["Ann", "Cid"], rng=ScriptedDice([1, 6] + [6] * 5 + [1, 2, 3, 4, 6]))
    session = Session(game, [Seat("Ann"), Seat("Cid", Level.EASY)], computer=Computer().player)
    sink = io.StringIO()
    with pytest.raises(EndOfInput):
        PlainTable(io.StringIO(""), sink, computer=Computer()).play(session)
    out = sink.getvalue()
    assert "Kismet for 2: Ann, Cid (computer, easy)." in out
    assert "Round 1: Cid (computer, easy)'s turn (0 points so far)." in out
    assert "Cid rolls 6 black, 6 black, 6 black, 6 black, 6 black." in out
    assert "Cid enters 80 in Kismet; total 80." in out
    assert "Round 1: Ann's turn" in out


def test_hint_asks_first_then_ranks_the_options(kismet_table: StrategyTable) -> None:
    game = Game(["Ann"], rng=ScriptedDice([3, 6, 6, 6, 6, 6]))
    session = Session(game, [Seat("Ann")], computer=Computer().player)
    sink = io.StringIO()
    typed = "hint\nn\nhint\ny\nhint\n"
    with pytest.raises(EndOfInput):
        PlainTable(io.StringIO(typed), sink, computer=Computer(table=kismet_table)).play(session)
    out = sink.getvalue()
    # Asked until answered yes (no, then yes), then never again in this game.
    assert out.count("Advice marks this game as assisted") == 2
    assert out.count("Advice, best first, with the expected final total:") == 2
    # Five sixes on an empty sheet: the Kismet box first, by the solved table.
    assert "  1. enter 80 in Kismet: " in out
    assert session.assisted


def test_a_computer_level_that_does_not_exist_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = play_command("", ["Ann", "Hal=expert"], monkeypatch, capsys)
    assert status == 2 and out == ""
    assert err == "kismet: a computer player is easy, medium, hard, target, win, not 'expert'\n"


def test_whoever_an_entry_pushes_out_is_told_and_not_asked(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    ann, bob = hall_with_one_place_between(storage, session)
    sink = io.StringIO()
    PlainTable(io.StringIO("Ann\n"), sink).enter_hall_of_fame(session)
    out = sink.getvalue()
    assert out.count("enters the Hall of Fame! Your name for the list") == 1  # Ann only
    assert f"Ann enters the Hall of Fame at number 1 with {ann}." in out
    assert f"Bob's {bob} no longer makes the Hall of Fame: Ann's entry just now took the last place." in out


def test_hint_late_in_a_game_adds_each_options_chance_of_a_hall_of_fame_total(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    session = local_session(storage, Setup((Seat("Ann"),)), rng=ScriptedDice(late_solo_faces(3)))
    play_top_boxes(session, 12)
    session.roll(0)
    advisor = Advisor(kismet_table)
    bar = round(advisor.start_value(session.game.sheet(0)))
    fill_hall(storage, [bar + 9] * 9 + [bar])
    sink = io.StringIO()
    with pytest.raises(EndOfInput):
        PlainTable(io.StringIO("hint\ny\n"), sink, computer=Computer(table=kismet_table)).play(session)
    out = sink.getvalue()
    ranked = Continuations(kismet_table, session.game.sheet(0)).options(
        session.game.dice, session.game.rolls_left, bar + 1, advisor
    )
    assert "Working out the chances of a Hall of Fame total…" in out
    heading = f"the chance of a Hall of Fame total ({bar + 1}+), the option:"
    assert heading in out
    chances = [found.chance for found in ranked]
    top = chances.index(max(chances))
    for rank, found in enumerate(ranked[:8]):
        words = narration.option(found.option, (2, 3, 4, 5, 5))
        mark = " (best for the Hall of Fame)" if rank == top else ""
        assert f"  {rank + 1}. {found.option.expected:7.2f} {found.chance:7.1%}  {words}{mark}\n" in out
    assert out.count("(best for the Hall of Fame)") == 1
    assert narration.HALL_FUTURES_MISSING in out
    assert f"Chance of a Hall of Fame total, {bar + 1} or more, playing perfectly from here" in out


def test_the_end_works_out_how_each_total_compares_with_perfect_play_where_the_table_is_stored(
    storage: Storage, kismet_table: StrategyTable, kismet_distribution: Distribution
) -> None:
    session = finished_two_player_game(storage)
    assert session.standings() == ()  # nothing stored in this home
    sink = io.StringIO()
    computer = Computer(table=kismet_table, perfect=kismet_distribution)
    PlainTable(io.StringIO(""), sink, computer=computer).show_end(session)
    out = sink.getvalue()
    ann, bob = session.game.total(0), session.game.total(1)
    assert out.index(narration.COMPARING) < out.index(f"Ann's {ann} beats")
    assert narration.standing("Ann", ann, kismet_distribution.below(ann)) + "\n" in out
    assert narration.standing("Bob", bob, kismet_distribution.below(bob)) + "\n" in out
    assert "points in 15 decisions" in out  # and the review after them


def test_without_a_stored_table_the_end_says_no_standings_and_how_to_get_the_review(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    sink = io.StringIO()
    PlainTable(io.StringIO(""), sink, computer=Computer()).show_end(session)
    out = sink.getvalue()
    assert narration.COMPARING not in out and "perfect games" not in out
    assert "run 'kismet solve' once" in out
