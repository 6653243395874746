"""What goes over the WebSocket: real-time updates, reconnects, and no hidden information.

Whole games are played by people only (one socket per seat plus a spectator), every message is
kept, and afterwards the finished game's record is replayed to check each message against the
state it describes: the view is exactly the seat's own view, the events exactly those the seat
may see, and nothing a seat may not know (its own feathers, others' hands, face-down cards it
did not place, the order of the stack) appears anywhere in it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from campfire.kernel import Record, State, get_game
from campfire.server.tables.webgame import web_game
from tests.server.conftest import Client, Socket


def seat_sockets(client: Client, game: str, players: int, **options: Any) -> tuple[str, list[str]]:
    made = client.create(game, players, name="P0", options=options)
    tokens = [made["token"]]
    for s in range(1, players):
        tokens.append(client.join(made["id"], f"P{s}")["token"])
    return made["id"], tokens


def catch_up(sockets: list[Socket], at: int) -> None:
    for sock in sockets:
        if not any(m["type"] == "update" and m["at"] >= at for m in sock.received):
            sock.until(lambda m: m["type"] == "update" and m["at"] >= at)


def latest(sock: Socket) -> Any:
    return next(m for m in reversed(sock.received) if m["type"] == "update")


def play_over_sockets(
    client: Client, game: str, table_id: str, seats: list[Socket], watchers: list[Socket], seed: int
) -> int:
    """Random legal moves, each sent by the socket of the seat to move; returns the final `at`."""
    rng = random.Random(seed)
    expand = web_game(get_game(game)).expand
    everyone = seats + watchers
    at = client.state(table_id)["at"]
    catch_up(everyone, at)
    for _ in range(3000):
        public = client.state(table_id)
        if public["table"]["status"] == "finished":
            return int(public["at"])
        mover = public["table"]["to_move"]
        update = latest(seats[mover])
        assert update["at"] == public["at"] and update["controls"] is not None
        # every other seat is told it is not its turn
        for s, sock in enumerate(seats):
            if s != mover:
                assert latest(sock)["controls"] is None
        action = rng.choice(expand(update["controls"]))
        seats[mover].send({"type": "act", "id": 1, "action": action, "at": update["at"]})
        answer = seats[mover].until(lambda m: m["type"] in ("ok", "error"))
        assert answer["type"] == "ok", answer
        at = client.state(table_id)["at"]
        catch_up(everyone, at)
    raise AssertionError("the game did not end")


def strings_lists(value: Any) -> list[list[str]]:
    """Every list of strings anywhere in a JSON value."""
    found: list[list[str]] = []
    if isinstance(value, list):
        if value and all(isinstance(x, str) for x in value):
            found.append(value)
        for x in value:
            found.extend(strings_lists(x))
    elif isinstance(value, dict):
        for x in value.values():
            found.extend(strings_lists(x))
    return found


def leaked_run(message: Any, order: list[str], window: int = 10) -> list[str] | None:
    """A list in the message holding `window` consecutive items of a hidden order (a shorter
    run than that turns up by chance in sorted hands and card lists)."""
    runs = {tuple(order[i : i + window]) for i in range(len(order) - window + 1)}
    for items in strings_lists(message):
        for i in range(len(items) - window + 1):
            if tuple(items[i : i + window]) in runs:
                return items
    return None


class Checker:
    """Replays the finished record to check each message against the state it was sent from."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.game = get_game(record.game)
        steps = record.steps()
        self.events_at = {i + 1: events for i, (_, events) in enumerate(steps)}
        self.entries = record.moves

    @cache  # noqa: B019 - one checker per test
    def state(self, at: int) -> State[Any, Any]:
        return self.record.replay(at)

    def visible_events(self, seat: int | None, after: int, upto: int) -> list[dict[str, Any]]:
        out = []
        for at in range(after + 1, upto + 1):
            for event in self.events_at.get(at, []):
                if event.visible_to(seat):
                    out.append({"kind": event.kind, "data": event.to_json()})
        return out

    def hidden_orders(self, at: int) -> list[list[str]]:
        """The shuffles written so far: the order of a stack is never anyone's to know."""
        return [m["order"] for m in self.entries[:at] if m.get("chance") == "shuffle"]

    def check(self, seat: int | None, messages: list[Any]) -> int:
        last = 0
        checked = 0
        for message in messages:
            if message["type"] in ("chat", "chat_history"):
                self.check_chat(message)
                continue
            if message["type"] != "update":
                continue
            at = message["at"]
            state = self.state(at)
            self.check_clock(message["table"], state)
            assert message["view"] == state.view(seat).to_json(), f"view at {at} for {seat}"
            after = 0 if message["full"] else last
            got = [{"kind": e["kind"], "data": e["data"]} for e in message["events"]]
            assert got == self.visible_events(seat, after, at), f"events at {at} for {seat}"
            if message["controls"] is not None:
                assert seat is not None and state.to_move == seat
                legal = [self.game.action_to_json(a) for a in state.legal_actions()]
                offered = web_game(self.game).expand(message["controls"])
                key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
                assert sorted(map(key, offered)) == sorted(map(key, legal))
            else:
                assert seat is None or state.to_move != seat or state.is_terminal
            self.check_secrets(seat, message, state)
            last = at
            checked += 1
        return checked

    def check_chat(self, message: Any) -> None:
        """Chat holds what people said and who said it, nothing of the game."""
        lines = [message] if message["type"] == "chat" else message["messages"]
        if message["type"] == "chat_history":
            assert set(message) == {"type", "messages", "length"}
            assert message["length"] == 300  # the most characters a line may have
        for line in lines:
            assert set(line) == {"type", "seat", "name", "text", "at"}, line
            assert line["type"] == "chat" and isinstance(line["at"], float)
            assert line["seat"] is None or 0 <= line["seat"] < self.record.players
        for order in self.hidden_orders(len(self.entries)):
            assert leaked_run(message, order) is None, "a stack order reached the chat"

    def check_clock(self, table: Any, state: State[Any, Any]) -> None:
        """The clock tells whose time runs, and that is the seat to move (nobody's at the end)."""
        clock = table["clock"]
        assert set(clock) == {"seconds", "deadline", "seat"}
        if clock["deadline"] is not None:
            assert clock["seat"] == state.to_move and not state.is_terminal
        else:
            assert clock["seat"] is None

    def check_secrets(self, seat: int | None, message: Any, state: State[Any, Any]) -> None:
        for order in self.hidden_orders(message["at"]):
            leaked = leaked_run(message, order)
            assert leaked is None, f"a stack order reached a seat: {leaked} in {order}"
        if self.game.name == "powwow":
            self.check_powwow(seat, message, state)
        else:
            self.check_wakatanka(seat, message, state)

    def check_powwow(self, seat: int | None, message: Any, state: State[Any, Any]) -> None:
        for s, feathers in enumerate(message["view"]["feathers"]):
            if seat is None or s == seat:
                assert all(f is None for f in feathers), "a seat saw feathers it may not see"
        for event in message["events"]:
            if event["kind"] == "feather":
                assert seat is not None and event["data"]["seat"] != seat, "own feather told"
        kinds = [e["kind"] for e in message["events"]]
        for i, kind in enumerate(kinds):
            if kind == "reveal":
                # worn feathers become public only through a dispute, told right before
                assert kinds[i - 1] == "dispute"

    def check_wakatanka(self, seat: int | None, message: Any, state: State[Any, Any]) -> None:
        view = message["view"]
        if seat is None:
            assert view["hand"] is None
        else:
            assert view["hand"] == state.game.summary(state)["hands"][seat]
        for slots in view["stacks"].values():
            for slot in slots:
                if slot["placer"] != seat:
                    assert slot["card"] is None, (
                        "a face-down card reached a seat that did not place it"
                    )
        for event in message["events"]:
            if event["kind"] in ("hand", "placed"):
                assert event["data"]["seat"] == seat, "another seat's private event"
        if message["controls"] is not None:
            hand = set(view["hand"])
            assert set(message["controls"]["play"]["cards"]) <= hand


