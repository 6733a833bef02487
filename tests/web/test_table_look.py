"""The table as a game: dice on a board with one primary step, text that reads in both themes,
the last move of another player marked, a filled box that pops (and keeps still for those who ask
for no motion), a winner's banner and column with a review one card a player, a phone on which
the dice and the whole sheet share one screen, and a phone's Hall of Fame question clear of its
name field."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Page, expect

from kismet_dice.session import narration
from kismet_dice.strategy import Computer
from tests.support.browser import PHONE, SHOTS, Pages, animations_ended, serious, served, start
from tests.support.look import box, contrast

Scheme = Literal["light", "dark"]

pytestmark = pytest.mark.timeout(300)


def settled(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-busy", "no")


def against_the_computer(page: Page, address: str) -> None:
    """A game of Ann against an easy computer player, from the lobby, on Ann's turn."""
    page.goto(address + "/")
    page.fill(".seat-name", "Ann")
    page.click("#add-seat")
    page.locator(".seat-player").nth(1).select_option("easy")
    page.click("#start")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    settled(page)


def play_solo_to_the_end(page: Page) -> None:
    for turn in range(15):
        expect(page.locator("#turn")).to_contain_text(f"Round {turn + 1} · Your turn")
        settled(page)
        page.keyboard.press("r")
        expect(page.locator("#dice .die")).to_have_count(5)
        settled(page)
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        expect(page.locator("#sheet td[data-seat='0'] .entry")).to_have_count(turn + 1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_roll_is_the_one_primary_step_and_every_button_reads_in_both_themes(
    browser: Pages, tmp_path: Path, computer: Computer, scheme: Scheme
) -> None:
    with served(tmp_path, seed=4, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
        start(page, address, "Ann")
        # Before the first roll, the board holds the buttons: Roll stands out from the felt.
        roll = contrast(page, "#roll")
        assert roll["text"] >= 4.5 and roll["edge"] >= 3, roll
        assert contrast(page, "#ask-advice")["text"] >= 4.5  # disabled: no dice to advise on
        expect(page.locator(".primary:visible")).to_have_count(1)
        expect(page.locator("#roll")).to_have_class("primary big")
        for rolls_left in (2, 1, 0):
            page.keyboard.press("r")
            settled(page)
            expect(page.locator("#dice .die")).to_have_count(5)
            if rolls_left:
                expect(page.locator("#roll")).to_contain_text(f"{rolls_left} left")
                assert contrast(page, "#ask-advice")["text"] >= 4.5
        # No roll left: Roll is disabled (still readable) and the boxes become the next step.
        expect(page.locator("#roll")).to_be_disabled()
        expect(page.locator("#roll")).not_to_have_class("primary big")
        assert contrast(page, "#roll")["text"] >= 4.5
        expect(page.locator("#sheet-wrap")).to_have_class("sheet-wrap choose-now")
        assert contrast(page, "#sheet button.option")["text"] >= 4.5
        page.locator("#sheet button.option").first.click()
        expect(page.locator("#status")).not_to_be_empty()
        assert contrast(page, "#status")["text"] >= 4.5
        assert serious(page) == []  # axe's own contrast checks of every text, in this theme
        if scheme == "dark":
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "web-choose-dark.png"))


