"""``kismet stats``: the figures of scripted finished games, checked against sums made here."""

from __future__ import annotations

import functools
import json
import math
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kismet_dice import Box
from kismet_dice.cli import main, stats
from kismet_dice.session import narration
from kismet_dice.session.stat_charts import REFERENCE_TITLE
from kismet_dice.session.statistics import NO_FINISHED_GAMES
from kismet_dice.storage import Storage
from kismet_dice.strategy import reference as reference_module
from kismet_dice.strategy.reference import reference
from tests.support.stats import KISMET_FIRST, TOP_DOWN, store_game, total

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def games(home: Path) -> dict[str, list[dict[Box, int]]]:
    """Ann: three counted games (one with fourteen second Kismets) and one assisted; Hal, a computer
    seat, one game beside Ann."""
    with Storage.open(home) as storage:
        ann = [
            store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])[0],
            store_game(storage, [("Ann", [6, 6, 6, 6, 6], KISMET_FIRST)])[0],
        ]
        both = store_game(
            storage,
            [("Ann", [1, 1, 2, 2, 3], TOP_DOWN), ("Hal", [5, 5, 5, 4, 4], TOP_DOWN)],
            levels=[None, "hard"],
        )
        ann.append(both[0])
        assisted = store_game(storage, [("Ann", [3, 3, 3, 4, 4], TOP_DOWN)], assisted=True)[0]
    return {"Ann": ann, "Hal": [both[1]], "assisted": [assisted]}


def stats_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> list[dict[str, object]]:
    assert main(["stats", "--json", *arguments]) == 0
    players: list[dict[str, object]] = json.loads(capsys.readouterr().out)["players"]
    return players


