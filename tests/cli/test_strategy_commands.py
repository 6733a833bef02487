"""``kismet solve``, ``hint`` and ``simulate`` as a person uses them."""

from __future__ import annotations

import json

import pytest

from kismet_dice.cli import main
from kismet_dice.strategy.table import StrategyTable


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


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--dice", "1", "2", "3"], "give five dice"),
        (["--dice", "1", "2", "3", "4", "5", "--filled", "ONES=9"], "Ones cannot hold 9"),
        (["--dice", "1", "2", "3", "4", "5", "--filled", "NOPE=1"], "no box is called"),
        (["--dice", "1", "2", "3", "4", "5", "--filled", "ONES"], "BOX=POINTS"),
        (["--dice", "1", "2", "3", "4", "5", "--rolls-left", "3"], "rolls are left"),
        (["--dice", "1", "2", "3", "4", "5", "--filled", "ONES=1,ONES=1"], "already filled"),
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
