"""What an operator sees of real server processes: `/metrics` counts what the process did (one
process, `--workers 2`, two processes on PostgreSQL + Redis), `/healthz` and `/readyz` say
whether it can serve (a database or a Redis that stops answering makes it unready), and
`--log-format json` writes one JSON object a line."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from campfire.kernel import Record
from tests.server.conftest import PG_URL, Client, free_port, wait_until_up
from tests.server.test_api import pick


# --- helpers -------------------------------------------------------------------------------
class Proc:
    """`campfire serve` as its own process, its stderr kept apart (the log lines)."""

    def __init__(self, db: str, *extra: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "campfire",
                "serve",
                "--port",
                str(self.port),
                "--db",
                db,
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        wait_until_up(self.base, self.process)
        self.client = Client(self.base, f"ws://127.0.0.1:{self.port}")

    def metrics(self) -> dict[str, float]:
        return scrape(self.base)

    def stop(self) -> str:
        """Stop the process (if still running); gives what it wrote to stderr."""
        self.client.close()
        if self.process.poll() is None:
            self.process.terminate()  # a supervisor of workers stops them too
        try:
            _, err = self.process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate(timeout=30)
        return err or ""


def scrape(base: str) -> dict[str, float]:
    """Every sample of `GET /metrics` by name (labels folded in: `name{le="0.1"}`)."""
    response = httpx.get(base + "/metrics", timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            out[sample.name + (f"{{{labels}}}" if labels else "")] = sample.value
    return out


def player_moves(client: Client, table_id: str) -> int:
    record = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text)
    return sum(1 for entry in record.moves if "player" in entry)


def answers(ref: str, message: Any) -> bool:
    return bool(message.get("id") == ref)


def wait_metric(proc: Proc, name: str, done: Any, limit: float = 30) -> dict[str, float]:
    deadline = time.monotonic() + limit
    while True:
        found = proc.metrics()
        if done(found.get(name, 0.0)):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{name} stayed at {found.get(name)}")
        time.sleep(0.05)


METRIC_NAMES = (
    "campfire_moves_applied_total",
    "campfire_notices_received_total",
    "campfire_notices_published_total",
    "campfire_move_seconds_count",
    "campfire_tables_live",
    "campfire_sockets",
    "campfire_bot_decision_seconds_count",
    "campfire_db_commit_seconds_count",
    "campfire_event_loop_lag_seconds_count",
)


# --- metrics -------------------------------------------------------------------------------
def test_one_process_counts_its_moves_sockets_and_nothing_received(tmp_path: Any) -> None:
    proc = Proc(f"sqlite:///{tmp_path / 'c.sqlite3'}", "--bot-pause", "0", "--seed", "5")
    try:
        first = proc.metrics()
        for name in METRIC_NAMES:
            assert name in first, name
        assert first["campfire_moves_applied_total"] == 0
        assert first["campfire_sockets"] == 0
        c = proc.client
        made = c.create("wakatanka", 3, {1: "random", 2: "random"}, name="Ana")
        table_id, token = made["id"], made["token"]
        ana = c.socket(table_id, token)
        watcher = c.socket(table_id)
        found = wait_metric(proc, "campfire_sockets", lambda v: v == 2)
        assert found["campfire_tables_live"] == 1
        rng = random.Random(1)
        acts = 0
        for _ in range(500):
            mine = c.wait_for(
                table_id,
                lambda s: s["table"]["status"] == "finished" or s["table"]["to_move"] == 0,
                token,
            )
            if mine["table"]["status"] == "finished":
                break
            ref = f"m{acts}"
            ana.send(
                {
                    "type": "act",
                    "id": ref,
                    "action": pick("wakatanka", mine["controls"], rng),
                    "at": mine["at"],
                }
            )
            answer = ana.until(functools.partial(answers, ref))
            assert answer["type"] == "ok", answer
            acts += 1
        made_moves = player_moves(c, table_id)
        after = wait_metric(proc, "campfire_tables_live", lambda v: v == 0)
        assert acts > 0
        # every move of the game was applied here once: Ana's and the bots'
        assert after["campfire_moves_applied_total"] == made_moves
        assert after["campfire_move_seconds_count"] == acts
        assert after["campfire_bot_decision_seconds_count"] == made_moves - acts
        assert after["campfire_db_commit_seconds_count"] >= 1
        assert after["campfire_event_loop_lag_seconds_count"] >= 1
        # one process: nothing travels on a bus
        assert after["campfire_notices_received_total"] == 0
        assert after["campfire_notices_published_total"] == 0
        ana.close()
        watcher.close()
        wait_metric(proc, "campfire_sockets", lambda v: v == 0)
    finally:
        proc.stop()


def test_workers_add_their_metrics_up(pg_database: str, redis_url: str) -> None:
    """`--workers 2`: any scrape of the port shows both workers together."""
    proc = Proc(pg_database, "--redis", redis_url, "--workers", "2", "--bot-pause", "0")
    try:
        c = proc.client
        made = [c.create("powwow", 3, dict.fromkeys(range(3), "random")) for _ in range(4)]
        sockets = [c.socket(m["id"]) for m in made for _ in range(3)]
        ids = {m["id"] for m in made}
        for table_id in ids:
            c.wait_for(table_id, lambda s: s["table"]["status"] == "finished", limit=60)
        moves = sum(player_moves(c, table_id) for table_id in ids)
        for _ in range(8):
            # a new connection each time: the kernel hands it to either worker
            found = proc.metrics()
            # every socket counted once, wherever it is, whichever worker answers
            assert found["campfire_sockets"] == len(sockets)
            # each move applied by the worker that made it (and by the other if it holds it)
            assert found["campfire_moves_applied_total"] >= moves
        for sock in sockets:
            sock.close()
        wait_metric(proc, "campfire_sockets", lambda v: v == 0)
    finally:
        proc.stop()


def test_a_move_on_one_process_is_received_on_the_other(pg_database: str, redis_url: str) -> None:
    flags = ("--redis", redis_url, "--bot-pause", "0", "--seed", "3")
    a, b = Proc(pg_database, *flags), Proc(pg_database, *flags)
    try:
        made = a.client.create("powwow", 2, name="Ana")
        bob = a.client.join(made["id"], "Bob")
        tokens = {0: made["token"], 1: bob["token"]}
        watcher = b.client.socket(made["id"])  # b holds the table: it takes a's notices
        watcher.until(lambda m: m.get("type") == "update")
        before_a, before_b = a.metrics(), b.metrics()
        state = a.client.state(made["id"], tokens[0])
        seat = state["table"]["to_move"]
        mine = a.client.state(made["id"], tokens[seat])
        answer = a.client.act(
            made["id"], tokens[seat], pick("powwow", mine["controls"], random.Random(1)), mine["at"]
        )
        assert answer.status_code == 200, answer.text
        after_b = wait_metric(
            b,
            "campfire_notices_received_total",
            lambda v: v > before_b["campfire_notices_received_total"],
        )
        after_a = a.metrics()
        assert (
            after_a["campfire_notices_published_total"]
            > before_a["campfire_notices_published_total"]
        )
        assert (
            after_a["campfire_moves_applied_total"] == before_a["campfire_moves_applied_total"] + 1
        )
        # b relayed what the owner said the spectators are shown, without the rules
        relayed = watcher.until(lambda m: m.get("type") == "update" and m["at"] > state["at"])
        assert (
            b.metrics()["campfire_moves_applied_total"]
            == (before_b["campfire_moves_applied_total"])
        )
        assert after_b["campfire_notices_received_total"] >= 1
        owners = a.client.state(made["id"])
        assert relayed["view"] == owners["view"] and relayed["at"] == owners["at"]
        assert relayed["events"] == [e for e in owners["events"] if e["at"] > state["at"]]
        # reading the game at b applies the kept-aside move there, once
        assert b.client.state(made["id"])["view"] == owners["view"]
        assert b.metrics()["campfire_moves_applied_total"] == (
            before_b["campfire_moves_applied_total"] + 1
        )
        watcher.close()
    finally:
        a.stop()
        b.stop()


# --- health and readiness --------------------------------------------------------------------
class Relay:
    """A TCP relay to a real service that the test can cut: the server behind it finds its
    database (or Redis) unreachable, as after a network failure."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        self.cut_off = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Close every relayed connection and the listening port (nothing answers there)."""
        self.cut_off = True
        self.listener.close()
        for s in self.open:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


