"""Kill the server process (SIGKILL, no goodbye), start it again: every table is back and play
goes on."""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from campfire.kernel import Record
from campfire.server.store.storage import WAITING, SeatRow, Storage, TableRow
from campfire.server.tables.live import token_hash
from tests.server.conftest import Client, free_port, run_server_process, wait_until_up
from tests.server.test_api import pick


class Process:
    def __init__(self, db: str, *extra: str) -> None:
        self.db = db
        self.extra = extra
        self.process: subprocess.Popen[str] | None = None
        self.client: Client | None = None

    def start(self) -> Client:
        port = free_port()
        self.process = run_server_process(self.db, port, *self.extra)
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, self.process)
        self.client = Client(base, f"ws://127.0.0.1:{port}")
        return self.client

    def kill(self) -> None:
        assert self.process is not None and self.client is not None
        self.process.kill()  # SIGKILL: nothing is flushed, nothing is closed
        self.process.wait(timeout=10)
        self.client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        if self.client is not None:
            self.client.close()


def sqlite_server(tmp_path: Path, *extra: str) -> Process:
    """`campfire serve` on a SQLite file under `tmp_path`, bots without a pause."""
    return Process(
        f"sqlite:///{tmp_path / 'data' / 'campfire.sqlite3'}", "--bot-pause", "0", *extra
    )


@pytest.fixture
def process(tmp_path: Path) -> Iterator[Process]:
    server = sqlite_server(tmp_path, "--seed", "11")
    yield server
    server.stop()


def test_killed_mid_game_then_restarted_play_goes_on(process: Process) -> None:
    client = process.start()
    made = client.create("powwow", 3, {2: "random"}, name="Ana", options={"tomahawks": True})
    bob = client.join(made["id"], "Bob")
    tokens = {0: made["token"], 1: bob["token"]}
    rng = random.Random(3)

    def one_move(client: Client) -> None:
        public = client.wait_for(
            made["id"],
            lambda s: s["table"]["to_move"] in tokens or s["table"]["status"] == "finished",
        )
        if public["table"]["status"] == "finished":
            return
        seat = public["table"]["to_move"]
        mine = client.state(made["id"], tokens[seat])
        response = client.act(
            made["id"], tokens[seat], pick("powwow", mine["controls"], rng), mine["at"]
        )
        assert response.status_code == 200, response.text

    for _ in range(5):
        one_move(client)
    client.wait_for(
        made["id"], lambda s: s["table"]["to_move"] in tokens or s["table"]["status"] == "finished"
    )
    before = {s: client.state(made["id"], t) for s, t in tokens.items()}
    process.kill()
    with pytest.raises(httpx.HTTPError):
        httpx.get(client.base + "/api/games", timeout=1)

    client = process.start()
    for s, token in tokens.items():
        after = client.state(made["id"], token)
        assert after["at"] == before[s]["at"]
        assert after["view"] == before[s]["view"]
        assert after["controls"] == before[s]["controls"]
    for _ in range(400):
        if client.state(made["id"])["table"]["status"] == "finished":
            break
        one_move(client)
    final = client.state(made["id"])
    assert final["table"]["status"] == "finished"
    record = Record.loads(client.http.get(f"/api/tables/{made['id']}/record").text)
    assert record.replay().winners() == final["table"]["winners"]


def test_killed_at_random_moments_nothing_acknowledged_is_lost(process: Process) -> None:
    """Tables of bots play on their own; the server is killed again and again while they play."""
    process.extra = ("--bot-pause", "0.005", "--seed", "5")
    client = process.start()
    bots = dict.fromkeys(range(4), "random")
    rng = random.Random(8)
    seen: dict[str, int] = {}  # table -> the record length a client was told
    kills = 0
    while kills < 3:
        if all(client.state(t)["table"]["status"] == "finished" for t in seen):
            game = rng.choice(["powwow", "wakatanka"])
            seen[client.create(game, 4, bots)["id"]] = 0
        time.sleep(rng.uniform(0.02, 0.25))
        for table_id in seen:
            seen[table_id] = client.state(table_id)["at"]
        process.kill()
        kills += 1
        client = process.start()
        for table_id, at in seen.items():
            assert client.state(table_id)["at"] >= at
    for table_id, at in seen.items():
        final = client.wait_for(table_id, lambda s: s["table"]["status"] == "finished", limit=120)
        record = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text)
        replayed = record.replay()
        assert replayed.is_terminal and replayed.winners() == final["table"]["winners"]
        assert len(record.moves) == final["at"] >= at


def test_a_full_table_that_was_never_dealt_is_dealt_at_start(
    serve: Callable[..., Client], db_url: str
) -> None:
    """An older server could stop between the last seat and the deal: a start deals it."""
    storage = Storage(db_url)
    now = time.time()
    seats = [SeatRow(0, "human", None, None, None), SeatRow(1, "bot", "random", "Bot 1", None)]
    humans = [SeatRow(0, "human", None, None, None), SeatRow(1, "human", None, None, None)]
    storage.create(
        TableRow("stucktablexa", "powwow", 2, {}, WAITING, 0, [], now, now, None, humans)
    )
    storage.create(TableRow("stucktablexb", "powwow", 2, {}, WAITING, 0, [], now, now, None, seats))
    storage.claim_seat("stucktablexb", 0, "Ana", token_hash("secret"))  # no deal with it
    storage.close()
    client = serve()
    table = client.state("stucktablexb", "secret")
    assert table["table"]["status"] == "playing" and table["at"] >= 1
    assert table["table"]["to_move"] in (0, 1)
    # a waiting table with a free seat stays waiting
    storage = Storage(db_url)
    found = storage.load("stucktablexa")
    assert found is not None and found[0].status == WAITING
