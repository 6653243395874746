"""Letting a bot play a seat: a player leaving hands their seat over, and the others may hand
over the seat of someone who has been away, so a table never stalls on a person who left."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from campfire.kernel import Record
from tests.server.conftest import Client
from tests.server.test_api import pick, play_to_end
from tests.server.test_restart import Process, sqlite_server
from tests.server.test_wire import Checker, seat_sockets


def to_bot(
    client: Client, table_id: str, seat: int, token: str | None, body: Any = None
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.http.post(f"/api/tables/{table_id}/seats/{seat}/bot", json=body, headers=headers)


def state_as(client: Client, table_id: str, token: str) -> httpx.Response:
    return client.http.get(
        f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"}
    )


def seats(state: Any) -> list[tuple[str, str | None, str | None]]:
    return [(s["kind"], s["level"], s["name"]) for s in state["table"]["seats"]]


def refused(response: httpx.Response, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    reason: str = response.json()["error"]
    for word in words:
        assert word in reason, reason
    return reason


def three_at_a_table(client: Client, game: str = "powwow") -> tuple[str, dict[int, str]]:
    """Ana at seat 0, Bob at seat 1, a random bot at seat 2: the game has started."""
    made = client.create(game, 3, {2: "random"}, name="Ana")
    bob = client.join(made["id"], "Bob")
    return made["id"], {0: made["token"], 1: bob["token"]}


def play_until_turn_of(client: Client, table_id: str, tokens: dict[int, str], seat: int) -> Any:
    """Random legal moves by the people at the table until it is `seat`'s turn."""
    rng = random.Random(seat)
    for _ in range(200):
        public = client.wait_for(table_id, lambda s: s["table"]["to_move"] in tokens)
        if public["table"]["to_move"] == seat:
            return public
        mover = public["table"]["to_move"]
        mine = client.state(table_id, tokens[mover])
        response = client.act(
            table_id, tokens[mover], pick("powwow", mine["controls"], rng), mine["at"]
        )
        assert response.status_code == 200, response.text
    raise AssertionError(f"it never was seat {seat}'s turn")


def test_a_player_leaves_on_their_turn_and_a_bot_plays_on(client: Client) -> None:
    table_id, tokens = three_at_a_table(client)
    stalled = play_until_turn_of(client, table_id, tokens, 1)
    response = to_bot(client, table_id, 1, tokens[1])
    assert response.status_code == 200, response.text
    seat = response.json()["table"]["seats"][1]
    assert (seat["kind"], seat["level"], seat["name"], seat["taken"]) == (
        "bot",
        "medium",
        "Bob",
        True,
    )
    # the bot was woken: the table moves on without anyone else doing anything
    client.wait_for(table_id, lambda s: s["at"] > stalled["at"])
    # Bob's token no longer acts for the seat, nor sees it
    refused(state_as(client, table_id, tokens[1]), 403, "a bot now plays seat 1")
    refused(client.act(table_id, tokens[1], {"action": "dispute"}), 403, "a bot now plays seat 1")
    refused(to_bot(client, table_id, 1, tokens[1]), 403)
    # Ana plays the game to its end against the two bots
    final = play_to_end(client, table_id, {0: tokens[0]}, random.Random(2), "powwow")
    moves = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text).moves
    assert final["table"]["status"] == "finished"
    assert any(m.get("player") == 1 for m in moves[stalled["at"] :])


def test_others_may_hand_over_an_away_seat_once_it_has_been_away_long_enough(
    serve: Callable[..., Client],
) -> None:
    client = serve(away_seconds=0.2)
    table_id, tokens = three_at_a_table(client)
    bob = client.socket(table_id, tokens[1])
    bob.recv()
    public = client.state(table_id)["table"]
    assert public["away_limit"] == 0.2
    assert public["seats"][1]["away"] is False and public["seats"][1]["away_for"] is None
    assert public["seats"][0]["away"] is True  # Ana has no socket open
    refused(to_bot(client, table_id, 1, tokens[0]), 409, "Bob is connected")
    bob.close()
    client.wait_for(table_id, lambda s: (s["table"]["seats"][1]["away_for"] or 0) >= 0.2, limit=10)
    response = to_bot(client, table_id, 1, tokens[0], {"level": "hard"})
    assert response.status_code == 200, response.text
    seat = client.state(table_id)["table"]["seats"][1]
    assert (seat["kind"], seat["level"], seat["away"]) == ("bot", "hard", False)
    refused(state_as(client, table_id, tokens[1]), 403, "a bot now plays seat 1")