def wait_status(base: str, path: str, status: int, limit: float = 30) -> httpx.Response:
    deadline = time.monotonic() + limit
    while True:
        response = httpx.get(base + path, timeout=10)
        if response.status_code == status:
            return response
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} answered {response.status_code}: {response.text}")
        time.sleep(0.05)


def test_healthz_and_readyz_answer_on_a_healthy_process(client: Client) -> None:
    assert client.http.get("/healthz").status_code == 200
    ready = client.http.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok"}
    # not part of the game's API
    assert all(not p.startswith("/api") for p in ("/healthz", "/readyz", "/metrics"))


def test_readyz_is_503_when_the_database_stops_answering(serve: Any, pg_schema: str) -> None:
    relay = Relay(5432)
    url = PG_URL.replace(":5432/", f":{relay.port}/")
    c = serve(url, schema=pg_schema)
    assert c.http.get("/readyz").status_code == 200
    relay.cut()
    answer = wait_status(c.base, "/readyz", 503)
    assert answer.json()["checks"]["database"] != "ok"
    assert c.http.get("/healthz").status_code == 200  # the process itself still runs


@pytest.fixture
def own_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis server of this test's own, on a free port, that the test may stop."""
    port = free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    import redis

    deadline = time.monotonic() + 20
    while True:
        try:
            redis.Redis(port=port, socket_connect_timeout=1).ping()
            break
        except redis.RedisError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0", process
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)