@pytest.mark.parametrize(
    ("game", "players", "options", "seed"),
    [
        ("powwow", 4, {"tomahawks": True}, 1),
        ("powwow", 3, {"buzzards": 2}, 2),
        ("wakatanka", 4, {}, 3),
        ("wakatanka", 3, {}, 4),
    ],
)
def test_no_message_holds_what_its_seat_may_not_see(
    serve: Callable[..., Client], game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    # a fixed seed and id salt: the same table ids, so the same deals, on every run
    client = serve(id_salt="wire")
    made = client.create(game, players, name="P0", options=options, clock=86400)
    tokens = [made["token"]]
    for s in range(1, players):
        tokens.append(client.join(made["id"], f"P{s}")["token"])
    table_id = made["id"]
    seats = [client.socket(table_id, token) for token in tokens]
    spectator = client.socket(table_id)
    # everyone says something: every connection hears it, and the history holds it
    for s, sock in enumerate(seats):
        sock.send({"type": "chat", "id": "hi", "text": f"hello from seat {s}"})
    spectator.send({"type": "chat", "id": "hi", "text": "hello from the rail"})
    for sock in [*seats, spectator]:
        # its own line answered, and the last line heard (in either order)
        sock.until(lambda m: m["type"] == "ok" and m["id"] == "hi")
        if not any(m["type"] == "chat" and "rail" in m["text"] for m in sock.received):
            sock.until(lambda m: m["type"] == "chat" and m["text"] == "hello from the rail")
    final = play_over_sockets(client, game, table_id, seats, [spectator], seed)
    record = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text)
    assert len(record.moves) == final
    kinds = {m.get("action") for m in record.moves} | {
        "extra" for m in record.moves if m.get("extra_feather_to") is not None
    }
    # the games reach the moments where the most is revealed
    assert kinds >= ({"dispute"} if game == "powwow" else {"play", "call"})
    if options.get("tomahawks"):
        assert "extra" in kinds
    checker = Checker(record)
    for s, sock in enumerate(seats):
        assert checker.check(s, sock.received) > 5
        kinds = {m["type"] for m in sock.received}
        assert {"update", "chat_history", "chat"} <= kinds
    assert checker.check(None, spectator.received) > 5
    # a late spectator gets the whole public story at once, then the chat so far
    late = client.socket(table_id)
    first = late.recv()
    assert first["full"] and first["at"] == final
    history = late.recv()
    assert history["type"] == "chat_history" and len(history["messages"]) == players + 1
    assert checker.check(None, [first, history]) == 1
    for sock in [*seats, spectator, late]:
        sock.close()


