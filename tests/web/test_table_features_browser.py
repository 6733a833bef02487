"""The table's own features in a real browser: resigning (asked first), the rematch that moves
every seat's page to its own seat, the watch link, the lobby that remembers, and ? for help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kismet_dice.session import narration
from kismet_dice.strategy import Computer
from tests.support.browser import Pages, served, start

pytestmark = pytest.mark.timeout(300)


def test_two_people_resign_then_a_rematch_moves_each_browser_to_its_own_new_seat(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=5, computer=computer) as address:
        ann = browser.new_page(viewport={"width": 1280, "height": 800})
        start(ann, address, "Ann", "Bob")
        link = ann.locator("input.invitation").first.input_value()
        game = ann.url.split("/games/", 1)[1].split("#", 1)[0]
        expect(ann.locator("#watch-link")).to_have_value(f"{address}/games/{game}")
        bob = browser.new_page(viewport={"width": 390, "height": 844})
        bob.goto(link)
        expect(bob.locator("#role")).to_contain_text("You play Bob")
        # Resigning is asked first, in the words every interface uses; keeping on changes nothing.
        bob.click("#resign-button")
        expect(bob.locator("#resign-question")).to_have_text(narration.RESIGN_QUESTION)
        bob.click("#resign-cancel")
        expect(bob.locator("#resign-button")).to_be_visible()
        bob.click("#resign-button")
        bob.click("#resign-confirm")
        expect(ann.locator("#log")).to_contain_text("Bob resigns: 0 in Ones")
        expect(bob.locator("#resign")).to_be_hidden()
        ann.click("#resign-button")
        ann.click("#resign-confirm")
        expect(ann.locator("#turn")).to_contain_text("The game is over")
        expect(bob.locator("#turn")).to_contain_text("The game is over")
        # One resignation line each in the log, however the pages heard of it.
        assert len([text for text in bob.locator("#log li").all_text_contents() if "resigns" in text]) == 2
        ann.click("#play-again")
        expect(ann.locator("#role")).to_contain_text("You play Ann")
        expect(bob).to_have_url(re.compile(r"/games/(?!" + re.escape(game) + r")[^#]+#seat="))
        expect(bob.locator("#role")).to_contain_text("You play Bob")
        assert ann.url.split("#", 1)[0] == bob.url.split("#", 1)[0]
        assert ann.url.split("#seat=", 1)[1] != bob.url.split("#seat=", 1)[1]


def test_the_lobby_offers_the_last_set_up_names_empty_and_computer_seats_and_the_table_opens_help(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=8, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(address + "/")
        page.click("#add-seat")
        page.locator(".seat-player").nth(1).select_option("easy")
        expect(page.locator(".seat-name").nth(1)).to_have_value("Computer (easy)")
        page.locator(".seat-player").nth(1).select_option("medium")
        expect(page.locator(".seat-name").nth(1)).to_have_value("Computer (medium)")
        expect(page.locator("#levels dd[data-level='target']")).to_contain_text("aims at the least total")
        page.select_option("#turn-seconds", "60")
        page.check("#zero-kismet-counts")
        # The first name left empty: the seat takes its default name.
        page.click("#start")
        expect(page.locator("#role")).to_contain_text("You play Player 1")
        expect(page.locator("#turn-timer")).to_be_visible()
        page.keyboard.press("?")
        expect(page.locator("#rules-dialog")).to_have_attribute("aria-label", "Help")
        page.keyboard.press("Escape")
        page.goto(address + "/")
        expect(page.locator(".seat-name")).to_have_count(2)
        expect(page.locator(".seat-name").nth(1)).to_have_value("Computer (medium)")
        expect(page.locator(".seat-player").nth(1)).to_have_value("medium")
        expect(page.locator("#turn-seconds")).to_have_value("60")
        expect(page.locator("#zero-kismet-counts")).to_be_checked()


def test_the_hall_of_fame_sentence_is_said_once_at_the_end_and_the_log_keeps_every_event(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=3, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        start(page, address, "Ann")
        game = page.url.split("/games/", 1)[1].split("#", 1)[0]
        token = page.url.split("#seat=", 1)[1]
        api = f"{address}/api/games/{game}"
        for entry in page.request.get(api).json()["players"][0]["sheet"]:
            assert page.request.post(f"{api}/roll", data={"hold": []}, headers={"X-Seat-Token": token}).ok
            score = page.request.post(
                f"{api}/score", data={"box": entry["box"]}, headers={"X-Seat-Token": token}
            )
            assert score.ok
        # Every event, from the roll-off on: 15 rolls and 15 entries (more than 40 lines in all
        # in a longer game would show too: nothing is dropped).
        expect(page.locator("#log li")).to_have_count(30)
        page.fill("#fame-name", "Ann")
        page.click("#fame-enter")
        expect(page.locator("#fame-result")).to_contain_text("Ann enters the Hall of Fame at number 1")
        expect(page.locator("#status")).not_to_contain_text("enters the Hall of Fame")
        assert page.locator("body").inner_text().count("enters the Hall of Fame at number 1") == 1


def test_a_browser_whose_clock_is_wrong_counts_the_turn_down_by_the_servers(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=4, computer=computer) as address:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        # This browser's clock is two hours fast.
        context.add_init_script("{ const real = Date.now; Date.now = () => real.call(Date) + 7_200_000; }")
        page = context.new_page()
        page.goto(address + "/")
        page.fill(".seat-name", "Ann")
        page.select_option("#turn-seconds", "60")
        page.click("#start")
        expect(page.locator("#turn-timer")).to_have_text(re.compile(r"Time left for your turn: (1:00|0:5\d)"))