def test_readyz_is_503_when_redis_stops(
    serve: Any, pg_schema: str, own_redis: tuple[str, subprocess.Popen[bytes]]
) -> None:
    url, redis_process = own_redis
    c = serve(PG_URL, schema=pg_schema, redis_url=url)
    ready = c.http.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "redis": "ok"}
    redis_process.kill()
    redis_process.wait(timeout=10)
    answer = wait_status(c.base, "/readyz", 503)
    assert answer.json()["checks"]["redis"] != "ok"
    assert answer.json()["checks"]["database"] == "ok"


# --- log lines -------------------------------------------------------------------------------
def test_json_log_lines_name_the_table(tmp_path: Any) -> None:
    """`--log-format json`: every stderr line is one JSON object; a line about a table has its
    id. (SIGTERM hands the table over, which is logged per table.)"""
    proc = Proc(f"sqlite:///{tmp_path / 'c.sqlite3'}", "--log-format", "json", "--bot-pause", "0.3")
    made = proc.client.create("wakatanka", 3, dict.fromkeys(range(3), "random"))
    proc.client.wait_for(made["id"], lambda s: s["at"] > 1)
    proc.process.terminate()
    assert proc.process.wait(timeout=60) == 0
    err = proc.stop()
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert lines, "the drain logs at least one line"
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(line), line
    assert any(line.get("table") == made["id"] for line in lines), lines


