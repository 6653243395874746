"""A notice at the table never covers your moves nor your own seat (issue 24, item 13): on a
phone it stands above the move bar, on a wide screen beside the table."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from campfire.server.tables.chat import CHAT_RATE
from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_waiting_room_ui import seated_page

browser = browsing.browser
open_page = browsing.open_page

#: whether two elements' boxes overlap
OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_an_error_notice_covers_neither_the_moves_nor_your_seat(
    client: Client, open_page: Any, width: int, height: int
) -> None:
    made = client.create(
        "powwow", 3, {1: "random", 2: "random"}, name="Ana", seat=0, options={"first_player": 0}
    )
    watched = open_page(width, height)
    page = watched.page
    seated_page(client, page, made["id"], 0, made["token"])
    expect(page.locator("body")).to_have_attribute("data-turn", "you")
    expect(page.locator("#guess-btn")).to_be_visible()
    phone = width < 900
    if phone:
        page.locator("#chat-btn").click()
    quick = page.locator("#chat-emotes button").first
    for _ in range(CHAT_RATE[0] + 1):
        quick.click()
    if phone:
        page.locator("#chat-close").click()
    notice = page.locator(".toast-error")
    expect(notice).to_contain_text("at most 5 messages")
    assert not page.evaluate(OVERLAP, [".toast-error", "#controls"])
    assert not page.evaluate(OVERLAP, [".toast-error", ".pw-seat[data-seat='0']"])
