"""The deployment of docs/deploy.md, run on this machine: Debian's nginx balancing `campfire serve`
processes round-robin (no sticky sessions), whole games of both games played through it with the
seats' sockets spread over the processes and bots at the table, and a process SIGKILLed mid-game.

Checked afterwards: every seat heard every event it may see, in order, exactly as a replay of the
stored record tells it; the record is the same from every process; the record replays to the
end the table announced. Needs /usr/sbin/nginx (`make nginx`), PostgreSQL and Redis on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from benchmarks.cluster import NGINX, REDIS_URL, Cluster, deployment, nginx_conf
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from campfire.kernel import Record, get_game
from campfire.server.tables.webgame import web_game

#: game -> the seats bots play (every other seat is a person with a socket of their own)
GAMES: dict[str, dict[int, str]] = {"wakatanka": {2: "random"}, "powwow": {1: "easy"}}
PLAYERS = 4
#: the record length both games reach before a process is killed
KILL_AFTER = 12
GAME_LIMIT = 45.0


class Seat:
    """A person's socket through nginx: reconnects when it drops, and keeps what it heard."""

    def __init__(self, table: Table, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.ws: ClientConnection | None = None
        self.connection = 0
        #: the connection the latest update came on: after a reconnect, the old one is stale
        self.fresh = 0
        self.latest: dict[str, Any] | None = None
        #: every event this seat was told, as (at, kind, data), across reconnects
        self.heard: list[tuple[int, str, Any]] = []
        self.problems: list[str] = []
        self.task: asyncio.Task[None] | None = None

    @property
    def at(self) -> int:
        return -1 if self.latest is None else int(self.latest["at"])

    async def run(self, connected: asyncio.Event) -> None:
        url = f"{self.table.ws_base}/ws/tables/{self.table.id}"
        while not self.table.closed:
            try:
                async with connect(url, open_timeout=10, proxy=None) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.ws = ws
                    self.connection += 1
                    last = -1
                    async for raw in ws:
                        message = json.loads(raw)
                        if message["type"] == "update":
                            self.heard_update(message, last)
                            last = message["at"]
                            connected.set()
                        elif message["type"] == "error" and message.get("fatal"):
                            self.problems.append(f"refused: {message['reason']}")
                        self.table.message(self, message)
            except (OSError, WebSocketException, TimeoutError):
                pass
            self.ws = None
            await asyncio.sleep(0.05)

    def heard_update(self, message: dict[str, Any], last: int) -> None:
        told = [(e["at"], e["kind"], e["data"]) for e in message["events"]]
        if message["full"]:
            # a (re)connection tells the whole story: what was heard before must begin it
            if told[: len(self.heard)] != self.heard:
                self.problems.append(f"after a reconnect at {message['at']} the story changed")
            self.heard = told
            self.fresh = self.connection
        else:
            if message["at"] <= last:
                self.problems.append(f"update {message['at']} came after {last}")
            self.heard.extend(told)
        self.latest = message


class Table:
    def __init__(self, cluster: Cluster, game: str, table_id: str) -> None:
        self.ws_base = cluster.ws_base
        self.game = game
        self.id = table_id
        self.seats: list[Seat] = []
        self.changed = asyncio.Event()
        self.closed = False
        self.answers: dict[int, dict[str, Any]] = {}

    def message(self, seat: Seat, message: dict[str, Any]) -> None:
        if message["type"] in ("ok", "error") and isinstance(message.get("id"), int):
            self.answers[message["id"]] = message
        self.changed.set()

    async def until(self, done: Callable[[], bool], limit: float) -> bool:
        deadline = time.monotonic() + limit
        while not done():
            self.changed.clear()
            if time.monotonic() > deadline:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)
        return True

    def moved_on(self, at: int | None) -> bool:
        return self.agreed() != at

    def back(self, seat: Seat, connection: int) -> bool:
        """The seat's socket came back and told it the position anew."""
        return seat.connection != connection and seat.fresh == seat.connection

    def past(self, at: int) -> bool:
        return (self.agreed() or 0) >= at

    def settled(self, at: int | None, mover: Seat, connection: int) -> bool:
        """Every seat heard the move, or the mover's socket dropped with its process and came
        back with the position as stored (the move may or may not have been)."""
        return all(s.at != at for s in self.seats) or self.back(mover, connection)

    def agreed(self) -> int | None:
        ats = {s.at for s in self.seats}
        return ats.pop() if len(ats) == 1 and -1 not in ats else None

    @property
    def finished(self) -> bool:
        return any(s.latest and s.latest["table"]["status"] == "finished" for s in self.seats)

    async def play(self, rng: random.Random) -> None:
        """The people move (a random legal move from their controls); bots move on the server."""
        expand = web_game(get_game(self.game)).expand
        deadline = time.monotonic() + GAME_LIMIT
        while not (self.agreed() is not None and self.finished):
            assert time.monotonic() < deadline, f"{self.game} table {self.id} did not finish"
            if not await self.until(lambda: self.agreed() is not None, 2):
                continue
            at = self.agreed()
            mover = next((s for s in self.seats if s.latest and s.latest["controls"]), None)
            if mover is None or self.finished:
                await self.until(functools.partial(self.moved_on, at), 2)  # a bot's turn
                continue
            assert mover.latest is not None
            action = rng.choice(expand(mover.latest["controls"]))
            connection, ws = mover.connection, mover.ws
            if ws is None:  # its process was killed: wait for the socket to come back
                await self.until(functools.partial(self.back, mover, connection), 2)
                continue
            with contextlib.suppress(OSError, WebSocketException):
                await ws.send(json.dumps({"type": "act", "id": at, "action": action, "at": at}))
            await self.until(functools.partial(self.settled, at, mover, connection), 10)
            answer = self.answers.get(at if at is not None else -1)
            assert answer is None or answer["type"] == "ok", answer

    async def close(self) -> None:
        self.closed = True
        for seat in self.seats:
            if seat.ws is not None:
                await seat.ws.close()
            if seat.task is not None:
                seat.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await seat.task


