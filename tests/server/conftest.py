"""A real server on a real socket for every test that needs one, and clients that talk to it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from campfire.server import create_app

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def free_port() -> int:
    with free_socket() as sock:
        port: int = sock.getsockname()[1]
        return port


class Server:
    """The app served by uvicorn in a background thread, on a socket bound before it starts."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sock = free_socket()
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app,
            log_level="warning",
            ws_max_size=64 * 1024,
            lifespan="on",
            server_header=False,
            proxy_headers=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.sock.close()


class Client:
    """Plain HTTP and WebSocket helpers against one server."""

    def __init__(self, server_base: str, ws_base: str) -> None:
        self.base = server_base
        self.ws_base = ws_base
        self.http = httpx.Client(base_url=server_base, timeout=20)
        self.app: Any = None  # the application, when the server runs in this process

    def create(self, game: str, players: int, bots: dict[int, str] | None = None, **kw: Any) -> Any:
        body = {"game": game, "players": players, "bots": bots or {}, **kw}
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def join(self, table_id: str, name: str, seat: int | None = None) -> Any:
        response = self.http.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})
        assert response.status_code == 200, response.text
        return response.json()

    def state(self, table_id: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(f"/api/tables/{table_id}/state", headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    def act(
        self, table_id: str, token: str, action: dict[str, Any], at: int | None = None
    ) -> httpx.Response:
        return self.http.post(
            f"/api/tables/{table_id}/actions",
            json={"action": action, "at": at},
            headers={"Authorization": f"Bearer {token}"},
        )

    def socket(self, table_id: str, token: str | None = None, name: Any = None) -> Socket:
        """A WebSocket that said hello with `token` (None: a spectator, named `name`)."""
        ws = connect(f"{self.ws_base}/ws/tables/{table_id}", open_timeout=10, legacy=True)
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if name is not None:
            hello["name"] = name
        ws.send(json.dumps(hello))
        return Socket(ws)

    def wait_for(
        self,
        table_id: str,
        done: Callable[[Any], bool],
        token: str | None = None,
        limit: float = 30,
    ) -> Any:
        deadline = time.monotonic() + limit
        while True:
            state = self.state(table_id, token)
            if done(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting; last state: {state['table']}")
            time.sleep(0.02)

    def close(self) -> None:
        self.http.close()


class Socket:
    """A WebSocket that keeps every message it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[Any] = []

    def recv(self, timeout: float = 10) -> Any:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until(self, done: Callable[[Any], bool], timeout: float = 20) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if done(message):
                return message

    def drain(self, quiet: float = 0.2) -> list[Any]:
        """Every message that arrives until the socket stays quiet for `quiet` seconds."""
        got = []
        while True:
            try:
                got.append(self.recv(quiet))
            except TimeoutError:
                return got

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'campfire.sqlite3'}"


@pytest.fixture
def serve(db_url: str) -> Iterator[Callable[..., Client]]:
    """Start servers (bots without a pause, seeded chance); each gives a client."""
    started: list[tuple[Server, Client]] = []

    def start(url: str | None = None, **options: Any) -> Client:
        options.setdefault("bot_pause", 0.0)
        options.setdefault("seed", 7)
        server = Server(create_app(url or db_url, **options)).__enter__()
        client = Client(server.base, server.ws_base)
        client.app = server.app
        started.append((server, client))
        return client

    yield start
    for server, client in reversed(started):
        client.close()
        server.__exit__()


@pytest.fixture
def client(serve: Callable[..., Client]) -> Client:
    return serve()


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A PostgreSQL schema of its own for this test, dropped afterwards."""
    import psycopg

    name = f"campfire_test_{uuid.uuid4().hex[:12]}"
    try:
        conn = psycopg.connect(
            "host=127.0.0.1 port=5432 dbname=test user=postgres", autocommit=True
        )
    except psycopg.OperationalError as error:  # pragma: no cover - the suite needs PostgreSQL
        pytest.fail(f"PostgreSQL at 127.0.0.1:5432 (database 'test') is required: {error}")
    with conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
        yield name
        conn.execute(f'DROP SCHEMA "{name}" CASCADE')


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A PostgreSQL database of its own for this test (for server processes), dropped after."""
    import psycopg

    name = f"campfire_test_{uuid.uuid4().hex[:12]}"
    admin = "host=127.0.0.1 port=5432 dbname=postgres user=postgres"
    try:
        conn = psycopg.connect(admin, autocommit=True)
    except psycopg.OperationalError as error:  # pragma: no cover - the suite needs PostgreSQL
        pytest.fail(f"PostgreSQL at 127.0.0.1:5432 is required: {error}")
    with conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def redis_url() -> str:
    """The Redis every machine of this project runs; each database gets keys of its own."""
    import redis

    url = "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except redis.RedisError as error:  # pragma: no cover - the suite needs Redis
        pytest.fail(f"Redis at 127.0.0.1:6379 is required: {error}")
    return url


@pytest.fixture
def pair(serve: Callable[..., Client], pg_schema: str, redis_url: str) -> tuple[Client, Client]:
    """Two servers on one database and one Redis."""
    return (
        serve(PG_URL, schema=pg_schema, redis_url=redis_url),
        serve(PG_URL, schema=pg_schema, redis_url=redis_url),
    )


def run_server_process(db: str, port: int, *extra: str) -> subprocess.Popen[str]:
    """`campfire serve` as its own process (for tests that kill it)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "campfire", "serve", "--port", str(port), "--db", db, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def wait_until_up(base: str, process: subprocess.Popen[str], limit: float = 90) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            raise AssertionError(f"the server exited with {process.returncode}: {output}")
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError("the server did not come up")
