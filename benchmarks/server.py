"""Server benchmark: what a move costs from a player's click to everyone's update, in one run.

    .venv/bin/python -m benchmarks.server            # about half a minute
    .venv/bin/python -m benchmarks.server --quick    # a few seconds, for a smoke run

A real server (uvicorn on a local socket, bots without a pause) hosts Waka Tanka tables of four
people, each seat on its own WebSocket; moves are sent by the seat to move and timed until every
seat has its update. Each move is stored (committed) before it is acknowledged.

Figures, on SQLite and on PostgreSQL (when 127.0.0.1:5432 answers): the round trip of a move
over the WebSocket (median and 95th percentile) and acknowledged moves per second; the same over
HTTP (POST an action, the answer carries the seat's new view). References in the same run: the
kernel alone (apply plus the record of the move, no server) and the storage alone (one commit
of one record entry), so the figures show what the network and the database add.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from campfire.kernel import Record, get_game
from campfire.server import create_app
from campfire.server.store.storage import PLAYING, SeatRow, Storage, TableRow
from campfire.server.tables.webgame import web_game

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


class Served:
    def __init__(self, url: str, schema: str | None) -> None:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port = self.sock.getsockname()[1]
        self.base, self.ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        app = create_app(url, bot_pause=0, seed=1, schema=schema)
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        self.http = httpx.Client(base_url=self.base, timeout=30)

    def close(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join()
        self.sock.close()


def table(served: Served, players: int = 4) -> tuple[str, list[str]]:
    made = served.http.post(
        "/api/tables", json={"game": "wakatanka", "players": players, "name": "P0"}
    ).json()
    tokens = [made["token"]]
    for s in range(1, players):
        joined = served.http.post(f"/api/tables/{made['id']}/join", json={"name": f"P{s}"})
        tokens.append(joined.json()["token"])
    return made["id"], tokens


def over_websockets(served: Served, moves: int, rng: random.Random) -> list[float]:
    """Seconds from sending a move to the last seat receiving its update, per move."""
    expand = web_game(get_game("wakatanka")).expand
    times: list[float] = []
    while len(times) < moves:
        table_id, tokens = table(served)
        sockets = [connect(f"{served.ws}/ws/tables/{table_id}", legacy=True) for _ in tokens]
        latest: list[Any] = []
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
            latest.append(json.loads(ws.recv(timeout=10)))
        while len(times) < moves:
            mover = next((s for s, m in enumerate(latest) if m["controls"]), None)
            if mover is None:
                break  # the game is over
            update = latest[mover]
            action = rng.choice(expand(update["controls"]))
            started = time.perf_counter()
            sockets[mover].send(json.dumps({"type": "act", "action": action, "at": update["at"]}))
            for s, ws in enumerate(sockets):
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] == "update" and message["at"] > update["at"]:
                        latest[s] = message
                        break
            times.append(time.perf_counter() - started)
        for ws in sockets:
            ws.close()
    return times


def over_http(served: Served, moves: int, rng: random.Random) -> list[float]:
    expand = web_game(get_game("wakatanka")).expand
    times: list[float] = []
    while len(times) < moves:
        table_id, tokens = table(served)
        views = {
            s: served.http.get(
                f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {t}"}
            ).json()
            for s, t in enumerate(tokens)
        }
        mover = next(s for s, v in views.items() if v["controls"])
        update = views[mover]
        while len(times) < moves and update["controls"]:
            action = rng.choice(expand(update["controls"]))
            started = time.perf_counter()
            answer = served.http.post(
                f"/api/tables/{table_id}/actions",
                json={"action": action, "at": update["at"]},
                headers={"Authorization": f"Bearer {tokens[mover]}"},
            ).json()
            times.append(time.perf_counter() - started)
            mover = answer["table"]["to_move"]
            if mover is None:
                break
            update = served.http.get(
                f"/api/tables/{table_id}/state",
                headers={"Authorization": f"Bearer {tokens[mover]}"},
            ).json()
    return times


def kernel_alone(moves: int, rng: random.Random) -> float:
    """Moves per second of the kernel: apply and write the move's record entry, no server."""
    game = get_game("wakatanka")
    done = 0
    started = time.perf_counter()
    while done < moves:
        state = game.new_state(4)
        while not state.is_terminal and done < moves:
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
                continue
            state.apply(rng.choice(state.legal_actions()))
            Record.of(state)
            done += 1
    return done / (time.perf_counter() - started)


def storage_alone(url: str, schema: str | None, commits: int) -> float:
    """Commits per second of one record entry each, the write every move waits for."""
    store = Storage(url, schema=schema)
    now = time.time()
    table_id = uuid.uuid4().hex[:12]
    seats = [SeatRow(s, "human", None, None, None) for s in range(4)]
    store.create(TableRow(table_id, "wakatanka", 4, {}, PLAYING, 0, [], now, now, None, seats))
    entry = {"player": 0, "action": "play", "tile": "owl", "card": "mouse"}
    started = time.perf_counter()
    for i in range(commits):
        store.append(table_id, i, [entry], PLAYING, [])
    rate = commits / (time.perf_counter() - started)
    store.delete(table_id)  # not a real game: the server must not find it
    store.close()
    return rate


def pg_schema() -> str | None:
    try:
        import psycopg

        with psycopg.connect(
            "host=127.0.0.1 port=5432 dbname=test user=postgres", autocommit=True, connect_timeout=2
        ) as conn:
            name = f"campfire_bench_{uuid.uuid4().hex[:10]}"
            conn.execute(f'CREATE SCHEMA "{name}"')
            return name
    except Exception:
        return None


def drop_schema(name: str) -> None:
    import psycopg

    with psycopg.connect(
        "host=127.0.0.1 port=5432 dbname=test user=postgres", autocommit=True
    ) as conn:
        conn.execute(f'DROP SCHEMA "{name}" CASCADE')


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def report(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    rate = len(times) / sum(times)
    print(
        f"  {label:<32} median {ms(statistics.median(times))}  p95 {ms(p95)}  "
        f"{rate:8.1f} moves/s  ({len(times)} moves)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, for a smoke run")
    args = parser.parse_args()
    moves = 60 if args.quick else 400
    rng = random.Random(1)
    print("Campfire server benchmark: Waka Tanka, 4 people, one WebSocket per seat")
    kernel = kernel_alone(moves * 5, rng)
    print(f"  reference: kernel alone (apply + record entry)  {kernel:10.1f} moves/s")
    with tempfile.TemporaryDirectory() as folder:
        sqlite = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        databases: list[tuple[str, str, str | None]] = [("SQLite", sqlite, None)]
        schema = pg_schema()
        if schema is not None:
            databases.append(("PostgreSQL", PG_URL, schema))
        else:
            print("  (PostgreSQL at 127.0.0.1:5432 is not answering: SQLite only)")
        for label, url, schema_name in databases:
            commits = storage_alone(url, schema_name, moves)
            print(f"  reference: {label} alone (one entry committed) {commits:10.1f} commits/s")
            served = Served(url, schema_name)
            try:
                ws_times = over_websockets(served, moves, rng)
                http_times = over_http(served, moves, rng)
            finally:
                served.close()
            report(f"{label}: move over WebSocket", ws_times)
            report(f"{label}: move over HTTP", http_times)
            ws_rate = len(ws_times) / sum(ws_times)
            print(
                f"  {label}: a served move takes {kernel / ws_rate:6.1f}x the kernel's time and "
                f"{commits / ws_rate:5.1f}x one bare commit's"
            )
        if schema is not None:
            drop_schema(schema)


if __name__ == "__main__":
    main()
