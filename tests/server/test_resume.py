"""A reconnect gets what it missed: a hello with the record index the page last saw (`at`) is
answered with only the events after it (`full` false), as a socket that never left would have
had them, over a real socket; a bad `at` gets a clear refusal."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.server.conftest import Client, Socket
from tests.server.test_api import pick
from tests.server.test_relay import relay_pair  # noqa: F401  (a fixture)
from tests.server.test_wire import seat_sockets


def hello(client: Client, table_id: str, token: str | None, **more: Any) -> Socket:
    ws = connect(f"{client.ws_base}/ws/tables/{table_id}", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token, **more}))
    return Socket(ws)


def first_update(sock: Socket) -> dict[str, Any]:
    message = sock.recv()
    assert message["type"] == "update", message
    return dict(message)


def play(client: Client, game: str, table_id: str, tokens: list[str], moves: int, seed: int) -> int:
    """`moves` random legal moves through the HTTP API (no socket of the movers stays open);
    the record's length after them."""
    rng = random.Random(seed)
    for _ in range(moves):
        public = client.state(table_id)
        if public["table"]["status"] == "finished":
            break
        seat = public["table"]["to_move"]
        mine = client.state(table_id, tokens[seat])
        response = client.act(table_id, tokens[seat], pick(game, mine["controls"], rng), mine["at"])
        assert response.status_code == 200, response.text
    return int(client.state(table_id)["at"])


def resumed_as_a_fresh_hello_shows(
    client: Client, table_id: str, token: str | None, since: int, now: int
) -> dict[str, Any]:
    """The update a reconnect from `since` gets, checked against a fresh hello's full one."""
    back = hello(client, table_id, token, at=since)
    resumed = first_update(back)
    fresh_sock = hello(client, table_id, token)
    fresh = first_update(fresh_sock)
    assert (resumed["full"], fresh["full"]) == (False, True)
    assert resumed["at"] == fresh["at"] == now
    for key in ("view", "controls", "extras"):
        assert resumed[key] == fresh[key], key
    # the events after `since`, and only they, as the whole story tells them to this seat
    assert resumed["events"] == [e for e in fresh["events"] if e["at"] > since]
    assert all(e["at"] > since for e in resumed["events"])
    assert back.recv()["type"] == "chat_history"
    back.close()
    fresh_sock.close()
    return resumed


@pytest.mark.parametrize(("game", "players"), [("wakatanka", 3), ("powwow", 3)])
def test_a_reconnect_gets_only_what_it_missed(client: Client, game: str, players: int) -> None:
    table_id, tokens = seat_sockets(client, game, players)
    start = play(client, game, table_id, tokens, 4, seed=1)
    # a seat and a spectator see the table, then go away
    seat_sock, watcher = hello(client, table_id, tokens[0]), hello(client, table_id, None)
    seen = {0: first_update(seat_sock)["at"], None: first_update(watcher)["at"]}
    assert seen == {0: start, None: start}
    seat_sock.close()
    watcher.close()
    now = play(client, game, table_id, tokens, 9, seed=2)
    assert now > start
    for seat in (0, None):
        token = None if seat is None else tokens[seat]
        resumed = resumed_as_a_fresh_hello_shows(client, table_id, token, seen[seat], now)
        assert resumed["events"], "moves were made while it was away"
    # nothing missed: an update with no events, not the whole story again
    assert resumed_as_a_fresh_hello_shows(client, table_id, tokens[1], now, now)["events"] == []
    # from the start of the game: everything, though not marked full
    whole = resumed_as_a_fresh_hello_shows(client, table_id, tokens[2], 0, now)
    assert whole["events"]


def test_an_at_that_is_no_point_of_the_game_gets_the_whole_table(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 2)
    now = play(client, "powwow", table_id, tokens, 2, seed=3)
    sock = hello(client, table_id, tokens[0], at=now + 50)
    got = first_update(sock)
    assert got["full"] is True and got["at"] == now
    sock.close()


@pytest.mark.parametrize("bad", ["7", -1, True, 2.5, [3], {"at": 1}])
def test_a_bad_at_is_refused_with_its_reason(client: Client, bad: Any) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 2)
    refused = hello(client, table_id, tokens[0], at=bad).recv()
    assert refused["type"] == "error" and refused["fatal"] and refused["status"] == 422, refused
    assert "'at' must be the record index" in refused["reason"]


def test_a_reconnect_to_a_relay_gets_what_it_missed(
    relay_pair: tuple[Client, Client],  # noqa: F811
) -> None:
    """The owner's process (a) makes the moves; the page comes back on the other (b), which
    holds the entries aside unapplied until the hello reads the game."""
    a, b = relay_pair
    table_id, tokens = seat_sockets(a, "wakatanka", 3)
    start = play(a, "wakatanka", table_id, tokens, 3, seed=4)
    # b serves the table for a watcher, so it hears the owner's moves as a relay
    keeper = hello(b, table_id, None)
    first_update(keeper)
    seat_sock = hello(b, table_id, tokens[1])
    assert first_update(seat_sock)["at"] == start
    seat_sock.close()
    now = play(a, "wakatanka", table_id, tokens, 8, seed=5)
    keeper.until(lambda m: m["type"] == "update" and m["at"] == now)
    resumed = resumed_as_a_fresh_hello_shows(b, table_id, tokens[1], start, now)
    assert resumed["events"]
    keeper.close()
