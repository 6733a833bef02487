"""The web table in a real browser: a whole solo game by clicking, two seats playing live, advice,
and a person playing against a computer seat."""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Page, expect

from kismet_dice.rules import Box
from kismet_dice.session import narration
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer
from tests.support.browser import Pages, served
from tests.support.games import fill_hall

ROOT = Path(__file__).resolve().parents[2]
# Every run keeps its screenshot under build/; KISMET_SCREENSHOT=docs refreshes the README's copy.
SCREENSHOT = (
    ROOT / ("docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build") / "web-computer.png"
)

# A browser waits for what the page shows: a page that stalls fails the test.
pytestmark = pytest.mark.timeout(300)


def settled(page: Page) -> None:
    """Wait until the page's last action has its answer (a page takes one action at a time)."""
    expect(page.locator("body")).to_have_attribute("data-busy", "no")


def score_first_open_box(page: Page, seat: int) -> str:
    """Click the first box the dice can go in; a box that would score zero asks to be clicked again."""
    settled(page)
    option = page.locator(f"#sheet td[data-seat='{seat}'] button.option").first
    box = option.locator("xpath=..").get_attribute("data-box")
    assert box is not None
    button = page.locator(f"#sheet td[data-seat='{seat}'][data-box='{box}'] button.option")
    zero = button.inner_text() == "0"
    # Two steps: the first click chooses the box and says what it would score; the second enters it.
    button.click()
    expect(button).to_have_class(re.compile("chosen"))
    expect(page.locator("#status")).to_contain_text("would score 0" if zero else "would score")
    expect(page.locator(f"#sheet td[data-seat='{seat}'][data-box='{box}'] .entry")).to_have_count(0)
    button.click()
    expect(page.locator(f"#sheet td[data-seat='{seat}'][data-box='{box}'] .entry")).to_have_count(1)
    return box


def test_a_whole_solo_game_by_clicking_to_the_hall_of_fame(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=3, computer=computer) as address:
        page = browser.new_page()
        errors = browser.errors(page)
        page.goto(address + "/")
        page.fill(".seat-name", "Ann")
        page.click("#start")
        expect(page.locator("#role")).to_contain_text("You play Ann")
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        for turn in range(15):
            expect(page.locator("#turn")).to_contain_text(f"Round {turn + 1} · Your turn")
            page.click("#roll")
            expect(page.locator("#dice .die")).to_have_count(5)
            if turn % 3 == 0:
                # Hold the first die and roll the rest: it keeps its face.
                face = page.locator("#dice .die").first.get_attribute("data-face")
                settled(page)
                page.locator("#dice .die").first.click()
                expect(page.locator("#dice .die").first).to_have_attribute("aria-pressed", "true")
                page.click("#roll")
                expect(page.locator("#roll")).to_contain_text("1 left")
                expect(page.locator("#dice .die").first).to_have_attribute("data-face", face or "")
            score_first_open_box(page, 0)
            expect(page.locator("#dice .die")).to_have_count(0)
        expect(page.locator("#turn")).to_contain_text("The game is over: Ann scores")
        # How well she played, against perfect play: 15 boxes and the 5 holds before a second roll.
        expect(page.locator("#proficiency-players > li")).to_have_count(1)
        expect(page.locator("#proficiency-players > li")).to_contain_text("points lost over 20 choices")
        total = page.locator("#sheet .total").inner_text()
        expect(page.locator("#fame-form")).to_be_visible()
        page.fill("#fame-name", "Ann the Bold")
        page.click("#fame-enter")
        result = page.locator("#fame-result")
        expect(result).to_contain_text("Ann the Bold enters the Hall of Fame at number 1")
        page.click("#fame-result a")
        expect(page.locator("#hall tbody tr")).to_have_count(1)
        expect(page.locator("#hall tbody tr td").nth(1)).to_have_text("Ann the Bold")
        expect(page.locator("#hall tbody tr td").nth(2)).to_have_text(total)
        # The numbers (place, total, players) align right under their headings, the texts left.
        for row in ("#hall thead tr", "#hall tbody tr"):
            cells = page.locator(row).first.locator("th, td")
            aligned = cells.evaluate_all("cells => cells.map((cell) => getComputedStyle(cell).textAlign)")
            assert aligned == ["right", "left", "right", "left", "right"]
        # On a phone the date and the time each stay on one line (one box each, not broken at a hyphen).
        page.set_viewport_size({"width": 390, "height": 844})
        when = page.locator("#hall tbody td.when span")
        expect(when).to_have_count(2)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", page.locator("#hall tbody td.when").inner_text())
        assert when.evaluate_all("spans => spans.map((span) => span.getClientRects().length)") == [1, 1]
        assert errors == []


