"""The web table as a new player meets it: accessible pages, a table that fits the screen, a whole
game with the keyboard only, invitations and presence, deliberate entries, and no motion for
those who ask for none."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from kismet_dice.strategy import Computer
from tests.support.browser import PHONE, SHOTS, Pages, serious, served, start
from tests.support.look import box

pytestmark = pytest.mark.timeout(300)


def test_every_page_has_no_serious_accessibility_violation(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=4, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        start(page, address, "Ann", "Bob")
        seat = page.url
        watch = seat.split("#", 1)[0]
        found = {"seat": serious(page)}
        for name, url in [("lobby", "/"), ("hall", "/hall"), ("rules", "/rules"), ("help", "/help")]:
            page.goto(address + url)
            expect(page.locator("#main")).not_to_contain_text("Loading…")
            found[name] = serious(page)
        page.goto(watch)
        expect(page.locator("#sheet")).to_be_visible()
        found["watch"] = serious(page)
        assert found == {name: [] for name in found}


def bottom(page: Page, selector: str) -> float:
    found = box(page, selector)
    return found["y"] + found["height"]


@pytest.mark.parametrize(
    ("width", "height", "names"), [(1280, 800, ("Ann", "Bob")), (1440, 900, ("Ann", "Bob", "Cy", "Di"))]
)
def test_the_whole_table_fits_the_screen_without_scrolling(
    browser: Pages, tmp_path: Path, computer: Computer, width: int, height: int, names: tuple[str, ...]
) -> None:
    with served(tmp_path, seed=6, computer=computer) as address:
        page = browser.new_page(viewport={"width": width, "height": height})
        start(page, address, *names)
        assert bottom(page, "#sheet tbody tr:last-child") <= height
        assert bottom(page, ".board") <= height
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if len(names) == 2:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "web-table.png"))


def test_on_a_phone_every_button_and_die_is_44_pixels_and_the_current_column_is_in_view(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=8, computer=computer) as address:
        page = browser.phone()
        start(page, address, "Ann", "Bob", "Cy")
        assert box(page, ".top")["height"] < 60  # one line
        settings = box(page, ".top .icon")
        assert settings["x"] + settings["width"] <= PHONE["width"]  # and none of it runs off
        # Whoever's turn it is, that column is inside the screen's width. The sheet is drawn again
        # at each message from the server (the game, then who is here), so the header measured
        # may be a new one: ``box`` looks it up again (read once, it was sometimes gone).
        current = box(page, "#sheet thead th.current")
        assert current["x"] >= 0 and current["x"] + current["width"] <= PHONE["width"]
        if "Your turn" in page.locator("#turn").inner_text():
            page.click("#roll")
            expect(page.locator("#dice button.die")).to_have_count(5)
        sizes = page.locator("button:visible:not(.option), #dice .die").evaluate_all(
            "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
            " return [n.id || n.className, r.width, r.height]; })"
        )
        small = [size for size in sizes if size[1] < 44 or size[2] < 44]
        assert small == []
        # A box's button fills its cell's width and is 24 px tall (WCAG 2.5.8), so the dice and
        # the fifteen boxes share one screen.
        boxes = page.locator("#sheet button.option:visible").evaluate_all(
            "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.width, r.height]; })"
        )
        assert [size for size in boxes if size[0] < 44 or size[1] < 24] == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "web-phone.png"))


def test_a_whole_game_with_the_keyboard_only(browser: Pages, tmp_path: Path, computer: Computer) -> None:
    with served(tmp_path, seed=3, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(address + "/")
        expect(page.locator(".seat-name")).to_be_focused()
        page.keyboard.type("Ann")
        page.keyboard.press("Enter")
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        expect(page.locator("#log")).not_to_contain_text("Roll-off")  # one player: no roll-off
        expect(page.locator("#computer-status")).to_be_empty()
        for turn in range(15):
            expect(page.locator("#turn")).to_contain_text(f"Round {turn + 1} · Your turn")
            expect(page.locator("body")).to_have_attribute("data-busy", "no")
            page.keyboard.press("r")
            expect(page.locator("#dice .die")).to_have_count(5)
            expect(page.locator("body")).to_have_attribute("data-busy", "no")
            page.keyboard.press("ArrowDown")
            expect(page.locator("#sheet tr.selected")).to_have_count(1)
            page.keyboard.press("Enter")
            expect(page.locator("#sheet td[data-seat='0'] .entry")).to_have_count(turn + 1)
        expect(page.locator("#turn")).to_contain_text("The game is over")
        expect(page.locator("#totals li")).to_have_count(1)
        expect(page.locator("#fame-name")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#fame-result")).to_contain_text("Hall of Fame")
        expect(page.locator("#play-again")).to_be_visible()


def test_a_letter_or_a_click_chooses_the_second_enters_and_esc_drops(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=5, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        start(page, address, "Ann")
        page.keyboard.press("r")
        expect(page.locator("#dice .die")).to_have_count(5)
        entries = page.locator("#sheet .entry")
        page.keyboard.press("a")
        expect(page.locator("#sheet tr.selected")).to_have_attribute("data-box", "ONES")
        expect(page.locator("#status")).to_contain_text("Ones would score")
        page.keyboard.press("Escape")
        expect(page.locator("#sheet tr.selected")).to_have_count(0)
        expect(entries).to_have_count(0)
        # Another box changes the choice; a click on it chooses, a second click enters.
        page.keyboard.press("b")
        twos = page.locator("#sheet td[data-box='THREES'] button.option")
        twos.click()
        expect(page.locator("#sheet tr.selected")).to_have_attribute("data-box", "THREES")
        expect(entries).to_have_count(0)
        twos.click()
        expect(page.locator("#sheet td[data-box='THREES'] .entry")).to_have_count(1)
        # The same letter twice enters too. (The entry can show, from the live socket, before its
        # own answer is in; the page takes no new action until then.)
        expect(page.locator("body")).to_have_attribute("data-busy", "no")
        page.keyboard.press("r")
        expect(page.locator("#dice .die")).to_have_count(5)
        expect(page.locator("body")).to_have_attribute("data-busy", "no")
        page.keyboard.press("a")
        expect(entries).to_have_count(1)
        page.keyboard.press("a")
        expect(page.locator("#sheet td[data-box='ONES'] .entry")).to_have_count(1)


def test_invitations_copy_and_presence_in_two_browsers(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=11, computer=computer) as address:
        ann = browser.new_page(viewport={"width": 1280, "height": 800})
        ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
        start(ann, address, "Ann", "Bob")
        bob_item = ann.locator(".invitation-item[data-seat='1']")
        expect(bob_item.locator(".qr svg")).to_have_count(1)
        bob_item.locator("button.copy").click()
        expect(bob_item.locator(".copied")).to_have_text("Copied")
        link = ann.evaluate("navigator.clipboard.readText()")
        assert link == bob_item.locator("input.invitation").input_value() and "#seat=" in link
        here = ann.locator("#sheet thead th[data-seat='1'] .presence")
        expect(here).to_contain_text("away")
        expect(ann.locator("#sheet thead th[data-seat='0'] .presence")).to_contain_text("here")
        bob = browser.new_page()
        bob.goto(link)
        expect(here).to_contain_text("here")
        expect(bob_item.locator(".joined")).to_be_visible()
        expect(bob_item.locator("input.invitation")).to_be_hidden()
        expect(bob.locator("#sheet thead th[data-seat='0'] .presence")).to_contain_text("here")
        bob.close()
        expect(here).to_contain_text("away")
        # The lobby lists the game to come back to.
        ann.goto(address + "/")
        expect(ann.locator("#your-games a")).to_have_text("Ann, Bob")


def test_reduced_motion_rolls_without_animation_and_the_dark_theme(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=9, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.emulate_media(reduced_motion="reduce", color_scheme="dark")
        start(page, address, "Ann")
        page.keyboard.press("r")
        expect(page.locator("#dice .die")).to_have_count(5)
        page.keyboard.press("1")
        expect(page.locator("#dice .die").first).to_have_attribute("aria-pressed", "true")
        expect(page.locator("body")).to_have_attribute("data-busy", "no")
        page.keyboard.press("r")
        expect(page.locator("#roll")).to_contain_text("1 left")
        assert page.evaluate("document.getAnimations().length") == 0
        # Held without colour: lifted, framed and labelled.
        expect(page.locator("#dice .die.held .die-caption")).to_have_text("HELD")
        background = page.evaluate("getComputedStyle(document.querySelector('main')).backgroundColor")
        assert background == "rgb(27, 29, 28)"
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "web-dark.png"))
        page.emulate_media(reduced_motion="no-preference")
        expect(page.locator("body")).to_have_attribute("data-busy", "no")
        page.keyboard.press("r")
        expect(page.locator("#roll")).to_contain_text("No rolls left")