def test_a_seat_is_handed_over_while_the_table_waits_and_the_game_starts_with_the_bot(
    client: Client,
) -> None:
    made = client.create("wakatanka", 4, {3: "easy"}, name="Ana")
    bob = client.join(made["id"], "Bob")
    refused(to_bot(client, made["id"], 2, made["token"]), 409, "seat 2 is free")
    response = to_bot(client, made["id"], 1, bob["token"], {"level": "easy"})
    assert response.status_code == 200, response.text
    table = response.json()["table"]
    assert table["status"] == "waiting"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "human", "bot"]
    assert [s["taken"] for s in table["seats"]] == [True, True, False, True]
    cy = client.join(made["id"], "Cy")
    assert cy["seat"] == 2
    assert client.state(made["id"], cy["token"])["table"]["status"] == "playing"


def test_every_refusal_is_clear_and_changes_nothing(client: Client) -> None:
    table_id, tokens = three_at_a_table(client)
    before = client.state(table_id)
    refused(to_bot(client, "abcdefghijkm", 1, tokens[0]), 404, "no table")
    refused(to_bot(client, "../etc", 1, tokens[0]), 404)
    refused(to_bot(client, table_id, 3, tokens[0]), 404, "no seat 3", "3-player")
    refused(to_bot(client, table_id, -1, tokens[0]), 404, "no seat -1")
    refused(to_bot(client, table_id, 1, None), 401, "only a player")
    refused(to_bot(client, table_id, 1, "x" * 30), 403, "does not belong")
    refused(to_bot(client, table_id, 2, tokens[0]), 409, "already played by a bot")
    refused(
        to_bot(client, table_id, 1, tokens[0], {"level": "genius"}),
        422,
        "genius",
        "random, easy, medium, hard",
    )
    refused(to_bot(client, table_id, 1, tokens[0], {"level": 3}), 422, "level")
    refused(to_bot(client, table_id, 1, tokens[0], {"lvl": "easy"}), 422, "lvl")
    response = client.http.post(
        f"/api/tables/{table_id}/seats/1/bot",
        content=b"{nope",
        headers={"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"},
    )
    refused(response, 400, "not valid JSON")
    refused(client.http.post(f"/api/tables/{table_id}/seats/one/bot"), 422, "seat")
    # Bob never connected: away, but not yet for the server's 60 seconds
    reason = refused(to_bot(client, table_id, 1, tokens[0]), 409, "Bob has been away", "60 s")
    assert " in " in reason
    after = client.state(table_id)
    assert (
        seats(after)
        == seats(before)
        == [
            ("human", None, "Ana"),
            ("human", None, "Bob"),
            ("bot", "random", "Bot 2"),
        ]
    )
    assert client.state(table_id, tokens[1])["view"]["seat"] == 1


def test_a_finished_game_has_no_seat_to_hand_over(client: Client) -> None:
    table_id, tokens = three_at_a_table(client)
    assert to_bot(client, table_id, 1, tokens[1]).status_code == 200
    play_to_end(client, table_id, {0: tokens[0]}, random.Random(4), "powwow")
    refused(to_bot(client, table_id, 0, tokens[0]), 409, "the game is over")
    assert client.state(table_id, tokens[0])["table"]["seats"][0]["kind"] == "human"


