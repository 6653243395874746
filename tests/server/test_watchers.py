"""A signed-in spectator watches and chats under the account's name, on a real socket; a guest
cannot watch (nor chat) under an account's name."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import connect

from campfire.accounts.sessions import COOKIE
from tests.server.conftest import Client, Socket
from tests.server.test_chat import said
from tests.server.test_wire import seat_sockets

PASSWORD = "correct horse battery"


def signed_in(client: Client, name: str) -> str:
    """A new account's session id (another browser than the client's)."""
    with httpx.Client(base_url=client.base, timeout=20) as browser:
        made = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        return str(browser.cookies[COOKIE])


def watching(client: Client, table_id: str, session: str, name: str | None = None) -> Socket:
    """A spectator's socket that carries the session cookie, as a signed-in browser's does."""
    ws = connect(
        f"{client.ws_base}/ws/tables/{table_id}",
        open_timeout=10,
        additional_headers={"Cookie": f"{COOKIE}={session}"},
        legacy=True,
    )
    hello: dict[str, object] = {"type": "hello", "token": None}
    if name is not None:
        hello["name"] = name
    ws.send(json.dumps(hello))
    return Socket(ws)


def test_a_signed_in_spectator_chats_under_the_account_name(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 2)
    player = client.socket(table_id, tokens[0])
    session = signed_in(client, "Watcher_1")
    # whatever name the hello gives, the account's is the one shown
    fan = watching(client, table_id, session, name="Someone Else")
    assert fan.recv()["type"] == "update"
    assert fan.recv()["type"] == "chat_history"
    fan.send({"type": "chat", "id": 1, "text": "nice dispute"})
    assert fan.until(lambda m: m["type"] in ("ok", "error")) == {"type": "ok", "id": 1}
    heard = said(player, "nice dispute")
    assert (heard["seat"], heard["name"]) == (None, "Watcher_1")
    # without a name in the hello too
    quiet = watching(client, table_id, session)
    assert quiet.recv()["type"] == "update"
    quiet.send({"type": "chat", "id": 2, "text": "me again"})
    assert said(player, "me again")["name"] == "Watcher_1"
    # a session that is not valid is a guest: the line is a plain spectator's
    stale = watching(client, table_id, "x" * 43)
    assert stale.recv()["type"] == "update"
    stale.send({"type": "chat", "id": 3, "text": "who am I"})
    assert said(player, "who am I")["name"] == "Spectator"
    for sock in (player, fan, quiet, stale):
        sock.close()


def test_a_guest_cannot_watch_or_chat_under_an_accounts_name(client: Client) -> None:
    table_id, _ = seat_sockets(client, "powwow", 2)
    signed_in(client, "Alice")
    for posing in ("Alice", "ALICE", "Аlice"):  # the last with a Cyrillic А
        refused = client.socket(table_id, name=posing).recv()
        assert refused["type"] == "error" and refused["fatal"], refused
        assert refused["status"] == 409 and "belongs to an account" in refused["reason"]
    # a guest's own name still works
    guest = client.socket(table_id, name="Bob")
    assert guest.recv()["type"] == "update"
    guest.close()


def test_an_account_seated_here_may_watch_from_another_device(client: Client) -> None:
    with httpx.Client(base_url=client.base, timeout=20) as browser:
        browser.post("/api/accounts", json={"name": "Carol", "password": PASSWORD})
        made = browser.post(
            "/api/tables", json={"game": "powwow", "players": 2, "name": "Carol", "bots": {}}
        ).json()
        session = str(browser.cookies[COOKIE])
    assert made["table"]["seats"][made["seat"]]["name"] == "Carol"
    phone = watching(client, made["id"], session)
    first = phone.recv()
    assert first["type"] == "update", first
    phone.send({"type": "chat", "id": 1, "text": "from my phone"})
    seat = client.socket(made["id"], made["token"])
    assert said(seat, "from my phone")["name"] == "Carol"
    # a guest under that name is still refused
    refused = client.socket(made["id"], name="carol").recv()
    assert refused["status"] == 409
    for sock in (phone, seat):
        sock.close()
