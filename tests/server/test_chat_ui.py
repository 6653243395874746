"""Table talk and the turn clock in the browser, against the messages the server sends.

The page's WebSocket goes to the real server through Playwright's WebSocket route, which adds
what the chat and clock contract says the server sends (the history on connect, every chat
line, the clock in the table summary), so the page is tested on exactly those messages.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.server import browsing
from tests.server.browsing import snap
from tests.server.conftest import Client
from tests.server.test_layout import check_in_view

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

HOSTILE = '<img src=x id="injected"><b>bold</b>'


def with_chat_and_clock(page: Page, sent: list[Any], history: list[Any]) -> None:
    """Route the table's socket through a stand-in for the chat and clock parts of the server."""

    def handler(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "chat":
                sent.append(data)
                line = {"type": "chat", "seat": 0, "name": "Ana", "text": data["text"]}
                ws.send(json.dumps({**line, "at": time.time()}))
            else:
                server.send(message)

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            table = data.get("table")
            if isinstance(table, dict) and table.get("status") == "playing":
                seat = table.get("to_move")
                table["clock"] = {"seconds": 60, "deadline": time.time() + 45, "seat": seat}
            ws.send(json.dumps(data))

        ws.on_message(from_page)
        server.on_message(from_server)
        ws.send(json.dumps({"type": "chat_history", "messages": history}))

    page.route_web_socket(re.compile(r"/ws/tables/"), handler)


def seated_table(client: Client, page: Page) -> str:
    """Ana (this page) at seat 0, Bob (who never moves) at seat 1, a bot at seat 2."""
    made = client.create("powwow", 3, {2: "random"}, options={}, name="Ana", seat=0)
    client.join(made["id"], "Bob", 1)
    page.goto(f"{client.base}/")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`campfire:seat:${id}`,"
        " JSON.stringify({seat, token}))",
        [made["id"], made["seat"], made["token"]],
    )
    return str(made["id"])


def test_chat_shows_text_only_mutes_a_seat_and_the_clock_counts_down(
    client: Client, open_page: Any, shots: Path
) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    sent: list[Any] = []
    history = [
        {"type": "chat", "seat": 1, "name": "Bob", "text": "hello all", "at": time.time() - 60},
        {"type": "chat", "seat": None, "name": "Cy", "text": HOSTILE, "at": time.time() - 30},
    ]
    with_chat_and_clock(page, sent, history)
    table_id = seated_table(client, page)
    page.goto(f"{client.base}/t/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    log = page.locator("#chat-log")
    expect(log).to_contain_text("Bob:hello all")
    # a message is text: markup in it is shown as typed, never run or drawn
    expect(log).to_contain_text(HOSTILE)
    expect(log).to_contain_text("Cy (watching):")
    assert page.locator("#injected").count() == 0 and log.locator("b").count() == 0

    # typed and quick messages go to the server as chat messages; its echo is shown
    page.locator("#chat-text").fill("my turn soon")
    page.locator("#chat-text").press("Enter")
    expect(log).to_contain_text("you:my turn soon")
    page.get_by_role("button", name="Nice one!").click()
    expect(log).to_contain_text("you:Nice one!")
    assert [m["text"] for m in sent] == ["my turn soon", "Nice one!"]

    # the clock shows the time left to the seat whose clock runs, and counts down
    clock = page.locator("#clock")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text(re.compile(r"◷ 0:4\d"))
    first = clock.inner_text()
    page.wait_for_function(f"document.getElementById('clock').textContent !== {first!r}")
    snap(page, shots / "chat-and-clock.png")

    # muting Bob hides his lines in this browser, and stays muted after a reload
    page.get_by_text("Mute a player").click()
    page.locator("#mute-1").check()
    expect(log).not_to_contain_text("hello all")
    page.reload()
    expect(page.locator("#mute-1")).to_be_checked()
    expect(log).not_to_contain_text("hello all")
    expect(log).to_contain_text(HOSTILE)
    page.get_by_text("Mute a player").click()
    page.locator("#mute-1").uncheck()
    expect(log).to_contain_text("hello all")
    assert watched.errors == [] and watched.toasts() == []


def test_on_a_phone_the_chat_is_a_drawer_that_keeps_the_moves_in_view(
    client: Client, open_page: Any, shots: Path
) -> None:
    watched = open_page(390, 844)
    page = watched.page
    sent: list[Any] = []
    history = [{"type": "chat", "seat": 1, "name": "Bob", "text": "gl hf", "at": time.time()}]
    with_chat_and_clock(page, sent, history)
    table_id = seated_table(client, page)
    page.goto(f"{client.base}/t/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    drawer = page.locator("#chat")
    expect(drawer).to_be_hidden()
    page.locator("#chat-btn").click()
    expect(drawer).to_be_visible()
    page.wait_for_timeout(400)  # the drawer slides in
    check_in_view(page, ["#banner", "#chat-text", "#chat-log li", "#controls"], "drawer open")
    page.locator("#chat-text").fill("on my phone")
    page.locator("#chat-send").click()
    expect(page.locator("#chat-log")).to_contain_text("you:on my phone")
    snap(page, shots / "phone-chat.png")
    page.locator("#chat-close").click()
    expect(drawer).to_be_hidden()
    assert [m["text"] for m in sent] == ["on my phone"]
    assert watched.errors == [] and watched.toasts() == []


def test_the_replay_shows_the_table_talk_when_the_server_keeps_it(
    client: Client, open_page: Any
) -> None:
    made = client.create("powwow", 3, dict.fromkeys(range(3), "random"), options={"buzzards": 1})
    client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    watched = open_page(1366, 768)
    page = watched.page
    talk = [{"seat": None, "name": "Cy", "text": HOSTILE, "at": time.time()}]

    def with_talk(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        data["chat"] = talk
        route.fulfill(response=response, body=json.dumps(data))

    page.route(re.compile(r"/replay\?step="), with_talk)
    page.goto(f"{client.base}/replay/{made['id']}")
    chat = page.locator("#chat")
    expect(chat).to_be_visible()
    expect(chat).to_contain_text(f"Cy (watching):{HOSTILE}")
    assert page.locator("#injected").count() == 0
    assert watched.errors == []