# --- on the wire ---------------------------------------------------------------------------------
def test_after_a_socket_hands_its_seat_over_it_only_gets_a_spectators_view(client: Client) -> None:
    """Waka Tanka hands are private: once seat 1 is a bot's, its old socket sees no hand, no
    face-down card it placed, nothing but what a spectator sees."""
    table_id, tokens = seat_sockets(client, "wakatanka", 3)
    old = client.socket(table_id, tokens[1])
    first = old.recv()
    assert first["view"]["hand"]  # the seat's own hand, before
    old.send({"type": "bot", "id": 9, "level": "genius"})
    answer = old.until(lambda m: m["type"] in ("ok", "error"))
    assert answer["id"] == 9 and answer["status"] == 422 and "medium" in answer["reason"]
    old.send({"type": "bot", "id": 10, "seat": 0})
    answer = old.until(lambda m: m["type"] in ("ok", "error"))
    assert answer["status"] == 409 and "P0 has been away" in answer["reason"]
    old.send({"type": "bot", "id": 11})
    answer = old.until(lambda m: m["type"] in ("ok", "error"))
    assert answer == {"type": "ok", "id": 11}
    notice = next(m for m in old.received if m["type"] == "seat")
    assert notice["seat"] is None and "seat 1" in notice["reason"]
    # the socket now acts for nobody
    old.send({"type": "act", "id": 12, "action": {"action": "call"}})
    answer = old.until(lambda m: m["type"] in ("ok", "error"))
    assert answer["status"] == 403 and "spectators" in answer["reason"]
    # the token neither opens the seat again nor reads its state
    again = client.socket(table_id, tokens[1])
    denied = again.recv()
    assert (
        denied["fatal"] and denied["status"] == 403 and "a bot now plays seat 1" in denied["reason"]
    )
    refused(state_as(client, table_id, tokens[1]), 403)
    # the others leave too: bots play the game out while the old socket watches
    for seat in (0, 2):
        assert to_bot(client, table_id, seat, tokens[seat]).status_code == 200
    final = client.wait_for(table_id, lambda s: s["table"]["status"] == "finished", limit=60)
    old.until(lambda m: m["type"] == "update" and m["at"] == final["at"], timeout=30)
    cut = old.received.index(notice)
    checker = Checker(Record.loads(client.http.get(f"/api/tables/{table_id}/record").text))
    assert checker.check(1, old.received[:cut]) >= 1
    watched = old.received[cut:]
    assert checker.check(None, watched) >= 2
    assert all(m["view"]["hand"] is None for m in watched if m["type"] == "update")
    assert all(m["controls"] is None for m in watched if m["type"] == "update")
    old.close()


# --- across a restart ----------------------------------------------------------------------------
@pytest.fixture
def process(tmp_path: Path) -> Iterator[Process]:
    server = sqlite_server(tmp_path, "--seed", "3")
    yield server
    server.stop()


def test_a_handed_over_seat_stays_a_bots_after_a_restart(process: Process) -> None:
    client = process.start()
    table_id, tokens = three_at_a_table(client)
    stalled = play_until_turn_of(client, table_id, tokens, 0)
    assert to_bot(client, table_id, 1, tokens[1], {"level": "easy"}).status_code == 200
    process.kill()
    client = process.start()
    seats = client.state(table_id)["table"]["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [
        ("human", None),
        ("bot", "easy"),
        ("bot", "random"),
    ]
    refused(state_as(client, table_id, tokens[1]), 403)
    assert client.state(table_id, tokens[0])["at"] == stalled["at"]
    final = play_to_end(client, table_id, {0: tokens[0]}, random.Random(6), "powwow")
    assert final["table"]["status"] == "finished"
    moves = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text).moves
    assert any(m.get("player") == 1 for m in moves[stalled["at"] :])


def test_the_serve_command_sets_how_long_a_player_may_be_away(tmp_path: Path) -> None:
    server = sqlite_server(tmp_path, "--away-seconds", "0.3")
    try:
        client = server.start()
        table_id, tokens = three_at_a_table(client)
        stalled = play_until_turn_of(client, table_id, tokens, 1)  # Bob never connected
        # within this server's limit of 0.3 s the seat is refused, then given: far short of
        # the usual minute, and the refusal names the limit
        started = time.monotonic()
        while True:
            answer = to_bot(client, table_id, 1, tokens[0])
            if answer.status_code == 200:
                break
            assert answer.status_code == 409 and "after 0.3 s away" in answer.json()["error"]
            assert time.monotonic() - started < 30
            time.sleep(0.02)
        assert seats(client.state(table_id))[1][:2] == ("bot", "medium")
        client.wait_for(table_id, lambda s: s["at"] > stalled["at"])  # the bot played
    finally:
        server.stop()
