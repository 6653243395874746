"""One chat limit everywhere: the input takes as many characters as the server allows (it says
so), a long line arrives whole, and a line the server refuses stays in the input (issue 24,
item 8)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from campfire.server.tables.chat import CHAT_LENGTH, CHAT_RATE
from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_chat_ui import seated_table

browser = browsing.browser
open_page = browsing.open_page


def test_the_chat_input_takes_the_servers_limit_and_keeps_a_refused_line(
    client: Client, open_page: Any
) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    table_id = seated_table(client, page, "hi")
    page.goto(f"{client.base}/t/{table_id}")
    log = page.locator("#chat-log")
    expect(log).to_contain_text("Bob:hi")
    field = page.locator("#chat-text")
    assert field.get_attribute("maxlength") == str(CHAT_LENGTH)
    long = " ".join(["word"] * 59) + " ends."  # 300 characters
    assert len(long) == CHAT_LENGTH
    field.fill(long)
    field.press("Enter")
    expect(log).to_contain_text(f"you:{long}")
    expect(field).to_have_value("")
    for i in range(CHAT_RATE[0] - 1):
        field.fill(f"line {i}")
        field.press("Enter")
        expect(log).to_contain_text(f"you:line {i}")
    field.fill("one too many")
    field.press("Enter")
    expect(page.locator(".toast-error")).to_contain_text("at most 5 messages")
    expect(field).to_have_value("one too many")
    stored = client.http.get(f"/api/tables/{table_id}/chat").json()["messages"]
    assert [m["text"] for m in stored if m["seat"] == 0] == [long] + [
        f"line {i}" for i in range(CHAT_RATE[0] - 1)
    ]
