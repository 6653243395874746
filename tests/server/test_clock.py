"""The turn clock: when a person's time runs out a medium bot plays the turn for them, and after
two turns in a row it takes the seat; deadlines are stored, and one process enforces each."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campfire.server import create_app
from tests.server.conftest import PG_URL, Client, Server, Socket
from tests.server.test_api import pick

Serve = Callable[..., Client]
#: the clocks a table may ask for in these tests: a second or two, and the usual ones
CHOICES = (1, 2, 30, 60, 120, 86400)


def clock_events(sock: Socket, count: int, timeout: float = 30) -> list[Any]:
    """The first `count` clock events this socket is told, waiting for them as they come (a
    whole-table update tells the earlier ones again)."""
    found: list[Any] = []
    seen: list[Any] = []

    def take(message: Any) -> bool:
        if message["type"] == "update":
            for event in message["events"]:
                key = (event["at"], event["data"])
                if event["kind"] == "clock" and key not in seen:
                    seen.append(key)
                    found.append(event)
        return len(found) >= count

    for message in list(sock.received):
        take(message)
    if len(found) < count:
        sock.until(take, timeout=timeout)
    return found[:count]


def test_the_clock_and_its_choices(serve: Serve) -> None:
    client = serve(clock_choices=CHOICES)
    for bad in (0, 5, 45, "60", 10**9, True):
        response = client.http.post("/api/tables", json={"game": "powwow", "clock": bad})
        assert response.status_code == 422, (bad, response.text)
        assert "clock" in response.json()["error"]
    plain = client.create("powwow", 2, name="Ana")
    assert plain["table"]["clock"] == {"seconds": None, "deadline": None, "seat": None}
    made = client.create("powwow", 2, name="Ana", clock=30)
    assert made["table"]["clock"] == {"seconds": 30, "deadline": None, "seat": None}
    client.join(made["id"], "Bob")
    started = client.state(made["id"])["table"]
    assert started["clock"]["seconds"] == 30
    assert started["clock"]["seat"] == started["to_move"]
    assert started["clock"]["deadline"] > started["created"]
    default = serve()  # a server without test clocks refuses them
    refused = default.http.post("/api/tables", json={"game": "powwow", "clock": 1})
    assert refused.status_code == 422 and "30, 60, 120, 86400" in refused.json()["error"]


def test_run_out_clocks_play_the_turn_then_hand_the_seat_to_a_bot(serve: Serve) -> None:
    client = serve(clock_choices=CHOICES)
    made = client.create("powwow", 2, name="Ana", clock=1)
    bob = client.join(made["id"], "Bob")
    ana = client.socket(made["id"], made["token"])
    watcher = client.socket(made["id"])
    events = clock_events(ana, 4)
    # each seat runs out twice: once told, the second time handed to a bot
    strikes = {0: 0, 1: 0}
    for event in events:
        strikes[event["data"]["seat"]] += 1
        assert event["data"]["timeouts"] == strikes[event["data"]["seat"]]
        assert event["data"]["handed"] == (strikes[event["data"]["seat"]] == 2)
        assert event["data"]["level"] == "medium"
    assert strikes == {0: 2, 1: 2}
    texts = [e["text"] for e in events]
    mine = [t for e, t in zip(events, texts, strict=True) if e["data"]["seat"] == 0]
    assert mine[0] == "Your time ran out: a medium bot played your turn."
    assert "plays your seat from now on" in mine[1]
    theirs = [e["text"] for e in clock_events(watcher, 4) if e["data"]["seat"] == 1]
    assert theirs[0] == "Seat 1's time ran out: a medium bot played the turn."
    # both seats are bots now, and a bot's turn runs no clock
    now = client.wait_for(
        made["id"], lambda s: all(seat["kind"] == "bot" for seat in s["table"]["seats"])
    )
    assert [(s["kind"], s["level"]) for s in now["table"]["seats"]] == [("bot", "medium")] * 2
    assert now["table"]["clock"]["deadline"] is None
    # (two bots may end the game before they made two more moves: chance decides how long)
    later = client.wait_for(
        made["id"], lambda s: s["at"] > now["at"] + 2 or s["table"]["status"] == "finished"
    )
    assert later["table"]["clock"]["deadline"] is None
    # the seat's old token no longer acts
    gone = client.http.get(
        f"/api/tables/{made['id']}/state", headers={"Authorization": f"Bearer {bob['token']}"}
    )
    assert gone.status_code == 403 and "bot now plays seat 1" in gone.json()["error"]
    ana.close()
    watcher.close()


def test_a_move_in_time_starts_the_count_again(serve: Serve) -> None:
    client = serve(clock_choices=CHOICES)
    made = client.create("powwow", 2, {1: "random"}, name="Ana", clock=2)
    ana = client.socket(made["id"], made["token"])
    first = clock_events(ana, 1)[0]
    assert first["data"] == {
        "kind": "clock",
        "seat": 0,
        "timeouts": 1,
        "level": "medium",
        "handed": False,
    }
    # Ana's turn again: she moves in time
    mine = client.wait_for(
        made["id"],
        lambda s: s["table"]["to_move"] == 0 and s["at"] > first["at"],
        made["token"],
    )
    response = client.act(
        made["id"], made["token"], pick("powwow", mine["controls"], random.Random(1)), mine["at"]
    )
    assert response.status_code == 200, response.text
    second = clock_events(ana, 2)[1]
    assert second["data"]["timeouts"] == 1 and not second["data"]["handed"]
    assert client.state(made["id"])["table"]["seats"][0]["kind"] == "human"
    ana.close()


def test_deadlines_are_stored_and_kept_across_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    options: dict[str, Any] = {"seed": 3, "bot_pause": 0.0, "clock_choices": CHOICES}
    with Server(create_app(url, **options)) as server:
        client = Client(server.base, server.ws_base)
        slow = client.create("powwow", 2, name="Ana", clock=30)
        client.join(slow["id"], "Bob")
        fast = client.create("powwow", 2, name="Ana", clock=1)
        client.join(fast["id"], "Bob")
        deadline = client.state(slow["id"])["table"]["clock"]["deadline"]
        fast_at = client.state(fast["id"])["at"]
        client.close()
    with Server(create_app(url, **options)) as server:
        client = Client(server.base, server.ws_base)
        # not reset: the same deadline as before
        assert client.state(slow["id"])["table"]["clock"]["deadline"] == deadline
        # not skipped: a clock that ran out while no server ran is enforced after the start
        later = client.wait_for(fast["id"], lambda s: s["at"] > fast_at)
        assert later["table"]["clock"]["deadline"] is not None
        client.close()


def test_one_process_plays_each_run_out_turn(serve: Serve, pg_schema: str, redis_url: str) -> None:
    a, b = (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url, clock_choices=CHOICES)
        for _ in range(2)
    )
    stored: list[int] = []
    for client in (a, b):
        hub = client.app.state.hub
        append = hub.writer.append

        async def counted(*args: Any, _append: Any = append) -> Any:
            stored.append(args[1])  # every attempt, stored or refused
            return await _append(*args)

        hub.writer.append = counted
    made = a.create("powwow", 2, name="Ana", clock=1)
    b.join(made["id"], "Bob")
    on_a = a.socket(made["id"])
    on_b = b.socket(made["id"])
    told_a = clock_events(on_a, 4)
    told_b = clock_events(on_b, 4)
    assert [e["data"] for e in told_a] == [e["data"] for e in told_b]
    # each entry was written once, never tried twice: one process plays each run-out turn
    assert len(stored) >= 4 and stored == sorted(set(stored))
    on_a.close()
    on_b.close()


def test_one_process_looks_in_the_database_for_run_out_turns(
    serve: Serve, pg_schema: str, redis_url: str
) -> None:
    """Of two processes only the one that leads the clock's duty asks the database for overdue
    tables; the other plays its own tables' run-out turns from memory."""
    a, b = (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url, clock_choices=CHOICES)
        for _ in range(2)
    )
    asked = {"a": 0, "b": 0}
    for name, client in (("a", a), ("b", b)):
        storage = client.app.state.hub.storage
        overdue = storage.overdue

        def counted(now: float, _overdue: Any = overdue, _name: str = name) -> Any:
            asked[_name] += 1
            return _overdue(now)

        storage.overdue = counted
    # a table b owns: its clock runs out, and b plays the turn from memory whoever leads
    made = b.create("powwow", 2, name="Ana", clock=1)
    b.join(made["id"], "Bob")
    on_b = b.socket(made["id"])
    told = clock_events(on_b, 2)
    assert len(told) == 2
    on_b.close()
    # both swept many times meanwhile, and only one looked in the database
    assert sorted(n > 0 for n in asked.values()) == [False, True], asked
