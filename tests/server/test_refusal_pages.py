"""A 429 told to a person reads as a page of the site, not a line of small text: what happened,
what to do, and when to try again if that is known; API clients still get `{"error": ...}`
(issue 24, item 13). Real servers, Debian's Chromium."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, expect

from campfire.server.tables.admission import SPECTATORS_PER_ADDRESS
from tests.server import browsing
from tests.server.browsing import snap
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

Serve = Callable[..., Client]
#: what Chromium sends when it opens an address
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
#: the browser's own console line for the refused request (expected): nothing else may appear
REFUSED_LINE = "console: Failed to load resource: the server responded with a status of 429"
COUNTDOWN = re.compile(r"^Try again in \d+ seconds?\.$")
SOLO = {"game": "powwow", "players": 2, "bots": {"1": "random"}, "name": "Ana"}


def other_errors(errors: list[str]) -> list[str]:
    return [e for e in errors if not e.startswith(REFUSED_LINE)]


def lobby_ready(page: Page, client: Client) -> None:
    """The lobby, once its script has drawn the form (before, Start would submit it as HTML)."""
    page.goto(f"{client.base}/")
    expect(page.locator("#game-choice input").first).to_be_checked()


def spectators(client: Client, table_id: str) -> int:
    count: int = client.http.get(f"/api/tables/{table_id}").json()["spectators"]
    return count


def wait_for_spectators(client: Client, table_id: str, count: int) -> None:
    deadline = time.monotonic() + 20
    while spectators(client, table_id) != count:
        assert time.monotonic() < deadline, f"never {count} spectators"
        time.sleep(0.02)


def test_a_crowded_table_tells_the_watcher_what_to_do_and_lets_them_try_again(
    client: Client, open_page: Any, shots: Path
) -> None:
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    sockets = [client.socket(made["id"]) for _ in range(SPECTATORS_PER_ADDRESS)]
    for ws in sockets:
        ws.until(lambda m: m["type"] == "update")
    watched = open_page(390, 844)
    page = watched.page
    page.goto(f"{client.base}/t/{made['id']}")
    panel = page.locator("#refusal")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("heading")).to_have_text("You cannot watch this table just now")
    expect(panel).to_contain_text(
        f"Your address already watches this table {SPECTATORS_PER_ADDRESS}"
    )
    expect(panel).to_contain_text("Close another tab that watches this table")
    expect(page.locator("#conn")).to_have_text("not connected")
    snap(page, shots / "refused-watcher-390x844.png")
    # a panel of the site: bordered in the fire's colour, in the window, read by screen readers
    assert panel.get_attribute("role") == "alert"
    border = panel.evaluate("(n) => getComputedStyle(n).borderLeftColor")
    assert border == "rgb(245, 158, 66)", border
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # it stays (a notice that fades would leave an empty table and no word why)
    expect(panel).to_be_visible()
    assert watched.toasts() == []

    sockets.pop().close()
    wait_for_spectators(client, made["id"], SPECTATORS_PER_ADDRESS - 1)
    panel.get_by_role("button", name="Try again").click()
    expect(page.locator("#conn")).to_have_text("watching")
    expect(panel).to_have_count(0)
    assert watched.errors == []
    for ws in sockets:
        ws.close()


def test_too_many_tables_a_minute_counts_down_in_the_lobby(
    serve: Serve, open_page: Any, shots: Path
) -> None:
    client = serve(tables_per_minute=1)
    client.create("powwow", 2, {1: "random"}, name="Ana")
    watched = open_page(390, 844)
    page = watched.page
    lobby_ready(page, client)
    page.locator("#your-name").fill("Ana")
    page.get_by_role("button", name="Start the table").click()
    notice = page.locator("#form-refusal .refusal")
    expect(notice).to_be_visible()
    expect(notice.get_by_role("heading")).to_have_text("You cannot start another table just now")
    expect(notice).to_contain_text("Too many new tables from one address")
    expect(notice.locator(".refusal-when")).to_have_text(COUNTDOWN)
    # the button waits for the countdown: pressing it earlier would only be refused again
    expect(page.get_by_role("button", name="Start the table")).to_be_disabled()
    assert page.locator("#form-error").inner_text() == ""
    notice.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "refused-lobby-390x844.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert other_errors(watched.errors) == []


def test_too_many_waiting_tables_says_what_to_do_in_the_lobby(serve: Serve, open_page: Any) -> None:
    client = serve(waiting_per_address=1)
    client.create("powwow", 3, {2: "random"}, name="Ana")  # waits for a friend at seat 1
    watched = open_page()
    page = watched.page
    lobby_ready(page, client)
    page.locator("#your-name").fill("Ana")
    page.locator("#players").select_option("3")
    page.locator("#seat-1").select_option("open")
    page.get_by_role("button", name="Start the table").click()
    notice = page.locator("#form-refusal .refusal")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("still waiting for players")
    expect(notice).to_contain_text("Cancel this table")
    expect(notice.locator(".refusal-when")).to_be_hidden()
    # nothing to wait for: a table with bots only is still allowed, at once
    expect(page.get_by_role("button", name="Start the table")).to_be_enabled()
    page.locator("#seat-1").select_option("bot:random")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z2-9]{12}$"))
    assert other_errors(watched.errors) == []


def test_a_browser_opening_a_refused_address_gets_a_page_and_api_clients_get_json(
    serve: Serve, open_page: Any, shots: Path
) -> None:
    client = serve(tables_per_minute=1)
    client.create("powwow", 2, {1: "random"}, name="Ana")
    # API clients: JSON, with the wait in Retry-After
    for accept in (None, "application/json", "*/*"):
        headers = {"Accept": accept} if accept else {}
        response = client.http.post("/api/tables", json=SOLO, headers=headers)
        assert response.status_code == 429, response.text
        assert response.headers["content-type"] == "application/json"
        assert "too many new tables" in response.json()["error"]
        assert 1 <= int(response.headers["retry-after"]) <= 60
    as_browser = client.http.post("/api/tables", json=SOLO, headers={"Accept": BROWSER_ACCEPT})
    assert as_browser.status_code == 429
    assert as_browser.headers["content-type"].startswith("text/html")
    assert 1 <= int(as_browser.headers["retry-after"]) <= 60

    # the same refusal, opened in the browser (under the site's content policy)
    watched = open_page(390, 844, bypass_csp=False)
    page = watched.page

    def post_instead(route: Route) -> None:
        headers = {**route.request.headers, "content-type": "application/json"}
        route.continue_(method="POST", headers=headers, post_data=json.dumps(SOLO))

    page.route(f"{client.base}/api/tables", post_instead)
    shown = page.goto(f"{client.base}/api/tables")
    assert shown is not None and shown.status == 429
    notice = page.locator("main.refusal")
    expect(notice.get_by_role("heading")).to_have_text("Too many at once from your address")
    expect(notice).to_contain_text("Too many new tables from one address")
    expect(notice).to_contain_text("wait a little, then try again")
    expect(notice.locator(".refusal-when")).to_have_text(COUNTDOWN)
    expect(page.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    border = notice.evaluate("(n) => getComputedStyle(n).borderLeftColor")
    assert border == "rgb(245, 158, 66)", border  # the site's stylesheet, under its policy
    snap(page, shots / "refused-page-390x844.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # any refused page load reads the same way, and offers the same address again
    missing = page.goto(f"{client.base}/rules/chess")
    assert missing is not None and missing.status == 404
    expect(page.locator("main.refusal h1")).to_have_text("Nothing here")
    expect(page.get_by_role("link", name="Try again")).to_have_attribute("href", "/rules/chess")
    refused = client.http.get("/rules/chess").json()
    assert refused["error"] == "unknown game 'chess' (games: powwow, wakatanka)"
    assert refused["key"] == "unknown game {name} (games: {games})"
    # the browser's console notes the two refused loads, and nothing else
    assert len(watched.errors) == 2 and other_errors(watched.errors[:1]) == [], watched.errors
