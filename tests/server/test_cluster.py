"""Several server processes on one PostgreSQL database, joined through Redis: a move made through
any of them reaches every socket on every one, in order; seats, rate limits and the away clock
are shared; each table's bots are driven by one process, and another takes over when it dies."""

from __future__ import annotations

import random
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from campfire.kernel import Record
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


def updates_until_over(sock: Socket, timeout: float = 60) -> list[Any]:
    got = []
    deadline = time.monotonic() + timeout
    while True:
        message = sock.recv(max(0.01, deadline - time.monotonic()))
        if message["type"] == "update":
            got.append(message)
            if message["table"]["status"] == "finished":
                return got


def test_moves_through_either_process_reach_every_socket_in_order(
    pair: tuple[Client, Client],
) -> None:
    a, b = pair
    made = a.create("wakatanka", 3, {2: "random"}, name="Ana")
    bob = b.join(made["id"], "Bob")  # the second process never saw this table before
    tokens = {0: made["token"], 1: bob["token"]}
    # each seat and a spectator on each process
    sockets = {
        "ana@a": a.socket(made["id"], tokens[0]),
        "bob@b": b.socket(made["id"], tokens[1]),
        "watch@a": a.socket(made["id"]),
        "watch@b": b.socket(made["id"]),
    }
    rng = random.Random(4)
    # every move goes through the process the seat's socket is NOT on
    through = {0: b, 1: a}
    for _ in range(400):
        public = a.wait_for(
            made["id"],
            lambda s: s["table"]["status"] == "finished" or s["table"]["to_move"] in tokens,
        )
        if public["table"]["status"] == "finished":
            break
        seat = public["table"]["to_move"]
        mine = through[seat].state(made["id"], tokens[seat])
        if mine["table"]["to_move"] != seat:
            continue
        response = through[seat].act(
            made["id"], tokens[seat], pick("wakatanka", mine["controls"], rng), mine["at"]
        )
        assert response.status_code == 200, response.text
    record = Record.loads(b.http.get(f"/api/tables/{made['id']}/record").text)
    assert record.replay().is_terminal
    streams = {name: updates_until_over(sock) for name, sock in sockets.items()}
    for name, stream in streams.items():
        # the first update is the whole table; then one per change, never out of order
        ats = [m["at"] for m in stream]
        assert ats == sorted(ats), name
        assert ats[-1] == len(record.moves), name
    seen = {
        name: [(e["at"], e["kind"]) for m in stream for e in m["events"]]
        for name, stream in streams.items()
    }
    assert seen["watch@a"] == seen["watch@b"]
    # a seat's private events are its own, wherever its socket is
    assert seen["ana@a"] != seen["watch@a"] or seen["bob@b"] != seen["watch@b"]
    for sock in sockets.values():
        sock.close()