def test_two_seats_in_two_browsers_see_each_others_moves_live(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=11, computer=computer) as address:
        ann = browser.new_page(viewport={"width": 820, "height": 1000})
        errors = browser.errors(ann)
        ann.goto(address + "/")
        ann.fill(".seat-name", "Ann")
        ann.click("#add-seat")
        ann.locator(".seat-name").nth(1).fill("<b>Bob</b>")
        ann.click("#start")
        link = ann.locator("input.invitation[data-seat='1']").input_value()
        assert "#seat=" in link
        bob = browser.new_page(viewport={"width": 820, "height": 1000})
        errors += browser.errors(bob)
        bob.goto(link)
        watcher = bob.context.new_page()
        watcher.goto(link.split("#", 1)[0])
        for page in (ann, bob, watcher):
            expect(page.locator("body")).to_have_attribute("data-live", "yes")
        expect(bob.locator("#role")).to_have_text(re.compile(r"^You play <b>Bob</b>\."))
        expect(watcher.locator("#role")).to_contain_text("watching")
        # The name is text on every page, never markup.
        for page in (ann, bob):
            expect(page.locator("#sheet thead .player-name").nth(1)).to_have_text("<b>Bob</b>")
            expect(page.locator("#sheet thead b")).to_have_count(0)

        pages = {0: ann, 1: bob}
        first = 0 if "Your turn" in ann.locator("#turn").inner_text() else 1
        for turn in range(4):
            seat = (first + turn) % 2
            player, other = pages[seat], pages[1 - seat]
            expect(player.locator("#turn")).to_contain_text("Your turn")
            # Only the controls a page can use: the waiting player sees whose turn it is.
            expect(other.locator("#roll")).to_be_hidden()
            expect(other.locator("#waiting")).to_contain_text("Waiting for")
            player.keyboard.press("r")
            settled(player)
            expect(other.locator("#dice .die")).to_have_count(5)
            faces = player.locator("#dice .die").evaluate_all("dice => dice.map(d => d.dataset.face)")
            expect(other.locator("#dice .die").first).to_have_attribute("data-face", faces[0])
            assert other.locator("#dice .die").evaluate_all("dice => dice.map(d => d.dataset.face)") == faces
            # Keys as in the terminal game: 2 holds the second die, space rolls the rest.
            player.keyboard.press("2")
            expect(player.locator("#dice .die").nth(1)).to_have_attribute("aria-pressed", "true")
            player.keyboard.press(" ")
            settled(player)
            expect(other.locator("#log li").first).to_contain_text("(die 2)")
            expect(watcher.locator("#log li").first).to_contain_text("(die 2)")
            # Arrow down twice chooses the second open box; Enter enters it.
            player.keyboard.press("ArrowDown")
            player.keyboard.press("ArrowDown")
            box = player.locator("#sheet tr.selected").get_attribute("data-box")
            player.keyboard.press("Enter")
            for page in (other, watcher):
                entry = page.locator(f"#sheet td[data-seat='{seat}'][data-box='{box}'] .entry")
                expect(entry).to_have_count(1)
        assert errors == []


def test_advice_in_the_browser_warns_first_then_ranks_the_options(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=5, computer=computer) as address:
        page = browser.new_page()
        errors = browser.errors(page)
        page.goto(address + "/")
        page.fill(".seat-name", "Ann")
        page.click("#start")
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        expect(page.locator("#turn")).to_contain_text("Your turn")
        expect(page.locator("#ask-advice")).to_be_disabled()  # nothing to advise on before a roll
        page.click("#roll")
        settled(page)
        page.keyboard.press("h")
        # First the price: an assisted game stays out of the Hall of Fame.
        expect(page.locator("#advice-warning")).to_contain_text("cannot enter the Hall of Fame")
        expect(page.locator("#assisted")).to_be_hidden()
        page.click("#advice-confirm")
        options = page.locator("#advice-options tbody tr")
        expect(options.first).to_have_class(re.compile("best"))
        expect(options.first.locator(".rank")).to_have_text(narration.BEST)
        expect(page.locator("#advice-options tr.best")).to_have_count(1)
        # The terminal's table, in its words: the heading, the columns, and how an option is played.
        expect(page.locator("#advice h2")).to_have_text(narration.ADVICE_TITLE)
        headings = page.locator("#advice-options thead th").all_text_contents()
        assert headings == ["", *narration.ADVICE_COLUMNS], headings
        expect(page.locator("#advice-keys")).to_have_text(narration.advice_keys())
        words = options.evaluate_all("items => items.map(i => i.querySelector('.words').textContent)")
        assert any(re.fullmatch(r"Keep( [1-6]){1,4}, roll [1-4]", text) for text in words), words
        assert any(text.startswith("Enter ") for text in words), words
        expected = options.evaluate_all(
            "items => items.map(i => Number(i.querySelector('.expected').textContent))"
        )
        assert expected == sorted(expected, reverse=True)
        losses = options.evaluate_all("items => items.map(i => i.querySelector('.loss').textContent)")
        assert losses[0] == "—" and losses[1:] == [
            narration.gives_away(expected[0], value, rank) for rank, value in enumerate(expected) if rank
        ]
        expect(page.locator("#assisted")).to_contain_text("cannot enter the Hall of Fame")
        # Advice is about these dice: the next roll clears it, and asking again needs no warning.
        page.click("#roll")
        expect(page.locator("#advice-options")).to_have_count(0)
        page.click("#ask-advice")
        expect(page.locator("#advice-options tr.best")).to_have_count(1)
        expect(page.locator("#advice-warning")).to_have_count(0)
        # Enter plays the highlighted option, the best at first, as in the terminal's advice.
        best = page.locator("#advice-options tr.best .words").text_content() or ""
        told = page.locator("#log li").count()
        page.keyboard.press("Enter")
        expect(page.locator("#log li")).to_have_count(told + 1)
        latest = page.locator("#log li").first.text_content() or ""
        assert ("kept" in latest) if best.startswith("Keep") else ("enters" in latest), (best, latest)
        assert errors == []


