"""Relays: a process that holds sockets of a table another process owns passes on what the owner
says each seat is shown, in each socket's language, without applying the rules; the entries wait
aside until something there reads the game."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from websockets.sync.client import connect

import campfire.games  # noqa: F401  (registers the games)
from campfire.i18n import LANGUAGES
from campfire.kernel import RandomBot, Record, get_game
from campfire.server.store.schema import PLAYING
from campfire.server.tables import owner, sync
from campfire.server.tables.connections import encode
from campfire.server.tables.live import LiveTable, Seat, SeatPart
from campfire.server.tables.webgame import web_game
from tests.server.conftest import PG_URL, Client, Socket
from tests.server.test_api import pick

GAMES = [("powwow", 4, {}), ("powwow", 3, {"tomahawks": True}), ("wakatanka", 4, {})]


def table_of(game_name: str, players: int, options: dict[str, Any]) -> LiveTable:
    game = get_game(game_name)
    state = game.new_state(players, options)
    return LiveTable(
        id="t",
        game=game,
        web=web_game(game),
        players=players,
        options=options,
        seats=[Seat(s, "human", name=f"P{s}") for s in range(players)],
        settled=state,
        status=PLAYING,
        created=0.0,
        updated=0.0,
    )


@pytest.mark.parametrize(("game_name", "players", "options"), GAMES)
def test_a_seats_part_read_back_from_the_bus_is_told_as_the_owner_tells_it(
    game_name: str, players: int, options: dict[str, Any]
) -> None:
    """Every seat's and the spectators' update, in every language, made from its part as it
    crosses the bus (JSON) equals the one made where the rules ran, over whole random games."""
    for seed in range(3):
        table = table_of(game_name, players, options)
        rng, bot = random.Random(seed), RandomBot(seed)
        state = table.state
        while not state.is_terminal:
            if state.to_move is None:
                events = state.apply(state.sample_chance(rng))
            else:
                events = state.apply(bot.choose(state.view(state.to_move), state.legal_actions()))
            table.at = len(state.history)
            stamped = [(table.at, e) for e in events]
            meta = table.meta()
            for seat in [*range(players), None]:
                here = table.part_for(seat, stamped)
                there = SeatPart.from_json(orjson.loads(orjson.dumps(here.to_json())))
                for lang in LANGUAGES:
                    assert encode(table.update_of(there, seat, meta=meta, lang=lang)) == (
                        encode(table.update_of(here, seat, meta=meta, lang=lang))
                    ), (seed, seat, lang)


def test_an_entry_kept_aside_that_does_not_apply_leaves_the_copy_diverged() -> None:
    table = table_of("powwow", 3, {})
    table.at = len(table.settled.history) + 1
    table.relayed = [{"player": 0, "guess": -5}]
    before = len(table.settled.history)
    assert len(table.state.history) == before  # the last good entry, not a crash
    assert table.diverged and not table.relayed


@pytest.fixture
def relay_pair(
    monkeypatch: pytest.MonkeyPatch,
    serve: Callable[..., Client],
    pg_schema: str,
    redis_url: str,
) -> tuple[Client, Client]:
    """Two servers on one database and one Redis whose periodic look at the database does not
    come during the test, and whose askers wait for the owner's notice: what a relay applies
    is then only what a socket or a read asks for."""
    monkeypatch.setattr(sync, "WATCH_SECONDS", 3600.0)
    monkeypatch.setattr(owner, "NOTICE_SECONDS", 30.0)
    return (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url),
        serve(PG_URL, schema=pg_schema, redis_url=redis_url),
    )


def socket_in(client: Client, table_id: str, token: str | None, lang: str) -> Socket:
    ws = connect(f"{client.ws_base}/ws/tables/{table_id}?lang={lang}", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return Socket(ws)


def shown(message: dict[str, Any]) -> tuple[Any, ...]:
    """What an update shows of the game (its table meta is each process's: who is online)."""
    m = message
    return (m["at"], m["view"], m["controls"], m["extras"], m["events"])


def update_at(sock: Socket, at: int) -> dict[str, Any]:
    """The socket's update of the change that made the record `at` long."""
    for message in sock.received:
        if message["type"] == "update" and message["at"] == at:
            return dict(message)
    return dict(sock.until(lambda m: m["type"] == "update" and m["at"] >= at))


def after(at: int) -> Callable[[Any], bool]:
    return lambda m: bool(m["type"] == "update" and m["at"] > at)


def test_a_relay_tells_its_sockets_what_the_owner_shows_without_applying_the_rules(
    relay_pair: tuple[Client, Client],
) -> None:
    a, b = relay_pair
    made = a.create("wakatanka", 3, name="Ana")
    tokens = {0: made["token"], 1: b.join(made["id"], "Bob")["token"]}
    # the last seat taken deals, and the process that stores the deal owns the game: a
    tokens[2] = a.join(made["id"], "Cy")["token"]
    table_id = made["id"]
    # each seat and a spectator on each process, in two languages
    names = [
        (seat, where, lang) for seat in (0, 1, 2, None) for where in "ab" for lang in ("en", "fr")
    ]
    clients = {"a": a, "b": b}
    sockets = {
        n: socket_in(clients[n[1]], table_id, None if n[0] is None else tokens[n[0]], n[2])
        for n in names
    }
    for sock in sockets.values():
        sock.until(lambda m: m["type"] == "update")
    hubs = {"a": a.app.state.hub, "b": b.app.state.hub}
    relay = hubs["b"].tables[table_id]
    kept = len(relay.settled.history)  # what b applied to show its sockets the table
    watch = sockets[(None, "a", "en")]
    update = update_at(watch, kept)
    rng = random.Random(3)
    asked = 0
    while update["table"]["status"] == "playing":
        at, seat = update["at"], update["table"]["to_move"]
        # every act goes through b, the relay
        mine = sockets[(seat, "b", "en")]
        controls = update_at(mine, at)["controls"]
        asked += 1
        action = pick("wakatanka", controls, rng)
        mine.send({"type": "act", "id": asked, "action": action, "at": at})
        update = dict(watch.until(after(at)))
    assert hubs["a"].bus.owns(table_id) or update["table"]["status"] == "finished"
    record = Record.loads(a.http.get(f"/api/tables/{table_id}/record").text)
    assert record.replay().is_terminal
    total = len(record.moves)
    assert update["at"] == total and asked > 5
    for sock in sockets.values():
        update_at(sock, total)
    # the relay kept the whole game aside: not one entry went through its rules
    assert relay.at == total
    assert len(relay.settled.history) == kept
    assert len(relay.relayed) == total - kept
    owners = hubs["a"].tables[table_id]
    assert len(owners.settled.history) == total and not owners.relayed
    # and every socket of a seat saw the very same game on both processes, word for word
    for seat in (0, 1, 2, None):
        for lang in ("en", "fr"):
            streams = {
                w: [
                    shown(m)
                    for m in sockets[(seat, w, lang)].received
                    if m["type"] == "update" and m["at"] > kept
                ]
                for w in "ab"
            }
            assert streams["a"] == streams["b"] and len(streams["a"]) >= asked - 1, (seat, lang)
    en, fr = (update_at(sockets[(0, "b", lang)], total) for lang in ("en", "fr"))
    assert en["events"] and [e["text"] for e in en["events"]] != [e["text"] for e in fr["events"]]
    assert shown(update_at(sockets[(0, "b", "en")], total)) != shown(
        update_at(sockets[(1, "b", "en")], total)
    )
    # a read at the relay applies what was kept aside, once, and shows the same game
    assert b.state(table_id, tokens[1])["view"] == a.state(table_id, tokens[1])["view"]
    assert len(relay.settled.history) == total and not relay.relayed
    for sock in sockets.values():
        sock.close()
