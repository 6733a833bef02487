"""Statistics on the web: the JSON of the command, the charts as SVG, and the pages in a browser."""

from __future__ import annotations

import logging
import os
import random
import re
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest
from playwright.sync_api import expect

from kismet_dice.session import narration
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer, StrategyTable
from kismet_dice.strategy import computer as strategy_computer
from kismet_dice.strategy.reference import reference_path
from kismet_dice.web import create_app
from kismet_dice.web.computer import STOPPING, Stopped, Stopping
from kismet_dice.web.security import CONTENT_SECURITY_POLICY
from kismet_dice.web.service import WebService
from tests.support.browser import Pages, serious, served
from tests.support.look import contrast
from tests.support.server import serving
from tests.support.stats import KISMET_FIRST, TOP_DOWN, HeldReference, store_game, total
from tests.support.web import QueuedDice, client

pytestmark = pytest.mark.timeout(600)
NAME = 'Ann <b>"&'
IDLE = {"playing": False, "progress": None, "available": True}
"""What the server says of the games the charts compare with when it has the table and plays none."""


@pytest.fixture
def totals(tmp_path: Path) -> list[int]:
    """Two finished games of a name that needs escaping, and one of a computer seat."""
    with Storage.open(tmp_path) as storage:
        first = store_game(
            storage,
            [(NAME, [6, 6, 6, 6, 5], TOP_DOWN), ("Hal", [1, 1, 2, 2, 3], TOP_DOWN)],
            levels=[None, "easy"],
        )
        second = store_game(storage, [(NAME, [6, 6, 6, 6, 6], KISMET_FIRST)])
    return [total(first[0]), total(second[0])]


def test_the_api_gives_the_figures_of_people_as_the_command_does(tmp_path: Path, totals: list[int]) -> None:
    with client(tmp_path, QueuedDice()) as web:
        everyone = web.get("/api/stats")
        one = web.get(f"/api/stats/{NAME}")
        nobody = web.get("/api/stats/Zed")
    assert everyone.status_code == 200
    [player] = everyone.json()["players"]  # the computer seat is not counted
    assert (player["name"], player["games"], player["totals"]) == (NAME, 2, totals)
    assert player["best"] == max(totals)
    assert one.json() == everyone.json()
    assert nobody.status_code == 404
    assert nobody.json() == {"error": "Zed has no finished games here"}


def test_a_name_with_a_slash_has_its_figures_chart_and_page_at_its_encoded_link(tmp_path: Path) -> None:
    with Storage.open(tmp_path) as storage:
        store_game(storage, [("AC/DC", [6, 6, 6, 6, 5], TOP_DOWN)])
    with client(tmp_path, QueuedDice()) as web:
        figures = web.get("/api/stats/AC%2FDC")  # as the page's links write it
        chart = web.get("/api/stats/AC%2FDC/chart/totals.svg")
        page = web.get("/stats/AC%2FDC")
    assert figures.status_code == 200
    assert [player["name"] for player in figures.json()["players"]] == ["AC/DC"]
    assert chart.status_code == 200 and chart.headers["content-type"].startswith("image/svg+xml")
    assert page.status_code == 200 and "<title>Statistics · Kismet</title>" in page.text


