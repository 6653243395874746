"""Migration 0005_accounts: a database of the layout before accounts (0004) upgrades without
losing a table, on SQLite and on PostgreSQL; its tables stay casual and its seats guests'."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from campfire.server.store import migrate
from campfire.server.store.storage import PLAYING, Storage
from tests.server.conftest import PG_URL
from tests.server.migrating import at_revision

ROWS = [
    "INSERT INTO campfire_tables (id, game, players, options, status, moves, winners, created,"
    " updated, next_id, version, to_move, listed, host_hash, address, clock, deadline, removed)"
    " VALUES ('before005abc', 'powwow', 2, '{}', 'playing', 1, '[]', 1.0, 2.0, NULL, 3, 0,"
    " true, 'hosthash', NULL, NULL, NULL, '[]')",
    "INSERT INTO campfire_seats (table_id, seat, kind, level, name, token_hash, retired_hash,"
    " timeouts) VALUES ('before005abc', 0, 'human', NULL, 'Ana', 'h0', NULL, 0)",
    "INSERT INTO campfire_seats (table_id, seat, kind, level, name, token_hash, retired_hash,"
    " timeouts) VALUES ('before005abc', 1, 'bot', 'random', 'Bot 1', NULL, NULL, 0)",
    "INSERT INTO campfire_moves (table_id, idx, entry) VALUES ('before005abc', 0,"
    ' \'{"chance": "shuffle", "order": []}\')',
]


def _check(url: str, schema: str | None) -> None:
    storage = Storage(url, schema=schema)
    try:
        assert migrate.current(storage.raw_engine, schema) == migrate.head()
        found = storage.load("before005abc")
        assert found is not None
        row, entries = found
        assert (row.status, row.moves, row.version) == (PLAYING, 1, 3)
        assert [(s.name, s.token_hash) for s in row.seats] == [("Ana", "h0"), ("Bot 1", None)]
        assert entries == [{"chance": "shuffle", "order": []}]
        seen = inspect(storage.raw_engine)
        names = set(seen.get_table_names(schema=schema))
        assert {"campfire_accounts", "campfire_sessions", "campfire_passkeys"} <= names
        with storage.engine.connect() as db:
            rated = db.execute(text("SELECT rated FROM campfire_tables")).scalar_one()
            accounts = db.execute(text("SELECT account_id FROM campfire_seats")).scalars().all()
        assert not rated
        assert accounts == [None, None]
    finally:
        storage.close()


def test_sqlite_database_of_0004_upgrades_keeping_its_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'before.sqlite3'}"
    at_revision(url, None, "0004_removed", ROWS)
    _check(url, None)


def test_postgresql_database_of_0004_upgrades_keeping_its_tables(pg_schema: str) -> None:
    at_revision(PG_URL, pg_schema, "0004_removed", ROWS)
    _check(PG_URL, pg_schema)