async def open_tables(cluster: Cluster, http: httpx.AsyncClient) -> list[Table]:
    """Both games, seated over HTTP; then every person's socket, one after the other, so that
    nginx's round-robin hands them to the processes in turn."""
    tables = []
    for game, bots in GAMES.items():
        people = [s for s in range(PLAYERS) if s not in bots]
        made = await http.post(
            "/api/tables",
            json={"game": game, "players": PLAYERS, "bots": bots, "name": "P0", "seat": people[0]},
        )
        assert made.status_code == 201, made.text
        body = made.json()
        table = Table(cluster, game, body["id"])
        table.seats.append(Seat(table, people[0], body["token"]))
        for s in people[1:]:
            joined = await http.post(
                f"/api/tables/{table.id}/join", json={"name": f"P{s}", "seat": s}
            )
            assert joined.status_code == 200, joined.text
            assert joined.json()["seat"] == s
            table.seats.append(Seat(table, s, joined.json()["token"]))
        tables.append(table)
    for table in tables:
        for seat in table.seats:
            connected = asyncio.Event()
            seat.task = asyncio.get_running_loop().create_task(seat.run(connected))
            await asyncio.wait_for(connected.wait(), 10)
    return tables


async def play_with_a_kill(cluster: Cluster, kill: Callable[[], None]) -> list[Table]:
    async with httpx.AsyncClient(base_url=cluster.base, timeout=20, trust_env=False) as http:
        tables = await open_tables(cluster, http)
        games = [
            asyncio.get_running_loop().create_task(t.play(random.Random(i)))
            for i, t in enumerate(tables)
        ]
        try:
            for table in tables:
                reached = await table.until(functools.partial(table.past, KILL_AFTER), 20)
                assert reached, f"{table.game} did not get going"
            assert not any(t.finished for t in tables), "a game ended before the kill"
            connections = [s.connection for t in tables for s in t.seats]
            await asyncio.to_thread(kill)
            await asyncio.gather(*games)
            # the sockets of the killed process came back through nginx
            again = [s.connection for t in tables for s in t.seats]
            assert any(a > b for a, b in zip(again, connections, strict=True))
        finally:
            for task in games:
                task.cancel()
            for table in tables:
                await table.close()
        return tables


def check_tables(cluster: Cluster, tables: list[Table]) -> None:
    """The stored record is the same from every process, replays to the announced end, and
    every seat heard exactly the events the record tells that seat, in order."""
    for table in tables:
        texts = []
        for server in cluster.servers:
            answer = httpx.get(f"{server.base}/api/tables/{table.id}/record", trust_env=False)
            assert answer.status_code == 200, answer.text
            texts.append(answer.json())
        assert all(text == texts[0] for text in texts), f"{table.id}: the processes disagree"
        record = Record.from_json(texts[0])
        final = httpx.get(f"{cluster.base}/api/tables/{table.id}", trust_env=False).json()
        replayed = record.replay()
        assert replayed.is_terminal and replayed.winners() == final["winners"]
        assert final["at"] == len(record.moves)
        steps = record.steps()
        for seat in table.seats:
            assert seat.problems == [], seat.problems
            expected = [
                (at, e.kind, e.to_json())
                for at, (_, events) in enumerate(steps, start=1)
                for e in events
                if e.visible_to(seat.seat)
            ]
            assert seat.heard == expected, f"seat {seat.seat} of {table.game} heard otherwise"


