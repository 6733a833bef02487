"""The web table's settings and its end, as a player meets them: "enter at once" fills a box in one
step but still asks twice before a zero, the sound of the dice is off until it is switched on, and
"play again with the same players" leads every page to the new game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from kismet_dice.session import narration
from kismet_dice.strategy import Computer
from kismet_dice.web.guard import UNLIMITED
from tests.support.browser import Pages, served, start

pytestmark = pytest.mark.timeout(300)

BOX_KEYS = "abcdefgijklmnop"

# Counts the audio the page makes: contexts created and sounds started. Installed before the page's
# own scripts run, so the dice's sound goes through it.
COUNT_AUDIO = """
window.audioCounts = { contexts: 0, started: 0 };
const Original = window.AudioContext;
window.AudioContext = class extends Original {
  constructor(...options) {
    super(...options);
    window.audioCounts.contexts += 1;
  }
  createBufferSource() {
    const source = super.createBufferSource();
    const start = source.start.bind(source);
    source.start = (...times) => {
      window.audioCounts.started += 1;
      return start(...times);
    };
    return source;
  }
};
"""


def switch_on(page: Page, setting: str) -> None:
    """Open the ⚙ panel, tick the setting and close the panel again."""
    page.click("#settings-button")
    page.check(setting)
    page.click("#settings-button")
    expect(page.locator("#settings")).to_be_hidden()


def roll(page: Page) -> None:
    # The page takes no new action while the last one's answer is still on its way.
    expect(page.locator("body")).to_have_attribute("data-busy", "no")
    page.keyboard.press("r")
    expect(page.locator("#dice .die")).to_have_count(5)
    expect(page.locator("body")).to_have_attribute("data-busy", "no")


def options(page: Page) -> list[tuple[str, str, int]]:
    """Each open box of the first seat as (box, its letter, what it would score now)."""
    found: list[list[Any]] = page.locator("#sheet tbody tr[data-box]").evaluate_all(
        "rows => rows.map((row, index) => [row.dataset.box, index,"
        " row.querySelector(\"td[data-seat='0'] button.option\")?.textContent ?? null])"
    )
    return [(box, BOX_KEYS[index], int(option)) for box, index, option in found if option is not None]


def test_enter_at_once_fills_a_box_with_one_click_or_letter_but_asks_twice_before_a_zero(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=5, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        start(page, address, "Ann")
        switch_on(page, "#setting-enter")
        entries = page.locator("#sheet td[data-seat='0'] .entry")

        roll(page)
        box, _, _ = next(option for option in options(page) if option[2] > 0)
        page.click(f"#sheet td[data-seat='0'][data-box='{box}'] button.option")
        expect(page.locator(f"#sheet td[data-seat='0'][data-box='{box}'] .entry")).to_have_count(1)

        roll(page)
        box, letter, _ = next(option for option in options(page) if option[2] > 0)
        page.keyboard.press(letter)
        expect(page.locator(f"#sheet td[data-seat='0'][data-box='{box}'] .entry")).to_have_count(1)
        expect(entries).to_have_count(2)

        # A zero is asked about first, as the terminal asks: n keeps the box open, y enters the 0.
        roll(page)
        box, letter, _ = next(option for option in options(page) if option[2] == 0)
        label = page.locator(f"#sheet tr[data-box='{box}'] th").inner_text().split(" ", 1)[1]
        page.keyboard.press(letter)
        expect(page.locator("#zero-words")).to_have_text(narration.zero_question(label))
        page.keyboard.press("n")
        expect(page.locator("#zero-question")).to_be_hidden()
        expect(entries).to_have_count(2)
        page.click(f"#sheet td[data-seat='0'][data-box='{box}'] button.option")
        expect(page.locator("#zero-words")).to_have_text(narration.zero_question(label))
        page.keyboard.press("y")
        expect(page.locator(f"#sheet td[data-seat='0'][data-box='{box}'] .entry")).to_have_text("0")

        # The browser keeps the setting.
        page.reload()
        expect(page.locator("#sheet")).to_be_visible()
        page.click("#settings-button")
        expect(page.locator("#setting-enter")).to_be_checked()


def test_the_dice_are_silent_until_the_sound_is_switched_on(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=7, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(COUNT_AUDIO)
        start(page, address, "Ann")
        page.click("#settings-button")
        expect(page.locator("#setting-sound")).not_to_be_checked()
        page.click("#settings-button")
        roll(page)
        assert page.evaluate("window.audioCounts") == {"contexts": 0, "started": 0}

        switch_on(page, "#setting-sound")
        page.keyboard.press("1")  # one die held: four dice roll, and four are heard
        roll(page)
        counts = page.evaluate("window.audioCounts")
        assert counts["contexts"] == 1
        assert counts["started"] >= 4


def seat_token(link: str) -> str:
    fragment = urlsplit(link).fragment
    assert fragment.startswith("seat=")
    return fragment.removeprefix("seat=")


def play_to_the_end(page: Page, address: str, game_id: str, tokens: dict[int, str]) -> None:
    """Every turn through the API with each seat's token: roll once and enter the first open box."""
    api = f"{address}/api/games/{game_id}"
    state: dict[str, Any] = page.request.get(api).json()
    while not state["over"]:
        seat = state["current_player"]
        headers = {"X-Seat-Token": tokens[seat]}
        rolled = page.request.post(f"{api}/roll", data={"hold": []}, headers=headers)
        assert rolled.ok, rolled.text()
        sheet = rolled.json()["players"][seat]["sheet"]
        box = next(entry["box"] for entry in sheet if entry["points"] is None)
        scored = page.request.post(f"{api}/score", data={"box": box}, headers=headers)
        assert scored.ok, scored.text()
        state = scored.json()


