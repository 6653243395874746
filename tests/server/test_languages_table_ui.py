"""The table page in German: the narration names the players (the server says "Platz 1", the
page says the name), and a quick message goes as its key and is read in each page's language."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from campfire.i18n import translator
from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_languages import socket_in
from tests.server.test_waiting_room_ui import seated_page

browser = browsing.browser
open_page = browsing.open_page


def test_a_german_page_names_the_players_and_sends_an_emote_as_its_key(
    client: Client, open_page: Any
) -> None:
    made = client.create("powwow", 2, name="Ana", seat=0, options={"first_player": 1})
    bea = client.join(made["id"], "Bea", 1)
    italian = socket_in(client, made["id"], bea["token"], query="it")
    at = italian.recv()["at"]
    watched = open_page(1366, 768)
    page = watched.page
    sent: list[Any] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent", lambda f: sent.append(json.loads(f)) if '"chat"' in str(f) else None
        ),
    )
    page.goto(f"{client.base}/?lang=de")
    seated_page(client, page, made["id"], 0, made["token"])
    expect(page.locator("html")).to_have_attribute("lang", "de")
    italian.send({"type": "act", "id": 1, "action": {"action": "guess", "value": 7}, "at": at})
    # the server tells this page "Platz 1 tippt 7."; the page puts the name in
    expect(page.locator("#log")).to_contain_text("Bea tippt 7.")
    assert "Platz 1 tippt" not in page.locator("#log").inner_text()
    good_game = translator("de").gettext("Good game")
    page.get_by_role("button", name=good_game).click()
    expect(page.locator("#chat-log")).to_contain_text(good_game)
    assert [m.get("emote") for m in sent] == ["gg"]
    # the Italian seat reads the same line in Italian
    line = italian.until(lambda m: m["type"] == "chat")
    assert (line["emote"], line["text"]) == ("gg", translator("it").gettext("Good game"))
    italian.close()
    assert watched.errors == []