def spread(cluster: Cluster, tables: list[Table]) -> set[int]:
    """The processes the tables' sockets were handed to by nginx (from its access log)."""
    assert cluster.nginx is not None
    deadline = time.monotonic() + 5
    wanted = sum(len(t.seats) for t in tables)
    while True:  # the log is written a second after the sockets close
        ports = [p for t in tables for p in cluster.nginx.upstreams_of(f"/ws/tables/{t.id}")]
        if len(ports) >= wanted or time.monotonic() > deadline:
            return set(ports)
        time.sleep(0.2)


@pytest.fixture(autouse=True)
def need_nginx() -> None:
    if not os.access(NGINX, os.X_OK):
        pytest.fail(f"{NGINX} is missing: `make nginx` installs Debian's nginx")


def test_two_processes_on_postgresql_and_redis_behind_nginx_survive_a_kill() -> None:
    """The deployment for many players: a process dies mid-game, the other one finishes."""
    with deployment(
        2,
        "postgresql",
        redis=REDIS_URL,
        bot_pause=0,
        seed=5,
        forwarded_allow_ips="127.0.0.1",
    ) as (cluster, _):
        try:
            tables = asyncio.run(play_with_a_kill(cluster, lambda: cluster.kill(0)))
            assert spread(cluster, tables) == {s.port for s in cluster.servers}
            cluster.restart(0)  # back, so both can be asked for the records
            check_tables(cluster, tables)
        except BaseException:
            print(cluster.logs())
            raise


def test_one_process_behind_nginx_restarted_mid_game() -> None:
    """The same through nginx with one process on SQLite, killed and started again mid-game."""
    with deployment(1, "sqlite", balancer=True, bot_pause=0, seed=5) as (cluster, _):
        try:
            tables = asyncio.run(play_with_a_kill(cluster, lambda: cluster.restart(0)))
            assert spread(cluster, tables) == {cluster.servers[0].port}
            check_tables(cluster, tables)
        except BaseException:
            print(cluster.logs())
            raise


def block(text: str, opening: str) -> list[str]:
    """The directives of the first `opening {` block in an nginx configuration."""
    lines = [line.strip() for line in text.splitlines()]
    start = lines.index(opening + " {") + 1
    end = lines.index("}", start)
    return [line for line in lines[start:end] if line and not line.startswith("#")]


def test_the_documented_nginx_configuration_is_the_tested_one() -> None:
    """docs/deploy.md shows the proxying that the deployment test runs, directive for directive."""
    page = (Path(__file__).parents[2] / "docs" / "deploy.md").read_text()
    documented = page.split("```nginx\n", 1)[1].split("```", 1)[0]
    tested = nginx_conf(8000, [8001, 8002], Path("/tmp/unused"))
    for opening in ("location /", "map $http_upgrade $connection_upgrade"):
        assert block(documented, opening) == block(tested, opening)
    assert block(documented, "upstream campfire")[-1] == block(tested, "upstream campfire")[-1]


def test_sockets_routed_by_table_meet_on_one_process_and_the_games_finish() -> None:
    """docs/deploy.md's optional routing: nginx hashes a socket's address, so every socket of a
    table reaches the same process, and the games play to the end as with round-robin."""

    async def play(cluster: Cluster) -> list[Table]:
        async with httpx.AsyncClient(base_url=cluster.base, timeout=20, trust_env=False) as http:
            tables = await open_tables(cluster, http)
            try:
                await asyncio.gather(*(t.play(random.Random(i)) for i, t in enumerate(tables)))
            finally:
                for table in tables:
                    await table.close()
            return tables

    with deployment(2, "postgresql", redis=REDIS_URL, bot_pause=0, seed=7, by_table=True) as (
        cluster,
        _,
    ):
        try:
            tables = asyncio.run(play(cluster))
            for table in tables:
                assert len(spread(cluster, [table])) == 1, f"{table.game}: sockets on two processes"
            check_tables(cluster, tables)
        except BaseException:
            print(cluster.logs())
            raise


def test_the_documented_routing_by_table_is_the_tested_one() -> None:
    page = (Path(__file__).parents[2] / "docs" / "deploy.md").read_text()
    documented = page.split("```nginx\n")[2].split("```", 1)[0]
    tested = nginx_conf(8000, [8001, 8002, 8003, 8004], Path("/tmp/unused"), by_table=True)
    assert block(documented, "upstream campfire_tables") == block(
        tested, "upstream campfire_tables"
    )
    assert block(tested, "location /ws/tables/")[0] == "proxy_pass http://campfire_tables;"
    assert block(documented, "location /ws/tables/") == ["proxy_pass http://campfire_tables;"]
    # every other directive of the sockets' location is that of location /
    assert block(tested, "location /ws/tables/")[1:] == [
        line for line in block(tested, "location /") if not line.startswith("proxy_pass")
    ]
