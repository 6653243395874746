"""Table talk and the turn clock in the browser, against the real server: lines said by other
connections arrive as history, the page's own lines come back from the server, the clock is the
table's own."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.server import browsing
from tests.server.browsing import snap
from tests.server.conftest import Client
from tests.server.test_layout import check_in_view

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

HOSTILE = '<img src=x id="injected"><b>bold</b>'


def say(client: Client, table_id: str, token: str | None, text: str, name: Any = None) -> None:
    """A line of table talk from a real connection (a seat's, or a named spectator's)."""
    sock = client.socket(table_id, token, name=name)
    sock.send({"type": "chat", "text": text, "id": 1})
    sock.until(lambda m: m.get("type") == "ok" and m.get("id") == 1)
    sock.close()


def chat_sent(page: Page) -> list[Any]:
    """The chat messages the page sends on its table socket, as they go."""
    sent: list[Any] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda f: sent.append(json.loads(f)) if '"chat"' in str(f) else None)

    page.on("websocket", watch)
    return sent


def seated_table(client: Client, page: Page, bob_says: str) -> str:
    """Ana (this page) at seat 0, Bob (who never moves) at seat 1, a bot at seat 2; a turn
    clock of a minute; Bob has said something."""
    made = client.create("powwow", 3, {2: "random"}, options={}, name="Ana", seat=0, clock=60)
    bob = client.join(made["id"], "Bob", 1)
    say(client, made["id"], bob["token"], bob_says)
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
    sent = chat_sent(page)
    table_id = seated_table(client, page, "hello all")
    say(client, table_id, None, HOSTILE, name="Cy")
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
    # a quick message goes as its key: each reader's page shows it in their language
    assert [m.get("text", m.get("emote")) for m in sent] == ["my turn soon", "nice"]

    # the clock shows the time left to the seat whose clock runs, and counts down
    clock = page.locator("#clock")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text(re.compile(r"◷ [01]:\d\d"))
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
    sent = chat_sent(page)
    table_id = seated_table(client, page, "gl hf")
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


def test_the_replay_shows_the_table_talk(client: Client, open_page: Any) -> None:
    made = client.create("powwow", 3, dict.fromkeys(range(3), "random"), options={"buzzards": 1})
    say(client, made["id"], None, HOSTILE, name="Cy")
    client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    watched = open_page(1366, 768)
    page = watched.page
    page.goto(f"{client.base}/replay/{made['id']}")
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    page.keyboard.press("End")  # the line was said during the game: the replay shows it from then
    chat = page.locator("#chat")
    expect(chat).to_be_visible()
    expect(chat).to_contain_text(f"Cy (watching):{HOSTILE}")
    assert page.locator("#injected").count() == 0
    assert watched.errors == []
