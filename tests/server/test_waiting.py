"""Only tables that wait for people count against an address's waiting tables, the host can
cancel a waiting table, and the operator sets how many one address may have (issue 24, item 3;
`--waiting-per-address` from issue 26)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.server.conftest import Client, free_port, run_server_process, wait_until_up

Serve = Callable[..., Client]


def cancel(client: Client, table_id: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.http.post(f"/api/tables/{table_id}/cancel", headers=headers)


def test_solo_games_are_never_blocked_by_waiting_tables(serve: Serve) -> None:
    client = serve(waiting_per_address=2)
    for _ in range(2):
        client.create("powwow", 2, name="Ana")
    over = client.http.post("/api/tables", json={"game": "powwow", "players": 2, "name": "Ana"})
    assert over.status_code == 429 and "2 at most" in over.json()["error"]
    # you + 2 bots never waits for anyone: it starts at once
    solo = client.create("powwow", 3, {1: "random", 2: "random"}, name="Ana")
    assert solo["table"]["status"] == "playing"


def test_the_host_cancels_a_waiting_table(serve: Serve) -> None:
    client = serve(waiting_per_address=1)
    made = client.create("powwow", 3, name="Ana", listed=True)
    bob = client.join(made["id"], "Bob")
    watcher = client.socket(made["id"])
    watcher.until(lambda m: m["type"] == "update")
    assert cancel(client, made["id"], None).status_code == 401
    refused = cancel(client, made["id"], bob["token"])
    assert refused.status_code == 403 and "only the host" in refused.json()["error"]
    done = cancel(client, made["id"], made["token"])
    assert done.status_code == 200 and done.json() == {"id": made["id"], "cancelled": True}
    told = watcher.until(lambda m: m["type"] == "error")
    assert told["status"] == 410 and told["fatal"] and "cancelled" in told["reason"]
    assert client.http.get(f"/api/tables/{made['id']}").status_code == 404
    assert client.http.get("/api/tables").json()["waiting"] == []
    # its place among the address's waiting tables is free again
    client.create("powwow", 2, name="Ana")
    # a table being played is not cancelled
    playing = client.create("powwow", 2, {1: "random"}, name="Ana")
    late = cancel(client, playing["id"], playing["token"])
    assert late.status_code == 409 and "started" in late.json()["error"]
    watcher.close()


def test_the_operator_sets_the_waiting_tables_per_address(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/waiting.sqlite3"
    bad = subprocess.run(
        [sys.executable, "-m", "campfire", "serve", "--db", db, "--waiting-per-address", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "--waiting-per-address must be at least 1" in bad.stderr
    port = free_port()
    process = run_server_process(db, port, "--waiting-per-address", "1")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
        body = {"game": "powwow", "players": 2, "name": "Ana"}
        assert httpx.post(base + "/api/tables", json=body).status_code == 201
        over = httpx.post(base + "/api/tables", json=body)
        assert over.status_code == 429 and "1 at most" in over.json()["error"]
    finally:
        process.terminate()
        process.wait(timeout=30)