def test_every_connection_gets_its_own_update_after_each_move(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 3)
    sockets = [client.socket(table_id, t) for t in tokens]
    watcher = client.socket(table_id)
    firsts = [s.recv() for s in [*sockets, watcher]]
    assert [m["view"]["seat"] for m in firsts] == [0, 1, 2, None]
    assert all(m["full"] and m["type"] == "update" for m in firsts)
    assert [m["controls"] is not None for m in firsts] == [True, False, False, False]
    for s in [*sockets, watcher]:
        s.drain(0.2)  # the others connecting announce themselves as table updates
    at = firsts[0]["at"]
    sockets[0].send(
        {"type": "act", "id": "g1", "action": {"action": "guess", "value": 7}, "at": at}
    )
    updates = [s.until(lambda m: m["type"] == "update") for s in [*sockets, watcher]]
    assert all(u["at"] == at + 1 and not u["full"] for u in updates)
    assert [u["view"]["guess"] for u in updates] == [7, 7, 7, 7]
    assert [e["text"] for e in updates[0]["events"]] == ["You guess 7."]
    assert [e["text"] for e in updates[1]["events"]] == ["Seat 0 guesses 7."]
    assert updates[1]["controls"] is not None and updates[1]["controls"]["guess"]["min"] == 8
    assert sockets[0].until(lambda m: m["type"] in ("ok", "error")) == {"type": "ok", "id": "g1"}
    for s in [*sockets, watcher]:
        s.close()