def test_joins_at_the_same_moment_on_two_processes_take_different_seats(
    pair: tuple[Client, Client],
) -> None:
    a, b = pair
    for round_ in range(4):
        made = a.create("powwow", 2)
        b.state(made["id"])  # both processes hold the table
        barrier = threading.Barrier(2)
        answers: list[httpx.Response] = []

        def join(
            client: Client,
            name: str,
            table_id: str = made["id"],
            barrier: threading.Barrier = barrier,
            answers: list[httpx.Response] = answers,
        ) -> None:
            barrier.wait()
            answers.append(client.http.post(f"/api/tables/{table_id}/join", json={"name": name}))

        threads = [
            threading.Thread(target=join, args=(a, f"Ana{round_}")),
            threading.Thread(target=join, args=(b, f"Bob{round_}")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(r.status_code for r in answers) == [200, 200], [r.text for r in answers]
        assert sorted(r.json()["seat"] for r in answers) == [0, 1]
        # the seat that filled the table dealt it, and both processes know
        for client in (a, b):
            table = client.wait_for(made["id"], lambda s: s["table"]["status"] == "playing")
            assert table["table"]["to_move"] is not None


def test_bots_are_driven_by_one_process_only(pair: tuple[Client, Client]) -> None:
    a, b = pair
    stored: list[tuple[str, int]] = []
    for client in (a, b):
        hub = client.app.state.hub
        append = hub.writer.append

        async def counted(*args: Any, _append: Any = append, _name: str = client.base) -> Any:
            stored.append((_name, args[1]))  # every attempt, stored or refused
            return await _append(*args)

        hub.writer.append = counted
    made = a.create("powwow", 4, dict.fromkeys(range(4), "random"))
    watch = b.socket(made["id"])  # the second process holds the table and watches it
    final = b.wait_for(made["id"], lambda s: s["table"]["status"] == "finished", limit=60)
    updates = updates_until_over(watch)
    assert updates[-1]["at"] == final["at"]
    record = Record.loads(a.http.get(f"/api/tables/{made['id']}/record").text)
    assert record.replay().winners() == final["table"]["winners"]
    # every move was tried once, with no race between two drivers
    starts = [start for _, start in stored]
    assert len(starts) > 10 and starts == sorted(set(starts))
    watch.close()


def test_a_socket_that_says_hello_is_shown_the_stored_position_even_when_the_notice_was_lost(
    serve: Serve, pg_schema: str, redis_url: str
) -> None:
    """A process killed between its commit and its notice leaves the others a move behind: whoever
    reconnects to one of them then must see the move as stored, not the old position. Here the
    notice never arrives because the mover's process has no Redis to publish it on."""
    a = serve(PG_URL, schema=pg_schema)
    b = serve(PG_URL, schema=pg_schema, redis_url=redis_url)
    made = a.create("powwow", 2, name="Ana")
    bob = a.join(made["id"], "Bob")
    tokens = {0: made["token"], 1: bob["token"]}
    watching = b.socket(made["id"])  # b now holds the table in memory
    before = watching.recv()
    assert before["type"] == "update"
    seat = before["table"]["to_move"]
    mine = a.state(made["id"], tokens[seat])
    moved = a.act(
        made["id"], tokens[seat], pick("powwow", mine["controls"], random.Random(1)), mine["at"]
    )
    assert moved.status_code == 200, moved.text
    stored = a.state(made["id"])["at"]
    assert stored > before["at"]
    sock = b.socket(made["id"], tokens[1 - seat])
    first = sock.until(lambda m: m["type"] == "update")
    assert first["full"] and first["at"] == stored
    # the catch-up reached the socket that was already there too
    assert watching.until(lambda m: m["type"] == "update")["at"] == stored
    sock.close()
    watching.close()


def test_rate_limits_are_shared(serve: Serve, pg_schema: str, redis_url: str) -> None:
    a, b = (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url, tables_per_minute=2) for _ in range(2)
    )
    a.create("powwow", 3)
    b.create("powwow", 3)
    refused = a.http.post("/api/tables", json={"game": "powwow", "players": 3})
    assert refused.status_code == 429
    assert "2 a minute" in refused.json()["error"]
    assert b.http.post("/api/tables", json={"game": "powwow"}).status_code == 429


def test_the_away_clock_sees_connections_on_other_processes(
    serve: Serve, pg_schema: str, redis_url: str
) -> None:
    a, b = (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url, away_seconds=0.0) for _ in range(2)
    )
    made = a.create("powwow", 2, name="Ana")
    bob = b.join(made["id"], "Bob")
    sock = b.socket(made["id"], bob["token"])
    sock.recv()
    url = f"/api/tables/{made['id']}/seats/1/bot"
    headers = {"Authorization": f"Bearer {made['token']}"}
    refused = a.http.post(url, headers=headers)
    assert refused.status_code == 409 and "Bob is connected" in refused.json()["error"]
    sock.close()
    deadline = time.monotonic() + 10
    while True:
        answer = a.http.post(url, headers=headers)
        if answer.status_code == 200:
            break
        assert time.monotonic() < deadline, answer.text
        time.sleep(0.05)
    assert b.state(made["id"])["table"]["seats"][1]["kind"] == "bot"
    # Bob's token no longer acts, on either process, and says why
    for client in (a, b):
        answer = client.http.get(
            f"/api/tables/{made['id']}/state", headers={"Authorization": f"Bearer {bob['token']}"}
        )
        assert answer.status_code == 403 and "a bot now plays seat 1" in answer.json()["error"]


