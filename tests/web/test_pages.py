"""The browser tests' pages, used again test after test: a page given back keeps nothing of the
test that had it (tests/support/browser.py, :class:`Pages`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kismet_dice.strategy import Computer
from tests.support.browser import PHONE, Pages, served

pytestmark = pytest.mark.timeout(120)


def test_a_page_given_back_keeps_nothing_of_the_test_before(
    browser: Pages, tmp_path: Path, computer: Computer
) -> None:
    with served(tmp_path, seed=1, computer=computer) as address:
        page = browser.new_page(viewport={"width": 900, "height": 700}, color_scheme="dark")
        page.goto(address + "/")
        page.evaluate("localStorage.setItem('left', 'behind'); document.cookie = 'left=behind'")
        page.context.grant_permissions(["clipboard-read"])
        page.emulate_media(reduced_motion="reduce")
        page.context.new_page().goto(address + "/hall")
        errors = browser.errors(page)
        browser.give_back()

        again = browser.new_page(viewport={"width": 1000, "height": 600}, color_scheme="dark")
        assert again == page  # the same page, not a new one
        assert again.url == "about:blank"
        assert again.context.pages == [again]
        assert again.context.cookies() == []
        assert again.viewport_size == {"width": 1000, "height": 600}
        again.goto(address + "/")  # the same origin: what it stored is gone
        assert again.evaluate("localStorage.getItem('left')") is None
        assert again.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") is False
        assert again.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is True
        asked = "navigator.permissions.query({name: 'clipboard-read'}).then((found) => found.state)"
        assert again.evaluate(asked) != "granted"
        # The listeners of the test before are gone: an error now is no longer its.
        again.evaluate("setTimeout(() => { throw new Error('after the test') })")
        again.wait_for_timeout(200)
        assert errors == []

        # A page of another kind (a phone, a light page) is another page.
        assert browser.phone() not in (page, again)
        assert browser.new_page(color_scheme="light") != page


def test_a_page_the_test_closed_is_not_lent_again(browser: Pages) -> None:
    page = browser.phone()
    context = page.context
    page.close()
    browser.give_back()
    again = browser.phone()
    assert again != page and again.context != context
    assert again.viewport_size == PHONE