def test_the_computers_last_entry_is_marked_and_a_box_just_filled_pops(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=21, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        against_the_computer(page, address)
        if page.locator("#sheet td[data-seat='1'] .entry").count() == 0:
            # Ann began: after her first entry the computer plays its turn.
            page.keyboard.press("r")
            settled(page)
            page.locator("#sheet button.option").first.click()
            page.locator("#sheet button.option.chosen").click()
            expect(page.locator("#turn")).to_contain_text("Round 2 · Your turn")
        marked = page.locator("#sheet td.last-entry")
        expect(marked).to_have_count(1)
        expect(marked).to_have_attribute("data-seat", "1")
        # Not by colour alone: a screen reader reads the words with the points.
        expect(marked.locator(".visually-hidden")).to_have_text("(last entry)")
        # Measured once the entry's pop has ended (mid-animation its colours are on their way).
        animations_ended(page)
        assert contrast(page, "#sheet td.last-entry .entry")["text"] >= 4.5
        assert serious(page) == []


def test_a_box_just_filled_pops_once(browser: Pages, tmp_path: Path, computer: Computer) -> None:
    with served(tmp_path, seed=5, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        start(page, address, "Ann")
        page.keyboard.press("r")
        settled(page)
        page.keyboard.press("a")
        page.keyboard.press("a")
        popped = page.locator("#sheet td.scored-now .entry")
        expect(popped).to_have_count(1)
        expect(popped).to_have_css("animation-name", "scored")
        expect(page.locator("#sheet td.scored-now")).to_have_attribute("data-box", "ONES")
        # The sheet drawn again (the next roll) keeps the mark but does not pop the box again.
        settled(page)
        page.keyboard.press("r")
        settled(page)
        expect(page.locator("#roll")).to_contain_text("2 left")
        expect(popped).to_have_count(1)
        assert (
            page.evaluate("document.getAnimations().filter((a) => a.animationName === 'scored').length") == 0
        )


def test_with_reduced_motion_a_filled_box_keeps_still(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=9, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.emulate_media(reduced_motion="reduce")
        start(page, address, "Ann")
        page.keyboard.press("r")
        settled(page)
        page.keyboard.press("a")
        page.keyboard.press("a")
        expect(page.locator("#sheet td.scored-now .entry")).to_have_count(1)
        expect(page.locator("#sheet td.scored-now .entry")).to_have_css("animation-name", "none")
        assert page.evaluate("document.getAnimations().length") == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_end_has_a_winners_banner_and_column_and_the_review_in_cards(
    browser: Pages, tmp_path: Path, computer: Computer, scheme: Scheme
) -> None:
    with served(tmp_path, seed=3, computer=computer) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
        start(page, address, "Ann")
        play_solo_to_the_end(page)
        expect(page.locator("#turn")).to_have_class("banner")
        expect(page.locator("#turn")).to_contain_text("The game is over")
        assert contrast(page, "#turn")["text"] >= 4.5
        expect(page.locator("#sheet thead th.winner[data-seat='0']")).to_be_visible()
        expect(page.locator("#sheet tbody td.winner")).to_have_count(15 + 4)  # the boxes and totals
        expect(page.locator("#totals li.winner .points")).to_have_text(
            page.locator("#sheet .total").inner_text()
        )
        # A game of one has no one to beat: no badge calls Ann the winner, as the result does not.
        expect(page.locator("#turn")).to_contain_text("Ann scores")
        expect(page.locator("#sheet .badge, #totals .badge")).to_have_count(0)
        cards = page.locator("#proficiency-players .review-card")
        expect(cards).to_have_count(1, timeout=60_000)
        expect(cards.locator("h4")).to_have_text("Ann")
        expect(cards.locator(".loss")).to_be_visible()
        assert contrast(page, "#proficiency-players .review-card .loss")["text"] >= 4.5
        # Perfect play was not stored in this home: the review brought how the total compares.
        total = int(page.locator("#sheet .total").inner_text())
        share = computer.perfect_play().below(total)
        said = narration.standing("Ann", total, share)
        expect(page.locator("#standings li")).to_have_text([said])
        assert serious(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"web-end-{scheme}.png"), full_page=True)


def ann_on_turn(page: Page, guest: Page) -> None:
    """Ann's turn on ``page``: if Bob won the roll-off, Bob (on ``guest``, by his link) plays first."""
    expect(page.locator("#turn")).to_contain_text("Round 1")
    if "Your turn" in page.locator("#turn").inner_text():
        return
    guest.goto(page.locator("#invitation-1").input_value())
    expect(guest.locator("#turn")).to_contain_text("Your turn")
    settled(guest)
    guest.keyboard.press("r")
    settled(guest)
    guest.keyboard.press("a")
    guest.keyboard.press("a")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    settled(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_dice_and_the_whole_sheet_fit_one_screen_with_the_hint_in_view(
    browser: Pages, tmp_path: Path, computer: Computer, scheme: Scheme
) -> None:
    with served(tmp_path, seed=6, computer=computer) as address:
        page = browser.phone(scheme)
        start(page, address, "Ann", "Bob")
        # The invitations wait folded above the dice, not far down the page.
        expect(page.locator("#invitations details")).not_to_have_attribute("open", "")
        assert (
            box(page, "#invitations summary")["y"] + box(page, "#invitations summary")["height"]
            <= box(page, ".board")["y"]
        )
        ann_on_turn(page, page.context.new_page())
        page.keyboard.press("r")
        settled(page)
        expect(page.locator("#dice .die")).to_have_count(5)

        def fits() -> None:
            board, last = box(page, ".board"), box(page, "#sheet tbody tr:last-child")
            assert board["y"] >= 0 and last["y"] + last["height"] <= PHONE["height"]
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            assert page.evaluate("scrollY") == 0

        fits()
        # The two-step hint stays on the screen, clear of the box chosen.
        page.locator("#sheet tr[data-box='SIXES'] button.option").click()
        expect(page.locator("#sheet tr.selected")).to_have_attribute("data-box", "SIXES")
        expect(page.locator("#status")).to_contain_text("Sixes would score")
        hint, chosen = box(page, "#status"), box(page, "#sheet tr.selected")
        assert hint["y"] >= 0 and hint["y"] + hint["height"] <= PHONE["height"]
        assert chosen["y"] + chosen["height"] <= hint["y"] or hint["y"] + hint["height"] <= chosen["y"]
        assert contrast(page, "#status")["text"] >= 4.5
        fits()
        assert serious(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"web-phone-hint-{scheme}.png"))


def test_on_a_phone_five_players_columns_are_all_in_view_none_under_another(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=8, computer=computer) as address:
        page = browser.phone()
        start(page, address, "Ann", "Bob", "Cyrille", "Dominique", "Eve")
        names = box(page, "#sheet thead th.box-col")
        for seat in range(5):
            column = box(page, f"#sheet thead th[data-seat='{seat}']")
            assert column["x"] >= names["x"] + names["width"] - 1, seat
            assert column["x"] + column["width"] <= PHONE["width"], seat
            assert column["width"] >= 44, seat
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        wrap = page.locator("#sheet-wrap")
        assert wrap.evaluate("(node) => node.scrollWidth <= node.clientWidth")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "web-phone-five.png"))