def test_text_log_lines_stay_the_default(tmp_path: Any) -> None:
    proc = Proc(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    proc.process.terminate()
    assert proc.process.wait(timeout=60) == 0
    err = proc.stop()
    assert "draining" in err
    assert not any(line.startswith("{") for line in err.splitlines())


# --- drain before an upgrade -----------------------------------------------------------------
@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_drains_tells_sockets_1012_and_loses_no_acknowledged_move(
    workers: int, tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    """SIGTERM while a person plays through HTTP and sockets watch: readiness turns 503, each
    socket is closed with 1012, the process exits 0, and every move answered 200 is stored.
    `--workers 2`: the supervisor's SIGTERM drains each worker the same way."""
    from websockets.exceptions import ConnectionClosed

    from campfire.server.store.storage import Storage

    if workers == 1:
        db, extra = f"sqlite:///{tmp_path / 'c.sqlite3'}", []
    else:
        db = request.getfixturevalue("pg_database")
        extra = ["--redis", request.getfixturevalue("redis_url"), "--workers", str(workers)]
    proc = Proc(db, "--bot-pause", "0.02", "--seed", "9", "--drain-seconds", "5", *extra)
    c = proc.client
    made = c.create("wakatanka", 3, {1: "random", 2: "random"}, name="Ana")
    table_id, token = made["id"], made["token"]
    sockets = [c.socket(table_id, token), c.socket(table_id), c.socket(table_id)]
    for sock in sockets:
        sock.until(lambda m: m.get("type") == "update")
    acknowledged: list[tuple[int, dict[str, Any]]] = []
    stop = threading.Event()

    def play() -> None:
        rng = random.Random(4)
        with httpx.Client(base_url=proc.base, timeout=10) as http:
            headers = {"Authorization": f"Bearer {token}"}
            while not stop.is_set():
                try:
                    got = http.get(f"/api/tables/{table_id}/state", headers=headers)
                    if got.status_code != 200:
                        return  # draining: the server sends its clients elsewhere
                    mine = got.json()
                    if mine["table"]["status"] == "finished":
                        return
                    if mine["table"]["to_move"] != 0:
                        time.sleep(0.01)
                        continue
                    action = pick("wakatanka", mine["controls"], rng)
                    answer = http.post(
                        f"/api/tables/{table_id}/actions",
                        json={"action": action, "at": mine["at"]},
                        headers=headers,
                    )
                except (httpx.HTTPError, ValueError):
                    return  # the server went away: nothing more is acknowledged
                if answer.status_code == 200:
                    acknowledged.append((mine["at"], action))

    player = threading.Thread(target=play)
    player.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < 3 and player.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert acknowledged, "the player made moves before the restart"
    proc.process.terminate()
    # not ready any more while it drains (or, at the very end, not listening); a supervisor
    # of workers passes the signal on within its half-second look, ready until then
    saw = []
    while proc.process.poll() is None:
        try:
            saw.append(httpx.get(proc.base + "/readyz", timeout=5).status_code)
        except httpx.HTTPError:
            break
        if 503 in saw:
            break
    assert saw and saw[-1] == 503, saw
    assert workers > 1 or saw == [503], saw
    codes = []
    for sock in sockets:
        try:
            while True:
                sock.recv(30)
        except ConnectionClosed as closed:
            codes.append(closed.rcvd.code if closed.rcvd else None)
    assert codes == [1012, 1012, 1012]
    assert proc.process.wait(timeout=60) == 0
    stop.set()
    player.join(timeout=30)
    proc.stop()
    # the stored record holds every acknowledged move, at its place
    storage = Storage(db)
    found = storage.load(table_id)
    storage.close()
    assert found is not None
    _, entries = found
    for at, action in acknowledged:
        assert entries[at]["player"] == 0
        assert {k: v for k, v in entries[at].items() if k != "player"} == action
    # and the restarted server plays on from there
    again = Proc(db, "--bot-pause", "0", "--seed", "9")
    try:
        # (its bots may already have played on)
        state = again.client.state(table_id, token)
        assert state["at"] >= len(entries)
    finally:
        again.stop()


def test_the_grafana_dashboard_reads_the_metrics_the_server_gives(client: Client) -> None:
    """docs/grafana-campfire.json is valid JSON and every query names only metrics that
    `/metrics` serves (and it shows every one of them)."""
    import re
    from pathlib import Path

    dashboard = json.loads(
        (Path(__file__).parents[2] / "docs" / "grafana-campfire.json").read_text()
    )
    served = {
        name.split("{")[0]
        for name in scrape(client.base)
        if name.startswith("campfire_") and not name.split("{")[0].endswith("_created")
    }
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {m for e in exprs for m in re.findall(r"\bcampfire_[a-z_]+", e)}
    assert used <= served, used - served
    for name in METRIC_NAMES:
        family = name.removesuffix("_count")
        assert any(family in e for e in exprs), family