def test_a_person_plays_against_a_computer_seat(browser: Pages, tmp_path: Path, computer: Computer) -> None:
    with served(tmp_path, seed=21, computer=computer) as address:
        page = browser.new_page(viewport={"width": 900, "height": 1000})
        errors = browser.errors(page)
        page.goto(address + "/")
        page.fill(".seat-name", "Ann")
        page.click("#add-seat")
        page.locator(".seat-player").nth(1).select_option("hard")
        # A computer seat is offered a name, which the person may change.
        expect(page.locator(".seat-name").nth(1)).to_have_value("Computer (hard)")
        page.locator(".seat-name").nth(1).fill("Hal")
        page.click("#start")
        expect(page.locator("#role")).to_contain_text("You play Ann")
        expect(page.locator("#sheet thead .level")).to_have_text("computer, hard")
        # Hal has no invitation link: there is nobody to send it to.
        expect(page.locator("input.invitation")).to_have_count(0)
        hal = page.locator("#sheet td[data-seat='1'] .entry")
        began = None
        for round_number in (1, 2, 3):
            expect(page.locator("#turn")).to_contain_text(f"Round {round_number} · Your turn")
            # A page draws each state whole: on Ann's turn Hal's sheet is as Hal left it.
            if began is None:
                began = hal.count()  # 1 if Hal won the roll-off and has played round 1
                assert began in (0, 1)
            # Hal has played every earlier round, and this one too if he plays first.
            expect(hal).to_have_count(round_number - 1 + began)
            page.keyboard.press("r")
            settled(page)
            expect(page.locator("#dice .die")).to_have_count(5)
            if round_number < 3:
                score_first_open_box(page, 0)
        expect(page.locator("#log")).to_contain_text("Hal rolls")
        expect(page.locator("#log")).to_contain_text("Hal enters")
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT), full_page=True)
        assert errors == []
    assert SCREENSHOT.stat().st_size > 10_000


def test_late_advice_in_the_browser_shows_each_options_chance_of_a_hall_of_fame_total(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with Storage.open(tmp_path) as storage:
        fill_hall(storage, [300] * 9 + [120])
    with served(tmp_path, seed=8, computer=computer) as address:
        # The first twelve turns through the API (one roll each, the top open box): three boxes stay open.
        http = httpx2.Client(base_url=address, timeout=60)
        created = http.post("/api/games", json={"players": [{"name": "Ann"}]}).json()
        link = created["invitations"][0]["link"]
        token = {"X-Seat-Token": link.split("#seat=", 1)[1]}
        for box in [box.name for box in Box][:12]:
            assert http.post(f"/api/games/{created['id']}/roll", json={}, headers=token).status_code == 200
            assert (
                http.post(f"/api/games/{created['id']}/score", json={"box": box}, headers=token).status_code
                == 200
            )
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        errors = browser.errors(page)
        page.goto(address + link)
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        page.click("#roll")
        settled(page)
        page.keyboard.press("h")
        page.click("#advice-confirm")
        # The options come first; their chances follow, worked out on the server.
        expect(page.locator("#advice-hall")).to_have_text(narration.hall_chances(121))
        chances = page.locator("#advice-options tbody .chance")
        shown = chances.all_text_contents()
        assert shown and all(re.match(r"\d{1,3}\.\d%", text) for text in shown), shown
        expect(page.locator("#advice-options thead")).to_contain_text("Hall of Fame total (121+)")
        page.screenshot(path=str(ROOT / "build" / "web-hall-chances.png"))
        assert errors == []