def test_on_a_phone_the_hall_of_fame_question_keeps_its_label_and_buttons_clear_of_the_name_field(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=3, computer=computer) as address:
        page = browser.phone()
        start(page, address, "Ann")
        play_solo_to_the_end(page)
        # An empty Hall of Fame: any total makes it, and the name field is focused at once.
        expect(page.locator("#fame-name")).to_be_focused()
        # The end page fills in while the question waits (the standing above it, the review below):
        # measured once all is in, and every box in one look, as a single layout.
        expect(page.locator("#standings li")).to_have_count(1)
        expect(page.locator("#proficiency-players .review-card")).to_have_count(1, timeout=60_000)
        parts = ["#fame-form label", "#fame-name", "#fame-enter", "#fame-decline"]
        measured: list[dict[str, float]] = page.evaluate(
            "(parts) => parts.map((part) => document.querySelector(part).getBoundingClientRect().toJSON())",
            parts,
        )
        boxes = dict(zip(parts, measured, strict=True))
        # The focus ring is drawn 2 px outside the field, 3 px wide (style.css's :focus-visible).
        ring = 5
        name, label = boxes["#fame-name"], boxes["#fame-form label"]
        assert label["bottom"] <= name["top"] - ring
        for button in ("#fame-enter", "#fame-decline"):
            found = boxes[button]
            assert found["left"] >= name["right"] + ring or found["top"] >= name["bottom"] + ring, button
            assert found["right"] <= PHONE["width"], button
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "web-phone-hall-question.png"))
