"""The lobby: your own games from this browser's seat tokens, and the public tables page by page."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Route, expect

from tests.server import browsing
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page


def test_your_games_lists_the_tables_this_browser_sits_at(client: Client, open_page: Any) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    page.goto(f"{client.base}/")
    expect(page.locator("#mine-box")).to_be_hidden()  # nothing yet
    # the lobby's script has drawn the form (a click before that submits it as a plain GET)
    expect(page.locator("#game-choice input").first).to_be_checked()
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]{12}$"))
    table_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("body")).to_have_attribute("data-turn", "you")
    # a table that has since gone is dropped from the list (and from this browser)
    page.evaluate(
        "localStorage.setItem('campfire:seat:gone00000000', JSON.stringify({seat: 0, token: 'x'}))"
    )
    page.goto(f"{client.base}/")
    mine = page.locator("#my-tables")
    expect(mine.locator("li")).to_have_count(1)
    expect(mine).to_contain_text("Pow Wow")
    expect(mine).to_contain_text("seat 0 · your turn")
    assert mine.get_by_role("link").get_attribute("href") == f"/t/{table_id}"
    assert page.evaluate("localStorage.getItem('campfire:seat:gone00000000')") is None
    assert watched.errors == [] or all("404" in e for e in watched.errors)


def fake_table(n: int) -> dict[str, Any]:
    return {
        "id": f"t{n:011d}",
        "game": "powwow",
        "title": f"Pow Wow {n}",
        "players": 3,
        "options": {},
        "status": "finished",
        "winners": [0],
        "seats": [{"seat": s, "kind": "bot", "level": "random", "taken": True} for s in range(3)],
    }


def test_public_tables_come_page_by_page(client: Client, open_page: Any) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    asked: list[tuple[int, int]] = []

    def listing(route: Route) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        asked.append((offset, limit))
        total = 13
        finished = [fake_table(n) for n in range(offset, min(total, offset + limit))]
        body = {"waiting": [], "playing": [], "finished": finished}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(r"/api/tables\?"), listing)
    page.goto(f"{client.base}/")
    done = page.locator("#done-tables li")
    expect(done).to_have_count(10)
    expect(page.locator("#newer")).to_be_disabled()
    page.locator("#older").click()
    expect(done).to_have_count(3)
    expect(page.locator("#done-tables")).to_contain_text("Pow Wow 12")
    expect(page.locator("#older")).to_be_disabled()
    expect(page.locator("#page-label")).to_have_text("tables 11–20")
    page.locator("#newer").click()
    expect(done).to_have_count(10)
    assert (0, 10) in asked and (10, 10) in asked
    assert watched.errors == []