def test_a_closed_tab_reconnects_to_the_current_state(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "wakatanka", 3)
    first = client.socket(table_id, tokens[0])
    opening = first.recv()
    first.close()
    # the others play while seat 0 is away
    state = client.state(table_id, tokens[0])
    action = web_game(get_game("wakatanka")).expand(state["controls"])[0]
    assert client.act(table_id, tokens[0], action, state["at"]).status_code == 200
    nxt = client.state(table_id, tokens[1])
    action = web_game(get_game("wakatanka")).expand(nxt["controls"])[0]
    assert client.act(table_id, tokens[1], action, nxt["at"]).status_code == 200
    again = client.socket(table_id, tokens[0])
    back = again.recv()
    assert back["full"] and back["at"] == opening["at"] + 2
    assert back["view"] == client.state(table_id, tokens[0])["view"]
    kinds = [e["kind"] for e in back["events"]]
    assert kinds[: len(opening["events"])] == [e["kind"] for e in opening["events"]]
    assert kinds[len(opening["events"]) :] == ["play", "placed", "play"]
    again.close()


def test_a_socket_cannot_act_for_another_seat_or_as_a_spectator(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 2)
    second = client.socket(table_id, tokens[1])
    watcher = client.socket(table_id)
    at = second.recv()["at"]
    watcher.recv()
    second.send({"type": "act", "id": 5, "action": {"action": "guess", "value": 1}, "at": at})
    refused = second.until(lambda m: m["type"] == "error")
    assert refused["id"] == 5 and "seat 0's turn" in refused["reason"]
    watcher.send({"type": "act", "id": 6, "action": {"action": "guess", "value": 1}, "at": at})
    refused = watcher.until(lambda m: m["type"] == "error")
    assert refused["status"] == 403 and "spectators" in refused["reason"]
    assert client.state(table_id)["at"] == at
    impostor = client.socket(table_id, "x" * 30)
    denied = impostor.recv()
    assert denied["type"] == "error" and denied["fatal"] and denied["status"] == 403
    for s in (second, watcher):
        s.close()


def test_the_checker_catches_a_leak(client: Client) -> None:
    """The wire check above would fail if a seat were sent its own feather or another hand."""
    import copy

    table_id, tokens = seat_sockets(client, "powwow", 2)
    first = client.socket(table_id, tokens[0])
    message = first.recv()
    first.close()
    assert (
        client.act(table_id, tokens[0], {"action": "guess", "value": 1}, message["at"]).status_code
        == 200
    )
    assert client.act(table_id, tokens[1], {"action": "dispute"}).status_code == 200
    while client.state(table_id)["table"]["status"] != "finished":
        state = client.state(table_id)
        mover = state["table"]["to_move"]
        update = client.state(table_id, tokens[mover])
        action = (
            {"action": "dispute"}
            if update["controls"]["dispute"]
            else {"action": "guess", "value": 1}
        )
        assert client.act(table_id, tokens[mover], action, update["at"]).status_code == 200
    checker = Checker(Record.loads(client.http.get(f"/api/tables/{table_id}/record").text))
    assert checker.check(0, [message]) == 1
    own = checker.state(message["at"]).view(1).feathers[0]
    doctored = copy.deepcopy(message)
    doctored["view"]["feathers"][0] = list(own)
    with pytest.raises(AssertionError):
        checker.check(0, [doctored])
    told = copy.deepcopy(message)
    told["events"].append(
        {
            "kind": "feather",
            "data": {"kind": "feather", "seat": 0, "feather": own[0], "extra": False},
        }
    )
    with pytest.raises(AssertionError):
        checker.check(0, [told])
