"""Who gets a socket at a table: seated players always, spectators within limits per table and
per address, pages of this server only (issue 24, item 1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from campfire.server.tables import admission
from tests.server.conftest import Client, Socket


def first(sock: Socket) -> Any:
    """The first answer to a hello: an update (let in) or an error (refused)."""
    return sock.until(lambda m: m["type"] in ("update", "error"))


def seated_pair(client: Client) -> tuple[str, str, str]:
    """A listed table with its host and a friend who just joined, each holding a token."""
    made = client.create("powwow", 3, {2: "random"}, name="Ana", listed=True, clock=60)
    friend = client.join(made["id"], "Bob")
    return str(made["id"]), str(made["token"]), str(friend["token"])


def test_a_crowd_of_anonymous_sockets_does_not_lock_the_players_out(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(admission, "SPECTATORS_PER_ADDRESS", 1000)  # many addresses, as one
    table_id, host, friend = seated_pair(client)
    crowd = [client.socket(table_id) for _ in range(admission.SPECTATOR_LIMIT)]
    try:
        assert all(first(s)["type"] == "update" for s in crowd)
        refused = first(client.socket(table_id))
        assert refused["status"] == 429 and refused["fatal"]
        assert "players still get in" in refused["reason"]
        for token, seat in ((host, 0), (friend, 1)):
            sock = client.socket(table_id, token)
            answer = first(sock)
            assert answer["type"] == "update" and answer["view"]["seat"] == seat, answer
            sock.close()
    finally:
        for sock in crowd:
            sock.close()


def test_one_address_watches_a_table_only_so_many_times(client: Client) -> None:
    table_id, host, _ = seated_pair(client)
    mine = [client.socket(table_id) for _ in range(admission.SPECTATORS_PER_ADDRESS)]
    try:
        assert all(first(s)["type"] == "update" for s in mine)
        refused = first(client.socket(table_id, name="Eve"))
        assert refused["status"] == 429 and "your address" in refused["reason"]
        seated = client.socket(table_id, host)
        assert first(seated)["type"] == "update"
        seated.close()
        mine.pop().close()  # a closed tab makes room again
        client.wait_for(table_id, lambda s: s["table"]["spectators"] < len(mine) + 1)
        again = client.socket(table_id)
        assert first(again)["type"] == "update"
        again.close()
    finally:
        for sock in mine:
            sock.close()


def test_a_seat_opened_once_too_often_closes_its_oldest_window(client: Client) -> None:
    table_id, host, _ = seated_pair(client)
    windows = [client.socket(table_id, host) for _ in range(admission.SEAT_CONNECTIONS)]
    try:
        assert all(first(w)["type"] == "update" for w in windows)
        newest = client.socket(table_id, host)
        assert first(newest)["type"] == "update"
        closed = windows[0].until(lambda m: m["type"] == "error")
        assert closed["fatal"] and "another window" in closed["reason"]
        newest.close()
    finally:
        for sock in windows:
            sock.close()


def test_a_page_of_another_site_cannot_open_the_socket(client: Client) -> None:
    table_id, host, _ = seated_pair(client)
    url = f"{client.ws_base}/ws/tables/{table_id}"
    with connect(url, origin=Origin("http://evil.example"), legacy=True) as ws:
        answer = json.loads(ws.recv(timeout=10))
        assert answer["status"] == 403 and answer["fatal"] and "evil.example" in answer["reason"]
    with connect(url, origin=Origin(client.base), legacy=True) as ws:
        ws.send(json.dumps({"type": "hello", "token": host}))
        assert json.loads(ws.recv(timeout=10))["type"] == "update"