def test_play_again_gives_the_host_new_invitations_and_moves_the_others_to_their_own_seats(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    # Sixty actions in a few seconds from one address: no rate limit in the way.
    with served(tmp_path, seed=12, computer=computer, protections=UNLIMITED) as address:
        ann = browser.new_page(viewport={"width": 1280, "height": 800})
        start(ann, address, "Ann", "Bob")
        first = ann.url
        game_id = urlsplit(first).path.rsplit("/", 1)[-1]
        bob_link = ann.locator(".invitation-item[data-seat='1'] input.invitation").input_value()
        bob = browser.new_page(viewport={"width": 1280, "height": 800})
        bob.goto(bob_link)
        expect(bob.locator("#role")).to_contain_text("You play Bob")

        play_to_the_end(ann, address, game_id, {0: seat_token(first), 1: seat_token(bob_link)})
        for page in (ann, bob):
            expect(page.locator("#end")).to_be_visible()
            expect(page.locator("#totals li")).to_have_count(2)
            # The higher total wins (both on a tie), said in the totals and over the winner's sheet.
            ends = [int(total) for total in page.locator("#sheet .total").all_inner_texts()]
            winners = [seat for seat, total in enumerate(ends) if total == max(ends)]
            expect(page.locator("#totals li.winner .badge")).to_have_text(["wins"] * len(winners))
            badges = page.locator("#sheet thead th .badge")
            expect(badges).to_have_text(["winner"] * len(winners))
            expect(page.locator(f"#sheet thead th[data-seat='{winners[0]}'] .badge")).to_have_text("winner")
            expect(page.locator("#play-again")).to_be_visible()

        ann.click("#play-again")
        expect(ann).not_to_have_url(first)
        expect(ann.locator("#sheet")).to_be_visible()
        expect(ann.locator("#role")).to_contain_text("You play Ann")
        expect(ann.locator("#sheet thead .player-name")).to_have_text(["Ann", "Bob"])
        expect(ann.locator("#end")).to_be_hidden()
        new_bob_link = ann.locator(".invitation-item[data-seat='1'] input.invitation").input_value()
        assert "#seat=" in new_bob_link and new_bob_link != bob_link
        new_game = urlsplit(ann.url).path
        assert new_game != urlsplit(first).path

        # Bob's page moves to his own seat of the new game: the host's page sees him join.
        expect(bob).to_have_url(re.compile(re.escape(address + new_game) + "#seat="))
        expect(bob.locator("#role")).to_contain_text("You play Bob")
        expect(bob.locator("#sheet thead .player-name")).to_have_text(["Ann", "Bob"])
        assert seat_token(bob.url) == seat_token(new_bob_link)
        expect(ann.locator(".invitation-item[data-seat='1'] .joined")).to_be_visible()
