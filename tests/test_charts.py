"""The SVG charts: well-formed, holding what they were given, every text escaped."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kismet_dice import charts
from kismet_dice.rules import Box, Section, bonus
from kismet_dice.session.stat_charts import chart_svg
from kismet_dice.session.statistics import PlayedSheet, figures
from kismet_dice.strategy import StrategyTable, simulate
from kismet_dice.strategy.reference import reference

ROOT = Path(__file__).resolve().parents[1]
# The chart is written under build/; KISMET_SCREENSHOT=docs writes the README's copy.
SHOTS = ROOT / ("docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build")

SVG = "{http://www.w3.org/2000/svg}"
NAME = 'Ann <script>alert("x")</script> & "Bo"'


def marks(svg: str, kind: str) -> list[ET.Element]:
    return [element for element in ET.fromstring(svg).iter() if element.get("class") == kind]


def test_the_histogram_has_a_bar_per_bin_with_games_and_a_line_per_reference() -> None:
    svg = charts.histogram(
        [201, 215, 219, 260, 330],
        title=NAME,
        references={"perfect play": {300: 0.5, 320: 0.5}, "easy <player>": {250: 1.0}},
        bin_width=20,
    )
    bars = marks(svg, "bar")
    assert [(bar.get("data-from"), bar.get("data-count")) for bar in bars] == [
        ("200", "3"),
        ("260", "1"),
        ("320", "1"),
    ]
    # Bars read as shares: three of five games stand three times as tall as one of five.
    heights = [float(bar.get("height", "")) for bar in bars]
    assert heights[0] == pytest.approx(3 * heights[1], abs=0.2)
    assert [line.get("data-name") for line in marks(svg, "reference")] == ["perfect play", "easy <player>"]


def test_every_text_is_escaped_and_the_title_kept_whole() -> None:
    for svg in (
        charts.histogram([250], title=NAME, name=NAME),
        charts.line_chart([250, 260], title=NAME, name=NAME, references={NAME: 255.0}),
        charts.bar_chart({NAME: 3.0}, title=NAME, name=NAME, reference={NAME: 2.0}, reference_name=NAME),
    ):
        root = ET.fromstring(svg)  # would fail on an unescaped <, & or quote
        assert root.tag == f"{SVG}svg"
        title = root.find(f"{SVG}title")
        assert title is not None and title.text == NAME
        assert "<script" not in svg
        assert not [element for element in root.iter() if element.tag == f"{SVG}script"]
        assert "style=" not in svg  # a page's Content-Security-Policy forbids inline styles


def test_the_line_chart_has_every_point_in_order_and_the_reference_across() -> None:
    svg = charts.line_chart([180, 320, 250], title="T", references={"perfect play": 315.2})
    points = marks(svg, "point")
    assert [point.get("data-value") for point in points] == ["180", "320", "250"]
    xs = [float(point.get("cx", "")) for point in points]
    assert xs == sorted(xs)
    ys = [float(point.get("cy", "")) for point in points]
    assert ys[1] < ys[2] < ys[0]  # higher totals stand higher
    [line] = marks(svg, "reference")
    assert float(line.get("y1", "")) == float(line.get("y2", ""))
    assert ys[1] < float(line.get("y1", "")) < ys[2]


def test_the_bar_chart_has_a_bar_and_a_mark_per_label() -> None:
    svg = charts.bar_chart({"Ones": 1.0, "Kismet": 20.0}, title="T", reference={"Ones": 2.0, "Kismet": 10.0})
    bars = marks(svg, "bar")
    assert [bar.get("data-label") for bar in bars] == ["Ones", "Kismet"]
    assert float(bars[1].get("width", "")) == pytest.approx(20 * float(bars[0].get("width", "")), rel=0.02)
    references = marks(svg, "reference")
    assert [mark.get("data-label") for mark in references] == ["Ones", "Kismet"]


def test_charts_of_no_games_are_still_pictures() -> None:
    for svg in (
        charts.histogram([], title="T"),
        charts.line_chart([], title="T"),
        charts.bar_chart({}, title="T"),
    ):
        assert ET.fromstring(svg).tag == f"{SVG}svg"
        assert marks(svg, "bar") == marks(svg, "point") == []


def test_the_histograms_description_says_what_its_bars_count_and_names_its_lines() -> None:
    def description(svg: str) -> str | None:
        found = ET.fromstring(svg).find(f"{SVG}desc")
        return None if found is None else found.text

    lines = {"perfect play": {300: 1.0}, "the medium player": {250: 1.0}, "the easy player": {200: 1.0}}
    assert description(charts.histogram([], title="T", references=lines)) == (
        "Bins of 20 points; the lines are perfect play, the medium player and the easy player"
    )
    assert description(charts.histogram([250, 262], title="T", references={"perfect play": {300: 1.0}})) == (
        "2 games in bins of 20 points; the line is perfect play"
    )


@pytest.mark.timeout(600)
@pytest.mark.usefixtures("charts_reference")
def test_the_readme_chart_shows_forty_games_over_perfect_play(kismet_table: StrategyTable) -> None:
    # Forty games of the medium player stand for a person's; KISMET_SCREENSHOT=docs writes the README's copy.
    played = simulate.run("medium", 40, seed=7, processes=1)
    basic = [box.section is Section.BASIC for box in Box]
    sheets = [
        PlayedSheet(
            int(total),
            bonus(sum(int(p) for p, b in zip(row, basic, strict=True) if b)),
            tuple(int(p) for p in row),
            0,
            False,
        )
        for row, total in zip(played.entries, played.totals, strict=True)
    ]
    player = figures("Sam", False, sheets)
    svg = chart_svg("totals", player, reference(kismet_table))
    bars = marks(svg, "bar")
    assert sum(int(bar.get("data-count", "")) for bar in bars) == 40
    assert len(marks(svg, "reference")) == 3
    assert ">Sam's games</text>" in svg
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / "stats-totals.svg").write_text(svg, encoding="utf-8")
