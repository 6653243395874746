"""The layout comes from Alembic migrations: a fresh database, a database made before migrations
existed, and processes starting together all end at the newest revision, losing nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from sqlalchemy import create_engine, inspect

from campfire.server.store import migrate
from campfire.server.store.storage import PLAYING, WAITING, Deal, SeatRow, Storage, TableRow
from tests.server.conftest import PG_URL

#: the layout every server wrote with `create_all` before migrations (revision 0001)
OLD_LAYOUT = """
CREATE TABLE campfire_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(40) NOT NULL,
    players INTEGER NOT NULL, options TEXT NOT NULL, status VARCHAR(16) NOT NULL,
    moves INTEGER NOT NULL, winners TEXT NOT NULL, created FLOAT NOT NULL,
    updated FLOAT NOT NULL, next_id VARCHAR(32));
CREATE INDEX ix_campfire_tables_status ON campfire_tables (status);
CREATE TABLE campfire_seats (table_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL,
    kind VARCHAR(8) NOT NULL, level VARCHAR(40), name VARCHAR(80), token_hash VARCHAR(64),
    PRIMARY KEY (table_id, seat), UNIQUE (token_hash));
CREATE TABLE campfire_moves (table_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL,
    entry TEXT NOT NULL, PRIMARY KEY (table_id, idx));
INSERT INTO campfire_tables VALUES ('oldtable0001', 'powwow', 2, '{}', 'playing', 2, '[]',
    1.0, 2.0, NULL);
INSERT INTO campfire_seats VALUES ('oldtable0001', 0, 'human', NULL, 'Ana', 'h0');
INSERT INTO campfire_seats VALUES ('oldtable0001', 1, 'bot', 'random', 'Bot 1', NULL);
INSERT INTO campfire_moves VALUES ('oldtable0001', 0, '{"chance": "shuffle", "order": []}');
INSERT INTO campfire_moves VALUES ('oldtable0001', 1, '{"player": 0, "action": "dispute"}');
"""


def test_a_database_of_the_old_layout_upgrades_without_losing_a_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_LAYOUT)
    url = f"sqlite:///{path}"
    storage = Storage(url)
    assert migrate.current(storage.engine) == migrate.head()
    found = storage.load("oldtable0001")
    assert found is not None
    row, entries = found
    assert (row.status, row.moves, row.version, row.to_move) == (PLAYING, 2, 0, None)
    assert entries[1] == {"player": 0, "action": "dispute"}
    assert [(s.name, s.token_hash, s.retired_hash) for s in row.seats] == [
        ("Ana", "h0", None),
        ("Bot 1", None, None),
    ]
    # and the upgraded table takes new moves like any other
    storage.append("oldtable0001", 2, [{"player": 1, "action": "agree"}], PLAYING, [], 0)
    assert storage.versions(["oldtable0001"]) == {"oldtable0001": 1}
    storage.close()


def test_campfire_db_upgrade_says_what_it_did(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"

    def upgrade() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "campfire", "db", "upgrade", "--db", url],
            capture_output=True,
            text=True,
            timeout=60,
        )

    first = upgrade()
    assert first.returncode == 0, first.stderr
    assert f"from revision none to {migrate.head()}" in first.stdout
    again = upgrade()
    assert again.returncode == 0 and "up to date" in again.stdout
    tables = set(inspect(create_engine(url)).get_table_names())
    assert {"campfire_tables", "campfire_seats", "campfire_moves"} <= tables
    bad = subprocess.run(
        [sys.executable, "-m", "campfire", "db", "upgrade", "--db", "nonsense"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "not a database URL" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_processes_starting_together_on_a_fresh_database_do_not_race(pg_schema: str) -> None:
    errors: list[BaseException] = []
    opened: list[Storage] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        try:
            opened.append(Storage(PG_URL, schema=pg_schema))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert len(opened) == 4
    for storage in opened:
        assert migrate.current(storage.raw_engine, pg_schema) == migrate.head()
        storage.close()


def waiting_row(table_id: str, humans: int) -> TableRow:
    now = time.time()
    return TableRow(
        table_id,
        "powwow",
        humans,
        {},
        WAITING,
        0,
        [],
        now,
        now,
        None,
        [SeatRow(s, "human", None, None, None) for s in range(humans)],
    )


def test_the_seat_that_fills_a_table_is_stored_with_the_deal(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'deal.sqlite3'}")
    storage.create(waiting_row("t1", 2))
    deal = Deal([{"chance": "shuffle", "order": ["1", "2"]}], PLAYING, [], 0)
    first = storage.claim_seat("t1", 0, "Ana", "ha", deal)
    assert not first.dealt  # seat 1 is still free: the deal is not written
    found = storage.load("t1")
    assert found is not None and found[0].moves == 0 and found[0].status == WAITING
    second = storage.claim_seat("t1", 1, "Bob", "hb", deal)
    assert second.dealt and second.version > first.version
    found = storage.load("t1")
    assert found is not None
    assert (found[0].status, found[0].moves, found[0].to_move) == (PLAYING, 1, 0)
    assert found[1] == deal.entries
    storage.close()