@pytest.mark.parametrize("kind", ["totals", "time", "boxes"])
@pytest.mark.usefixtures("charts_reference")
def test_a_chart_is_svg_with_the_references_of_perfect_play(
    tmp_path: Path, totals: list[int], computer: Computer, kind: str
) -> None:
    with client(tmp_path, QueuedDice(), computer) as web:
        answer = web.get(f"/api/stats/{NAME}/chart/{kind}.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(answer.text)
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and NAME in str(title.text)
    assert [e for e in root.iter() if e.get("class") == "reference"]
    # Anyone may open a name's page: the legend names that person, never "you".
    legend = [str(e.text) for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert (NAME if kind == "boxes" else f"{NAME}'s games") in legend
    assert not [text for text in legend if text.lower().startswith("you")]
    if kind == "time":
        assert [int(e.get("data-value", "")) for e in root.iter() if e.get("class") == "point"] == totals


def test_a_chart_of_an_unknown_kind_or_name_is_refused(tmp_path: Path, totals: list[int]) -> None:
    with client(tmp_path, QueuedDice()) as web:
        assert web.get(f"/api/stats/{NAME}/chart/pie.svg").status_code == 422
        assert web.get("/api/stats/Zed/chart/totals.svg").status_code == 404


@pytest.mark.usefixtures("charts_reference")
def test_the_page_before_any_finished_game_shows_what_there_is_to_aim_at(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=1, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(address + "/stats")
        expect(page.locator("#stats")).to_have_text("No game has been played to the end here yet.")
        chart = page.locator("#reference-chart svg#chart-reference")
        expect(chart).to_be_visible(timeout=180_000)
        expect(chart).to_have_attribute("aria-label", re.compile("^Totals of perfect play"))
        expect(chart.locator(".reference")).to_have_count(3)
        assert serious(page) == []
        page.close()


@pytest.mark.usefixtures("charts_reference")
def test_the_pages_show_the_figures_and_the_charts_accessibly(
    browser: Pages, tmp_path: Path, totals: list[int], computer: Computer
) -> None:
    assert "style-src 'self'" in CONTENT_SECURITY_POLICY  # the charts must show under it
    with served(tmp_path, seed=1, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(address + "/stats")
        expect(page.locator("#stats .player-name")).to_have_text([NAME])
        assert serious(page) == []
        page.click("#stats .player-name a")
        expect(page.locator("h1")).to_have_text(f"Statistics of {NAME}")
        expect(page.locator("#figures")).to_contain_text(str(max(totals)))
        for kind in ("totals", "time", "boxes"):
            chart = page.locator(f"svg#chart-{kind}")
            # The first chart makes the reference of perfect play: seconds, once per server.
            expect(chart).to_be_visible(timeout=180_000)
            expect(chart).to_have_attribute("width", "720")
            expect(chart).to_have_attribute("aria-label", re.compile(f"for {re.escape(NAME)}$"))
        # Drawn into the page, each chart's title keeps an id of its own.
        assert page.evaluate(
            "new Set([...document.querySelectorAll('[id]')].map((n) => n.id)).size"
        ) == page.evaluate("document.querySelectorAll('[id]').length")
        assert serious(page) == []
        # The charts follow the theme: in the dark their text is light on a dark ground, and the
        # person's bars and the references stand out from it.
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            ground = ("#chart-totals .background", "fill")
            assert contrast(page, "#chart-totals text", "fill", ground)["text"] >= 4.5
            assert contrast(page, "#chart-totals .bar", "fill", ground)["text"] >= 3
            assert contrast(page, "#chart-totals .reference", "stroke", ground)["text"] >= 3
        dark = page.evaluate("getComputedStyle(document.querySelector('#chart-totals .background')).fill")
        assert dark == "rgb(27, 29, 28)"
        if os.environ.get("KISMET_SCREENSHOT") == "docs":
            page.screenshot(
                path=str(Path(__file__).resolve().parents[2] / "docs" / "web-stats.png"), full_page=True
            )
        page.close()


@pytest.mark.usefixtures("charts_reference")
def test_before_any_finished_game_the_reference_chart_shows_the_computer_players_totals_alone(
    tmp_path: Path, computer: Computer
) -> None:
    with client(tmp_path, QueuedDice(), computer) as web:
        assert web.get("/api/stats").json() == {"players": []}
        assert web.get("/api/chart-reference").json()["available"] is True
        answer = web.get("/api/chart-reference/totals.svg")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(answer.text)
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "What perfect play and the computer players score"
    assert not [e for e in root.iter() if e.get("class") == "bar"]  # no one's games
    lines = [e.get("data-name") for e in root.iter() if e.get("class") == "reference"]
    assert lines == ["perfect play", "medium player", "easy player"]


def test_without_the_strategy_table_there_is_no_reference_chart_and_the_page_is_told(tmp_path: Path) -> None:
    with client(tmp_path, QueuedDice()) as web:  # a home where nothing is solved
        known = web.get("/api/chart-reference").json()
        answer = web.get("/api/chart-reference/totals.svg")
    assert known == {"playing": False, "progress": None, "available": False}
    assert answer.status_code == 503
    assert answer.json() == {"error": "the strategy table is not on this server yet"}


def test_while_a_chart_waits_for_the_games_it_compares_with_the_server_says_how_far_they_are(
    tmp_path: Path, totals: list[int], computer: Computer, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldReference(1100)  # in this test's home, where no games are stored
    monkeypatch.setattr(strategy_computer, "reference", held)
    with client(tmp_path, QueuedDice(), computer) as web, ThreadPoolExecutor(1) as pool:
        assert web.get("/api/chart-reference").json() == IDLE
        assert web.get("/api/words").json()["playing_reference"] == narration.playing_reference("this server")
        drawn = pool.submit(web.get, f"/api/stats/{NAME}/chart/totals.svg")
        try:
            assert held.reached.wait(timeout=60)
            playing = web.get("/api/chart-reference").json()
            assert playing["playing"] and 0 < playing["progress"] < 1
        finally:
            held.go.set()
        assert drawn.result(timeout=60).status_code == 200
        assert web.get("/api/chart-reference").json() == IDLE


def test_a_chart_still_waiting_when_the_server_stops_is_answered_503_and_its_games_stop(
    tmp_path: Path,
    computer: Computer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    kismet_table: StrategyTable,
) -> None:
    held = HeldReference(1102)  # in this test's home, where no games are stored
    monkeypatch.setattr(strategy_computer, "reference", held)
    # The games go on only once the server has told them to stop, as when they outlast its graceful
    # wait: they then stop at their next progress rather than hold the stopped process.
    stop = Stopping.stop

    def stopped(self: Stopping) -> None:
        stop(self)
        held.go.set()

    monkeypatch.setattr(Stopping, "stop", stopped)
    # uvicorn's own logging, set up by any server started before in this process, keeps its lines
    # from the root logger: caplog listens on uvicorn's error logger itself.
    errors = logging.getLogger("uvicorn.error")
    errors.addHandler(caplog.handler)
    caplog.set_level(logging.INFO, logger="uvicorn.error")
    app = create_app(tmp_path, random.Random(1), computer=computer, pace=0)
    try:
        with ThreadPoolExecutor(1) as pool:
            # uvicorn's logging left to the test's (log_config=None), so that caplog reads it; a
            # graceful wait shorter than the server's, which the chart outlasts all the same.
            with serving(app, timeout_graceful_shutdown=0.5, log_config=None) as address:
                drawn = pool.submit(httpx2.get, address + "/api/chart-reference/totals.svg", timeout=60)
                assert held.reached.wait(timeout=60)
            answer = drawn.result(timeout=60)
    finally:
        held.go.set()
        errors.removeHandler(caplog.handler)
    assert answer.status_code == 503
    assert answer.json() == {"error": STOPPING}
    assert held.ended.wait(timeout=60) and isinstance(held.raised, Stopped)
    assert not reference_path(kismet_table).exists()  # nothing stored of the games cut short
    assert "timeout graceful shutdown exceeded" in caplog.text  # the chart did outlast the wait
    assert "Exception in ASGI application" not in caplog.text and "Traceback" not in caplog.text


def test_once_the_server_is_stopping_a_chart_starts_no_games_and_is_answered_503(
    tmp_path: Path, computer: Computer
) -> None:
    with client(tmp_path, QueuedDice(), computer) as web:
        service: WebService = web.app.state.service  # type: ignore[attr-defined]
        service.stopping.stop()  # as the server's stop does, before its last requests end
        answer = web.get("/api/chart-reference/totals.svg")
        known = web.get("/api/chart-reference").json()
    assert answer.status_code == 503
    assert answer.json() == {"error": STOPPING}
    assert known == IDLE  # no games were started


def test_a_page_waiting_for_its_charts_shows_how_far_the_games_they_compare_with_are(
    browser: Pages, tmp_path: Path, totals: list[int], computer: Computer, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldReference(1101)  # in this test's home, where no games are stored
    monkeypatch.setattr(strategy_computer, "reference", held)
    try:
        with served(tmp_path, seed=1, computer=computer) as address:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(address + "/stats/" + quote(NAME, safe=""))
            waiting = page.locator("figure.chart .drawing")
            expect(waiting).to_have_count(3)
            said = narration.playing_reference("this server")
            expect(waiting.first).to_have_text(re.compile(re.escape(said) + r" \d+%"))
            held.go.set()
            expect(page.locator("svg#chart-totals")).to_be_visible()
            expect(waiting).to_have_count(0)
            page.close()
    finally:
        held.go.set()
