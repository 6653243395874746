"""The lobby fits a phone: nothing sticks out sideways at 390 px, empty or listing tables with
the longest names (issue 24, item 7)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.server import browsing
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page

WIDEST = "W" * 24  # the longest name, and no space to break it at

#: the elements that reach past the right edge of the window
OVERFLOW = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((e) => `${e.tagName}#${e.id}.${e.className}`)"""


def test_the_lobby_fits_a_phone_empty_and_full(client: Client, open_page: Any) -> None:
    watched = open_page(390, 844)
    page = watched.page
    page.goto(f"{client.base}/")
    expect(page.get_by_role("button", name="Start the table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(OVERFLOW) == []
    for game in ("powwow", "wakatanka"):
        made = client.create(game, 4, {3: "random"}, name=WIDEST, listed=True)
        client.join(made["id"], WIDEST[:-1] + "V")
    page.reload()
    expect(page.locator("body")).to_contain_text(WIDEST)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(OVERFLOW) == []
    assert watched.errors == []
