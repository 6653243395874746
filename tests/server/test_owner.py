"""One owner per live table (several processes on PostgreSQL + Redis): the owner alone applies
the table's moves; an act that reaches another process is forwarded to it and its answer
relayed; a process takes a table nobody owns, and an owner without sockets of a table lets it go
to the process that has them; when the owner is killed, a process that serves the table takes
it over within seconds, its sockets keep playing and no acknowledged move is lost."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campfire.kernel import Record
from campfire.server.cluster.bus import namespace
from tests.server.conftest import (
    PG_URL,
    Client,
    Socket,
    free_port,
    run_server_process,
    wait_until_up,
)
from tests.server.test_api import pick

Serve = Callable[..., Client]


def owner_of(redis_url: str, ns: str, table_id: str) -> str | None:
    import redis

    raw = redis.Redis.from_url(redis_url).get(f"campfire:{ns}:owner:{table_id}")
    return None if raw is None else raw.decode() if isinstance(raw, bytes) else str(raw)


def process_of(client: Client) -> str:
    return str(client.app.state.hub.bus.process)


def three_people(a: Client, b: Client) -> tuple[str, dict[int, str]]:
    """A Pow Wow table of three people, made on the first process, joined on the second and
    then on the first: the first stores the deal, so it owns the game."""
    made = a.create("powwow", 3, name="Ana")
    tokens = {0: made["token"]}
    tokens[1] = b.join(made["id"], "Bob")["token"]
    tokens[2] = a.join(made["id"], "Cy")["token"]
    return made["id"], tokens


def move_through(client: Client, table_id: str, tokens: dict[int, str], rng: random.Random) -> Any:
    """The seat whose turn it is plays a random legal move through `client`; its answer."""
    public = client.state(table_id)
    seat = public["table"]["to_move"]
    mine = client.state(table_id, tokens[seat])
    response = client.act(table_id, tokens[seat], pick("powwow", mine["controls"], rng), mine["at"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["at"] > mine["at"]  # the answer shows the move, made by whichever process
    return body


def test_acts_at_a_process_that_does_not_own_the_table_are_applied_by_the_owner(
    pair: tuple[Client, Client], pg_schema: str, redis_url: str
) -> None:
    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    table_id, tokens = three_people(a, b)
    ana = a.socket(table_id, tokens[0])  # the first process serves the table
    watcher = b.socket(table_id)
    assert owner_of(redis_url, ns, table_id) == process_of(a)  # it stored the deal
    rng = random.Random(5)
    move_through(a, table_id, tokens, rng)
    assert owner_of(redis_url, ns, table_id) == process_of(a)
    for _ in range(6):
        if b.state(table_id)["table"]["status"] == "finished":
            break
        move_through(b, table_id, tokens, rng)
        # the act went to the owner: the lease stayed where it was
        assert owner_of(redis_url, ns, table_id) == process_of(a)
        assert not b.app.state.hub.bus.owns(table_id)
    # a refusal of the rules comes back from the owner with its meaning, for any language
    public = b.state(table_id)
    if public["table"]["status"] != "finished":
        idle = next(s for s in tokens if s != public["table"]["to_move"])
        bob_or_cy = b.socket(table_id, tokens[idle])
        mover = b.state(table_id, tokens[public["table"]["to_move"]])
        bob_or_cy.send(
            {
                "type": "act",
                "id": 9,
                "action": pick("powwow", mover["controls"], rng),
                "at": mover["at"],
            }
        )
        refusal = bob_or_cy.until(lambda m: m["type"] == "error" and m.get("id") == 9)
        assert refusal["status"] == 409 and isinstance(refusal.get("key"), str), refusal
        bob_or_cy.close()
    at = b.state(table_id)["at"]
    for sock in (ana, watcher):  # every socket on both processes saw every move, in order
        seen = sock.until(lambda m: m["type"] == "update" and m["at"] >= at)
        assert seen["at"] == at
        sock.close()


def test_the_process_that_deals_owns_the_game_without_reading_it_back(
    pair: tuple[Client, Client], pg_schema: str, redis_url: str, monkeypatch: Any
) -> None:
    """The last seat taken deals, and the process that stored the deal owns the game before
    its first move: its copy is what it stored, so neither that move nor its sockets' hellos
    read the table from the database."""
    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    made = a.create("powwow", 3, name="Ana")
    tokens = {0: made["token"], 1: a.join(made["id"], "Bob")["token"]}
    table_id = made["id"]
    tokens[2] = b.join(table_id, "Cy")["token"]  # the second process loads the table, deals
    storage = b.app.state.hub.storage
    reads, looks = (count_calls(monkeypatch, storage, n) for n in ("load_since", "versions"))
    assert owner_of(redis_url, ns, table_id) == process_of(b)
    assert b.app.state.hub.bus.owns(table_id) and not a.app.state.hub.bus.owns(table_id)
    socks = [b.socket(table_id, token) for token in tokens.values()]
    for sock in socks:
        sock.until(lambda m: m["type"] == "update" and m["table"]["status"] == "playing")
    rng = random.Random(1)
    move_through(b, table_id, tokens, rng)
    assert reads == [] and looks == []
    assert owner_of(redis_url, ns, table_id) == process_of(b)
    # an owner without sockets of the table lets it go once it answered an act from another
    # process, which takes it at its next act
    for sock in socks:
        sock.close()
    live = b.app.state.hub.tables[table_id]
    deadline = time.monotonic() + 10
    while live.connections:
        assert time.monotonic() < deadline, "the second process still holds sockets"
        time.sleep(0.02)
    move_through(a, table_id, tokens, rng)  # answered by the owner, which then lets it go
    assert not b.app.state.hub.bus.owns(table_id)
    deadline = time.monotonic() + 10
    while owner_of(redis_url, ns, table_id) is not None:
        assert time.monotonic() < deadline, owner_of(redis_url, ns, table_id)
        time.sleep(0.02)
    move_through(a, table_id, tokens, rng)  # nobody owns it: this process takes it
    assert owner_of(redis_url, ns, table_id) == process_of(a)


def test_an_owner_without_sockets_of_the_table_lets_it_go_to_the_process_that_has_them(
    pair: tuple[Client, Client], pg_schema: str, redis_url: str
) -> None:
    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    table_id, tokens = three_people(a, b)
    socks = [b.socket(table_id, token) for token in tokens.values()]
    rng = random.Random(2)
    move_through(a, table_id, tokens, rng)  # a process with no socket of the table takes it
    assert owner_of(redis_url, ns, table_id) == process_of(a)
    move_through(b, table_id, tokens, rng)  # answered by the owner, which then lets it go
    assert not a.app.state.hub.bus.owns(table_id)
    assert owner_of(redis_url, ns, table_id) in (None, process_of(b))
    move_through(b, table_id, tokens, rng)  # nobody owns it: the process with the sockets takes it
    assert owner_of(redis_url, ns, table_id) == process_of(b)
    for sock in socks:
        sock.close()


def test_an_owner_whose_move_the_database_refuses_steps_down(
    pair: tuple[Client, Client], pg_schema: str, redis_url: str
) -> None:
    """The database's one entry per (table, record index) is the fence: an owner whose write
    finds the index already taken (another process stored there: it lost its lease without
    noticing) lets the table go and catches up, instead of retrying; the game goes on."""
    from tests.server.test_faults import conflicting_async

    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    table_id, tokens = three_people(a, b)
    ana = a.socket(table_id, tokens[0])
    rng = random.Random(3)
    move_through(a, table_id, tokens, rng)
    assert owner_of(redis_url, ns, table_id) == process_of(a)
    hub = a.app.state.hub
    seat = a.state(table_id)["table"]["to_move"]
    mine = a.state(table_id, tokens[seat])
    real = hub.writer.append
    hub.writer.append = conflicting_async
    try:
        answer = a.act(table_id, tokens[seat], pick("powwow", mine["controls"], rng), mine["at"])
    finally:
        hub.writer.append = real
    assert answer.status_code == 409 and "nothing was applied" in answer.json()["error"]
    assert not hub.bus.owns(table_id)
    deadline = time.monotonic() + 10  # the lease goes a moment after the step down
    while owner_of(redis_url, ns, table_id) is not None:
        assert time.monotonic() < deadline, owner_of(redis_url, ns, table_id)
        time.sleep(0.02)
    bob = b.socket(table_id, tokens[1])  # the second process serves the table too
    move_through(b, table_id, tokens, rng)  # nobody owns it: the second process takes it
    assert owner_of(redis_url, ns, table_id) == process_of(b)
    move_through(a, table_id, tokens, rng)  # and the first now asks it
    assert owner_of(redis_url, ns, table_id) == process_of(b)
    ana.close()
    bob.close()


def play_over(sock: Socket, seat: int, rng: random.Random, acked: dict[int, Any]) -> str:
    """If the last update this socket got is its seat's turn, send a move and wait for its
    answer; a move it was told is done goes into `acked` (record index -> action). Gives
    the status of the table as the socket last saw it."""
    last = next(m for m in reversed(sock.received) if m["type"] == "update")
    status: str = last["table"]["status"]
    if status != "playing" or last["table"]["to_move"] != seat or not last["controls"]:
        return status
    action = pick("powwow", last["controls"], rng)
    ref = f"{seat}-{last['at']}"
    sock.send({"type": "act", "id": ref, "action": action, "at": last["at"]})
    answer = sock.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == ref, 30)
    if answer["type"] == "ok":
        acked[last["at"]] = (seat, action)
    else:  # only a move that lost a race with the clock or a newer position is refused
        assert answer["status"] == 409, answer
    return status


def test_a_killed_owner_is_taken_over_and_its_tables_sockets_keep_playing(
    pg_database: str, redis_url: str, tmp_path: Path
) -> None:
    """kill -9 the owner mid-game: the process that holds the players' sockets takes the table
    within seconds (its lease runs out), catches up from the database, and the game plays to
    its end there, bots included; every move a socket was told is done is in the record, and
    the record replays (`campfire replay --json`)."""
    flags = ("--redis", redis_url, "--bot-pause", "0.05", "--seed", "4")
    ports = [free_port(), free_port()]
    processes = [run_server_process(pg_database, port, *flags) for port in ports]
    try:
        clients = []
        for port, process in zip(ports, processes, strict=True):
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, process)
            clients.append(Client(base, f"ws://127.0.0.1:{port}"))
        a, b = clients
        ns = namespace(pg_database, None)
        made = a.create("powwow", 3, {2: "random"}, name="Ana")
        table_id = made["id"]
        tokens = {0: made["token"], 1: a.join(table_id, "Bob")["token"]}  # dealt here
        spectator = a.socket(table_id)  # the owner serves the table too: it keeps it
        rng = random.Random(4)
        # the first moves go through the first process, which owns the table
        public = a.wait_for(table_id, lambda s: s["table"]["to_move"] is not None)
        while public["table"]["to_move"] not in tokens:
            public = a.wait_for(table_id, lambda s: s["table"]["to_move"] in tokens)
        seat = public["table"]["to_move"]
        mine = a.state(table_id, tokens[seat])
        first = pick("powwow", mine["controls"], rng)
        assert a.act(table_id, tokens[seat], first, mine["at"]).status_code == 200
        acked: dict[int, Any] = {mine["at"]: (seat, first)}
        owner = owner_of(redis_url, ns, table_id)
        assert owner is not None and f":{processes[0].pid}:" in owner
        # the players' sockets are on the second process: their acts go to the owner
        socks = {s: b.socket(table_id, token) for s, token in tokens.items()}
        for sock in socks.values():
            sock.until(lambda m: m["type"] == "update")
        for _ in range(4):
            for s, sock in socks.items():
                sock.drain(0.1)
                play_over(sock, s, rng, acked)
        assert owner_of(redis_url, ns, table_id) == owner  # still the first process's
        spectator.until(lambda m: m["type"] == "update" and m["at"] > mine["at"])
        assert len(acked) > 1  # moves made through the second process's sockets
        before_kill = len(acked)
        processes[0].kill()
        processes[0].wait(timeout=10)
        killed = time.monotonic()
        status = "playing"
        while status != "finished":
            assert time.monotonic() - killed < 120, "the game did not end after the kill"
            for s, sock in socks.items():
                sock.drain(0.1)
                status = play_over(sock, s, rng, acked)
                if status == "finished":
                    break
        assert len(acked) > before_kill  # the sockets played on after the kill
        taken = owner_of(redis_url, ns, table_id)  # the game ended there: it let the table go
        assert taken is None or f":{processes[1].pid}:" in taken
        record_text = b.http.get(f"/api/tables/{table_id}/record").text
        record = Record.loads(record_text)
        moves = record.moves
        for index, (seat, action) in acked.items():  # no acknowledged move lost
            entry = moves[index]
            assert entry["player"] == seat, (index, entry)
            assert {k: v for k, v in entry.items() if k != "player"} == action, (entry, action)
        path = tmp_path / "record.json"
        path.write_text(record_text)
        replayed = subprocess.run(
            [sys.executable, "-m", "campfire", "replay", "--json", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        position = json.loads(replayed.stdout)
        final = b.state(table_id)
        assert position["terminal"] and position["winners"] == final["table"]["winners"]
        assert position["moves_applied"] == final["at"]
        for sock in socks.values():
            sock.close()
        b.close()
        a.close()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()


def count_calls(monkeypatch: Any, storage: Any, name: str) -> list[tuple[Any, ...]]:
    """Every call of `storage.name` from now on (the call itself goes through)."""
    calls: list[tuple[Any, ...]] = []
    real = getattr(storage, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(storage, name, counted)
    return calls


def owned_by(redis_url: str, ns: str, table_id: str, clients: tuple[Client, Client]) -> Client:
    """The client of the process that owns the table, once one does."""
    deadline = time.monotonic() + 20
    while True:
        holder = owner_of(redis_url, ns, table_id)
        for client in clients:
            if holder == process_of(client):
                return client
        assert time.monotonic() < deadline, f"nobody took table {table_id}"
        time.sleep(0.02)


def test_a_seat_handed_to_a_bot_at_another_process_is_handed_by_the_owner(
    pair: tuple[Client, Client], pg_schema: str, redis_url: str, monkeypatch: Any
) -> None:
    """The owner drives the bots: a seat given to a bot at a process that does not own the
    table is given by the owner (only its process writes it), and the asking process
    answers with the seats as they are now."""
    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    table_id, tokens = three_people(a, b)
    ana = a.socket(table_id, tokens[0])
    move_through(a, table_id, tokens, random.Random(4))  # the first process owns the table
    owner = owned_by(redis_url, ns, table_id, pair)
    other = b if owner is a else a
    by_owner = count_calls(monkeypatch, owner.app.state.hub.storage, "hand_to_bot")
    by_other = count_calls(monkeypatch, other.app.state.hub.storage, "hand_to_bot")
    handed = other.http.post(
        f"/api/tables/{table_id}/seats/1/bot",
        json={"level": "random"},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert handed.status_code == 200, handed.text
    assert handed.json()["table"]["seats"][1]["kind"] == "bot"  # the asker's copy caught up
    assert len(by_owner) == 1 and by_other == []
    assert owner_of(redis_url, ns, table_id) == process_of(owner)
    # a refusal comes back from the owner as it is: the seat is a bot's now
    again = other.http.post(
        f"/api/tables/{table_id}/seats/1/bot",
        json={"level": "random"},
        headers={"Authorization": f"Bearer {tokens[2]}"},
    )
    assert again.status_code == 409 and "already played by a bot" in again.json()["error"]
    assert len(by_owner) == 1 and by_other == []
    # the owner's bot plays the seat: Bob's turn does not hold the game up
    watcher = other.socket(table_id)
    rng = random.Random(6)
    for _ in range(40):
        public = other.state(table_id)["table"]
        if public["status"] == "finished" or public["to_move"] == 1:
            break
        move_through(other, table_id, tokens, rng)
    watcher.until(
        lambda m: (
            m["type"] == "update"
            and (m["table"]["status"] == "finished" or m["table"]["to_move"] != 1)
        )
    )
    watcher.close()
    ana.close()


def test_a_seat_taken_back_at_another_process_is_given_back_by_the_owner(
    serve: Serve, pg_schema: str, redis_url: str, monkeypatch: Any
) -> None:
    """A reclaim travels to the owner with the token's hash only (never the token), and the
    seat comes back to the token at whichever process it was asked."""
    from tests.server.test_clock import CHOICES

    pair = (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url, clock_choices=CHOICES, bot_pause=0.5),
        serve(PG_URL, schema=pg_schema, redis_url=redis_url, clock_choices=CHOICES, bot_pause=0.5),
    )
    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    made = a.create("powwow", 2, {1: "random"}, name="Ana", clock=1)
    ana = a.socket(made["id"], made["token"])
    lost = ana.until(lambda m: m["type"] == "seat")  # two run-out clocks: a bot plays for Ana
    assert lost["reclaim"] is True
    owner = owned_by(redis_url, ns, made["id"], pair)
    other = b if owner is a else a
    by_owner = count_calls(monkeypatch, owner.app.state.hub.storage, "reclaim_seat")
    by_other = count_calls(monkeypatch, other.app.state.hub.storage, "reclaim_seat")
    asked: list[Any] = []
    real_ask = other.app.state.hub.bus.ask

    async def ask(holder: str, question: Any, timeout: float) -> Any:
        asked.append(dict(question))
        return await real_ask(holder, question, timeout)

    monkeypatch.setattr(other.app.state.hub.bus, "ask", ask)
    response = other.http.post(
        f"/api/tables/{made['id']}/reclaim", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["seat"] == 0
    assert response.json()["table"]["seats"][0]["kind"] == "human"
    assert len(by_owner) == 1 and by_other == []
    assert asked and all(made["token"] not in json.dumps(q) for q in asked)
    back = other.state(made["id"], made["token"])
    assert back["view"]["seat"] == 0
    ana.close()


def test_a_malformed_seat_change_on_the_bus_is_refused_with_its_reason(
    pair: tuple[Client, Client], pg_schema: str, redis_url: str
) -> None:
    """A question to the owner that names no change it knows is answered 422 with the reason
    (in the asker's reach, for any language), and nothing changes at the table."""
    import redis

    a, b = pair
    ns = namespace(PG_URL, pg_schema)
    table_id, tokens = three_people(a, b)
    ana = a.socket(table_id, tokens[0])
    move_through(a, table_id, tokens, random.Random(8))
    assert owner_of(redis_url, ns, table_id) == process_of(a)
    before = seats_of(a.state(table_id))
    client = redis.Redis.from_url(redis_url)
    listener = client.pubsub()  # type: ignore[no-untyped-call]
    listener.subscribe(f"campfire:{ns}:process:test-asker")
    listener.get_message(timeout=5)  # the subscription's confirmation
    for question in (
        {"id": "q1", "table": table_id, "change": "swap", "by": 0, "seat": 1},
        {"id": "q2", "table": table_id, "change": "bot", "by": "zero", "seat": 1},
    ):
        client.publish(
            f"campfire:{ns}:process:{process_of(a)}",
            json.dumps({"p": "test-asker", "q": question}),
        )
        deadline = time.monotonic() + 10
        while True:
            message = listener.get_message(timeout=1)
            if message is not None and message["type"] == "message":
                break
            assert time.monotonic() < deadline, "the owner did not answer"
        answer = json.loads(message["data"])["a"]
        assert answer["id"] == question["id"] and answer["status"] == 422, answer
        assert answer["key"] == "a forwarded seat change must say what changes", answer
    assert seats_of(a.state(table_id)) == before
    listener.close()
    ana.close()


def seats_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's seats without `away_for`, the seconds since a seat went away, which grow
    between two looks at an unchanged table."""
    return [{k: v for k, v in s.items() if k != "away_for"} for s in state["table"]["seats"]]
