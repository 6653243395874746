"""Load benchmark: many tables of four, every seat on its own WebSocket, against a real cluster.

    .venv/bin/python -m benchmarks.load                                  # the whole matrix
    .venv/bin/python -m benchmarks.load --setups sqlite-1,postgresql-1 --tables 50,100,150
    .venv/bin/python -m benchmarks.load --setups postgresql-2 --tables 100 --rate max
    .venv/bin/python -m benchmarks.load --setups postgresql-2 --tables 20 --chaos 2
    .venv/bin/python -m benchmarks.load --setups postgresql-2 --tables 200 --rolling 2 --route table

Each row starts a fresh deployment (benchmarks/cluster.py): a new database, N `campfire serve`
processes, and Debian's nginx in front when N > 1 (PostgreSQL + Redis then). Tables of four
people (Waka Tanka, or `--game powwow`) are opened over HTTP, every seat connects its own
WebSocket (one asyncio client holds them all), and the seat to move plays a random legal move
(picked from its controls, as the page does) once a second per table (`--rate 1`) or as soon as
everyone has seen the last one (`--rate max`). A finished game is followed by a new table.
Every table opens at the start, so by default their games end, and new tables open, in waves
(the hardest case: hundreds of tables opening within seconds); `--stagger S` starts each
table's first game after a random pause of up to S seconds (about a game's length spreads the
games' ends evenly, as on a server whose tables opened at any time).

Figures per row, over the measured window: moves per second; latency from sending a move to the
LAST seat of the table receiving its update (p50/p95/p99); server CPU per move (utime + stime of
every server process from /proc, killed lives included) and nginx's; the servers' resident
memory (peak); this client's own CPU, because it shares the machine's cores with the servers and
a busy client inflates every latency; how busy the whole machine was, and how much of it went
to other work (any process that is neither the deployment, PostgreSQL, Redis, nginx nor this
client: latency on a machine shared with other work is the machine's). The reference rows
are named in the output: the first row of the run, and the kernel alone (apply + the record of
the move, no server) for CPU per move.

`--signins R` adds R password sign-ins a second during the window (comma-separated rates make
a row each, `--signins 0,20` one without and one with them, the first the reference): unknown
names from addresses of their own (the servers trust this client's `X-Forwarded-For`, as behind
a proxy), so every attempt passes the sign-in limits and costs the full argon2id check (an
unknown name is checked against a dummy hash of the same cost); the moves' latency shows what
the sign-ins cost the tables.

`--opening` measures only what a new table costs: `--tables` tables are opened (created over
HTTP, three more seats joined, four sockets connected until every seat has the deal) and closed
again, 16 at a time, and the servers' CPU per table is printed (the first setup is the
reference).

`--chaos K` kills (SIGKILL) a random server process K times at random moments in the window and
starts it again; clients reconnect (through nginx) and play on. Afterwards every table plays to
its end, and the run checks that every acknowledged move (answered "ok", or its update seen on the
socket that sent it) stands in the stored record at its place, that no table is stuck, and that
every record replays. `--check` does the same without kills.

`--rolling N` makes N rolling restarts in the window, spread over it, as docs/deploy.md's upgrade
does: each server process in turn is stopped with SIGTERM (it drains: `/readyz` 503, its sockets
closed with 1012, exit 0), started again and waited for until its `/readyz` answers 200, before
the next. The client reconnects as the table page does: at once after a close with 1012, with
the growing wait otherwise. Afterwards the run checks the records as `--check` does, and prints
the stopped processes' exit statuses, every HTTP response of 5xx the client saw (before
`open_table` retries it) and every WebSocket handshake refused with a 5xx, apart, and for every
socket the restarts dropped the seconds from its drop to the first update on its next
connection (the slowest, the 99th percentile, how many took more than 3 s). Not with `--chaos`
or `--server-cpu`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from benchmarks.cluster import (
    REDIS_URL,
    START_LIMIT,
    Cluster,
    ClusterError,
    CpuCap,
    ServerProcess,
    Usage,
    deployment,
    other_work,
)
from campfire.kernel import Record, RecordError, get_game
from campfire.server.collector import Tenure
from campfire.server.tables.webgame import web_game

SEATS = 4
#: seconds a move may take to reach every seat before the table looks again (a lost update)
MOVE_LIMIT = 15.0
#: `--rolling`: the contract's seconds from a socket's drop to the table heard again
BACK_WITHIN = 3.0
#: seconds seats may disagree about the table before the lagging ones reconnect
RESYNC_AFTER = 10.0
#: refusals of a move sent on a view that was behind the table (nothing applied: right)
#: how the server begins every update it sends (orjson keeps the order it was built in)
UPDATE_HEAD = '{"type":"update","at":'
#: what follows the table's summary in an update
VIEW_KEY = ',"view":'
STALE = ("has moved on since you looked", "could not be stored")


@dataclass(frozen=True)
class Setup:
    """One deployment: the database, how many processes, whether nginx is in front and
    whether the processes share Redis (always with two or more; one process may, to tell
    Redis's share of the cost of two from the rest)."""

    database: str
    processes: int
    nginx: bool
    redis: bool = False

    @property
    def name(self) -> str:
        db = "PostgreSQL" if self.database == "postgresql" else "SQLite"
        extra = " + Redis" if self.redis else ""
        front = " behind nginx" if self.nginx else ""
        plural = "es" if self.processes > 1 else ""
        return f"{self.processes} process{plural}, {db}{extra}{front}"


def parse_setup(text: str) -> Setup:
    """`sqlite-1`, `postgresql-2`, `pg-2`, `sqlite-1+nginx`, `pg-1+nginx+redis`: database,
    processes, balancer, Redis (two or more processes always have both)."""
    spec, *extras = text.split("+")
    database, _, count = spec.partition("-")
    database = {"pg": "postgresql", "postgres": "postgresql"}.get(database, database)
    if database not in ("sqlite", "postgresql") or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a setup: DATABASE-PROCESSES[+nginx][+redis], e.g. sqlite-1, "
            "postgresql-2"
        )
    unknown = set(extras) - {"nginx", "redis"}
    if unknown or len(set(extras)) < len(extras):
        raise argparse.ArgumentTypeError(
            f"{text!r}: only '+nginx' and '+redis' may follow the processes, once each"
        )
    processes = int(count)
    return Setup(
        database, processes, processes > 1 or "nginx" in extras, processes > 1 or "redis" in extras
    )