def test_a_killed_process_hands_its_bots_to_another(pg_database: str, redis_url: str) -> None:
    """SIGKILL the process driving a table of bots: the other takes over within seconds."""
    flags = ("--redis", redis_url, "--bot-pause", "0.05", "--seed", "3")
    ports = [free_port(), free_port()]
    processes = [run_server_process(pg_database, port, *flags) for port in ports]
    try:
        clients = []
        for port, process in zip(ports, processes, strict=True):
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, process)
            clients.append(Client(base, f"ws://127.0.0.1:{port}"))
        a, b = clients
        made = a.create("wakatanka", 4, dict.fromkeys(range(4), "random"))
        a.wait_for(made["id"], lambda s: s["at"] > 6)
        processes[0].kill()
        processes[0].wait(timeout=10)
        killed_at = b.state(made["id"])["at"]
        final = b.wait_for(made["id"], lambda s: s["table"]["status"] == "finished", limit=90)
        assert final["at"] > killed_at
        record = Record.loads(b.http.get(f"/api/tables/{made['id']}/record").text)
        assert record.replay().winners() == final["table"]["winners"]
        for client in clients:
            client.close()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()


def test_workers_share_one_port(pg_database: str, redis_url: str) -> None:
    """`campfire serve --workers 2`: connections land on either worker, games play on."""
    port = free_port()
    process = run_server_process(
        pg_database, port, "--redis", redis_url, "--workers", "2", "--bot-pause", "0"
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, process)
        client = Client(base, f"ws://127.0.0.1:{port}")
        made = client.create("powwow", 3, {2: "random"}, name="Ana")
        bob = client.join(made["id"], "Bob")
        tokens = {0: made["token"], 1: bob["token"]}
        # several sockets: the kernel spreads them over the two workers
        watchers = [client.socket(made["id"]) for _ in range(6)]
        rng = random.Random(2)
        for _ in range(300):
            public = client.wait_for(
                made["id"],
                lambda s: s["table"]["status"] == "finished" or s["table"]["to_move"] in tokens,
            )
            if public["table"]["status"] == "finished":
                break
            seat = public["table"]["to_move"]
            mine = client.state(made["id"], tokens[seat])
            if mine["table"]["to_move"] != seat:
                continue
            answer = client.act(
                made["id"], tokens[seat], pick("powwow", mine["controls"], rng), mine["at"]
            )
            assert answer.status_code in (200, 409), answer.text
        record = Record.loads(client.http.get(f"/api/tables/{made['id']}/record").text)
        for sock in watchers:
            stream = updates_until_over(sock)
            assert stream[-1]["at"] == len(record.moves)
            sock.close()
        client.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def test_a_process_hears_only_the_tables_it_holds_sockets_of(
    pair: tuple[Client, Client], redis_url: str
) -> None:
    """Each table's notices travel on its own channel, which a process subscribes to only while
    it holds a socket of that table: Redis delivers a notice to no process that does not serve
    the table, and a process that opens a socket hears (and relays) the moves made elsewhere."""
    import redis

    a, b = pair
    r = redis.Redis.from_url(redis_url)
    made = a.create("wakatanka", 3, {1: "random", 2: "random"}, name="Ana")
    table_id, token = made["id"], made["token"]
    b.state(table_id)  # the second process knows the table, yet holds no socket of it
    ana = a.socket(table_id, token)

    def subscribers() -> int:
        channels = r.pubsub_channels(f"campfire:*:table:{table_id}")
        assert len(channels) <= 1, channels
        return int(r.pubsub_numsub(*channels)[0][1]) if channels else 0

    def until(count: int) -> None:
        deadline = time.monotonic() + 10
        while subscribers() != count:
            assert time.monotonic() < deadline, f"{subscribers()} subscribers, not {count}"
            r.ping()  # one round trip a look

    until(1)  # only the process holding Ana's socket
    rng = random.Random(7)

    def ana_moves() -> int:
        mine = a.wait_for(
            table_id,
            lambda s: s["table"]["status"] == "finished" or s["table"]["to_move"] == 0,
            token,
        )
        if mine["table"]["status"] == "finished":
            return -1
        response = a.act(table_id, token, pick("wakatanka", mine["controls"], rng), mine["at"])
        assert response.status_code == 200, response.text
        return int(mine["at"]) + 1

    ana_moves()
    assert subscribers() == 1  # moves went out, and no process without a socket subscribed
    watcher = b.socket(table_id)
    until(2)
    at = ana_moves()
    if at > 0:  # the move made on the first process reaches the socket on the second
        watcher.until(lambda m: m["type"] == "update" and m["at"] >= at)
    watcher.close()
    until(1)
    ana.close()
    until(0)
