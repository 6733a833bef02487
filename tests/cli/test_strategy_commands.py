"""``kismet solve``, ``hint``, ``chances`` and ``simulate`` as a person uses them."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kismet_dice.cli import main, strategy
from kismet_dice.session import narration
from kismet_dice.strategy.distribution import Distribution, distribution_path
from kismet_dice.strategy.distribution import save as save_distribution
from kismet_dice.strategy.table import StrategyTable, save, table_path, telling_waits
from tests.support.compiles import call, fresh_loops
from tests.support.locks import OtherKismet


@pytest.fixture(autouse=True)
def home(kismet_home: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The home of the session's solved table, so the commands find it instead of solving again.
    monkeypatch.setenv("KISMET_HOME", kismet_home)


def test_solve_reports_the_stored_expected_score(
    kismet_table: StrategyTable, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["expected_score"] == kismet_table.expected_score
    assert report["seconds"] >= 0


def test_hint_lists_every_option_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    filled = "ONES=3,SIXES=24,KISMET=0"
    assert (
        main(["hint", "--dice", "1", "3", "3", "5", "6", "--rolls-left", "2", "--filled", filled, "--json"])
        == 0
    )
    ranked = json.loads(capsys.readouterr().out)
    values = [option["expected"] for option in ranked]
    assert values == sorted(values, reverse=True)
    assert {"box": "THREES"}.items() <= next(o for o in ranked if "box" in o and o["box"] == "THREES").items()
    # 12 open boxes, and the distinct proper sub-multisets of 1 3 3 5 6: 2*2*3*2*2 - 1 = 23.
    assert sum("box" in o for o in ranked) == 12
    assert sum("keep" in o for o in ranked) == 23


def test_hint_heads_its_columns_and_says_what_each_entry_puts_in_its_box(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hint", "--dice", "5", "5", "5", "1", "1", "--rolls-left", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Dice 5 5 5 1 1, 1 roll left; sheet total 0."
    assert lines[1].split() == ["expected", "total", "vs", "best", "choice"]
    choices = [line[26:] for line in lines[2:]]
    assert "enter 32 in Full House" in choices and "enter 0 in Kismet" in choices
    assert "keep 5 5 5, roll 2" in choices
    assert not any(choice.startswith("score ") for choice in choices)
    assert float(lines[2][:14]) >= float(lines[-1][:14])


def test_hint_counts_two_rolls_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "2"]) == 0
    assert capsys.readouterr().out.startswith("Dice 1 2 3 4 5, 2 rolls left;")


def test_hint_requires_the_rolls_left(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["hint", "--dice", "1", "2", "3", "4", "5"])
    assert exited.value.code == 2
    assert "--rolls-left" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--dice", "1", "2", "3", "--rolls-left", "0"], "give five dice"),
        (
            ["--dice", "1", "2", "3", "4", "5", "--rolls-left", "0", "--filled", "ONES=9"],
            "Ones cannot hold 9",
        ),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "0", "--filled", "NOPE=1"], "no box is called"),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "0", "--filled", "ONES"], "BOX=POINTS"),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "3"], "rolls are left"),
        (
            ["--dice", "1", "2", "3", "4", "5", "--rolls-left", "0", "--filled", "ONES=1,ONES=1"],
            "already filled",
        ),
    ],
)
def test_hint_refuses_bad_input_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hint", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error
    assert error.count("\n") == 1


def test_simulate_summarises_repeatably(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--player", "hard", "--games", "300", "--seed", "1", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--player", "hard", "--games", "300", "--seed", "1", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert first["games"] == 300
    assert first["worst"] <= first["percentiles"]["50"] <= first["best"]


def test_simulate_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--player", "easy", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "20 games of easy" in out
    assert "Full House Same Color" in out
    percentiles = next(line for line in out.splitlines() if line.startswith("percentiles "))
    figures = re.findall(r"\d+%: (\S+?)(?:,|$)", percentiles)
    assert len(figures) == 7
    # Every figure in points has two decimals, whole or not.
    assert all(re.fullmatch(r"\d+\.\d\d", figure) for figure in figures)
    assert re.search(r"^mean \d+\.\d\d \(standard error \d+\.\d\d\), std \d+\.\d\d$", out, re.MULTILINE)


@pytest.mark.timeout(120)
def test_simulate_stopped_with_ctrl_c_says_how_many_games_it_played_and_exits_130() -> None:
    command = subprocess.Popen(
        [sys.executable, "-m", "kismet_dice", "simulate", "--player", "easy", "--games", "20000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A process started with SIGINT ignored (as a test runner's workers may be) passes that on,
        # and Python then never raises KeyboardInterrupt: the command gets Ctrl+C as a terminal gives it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert command.stderr is not None
    # A pipe is told the progress in tenths: Ctrl+C comes once the first tenth is played.
    said = [command.stderr.readline() for _ in range(2)]
    assert "Playing easy: 10%\n" in said, said
    command.send_signal(signal.SIGINT)
    out, err = command.communicate(timeout=60)
    assert command.returncode == 130
    last = err.strip().splitlines()[-1]
    stopped = re.fullmatch(r"Stopped after ([\d,]+) of 20,000 games\.", last)
    assert stopped is not None, err
    assert 2_000 <= int(stopped[1].replace(",", "")) < 20_000
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--player", "target"], "--player target needs --target T"),
        (["--player", "hard", "--target", "400"], "--target is for --player target only"),
        (["--target", "400"], "--target is for --player target only"),
    ],
)
def test_simulate_asks_for_a_target_with_the_target_player_only(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--games", "10", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error
    assert error.count("\n") == 1


def test_simulate_names_the_target_player_among_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--player", "lucky"])
    assert "a computer player is easy, medium, hard, target, win, not 'lucky'" in capsys.readouterr().err


def test_chances_from_a_sheet_are_exact_and_a_pipe_is_told_how_far_the_work_is(
    kismet_table: StrategyTable, capsys: pytest.CaptureFixture[str]
) -> None:
    filled = "ONES=3,TWOS=6,THREES=9,FOURS=12,FIVES=15,SIXES=18,THREE_OF_A_KIND=20,STRAIGHT=30"
    assert main(["chances", "--target", "250", "--filled", filled, "--json"]) == 0
    captured = capsys.readouterr()
    found = json.loads(captured.out)
    assert found["exact"] is True and found["interval"] is None and 0 < found["chance"] < 1
    # Not a terminal: a line at each tenth of the pass instead of a bar, the last at 100%.
    steps = captured.err.splitlines()
    assert steps and all(re.fullmatch(r"Following perfect play: \d+%", step) for step in steps)
    assert steps[-1] == "Following perfect play: 100%"


def test_a_command_that_compiles_the_strategy_says_so_once_above_its_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(strategy, "_told_compiling", threading.Event())  # a command of its own
    loops, more = fresh_loops("kismet_dice.strategy.first_use"), fresh_loops("kismet_dice.strategy.later")
    with strategy.progress_bar() as bar:
        task = bar.add_task("Solving Kismet", total=2)
        assert call(loops["outer"], 1) == 4
        bar.update(task, completed=1)
        assert call(more["outer"], 1) == 4  # compiling again, as a distribution after a solve
        bar.update(task, completed=2)
    lines = capsys.readouterr().err.splitlines()
    assert lines.count(narration.COMPILING) == 1
    assert lines.index(narration.COMPILING) < lines.index("Solving Kismet: 50%")


def waiting_for(other: OtherKismet, arguments: list[str]) -> list[int]:
    """Run the command ``arguments`` while ``other`` holds the lock it needs: once the command is
    told it waits, the other stores its result and lets go. The command's exit codes (one once it
    has ended)."""
    waited = threading.Event()
    codes: list[int] = []
    command = threading.Thread(target=lambda: codes.append(main(arguments)), daemon=True)
    with telling_waits(lambda waiting: waited.set() if waiting else None):
        command.start()
        assert waited.wait(10)
    other.finish()
    command.join(30)
    return codes


def test_a_command_waiting_for_another_kismets_solve_says_so_shows_its_progress_and_loads_its_table(
    kismet_table: StrategyTable,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("KISMET_HOME", str(tmp_path))  # no table here yet
    path = table_path(kismet_table.rules)
    other = OtherKismet(path, 3, 10, lambda: save(kismet_table, path))
    assert waiting_for(other, ["solve", "--json"]) == [0]
    captured = capsys.readouterr()
    assert json.loads(captured.out)["expected_score"] == kismet_table.expected_score
    lines = captured.err.splitlines()
    assert lines.count(narration.WAITING) == 1
    assert lines.index(narration.WAITING) < lines.index("Solving Kismet: 30%")
    # The other's progress, then its table loaded: no solve of its own after the wait.
    assert [line for line in lines if line.startswith("Solving")] == ["Solving Kismet: 30%"]


def test_chances_waiting_for_another_kismets_distribution_say_so_and_load_what_it_stored(
    kismet_table: StrategyTable,
    kismet_distribution: Distribution,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("KISMET_HOME", str(tmp_path))  # the table, but no distribution yet
    save(kismet_table, table_path(kismet_table.rules))
    path = distribution_path(kismet_table.rules)
    other = OtherKismet(path, 2, 10, lambda: save_distribution(kismet_table.rules, kismet_distribution, path))
    assert waiting_for(other, ["chances", "--target", "300", "--json"]) == [0]
    captured = capsys.readouterr()
    assert json.loads(captured.out)["chance"] == kismet_distribution.at_least(300)
    lines = captured.err.splitlines()
    assert lines.count(narration.WAITING) == 1
    # The other's progress, then what it stored loaded: no pass of its own after the wait.
    assert [line for line in lines if line != narration.WAITING] == ["Following perfect play: 20%"]