# --- one seat, one socket ------------------------------------------------------------------
@dataclass
class Pending:
    """A move sent and not yet settled."""

    at: int
    entry: dict[str, Any]
    connection: int
    acked: bool = False
    refused: str | None = None


class Seat:
    """A seat's WebSocket, kept open (reconnecting when it drops) and what it last heard."""

    def __init__(self, table: Table, seat: int, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.ws: ClientConnection | None = None
        #: the last update as it came: parsed only when someone looks (see `heard_message`)
        self.raw: str | None = None
        self._latest: dict[str, Any] | None = None
        self._at = -1
        self.heard = 0.0  # perf_counter when `latest` arrived
        self.connection = 0  # which connection (counts reconnects)
        self.last_at = -1  # on this connection, to check the order of updates
        self.task: asyncio.Task[None] | None = None
        self.retry = 0  # reconnections since the table was last heard
        #: reconnections at once in a row after a close with 1012, as the page counts them
        self.restarts = 0
        #: this client closed the socket itself (a resync, the table closing): not a drop
        self.leaving = False
        #: perf_counter when the server dropped the socket, until an update is heard on the
        #: next connection; and the close code it dropped with
        self.dropped: float | None = None
        self.dropped_code: int | None = None
        #: perf_counter when the next connection's handshake was done (after a drop)
        self.reopened: float | None = None

    @property
    def at(self) -> int:
        return self._at

    @property
    def standing(self) -> dict[str, Any] | None:
        """The `table` part of the latest update, read without its view (every move needs
        where the table stands from one seat, but the whole update only from the mover)."""
        if self._latest is None and self.raw is not None:
            cut = self.raw.find(VIEW_KEY)
            if cut > 0:
                with contextlib.suppress(orjson.JSONDecodeError):
                    head: dict[str, Any] = orjson.loads(self.raw[:cut] + "}")
                    return cast("dict[str, Any]", head["table"])
        return None if self.latest is None else cast("dict[str, Any]", self.latest["table"])

    @property
    def latest(self) -> dict[str, Any] | None:
        if self._latest is None and self.raw is not None:
            self._latest = orjson.loads(self.raw)
        return self._latest

    async def run(self) -> None:
        bench = self.table.bench
        url = f"{bench.ws_base}/ws/tables/{self.table.id}"
        while not self.table.closed:
            opened: ClientConnection | None = None
            try:
                async with connect(url, open_timeout=10, proxy=None, max_size=2**20) as ws:
                    opened = ws
                    if self.dropped is not None and self.reopened is None:
                        self.reopened = time.perf_counter()
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.ws, self.last_at = ws, -1
                    self.connection += 1
                    async for raw in ws:
                        self.heard_message(raw, time.perf_counter())
                    if not self.table.closed:
                        bench.drops[f"closed with {ws.close_code}"] += 1
            except (OSError, WebSocketException, TimeoutError) as error:
                if not self.table.closed:
                    bench.drops[describe(error)] += 1
                    bench.refused_handshake(error)
            self.ws = None
            if self.table.closed:
                return
            code = opened.close_code if opened is not None else None
            if opened is not None and not self.leaving and self.dropped is None:
                self.dropped, self.dropped_code = time.perf_counter(), code
                self.reopened = None
            self.leaving = False
            bench.reconnects += 1
            # as the table page does: at once after 1012 (the server restarts and handed the
            # table over; at most 3 times in a row), else 0.4 s doubling up to 8 s (with some
            # jitter, as real browsers never reconnect in step), back to 0.4 s once the table
            # is heard again
            restart = code == 1012 and self.restarts < 3
            self.restarts = self.restarts + 1 if restart else 0
            if restart:
                continue
            self.retry += 1
            delay = min(8.0, 0.4 * 2 ** (self.retry - 1))
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))

    def heard_message(self, raw: str | bytes, now: float) -> None:
        """Updates are read only as far as their `at` (the server writes `type` and `at` first):
        this one client stands for a browser per seat, and parsing every seat's whole view would
        take it more CPU than the servers it measures. The rest is parsed when looked at."""
        text = raw if isinstance(raw, str) else raw.decode()
        table = self.table
        pending = table.pending
        message: dict[str, Any] | None = None
        kind: Any
        if text.startswith(UPDATE_HEAD):
            kind, at = "update", int(text[len(UPDATE_HEAD) : text.index(",", len(UPDATE_HEAD))])
        else:
            message = orjson.loads(text)
            kind, at = message.get("type"), int(message.get("at", -1))
        if kind == "update":
            if at < self.last_at:
                table.bench.out_of_order += 1
            self.last_at = self._at = at
            self.raw, self._latest, self.heard = text, message, now
            self.retry = self.restarts = 0
            if self.dropped is not None:
                reopened = self.reopened if self.reopened is not None else now
                table.bench.came_back(
                    Back(now - self.dropped, self.dropped_code, reopened - self.dropped, now)
                )
                self.dropped = self.reopened = None
            if (
                pending is not None
                and pending.entry["player"] == self.seat
                and pending.connection == self.connection
                and at > pending.at
            ):
                pending.acked = True
            table.changed.set()
            return
        assert message is not None
        if kind == "ok" and pending is not None and message.get("id") == pending.at:
            pending.acked = True
        elif kind == "error":
            if pending is not None and message.get("id") == pending.at:
                pending.refused = str(message.get("reason"))
            elif message.get("fatal"):
                table.bench.errors[str(message.get("reason"))] += 1
        table.changed.set()

    async def send(self, message: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
            return True
        except (OSError, WebSocketException):
            return False

    async def drop(self) -> None:
        """Close the socket: the seat reconnects and hears the whole table again."""
        if self.ws is not None:
            self.leaving = True
            with contextlib.suppress(Exception):
                await self.ws.close()


# --- one table -----------------------------------------------------------------------------
class Table:
    """One game of four people: its sockets, the moves it sent, and those acknowledged."""

    def __init__(self, bench: Bench, table_id: str, tokens: list[str], rng: random.Random) -> None:
        self.bench = bench
        self.id = table_id
        self.rng = rng
        self.seats = [Seat(self, s, t) for s, t in enumerate(tokens)]
        self.changed = asyncio.Event()
        self.closed = False
        self.pending: Pending | None = None
        #: record index -> the entry the server acknowledged there
        self.acked: dict[int, dict[str, Any]] = {}
        self.finished = False
        #: the last move did not reach every seat in time (the next may be stale)
        self.late = False

    def start(self) -> None:
        for seat in self.seats:
            seat.task = asyncio.get_running_loop().create_task(seat.run())

    async def until(self, done: Callable[[], bool], limit: float) -> bool:
        deadline = time.monotonic() + limit
        while not done():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    def back(self, seat: Seat, connection: int) -> bool:
        return seat.connection != connection

    def moved_on(self, at: int) -> bool:
        return self.agreed() != at

    def settled(self, pending: Pending, mover: Seat) -> bool:
        """Every seat heard the move, or the mover's socket dropped (a killed process: the table
        is looked at again from what the seats hear next), or the move was refused."""
        return (
            all(s.at > pending.at for s in self.seats)
            or mover.connection != pending.connection
            or pending.refused is not None
        )

    def agreed(self) -> int | None:
        """The record length every seat has heard, when they all agree."""
        ats = {seat.at for seat in self.seats}
        return ats.pop() if len(ats) == 1 and -1 not in ats else None

    async def play(self, interval: float | None) -> None:
        """Move after move until the game ends or the bench says stop."""
        bench = self.bench
        expand = web_game(get_game(bench.game)).expand
        next_time = time.monotonic() + (interval or 0) * self.rng.random()
        while not bench.stopping(self):
            if not await self.until(lambda: self.agreed() is not None, RESYNC_AFTER):
                bench.resyncs += 1
                behind = max(seat.at for seat in self.seats)
                for seat in self.seats:
                    if seat.at < behind:
                        await seat.drop()
                continue
            at = self.agreed()
            assert at is not None
            # every seat heard the same update: one of them says where the table stands
            standing = self.seats[0].standing
            if standing is not None and standing["status"] == "finished":
                self.finished = True
                return
            to_move = standing["to_move"] if standing is not None else None
            mine = self.seats[to_move].latest if to_move is not None else None
            mover = to_move if mine is not None and mine["controls"] else None
            if mover is None:
                # between a move and its chance outcomes, or an update still on its way
                await self.until(functools.partial(self.moved_on, at), 1.0)
                continue
            if interval is not None and not bench.draining:
                wait = next_time - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                next_time = max(next_time + interval, time.monotonic())
                if self.agreed() != at:
                    continue
            seat = self.seats[mover]
            controls = seat.latest["controls"] if seat.latest else None
            if not controls or seat.ws is None:
                # its socket is down (a killed process): wait until it is back
                await self.until(functools.partial(self.back, seat, seat.connection), 1.0)
                continue
            action = self.rng.choice(expand(controls))
            pending = Pending(at, {"player": mover, **action}, seat.connection)
            self.pending = pending
            started, timed_out = time.perf_counter(), False
            sent = await seat.send({"type": "act", "id": at, "action": action, "at": at})
            if sent:
                await self.until(functools.partial(self.settled, pending, seat), MOVE_LIMIT)
                if all(s.at > at for s in self.seats):
                    bench.moved(started, max(s.heard for s in self.seats) - started)
                elif seat.connection == pending.connection and pending.refused is None:
                    bench.slow_moves += 1
                    timed_out = True
            else:
                await self.until(functools.partial(self.back, seat, pending.connection), 1.0)
            if pending.refused is not None:
                # after a move that never arrived, the next one may meet a table that moved on
                # in the meantime, or a killed process stored the move before telling anyone:
                # refused as stale, as it should be
                stale = any(why in pending.refused for why in STALE)
                (bench.refused_late if self.late or stale else bench.refused).append(
                    pending.refused
                )
            self.late = timed_out or (self.late and pending.refused is not None)
            # an update seen after a refusal is the table catching up on another move, not
            # this one: only a move nobody refused counts as acknowledged
            if pending.acked and pending.refused is None:
                self.acked[at] = pending.entry
            self.pending = None

    async def close(self) -> None:
        self.closed = True
        for seat in self.seats:
            await seat.drop()
            if seat.task is not None:
                seat.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await seat.task


# --- the run -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Back:
    """A socket dropped by the server and heard again: seconds from its drop to the first
    update on its next connection, its close code, the seconds until the next connection's
    handshake was done (the rest is the server's answer to its hello), and when it was heard."""

    seconds: float
    code: int | None
    handshake: float
    heard: float


@dataclass
class Row:
    setup: Setup
    tables: int
    rate: str
    moves: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    server_cpu: float = 0.0
    nginx_cpu: float = 0.0
    client_cpu: float = 0.0
    rss_peak: int = 0
    machine_busy: float = 0.0
    #: CPU seconds of the machine's other processes in the window (neither the deployment,
    #: its services nor the client)
    other_cpu: float = 0.0
    kills: int = 0
    #: tables opened in the window (after a game ended): each costs the servers some 20-35 ms
    #: of CPU (`--opening`), so the CPU per move depends on how many games end in the window
    opened: int = 0
    #: `--rolling`: processes stopped with SIGTERM and started again, and their exit statuses
    restarts: int = 0
    exits: list[int] = field(default_factory=list)
    #: `--rolling`: responses of 5xx this client saw ("METHOD path status"), and WebSocket
    #: handshakes refused with a 5xx (the status), each with its second in the window
    http_5xx: list[str] = field(default_factory=list)
    ws_5xx: list[str] = field(default_factory=list)
    #: every socket dropped and heard again
    back: list[Back] = field(default_factory=list)
    #: perf_counter when each stopped process was sent SIGTERM
    stopped_at: list[float] = field(default_factory=list)
    #: sockets dropped and not back when the run ended
    not_back: int = 0
    #: acknowledged moves checked and those missing or different (`check`)
    acked: int = 0
    lost: int = 0
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: str = ""
    #: password sign-ins a second asked for, sent and answered 401 (as an unknown name is)
    signin_rate: float = 0.0
    signins: int = 0
    signins_answered: int = 0
    #: the servers' `/metrics` counters over the window (`Cluster.counters`), summed
    counters: dict[str, float] = field(default_factory=dict)
    #: each server process's CPU seconds and moves applied through the rules in the window
    processes: list[tuple[float, float]] = field(default_factory=list)

    @property
    def other_share(self) -> float:
        """The machine's other work, as a share of all its cores in the window."""
        cores = os.cpu_count() or 1
        return self.other_cpu / (self.seconds * cores) if self.seconds else 0.0

    @property
    def rate_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def cpu_ms(self, seconds: float) -> float:
        return 1000 * seconds / self.moves if self.moves else float("nan")

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Bench:
    """Every table of one row, the measured window, and the chaos."""

    def __init__(self, cluster: Cluster, args: argparse.Namespace, row: Row) -> None:
        self.cluster = cluster
        self.args = args
        self.row = row
        self.game: str = args.game
        self.ws_base = cluster.ws_base
        self.http = httpx.AsyncClient(
            base_url=cluster.base,
            timeout=30,
            trust_env=False,
            event_hooks={"response": [self.server_error]},
        )
        self.rng = random.Random(args.seed)
        self.tables: list[Table] = []
        self.window: tuple[float, float] | None = None  # perf_counter start and end
        self.draining = False
        self.ending = False
        self.reconnects = 0
        self.resyncs = 0
        self.slow_moves = 0
        self.out_of_order = 0
        self.refused: list[str] = []
        self.refused_late: list[str] = []
        #: fatal refusals of a connection, and why sockets dropped or did not open, by reason
        self.errors: Counter[str] = Counter()
        self.drops: Counter[str] = Counter()

    def since(self) -> str:
        """Seconds into the measured window (negative before it), for saying when."""
        start = self.window[0] if self.window is not None else time.perf_counter()
        return f"{time.perf_counter() - start:+.1f} s"

    async def server_error(self, response: httpx.Response) -> None:
        """Every response of 5xx this client sees (before anything retries it)."""
        if response.status_code >= 500:
            request = response.request
            self.row.http_5xx.append(
                f"{request.method} {request.url.path} {response.status_code} at {self.since()}"
            )

    def refused_handshake(self, error: BaseException) -> None:
        status = getattr(getattr(error, "response", None), "status_code", None)
        if isinstance(status, int) and status >= 500:
            self.row.ws_5xx.append(f"handshake {status} at {self.since()}")

    def came_back(self, back: Back) -> None:
        self.row.back.append(back)

    def stopping(self, table: Table) -> bool:
        return self.ending or table.closed

    def in_window(self, moment: float) -> bool:
        window = self.window
        return window is not None and window[0] <= moment and (window[1] == 0 or moment < window[1])

    def moved(self, started: float, latency: float) -> None:
        if self.in_window(started):
            self.row.moves += 1
            self.row.latencies.append(latency)

    async def open_table(self) -> Table:
        """A table of four people, each seated over HTTP (retried while a process restarts)."""
        for attempt in itertools.count():
            try:
                made = await self.http.post(
                    "/api/tables", json={"game": self.game, "players": SEATS, "name": "P0"}
                )
                made.raise_for_status()
                body = made.json()
                tokens = [body["token"]]
                for s in range(1, SEATS):
                    joined = await self.http.post(
                        f"/api/tables/{body['id']}/join", json={"name": f"P{s}"}
                    )
                    joined.raise_for_status()
                    tokens.append(joined.json()["token"])
                break
            except httpx.HTTPError as error:
                if attempt >= 20:
                    raise ClusterError(f"cannot open a table: {error}") from None
                await asyncio.sleep(0.5)
        table = Table(self, body["id"], tokens, random.Random(self.rng.random()))
        self.tables.append(table)
        table.start()
        await table.until(lambda: table.agreed() is not None, 30)
        return table

    async def keep_playing(self, table: Table, interval: float | None, pause: float = 0.0) -> None:
        """One table's place in the run: a finished game is followed by a new table. The
        first game may wait `pause` seconds (its players still connected) before its first
        move, so that the tables of a run do not all end, and open again, at once."""
        await asyncio.sleep(pause)
        while True:
            await table.play(interval)
            if not table.finished or self.draining or self.ending:
                return
            await table.close()
            started = time.perf_counter()
            table = await self.open_table()
            if self.in_window(started):
                self.row.opened += 1

    async def chaos(self, kills: int, seconds: float) -> None:
        moments = sorted(self.rng.uniform(0.1, 0.85) * seconds for _ in range(kills))
        begun = time.monotonic()
        for moment in moments:
            await asyncio.sleep(max(0.0, begun + moment - time.monotonic()))
            index = self.rng.randrange(len(self.cluster.servers))
            await asyncio.to_thread(self.cluster.kill, index)
            self.row.kills += 1
            await asyncio.sleep(self.rng.uniform(0.0, 1.0))
            await asyncio.to_thread(self.cluster.restart, index)

    async def rolling(self, rounds: int, seconds: float) -> None:
        """`rounds` rolling restarts spread over the window: each process in turn stopped with
        SIGTERM (it drains and exits), started again and waited for until `/readyz` says
        ready, before the next one, as docs/deploy.md's upgrade does."""
        begun = time.monotonic()
        for round_ in range(rounds):
            moment = seconds * (round_ + 0.1) / rounds
            await asyncio.sleep(max(0.0, begun + moment - time.monotonic()))
            for server in self.cluster.servers:
                self.row.stopped_at.append(time.perf_counter())
                status = await asyncio.to_thread(server.terminate)
                self.row.exits.append(status)
                self.row.restarts += 1
                server.start()
                await asyncio.to_thread(wait_ready, server)

    async def sign_ins(self, per_second: float) -> None:
        """Password sign-ins at a steady rate, each an unknown name from an address of its own
        (through X-Forwarded-For, which the servers trust here), none waiting for another."""
        row = self.row

        async def one(n: int) -> None:
            row.signins += 1
            try:
                answer = await self.http.post(
                    "/api/session",
                    json={"name": f"nobody{n}", "password": "not the password"},
                    headers={
                        "X-Forwarded-For": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
                    },
                )
            except httpx.HTTPError:  # still waiting when the run ends
                return
            if answer.status_code == 401:
                row.signins_answered += 1

        begun = time.monotonic()
        pending: set[asyncio.Task[None]] = set()
        for n in itertools.count():
            await asyncio.sleep(max(0.0, begun + n / per_second - time.monotonic()))
            task = asyncio.get_running_loop().create_task(one(n))
            pending.add(task)
            task.add_done_callback(pending.discard)

    async def sample_memory(self) -> None:
        while True:
            self.row.rss_peak = max(self.row.rss_peak, self.cluster.server_rss())
            await asyncio.sleep(0.5)

    async def run(self) -> None:
        args, row = self.args, self.row
        interval = None if args.rate == "max" else 1 / float(args.rate)
        opening = asyncio.Semaphore(16)

        async def opened() -> Table:
            async with opening:
                return await self.open_table()

        first = await asyncio.gather(*(opened() for _ in range(row.tables)))
        # this one client stands for a browser per seat: its own full collections (a thousand
        # sockets' objects) must not count as the servers' latency, so it tenures as they do
        tenure = Tenure()
        tenure.start()
        sampler = asyncio.get_running_loop().create_task(self.sample_memory())
        players = [
            asyncio.get_running_loop().create_task(
                self.keep_playing(t, interval, self.rng.uniform(0, args.stagger))
            )
            for t in first
        ]
        await asyncio.sleep(args.warmup)
        cpu0, nginx0, own, busy0 = (
            self.cluster.server_cpu(),
            self.cluster.nginx_cpu(),
            Usage(),
            machine_ticks(),
        )
        others0 = other_work([os.getpid(), *self.cluster.pids()])
        each0 = await asyncio.to_thread(self.cluster.process_counters)
        counters0 = await asyncio.to_thread(self.cluster.counters)
        cpus0 = [server.cpu() for server in self.cluster.servers]
        reconnects0 = self.reconnects
        self.window = (time.perf_counter(), 0)
        chaos = (
            asyncio.get_running_loop().create_task(self.chaos(args.chaos, args.seconds))
            if args.chaos
            else asyncio.get_running_loop().create_task(self.rolling(args.rolling, args.seconds))
            if args.rolling
            else None
        )
        signing = (
            asyncio.get_running_loop().create_task(self.sign_ins(row.signin_rate))
            if row.signin_rate
            else None
        )
        await asyncio.sleep(args.seconds)
        if signing is not None:
            signing.cancel()
        self.window = (self.window[0], time.perf_counter())
        row.seconds = self.window[1] - self.window[0]
        row.server_cpu = self.cluster.server_cpu() - cpu0
        row.nginx_cpu = self.cluster.nginx_cpu() - nginx0
        row.client_cpu = own.seconds()
        row.machine_busy = busy_share(busy0, machine_ticks())
        others = other_work([os.getpid(), *self.cluster.pids()])
        row.other_cpu = sum(cpu - others0.get(pid, 0.0) for pid, cpu in others.items())
        cpus1 = [server.cpu() for server in self.cluster.servers]
        counters1 = await asyncio.to_thread(self.cluster.counters)
        each1 = await asyncio.to_thread(self.cluster.process_counters)
        row.counters = {k: counters1[k] - counters0.get(k, 0.0) for k in counters1}
        applied = "campfire_moves_applied_total"
        row.processes = [
            (after - before, one.get(applied, 0.0) - zero.get(applied, 0.0))
            for before, after, zero, one in zip(cpus0, cpus1, each0, each1, strict=True)
        ]
        if chaos is not None:
            await chaos
        row.reconnects = self.reconnects - reconnects0
        checking = args.check or args.chaos or args.rolling
        if checking:
            self.draining = True
            _, still = await asyncio.wait(players, timeout=args.drain)
            self.ending = True
            if still:
                await asyncio.wait(still, timeout=MOVE_LIMIT + 5)
        else:
            self.ending = True
            await asyncio.wait(players, timeout=MOVE_LIMIT + 5)
        sampler.cancel()
        row.not_back = sum(
            1 for table in self.tables for seat in table.seats if seat.dropped is not None
        )
        for table in self.tables:
            await table.close()
        if checking:
            await self.check()
        await self.http.aclose()
        await tenure.stop()
        self.report_problems()

    async def opening(self) -> None:
        """New tables only: each opened (created, three joins, four sockets until every seat
        has the deal) and closed again, 16 at a time, and what each cost the servers."""
        limit = asyncio.Semaphore(16)

        async def one() -> None:
            async with limit:
                table = await self.open_table()
                await table.close()

        await asyncio.gather(*(one() for _ in range(20)))  # every process warm
        cpu0, started = self.cluster.server_cpu(), time.perf_counter()
        await asyncio.gather(*(one() for _ in range(self.row.tables)))
        self.row.seconds = time.perf_counter() - started
        self.row.server_cpu = self.cluster.server_cpu() - cpu0
        await self.http.aclose()

    async def check(self) -> None:
        """Every acknowledged move is in its table's stored record; every record replays."""
        row = self.row
        acked = lost = stuck = finished = playable = 0
        for table in self.tables:
            state = await self.http.get(f"/api/tables/{table.id}")
            if state.status_code != 200:
                row.problems.append(
                    f"table {table.id}: GET /api/tables/{table.id} answered "
                    f"{state.status_code} {state.text[:200]!r}"
                )
                continue
            meta = state.json()
            if meta.get("status") != "finished":
                refusal = await self.one_more_move(table, meta)
                if refusal is None:
                    playable += 1
                else:
                    stuck += 1
                    row.problems.append(f"table {table.id} is stuck at {meta.get('at')}: {refusal}")
                continue
            answer = await self.http.get(f"/api/tables/{table.id}/record")
            try:
                record = Record.loads(answer.text)
                replayed = record.replay()
            except RecordError as error:
                row.problems.append(f"table {table.id}: the record does not replay: {error}")
                continue
            if not replayed.is_terminal or replayed.winners() != meta["winners"]:
                row.problems.append(f"table {table.id}: the replay does not end as the table did")
            finished += 1
            for at, entry in table.acked.items():
                acked += 1
                stored = record.moves[at] if at < len(record.moves) else None
                if stored != entry:
                    lost += 1
                    row.problems.append(
                        f"table {table.id}: acknowledged move {at} {entry} is stored as {stored}"
                    )
        row.acked, row.lost = acked, lost
        row.checked = (
            f"{finished}/{len(self.tables)} games finished and replayed, {acked} acknowledged "
            f"moves checked, {lost} missing or different; {playable} unfinished but playable, "
            f"{stuck} stuck"
        )
        if playable:
            row.problems.append(f"{playable} tables did not finish in {self.args.drain:.0f} s")

    async def one_more_move(self, table: Table, meta: dict[str, Any]) -> str | None:
        """None when the seat to move can still play a legal move (over HTTP), else why not."""
        seat = meta.get("to_move")
        if meta.get("status") != "playing" or not isinstance(seat, int):
            return f"status {meta.get('status')}, to move {seat}"
        auth = {"Authorization": f"Bearer {table.seats[seat].token}"}
        mine = (await self.http.get(f"/api/tables/{table.id}/state", headers=auth)).json()
        if not mine.get("controls"):
            return f"seat {seat} is to move but has no controls"
        action = table.rng.choice(web_game(get_game(self.game)).expand(mine["controls"]))
        answer = await self.http.post(
            f"/api/tables/{table.id}/actions",
            json={"action": action, "at": mine["at"]},
            headers=auth,
        )
        return None if answer.status_code == 200 else f"{answer.status_code} {answer.text}"

    def report_rolling(self) -> None:
        """What a rolling restart promises: exit 0, no 5xx shown, every socket back in 3 s
        (lost moves are the check's)."""
        row = self.row
        if any(row.exits):
            row.problems.append(f"a stopped process exited with a status other than 0: {row.exits}")
        if row.http_5xx:
            row.problems.append(
                f"{len(row.http_5xx)} HTTP responses >= 500: {', '.join(row.http_5xx[:8])}"
            )
        if row.ws_5xx:
            row.problems.append(
                f"{len(row.ws_5xx)} WebSocket handshakes refused with 5xx: "
                f"{', '.join(row.ws_5xx[:8])}"
            )
        _, _, late = seconds_back(row)
        if late or row.not_back:
            row.problems.append(
                f"{late} sockets back later than {BACK_WITHIN:g} s, {row.not_back} never back"
            )
        if row.back:
            row.notes.append(where_the_seconds_went(row))

    def report_problems(self) -> None:
        row = self.row
        if self.slow_moves:
            row.problems.append(
                f"{self.slow_moves} moves did not reach every seat in {MOVE_LIMIT} s"
            )
        if self.resyncs:
            row.problems.append(f"{self.resyncs} times seats disagreed for {RESYNC_AFTER} s")
        if self.out_of_order:
            row.problems.append(f"{self.out_of_order} updates arrived out of order")
        if self.refused:
            row.problems.append(f"{len(self.refused)} moves refused, e.g. {self.refused[0]!r}")
        if self.refused_late:
            row.notes.append(
                f"{len(self.refused_late)} moves sent on a view behind the table refused as "
                f"stale (right), e.g. {self.refused_late[0]!r}"
            )
        for reason, count in self.errors.most_common(5):
            row.problems.append(f"{count} connections refused: {reason}")
        if self.args.rolling:
            self.report_rolling()
        if self.drops:
            reasons = ", ".join(f"{n} {why}" for why, n in self.drops.most_common(4))
            row.notes.append(f"sockets dropped or refused: {reasons}")


def seconds_back(row: Row) -> tuple[float, float, int]:
    """The slowest and the 99th percentile of the seconds sockets took to come back, and how
    many took longer than the contract's 3 s."""
    gaps = sorted(back.seconds for back in row.back)
    if not gaps:
        return float("nan"), float("nan"), 0
    p99 = gaps[min(len(gaps) - 1, round(0.99 * (len(gaps) - 1)))]
    return gaps[-1], p99, sum(1 for gap in gaps if gap > BACK_WITHIN)


def rolling_line(row: Row) -> str:
    slowest, p99, late = seconds_back(row)
    codes = Counter(f"{back.code}" for back in row.back)
    how = ", ".join(f"{n} closed with {code}" for code, n in codes.most_common())
    return (
        f"{row.restarts} processes stopped with SIGTERM and started again, exit statuses "
        f"{' '.join(map(str, row.exits)) or '-'}; {len(row.http_5xx)} HTTP responses >= 500, "
        f"{len(row.ws_5xx)} WebSocket handshakes refused with 5xx; {len(row.back)} socket drops "
        f"back ({how or 'none'}), the slowest in {slowest:.2f} s, p99 {p99:.2f} s, "
        f"{late} later than {BACK_WITHIN:g} s, {row.not_back} never back"
    )


def where_the_seconds_went(row: Row) -> str:
    """Of the time sockets took to come back, how much was the handshake (reaching a process
    through nginx) and how much the answer to the hello, per stop (the socket's drop is
    counted to the last SIGTERM sent before it came back)."""
    parts = []
    for n, stopped in enumerate(row.stopped_at):
        following = row.stopped_at[n + 1] if n + 1 < len(row.stopped_at) else float("inf")
        backs = [b for b in row.back if stopped <= b.heard - b.seconds < following]
        if not backs:
            continue
        gaps = sorted(b.seconds for b in backs)
        shakes = sorted(b.handshake for b in backs)
        parts.append(
            f"stop {n + 1}: {len(backs)} sockets, back p50 {gaps[len(gaps) // 2]:.2f} s, "
            f"slowest {gaps[-1]:.2f} s (handshake p50 {shakes[len(shakes) // 2]:.2f} s, "
            f"slowest {shakes[-1]:.2f} s), {sum(1 for g in gaps if g > BACK_WITHIN)} > "
            f"{BACK_WITHIN:g} s"
        )
    return "sockets back, by stop: " + "; ".join(parts)


def wait_ready(server: ServerProcess) -> None:
    """Until the process's own `GET /readyz` answers 200 (its database and Redis answer)."""
    assert server.process is not None
    server.wait_until_up()
    deadline = time.monotonic() + START_LIMIT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise ClusterError(f"campfire serve exited with status {server.process.returncode}")
        try:
            with urllib.request.urlopen(server.base + "/readyz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    raise ClusterError(f"{server.base}/readyz did not answer 200 within {START_LIMIT:.0f} s")


def describe(error: BaseException) -> str:
    """Why a socket closed or did not open, short enough to count."""
    status = getattr(getattr(error, "response", None), "status_code", None)
    if status is not None:
        return f"{type(error).__name__} {status}"
    return type(error).__name__


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total else 0.0


def kernel_cpu_per_move(game_name: str, moves: int = 3000) -> float:
    """CPU seconds per move of the kernel alone: apply it and write the record of the game."""
    game = get_game(game_name)
    rng = random.Random(1)
    done = 0
    started = time.process_time()
    while done < moves:
        state = game.new_state(SEATS)
        while not state.is_terminal and done < moves:
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
                continue
            state.apply(rng.choice(state.legal_actions()))
            Record.of(state)
            done += 1
    return (time.process_time() - started) / done


def measure(setup: Setup, tables: int, args: argparse.Namespace, signins: float = 0.0) -> Row:
    row = Row(setup, tables, args.rate, signin_rate=signins)
    serve: dict[str, Any] = {
        "bot_pause": 0,
        "tables_per_minute": 1_000_000,
        # every table is opened from this one address, hundreds at once at the start
        "waiting_per_address": 1_000_000,
    }
    if signins:
        serve["forwarded_allow_ips"] = "127.0.0.1"
    if setup.redis:
        serve["redis"] = args.redis
    if args.workers:
        serve["workers"] = args.workers
    by_table = args.route == "table"
    with deployment(
        setup.processes, setup.database, balancer=setup.nginx, by_table=by_table, **serve
    ) as (cluster, _):
        cap = CpuCap(args.server_cpu) if args.server_cpu else None
        try:
            if cap is not None:
                cap.hold([pid for server in cluster.servers for pid in server.pids])
            # the client stands for a thousand browsers on the servers' own cores: uvloop's
            # loop takes it about a fifth less CPU than asyncio's own
            bench = Bench(cluster, args, row)
            uvloop.run(bench.opening() if args.opening else bench.run())
        except ClusterError as error:
            row.problems.append(f"{error}\n{cluster.logs()}")
        finally:
            if cap is not None:
                cap.release()
    return row


def opening_table(rows: list[Row]) -> str:
    ref = rows[0]
    lines = [
        f"Reference row: the first ({ref.setup.name}).",
        "| setup | tables opened | tables/s | server CPU ms a table | vs reference |",
        "|---|---:|---:|---:|---|",
    ]
    for row in rows:
        cost = 1000 * row.server_cpu / row.tables
        versus = (
            "reference"
            if row is ref
            else f"{cost / (1000 * ref.server_cpu / ref.tables):.2f}x CPU a table"
        )
        lines.append(
            f"| {row.setup.name} | {row.tables} | {row.tables / row.seconds:.1f} | {cost:.1f} "
            f"| {versus} |"
        )
    for row in rows:
        lines += [f"PROBLEM: {problem}" for problem in row.problems[:10]]
    return "\n".join(lines)


def table_of(rows: list[Row], kernel: float, args: argparse.Namespace) -> str:
    ref = rows[0]
    lines = [
        "| setup | tables | rate | moves/s | new tables a 1000 moves | p50 ms | p95 ms | p99 ms | "
        "server CPU ms/move | server CPU | nginx CPU ms/move | server RSS MB | client CPU | "
        "machine busy | other work | sign-ins/s (401) | vs reference |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        cpu = row.cpu_ms(row.server_cpu)
        opened = 1000 * row.opened / row.moves if row.moves else 0.0
        versus = (
            "reference"
            if row is ref
            else f"{row.rate_per_s / ref.rate_per_s:.2f}x moves/s, "
            f"{cpu / ref.cpu_ms(ref.server_cpu):.2f}x CPU/move"
        )
        lines.append(
            f"| {row.setup.name} | {row.tables} | {row.rate}/s | {row.rate_per_s:.1f} "
            f"| {opened:.1f} | {row.percentile(0.5):.1f} | {row.percentile(0.95):.1f} "
            f"| {row.percentile(0.99):.1f} "
            f"| {cpu:.2f} ({cpu / (kernel * 1000):.0f}x kernel) "
            f"| {100 * row.server_cpu / row.seconds:.0f}% of a core "
            f"| {row.cpu_ms(row.nginx_cpu):.2f} "
            f"| {row.rss_peak / 1e6:.0f} | {100 * row.client_cpu / row.seconds:.0f}% of a core "
            f"| {100 * row.machine_busy:.0f}% | {100 * row.other_share:.0f}% "
            f"| {row.signins / row.seconds if row.seconds else 0:.1f} ({row.signins_answered}) "
            f"| {versus} |"
        )
    return "\n".join(lines)


def new_tables_share(row: Row) -> str:
    """New tables in the window against its moves: a window in which many games end (a short
    window, or games that all began together) carries their openings' CPU in its CPU per move,
    a window in which none end carries none; compare CPU per move only between like shares."""
    if not row.moves:
        return "no moves"
    return f"{1000 * row.opened / row.moves:.1f} a thousand moves"


def rolling_table(rows: list[Row]) -> str:
    """`--rolling`: what each row's restarts cost the clients (the target: 0 lost, 0 5xx,
    every socket back within 3 s)."""
    lines = [
        "| setup | tables | restarts | exit statuses | acknowledged moves checked | lost | "
        "HTTP 5xx | WebSocket 5xx | socket drops | back: slowest s | p99 s | > 3 s | "
        "never back |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        slowest, p99, late = seconds_back(row)
        lines.append(
            f"| {row.setup.name} | {row.tables} | {row.restarts} "
            f"| {' '.join(map(str, row.exits)) or '-'} | {row.acked} | {row.lost} "
            f"| {len(row.http_5xx)} | {len(row.ws_5xx)} | {len(row.back) + row.not_back} "
            f"| {slowest:.2f} | {p99:.2f} | {late} | {row.not_back} |"
        )
    return "\n".join(lines)


def processes_line(row: Row) -> str:
    """Each server process's share of the work: its CPU and the moves it applied."""
    return "; ".join(
        f"#{n} {100 * cpu / row.seconds:.1f}% of a core, {int(applied)} moves applied"
        + (f", {1000 * cpu / applied:.2f} ms CPU/move" if applied else "")
        for n, (cpu, applied) in enumerate(row.processes, 1)
    )


def ownership_line(row: Row) -> str:
    """What the owner-per-table design promises, from the servers' own counters: the rules
    applied once per move in the whole deployment, and few bus messages about tables a
    process does not serve (`--route table` puts all of a table's sockets on one process)."""
    moves = row.moves
    applied = row.counters.get("campfire_moves_applied_total", 0.0)
    received = row.counters.get("campfire_notices_received_total", 0.0)
    unserved = row.counters.get("campfire_notices_unserved_total", 0.0)
    return (
        f"rules applied {applied / moves:.2f}x per move, bus messages received "
        f"{received / moves:.3f} per move, {unserved / moves:.3f} per move about tables "
        f"the receiving process does not serve ({moves} moves, counters summed over processes)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--setups",
        type=lambda text: [parse_setup(t) for t in text.split(",") if t],
        default=[parse_setup(t) for t in ("sqlite-1", "postgresql-1", "postgresql-2")],
        help="comma-separated DATABASE-PROCESSES[+nginx]: sqlite-1, postgresql-1, postgresql-2",
    )
    parser.add_argument(
        "--tables",
        type=lambda text: [positive(t) for t in text.split(",") if t],
        default=[50, 100, 150],
        help="comma-separated table counts (four seats each)",
    )
    parser.add_argument("--rate", type=rate, default="1", help="moves per second per table, or max")
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before it")
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="each table's first game starts after a random pause of up to this many seconds, "
        "so games end and new tables open at any moment (as on a server whose tables were not "
        "all opened in the same second) instead of in waves; at most --warmup",
    )
    parser.add_argument("--game", choices=["wakatanka", "powwow"], default="wakatanka")
    parser.add_argument("--chaos", type=int, default=0, help="kill a server process K times")
    parser.add_argument(
        "--rolling",
        type=int,
        default=0,
        help="N rolling restarts in the window: each process in turn stopped with SIGTERM, "
        "started again and waited for until ready (implies --check)",
    )
    parser.add_argument(
        "--opening",
        action="store_true",
        help="only open tables (--tables of them) and close them: server CPU per new table",
    )
    parser.add_argument("--check", action="store_true", help="check the records without kills")
    parser.add_argument("--drain", type=float, default=180.0, help="seconds to finish every game")
    parser.add_argument("--redis", default=REDIS_URL, help="for the setups of 2+ processes")
    parser.add_argument("--workers", type=int, default=None, help="campfire serve --workers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--signins",
        type=lambda text: [float(t) for t in text.split(",") if t],
        default=[0.0],
        help="comma-separated password sign-ins a second during the window (a row each)",
    )
    parser.add_argument(
        "--route",
        choices=["round-robin", "table"],
        default="round-robin",
        help="nginx: every socket round-robin, or a table's sockets to one process",
    )
    parser.add_argument(
        "--server-cpu",
        type=float,
        default=None,
        help="hold each server process to this share of one core (control groups, as root)",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.chaos < 0 or args.rolling < 0:
        parser.error("--seconds must be positive, --chaos and --rolling at least 0")
    if args.rolling and (args.chaos or args.server_cpu is not None or args.opening):
        parser.error(
            "--rolling is not for --chaos, --server-cpu or --opening runs: a kill or a CPU cap "
            "would blur what the restarts cost"
        )
    if not 0 <= args.stagger <= args.warmup:
        parser.error(
            "--stagger is between 0 and --warmup: the window starts once every table plays"
        )
    if args.server_cpu is not None and (args.server_cpu <= 0 or args.chaos):
        parser.error("--server-cpu is a share of a core above 0, and not for --chaos runs")

    kernel = kernel_cpu_per_move(args.game)
    print(f"Campfire load: {args.game}, {SEATS} seats a table, one WebSocket per seat")
    print(f"  reference: the kernel alone (apply + record of the move) {kernel * 1e6:.0f} µs CPU")
    print("  the client shares this machine's cores with the servers: its CPU is in the table")
    if args.opening:
        opened = [measure(setup, tables, args) for setup in args.setups for tables in args.tables]
        print(opening_table(opened))
        sys.exit(1 if any(row.problems for row in opened) else 0)
    rows = []
    for setup in args.setups:
        for tables, signins in itertools.product(args.tables, args.signins):
            print(f"  {setup.name}, {tables} tables at {args.rate}/s ...", flush=True)
            row = measure(setup, tables, args, signins)
            rows.append(row)
            print(
                f"    {row.rate_per_s:.1f} moves/s, p95 {row.percentile(0.95):.1f} ms, "
                f"server {row.cpu_ms(row.server_cpu):.2f} ms CPU/move, "
                f"{row.opened} new tables ({new_tables_share(row)}), "
                f"{row.kills} kills, {row.restarts} restarts, "
                f"{row.reconnects} reconnection attempts",
                flush=True,
            )
            if args.rolling:
                print(f"    rolling: {rolling_line(row)}", flush=True)
            # a process started again counts from zero
            if row.counters and row.moves and not row.kills and not row.restarts:
                print(f"    bus: {ownership_line(row)}", flush=True)
                if len(row.processes) > 1:
                    print(f"    processes: {processes_line(row)}", flush=True)
            if row.checked:
                print(f"    check: {row.checked}")
            for note in row.notes:
                print(f"    note: {note}")
            for problem in row.problems[:10]:
                print(f"    PROBLEM: {problem}")
    print()
    print(f"Reference row: the first ({rows[0].setup.name}, {rows[0].tables} tables).")
    print(table_of(rows, kernel, args))
    if args.rolling:
        print()
        print(rolling_table(rows))
    if any(row.problems for row in rows):
        sys.exit(1)


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return int(text)


def rate(text: str) -> str:
    if text == "max":
        return text
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if value <= 0:
        raise argparse.ArgumentTypeError(
            f"--rate takes moves per second (> 0) or max, not {text!r}"
        )
    return text


if __name__ == "__main__":
    main()
