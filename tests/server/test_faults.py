"""Injected faults: a store that fails or loses a race on a move, a seat or a hand-over changes
nothing — not the state, not the sockets, not the database — and the client is told clearly;
a WebSocket that drops mid-game costs the others nothing."""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable
from typing import Any

import pytest

from campfire.server.store.storage import Conflict
from tests.server.conftest import Client, Socket
from tests.server.test_api import pick


def failing(error: BaseException) -> Callable[..., Any]:
    def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise error

    return fail


async def failing_async(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError("disk full")


async def conflicting_async(*_args: Any, **_kwargs: Any) -> Any:
    raise Conflict("entry 3 of the table was already written")


def quiet(sock: Socket, seconds: float = 0.3) -> list[Any]:
    """The updates that arrive on the socket in the next moments (the test expects none)."""
    return [m for m in sock.drain(seconds) if m["type"] == "update"]


@pytest.mark.parametrize(
    ("fault", "status", "words"),
    [
        (failing_async, 503, "nothing was applied"),
        (conflicting_async, 409, "nothing was applied"),
    ],
)
def test_a_move_the_store_refuses_changes_nothing(
    client: Client, fault: Callable[..., Any], status: int, words: str
) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    tokens = [made["token"], bob["token"]]
    watcher = client.socket(made["id"])
    watcher.recv()
    seat = client.state(made["id"])["table"]["to_move"]
    before = client.state(made["id"], tokens[seat])
    hub = client.app.state.hub
    stored = hub.storage.load(made["id"])
    real = hub.writer.append
    hub.writer.append = fault
    try:
        answer = client.act(
            made["id"],
            tokens[seat],
            pick("powwow", before["controls"], random.Random(1)),
            before["at"],
        )
    finally:
        hub.writer.append = real
    assert answer.status_code == status and words in answer.json()["error"]
    after = client.state(made["id"], tokens[seat])
    assert (after["at"], after["view"], after["controls"]) == (
        before["at"],
        before["view"],
        before["controls"],
    )
    assert quiet(watcher) == []
    assert hub.storage.load(made["id"]) == stored
    # and the same move goes through once the store works again
    again = client.act(
        made["id"],
        tokens[seat],
        pick("powwow", before["controls"], random.Random(1)),
        before["at"],
    )
    assert again.status_code == 200, again.text
    assert watcher.until(lambda m: m["type"] == "update")["at"] > before["at"]
    watcher.close()


@pytest.mark.parametrize(
    ("error", "status"), [(Conflict("seat 1 is already taken"), 409), (OSError("gone"), 503)]
)
def test_a_seat_the_store_refuses_stays_free(
    client: Client, error: BaseException, status: int
) -> None:
    made = client.create("powwow", 3, name="Ana")
    hub = client.app.state.hub
    real = hub.storage.claim_seat
    hub.storage.claim_seat = failing(error)
    try:
        answer = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "Bob", "seat": 1})
    finally:
        hub.storage.claim_seat = real
    assert answer.status_code == status
    assert "error" in answer.json() and answer.json()["error"]
    seats = client.state(made["id"])["table"]["seats"]
    assert [s["taken"] for s in seats] == [True, False, False]
    stored = hub.storage.load(made["id"])
    assert stored is not None and [s.name for s in stored[0].seats] == ["Ana", None, None]
    assert client.join(made["id"], "Bob", 1)["seat"] == 1


@pytest.mark.parametrize(
    ("error", "status"),
    [(Conflict("seat 1 is no longer that player's"), 409), (OSError("gone"), 503)],
)
def test_a_hand_over_the_store_refuses_leaves_the_player_seated(
    client: Client, error: BaseException, status: int
) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    hub = client.app.state.hub
    real = hub.storage.hand_to_bot
    hub.storage.hand_to_bot = failing(error)
    try:
        answer = client.http.post(
            f"/api/tables/{made['id']}/seats/1/bot",
            headers={"Authorization": f"Bearer {bob['token']}"},
        )
    finally:
        hub.storage.hand_to_bot = real
    assert answer.status_code == status and answer.json()["error"]
    seats = client.state(made["id"], bob["token"])["table"]["seats"]
    assert seats[1]["kind"] == "human" and seats[1]["name"] == "Bob"
    stored = hub.storage.load(made["id"])
    assert stored is not None and stored[0].seats[1].kind == "human"


def test_a_socket_that_drops_mid_game_costs_the_others_nothing(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    tokens = [made["token"], bob["token"]]
    steady = client.socket(made["id"])
    steady.recv()
    # a raw socket that upgrades, says hello and then vanishes without a closing handshake
    raw = socket.create_connection(("127.0.0.1", int(client.base.rsplit(":", 1)[1])))
    raw.sendall(
        (
            f"GET /ws/tables/{made['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert b"101" in raw.recv(4096)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    raw.close()  # RST: dropped mid-send for the server
    rng = random.Random(3)
    for _ in range(4):
        public = client.state(made["id"])
        if public["table"]["status"] != "playing":
            break
        seat = public["table"]["to_move"]
        mine = client.state(made["id"], tokens[seat])
        answer = client.act(made["id"], tokens[seat], pick("powwow", mine["controls"], rng))
        assert answer.status_code == 200, answer.text
        assert steady.until(lambda m: m["type"] == "update")["at"] == client.state(made["id"])["at"]
    hub = client.app.state.hub
    table = hub.tables[made["id"]]
    deadline = time.monotonic() + 10
    while len(table.connections) != 1:
        assert time.monotonic() < deadline, "the dropped connection was never let go"
        time.sleep(0.02)
    steady.close()