def test_the_figures_are_those_of_the_unassisted_games_added_up_by_hand(
    games: dict[str, list[dict[Box, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    [ann] = stats_json(capsys)
    totals = [total(points) for points in games["Ann"]]
    mean = sum(totals) / 3
    assert ann["name"] == "Ann"
    assert ann["games"] == 3
    assert ann["assisted"] == 1
    assert ann["totals"] == totals
    assert ann["mean"] == round(mean, 2)
    assert ann["best"] == max(totals)
    assert ann["worst"] == min(totals)
    assert ann["std"] == round(math.sqrt(sum((t - mean) ** 2 for t in totals) / 2), 2)
    assert ann["recent_mean"] == round(mean, 2)
    kismets = sum(points[Box.KISMET] > 0 for points in games["Ann"])
    assert ann["kismet_rate"] == round(kismets / 3, 4)
    # Every roll after the first Kismet of the Kismet-first game was another five sixes.
    assert ann["second_kismets"] == len(Box) - 1
    box_mean = ann["box_mean"]
    assert isinstance(box_mean, dict)
    for box in Box:
        assert box_mean[box.name] == round(sum(points[box] for points in games["Ann"]) / 3, 2)
    basics = [sum(points[box] for box in list(Box)[:6]) for points in games["Ann"]]
    no_bonus = sum(basic < 63 for basic in basics)
    assert ann["bonus_rate"] == {"0": round(no_bonus / 3, 4), "35": 0.0, "55": 0.0, "75": 0.0}


def test_computer_seats_count_only_when_asked_for(
    games: dict[str, list[dict[Box, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert [player["name"] for player in stats_json(capsys)] == ["Ann"]
    ann, hal = stats_json(capsys, "--computers")
    assert (hal["name"], hal["computer"], hal["games"]) == ("Hal", True, 1)
    assert hal["best"] == total(games["Hal"][0])
    assert ann["games"] == 3


def test_the_json_has_the_shape_of_the_issue(games: object, capsys: pytest.CaptureFixture[str]) -> None:
    [ann] = stats_json(capsys, "Ann")
    assert {"name", "games", "mean", "best", "worst", "std", "bonus_rate", "kismet_rate"} <= set(ann)
    assert {"second_kismets", "box_mean", "recent_mean", "assisted"} <= set(ann)
    assert isinstance(ann["mean"], float)
    assert isinstance(ann["best"], int)


def test_the_last_ten_are_the_ten_games_that_ended_last(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Storage.open(home) as storage:
        # Eleven games: the first scores far less than the ten after it.
        first = total(store_game(storage, [("Ann", [1, 1, 2, 2, 3], TOP_DOWN)])[0])
        later = [total(store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])[0]) for _ in range(10)]
    [ann] = stats_json(capsys)
    assert ann["recent_mean"] == round(sum(later) / 10, 2)
    assert ann["mean"] == round((first + sum(later)) / 11, 2)


def test_a_name_with_no_games_is_one_line_and_status_1(
    games: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "Zed"]) == 1
    captured = capsys.readouterr()
    assert captured.err == "kismet: Zed has no finished games here\n"
    assert captured.out == ""
    assert stats_json(capsys, "Zed") == []


def test_an_empty_store_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats"]) == 0
    assert "No finished games yet" in capsys.readouterr().out
    assert stats_json(capsys) == []


def test_the_text_names_the_figures(games: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "Ann"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ann: 3 game(s); 1 assisted game(s) not counted\n")
    assert "second Kismets: 14" in out


@pytest.fixture
def solved(home: Path, kismet_home: str) -> None:
    """The session's solved table, found in this test's home."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "tables").symlink_to(Path(kismet_home) / "tables")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("kind", ["totals", "time", "boxes"])
def test_a_chart_is_written_as_svg(
    games: dict[str, list[dict[Box, int]]],
    solved: None,
    charts_reference: None,  # after ``solved``, which links the home's tables to the session's
    tmp_path: Path,
    kind: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"{kind}.svg"
    assert main(["stats", "Ann", "--chart", str(path), "--chart-kind", kind]) == 0
    assert capsys.readouterr().out == f"Wrote the {kind} chart of Ann to {path}.\n"
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    marks = [element for element in root.iter() if element.get("class") in ("bar", "point", "reference")]
    if kind == "time":
        points = [int(e.get("data-value", "")) for e in marks if e.get("class") == "point"]
        assert points == [total(points) for points in games["Ann"]]
    elif kind == "totals":
        assert {e.get("data-name") for e in marks if e.get("class") == "reference"} == {
            "perfect play",
            "medium player",
            "easy player",
        }
        assert sum(int(e.get("data-count", "")) for e in marks if e.get("class") == "bar") == 3
    else:
        assert len([e for e in marks if e.get("class") == "bar"]) == len(Box)
        assert len([e for e in marks if e.get("class") == "reference"]) == len(Box)


def test_a_chart_needs_a_name_with_games(
    games: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "Zed", "--chart", str(tmp_path / "zed.svg")]) == 1
    assert capsys.readouterr().err == "kismet: Zed has no finished games here\n"
    assert not (tmp_path / "zed.svg").exists()


@pytest.mark.timeout(600)
def test_with_no_finished_game_the_chart_is_of_perfect_play_and_the_computer_players_alone(
    solved: None, charts_reference: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "totals.svg"
    assert main(["stats", "--chart", str(path)]) == 0
    out = capsys.readouterr().out
    wrote = f"Wrote the totals of perfect play and the computer players to {path}."
    assert out == f"{NO_FINISHED_GAMES}\n{wrote}\n"
    root = ET.parse(path).getroot()
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == REFERENCE_TITLE
    kinds = [element.get("class") for element in root.iter()]
    assert kinds.count("reference") == 3 and "bar" not in kinds
    # The other kinds draw a person's games: with none, nothing is written.
    other = tmp_path / "time.svg"
    assert main(["stats", "--chart", str(other), "--chart-kind", "time"]) == 2
    assert capsys.readouterr().err == "kismet: no finished games yet: a time chart draws a player's games\n"
    assert not other.exists()


def test_the_first_chart_on_a_machine_shows_the_progress_of_the_games_it_compares_with(
    games: object,
    home: Path,
    kismet_home: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # This home's own copy of the table: the games played are stored in it, not in the session's.
    shutil.copytree(
        Path(kismet_home) / "tables", home / "tables", ignore=shutil.ignore_patterns("*.reference")
    )
    monkeypatch.setattr(stats, "reference", functools.partial(reference, perfect_games=500, other_games=20))
    path = tmp_path / "totals.svg"
    assert main(["stats", "Ann", "--chart", str(path)]) == 0
    told = capsys.readouterr().err.splitlines()
    said = narration.PLAYING_REFERENCE.removesuffix("…")
    assert told[0] == f"{said}: 0%" and told[-1] == f"{said}: 100%" and len(told) > 2
    # The next chart reads them back: nothing is played, no progress.
    monkeypatch.setattr(reference_module, "_made", {})
    assert main(["stats", "Ann", "--chart", str(path), "--chart-kind", "boxes"]) == 0
    assert capsys.readouterr().err == ""
