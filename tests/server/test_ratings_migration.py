"""Migration 0006_ratings: a database of the accounts layout (0005) upgrades without losing a
table, on SQLite and on PostgreSQL, and starts with no results and no ratings."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, inspect, select, text

from campfire.server.store import migrate
from campfire.server.store.schema import player_games_t, ratings_t, results_t
from campfire.server.store.storage import Storage
from tests.server.conftest import PG_URL
from tests.server.migrating import at_revision

ROWS = [
    "INSERT INTO campfire_tables (id, game, players, options, status, moves, winners, created,"
    " updated, next_id, version, to_move, listed, host_hash, address, clock, deadline, removed,"
    " rated) VALUES ('before006abc', 'powwow', 2, '{}', 'finished', 0, '[1]', 1.0, 2.0, NULL,"
    " 3, NULL, true, 'hosthash', NULL, NULL, NULL, '[]', true)",
    "INSERT INTO campfire_seats (table_id, seat, kind, level, name, token_hash, retired_hash,"
    " timeouts, account_id) VALUES ('before006abc', 0, 'human', NULL, 'Ana', 'h0', NULL, 0,"
    " 'acct0')",
]


def _check(url: str, schema: str | None) -> None:
    storage = Storage(url, schema=schema)
    try:
        assert migrate.current(storage.raw_engine, schema) == migrate.head()
        found = storage.load("before006abc")
        assert found is not None
        row, _ = found
        assert (row.status, row.winners, row.version) == ("finished", [1], 3)
        names = set(inspect(storage.raw_engine).get_table_names(schema=schema))
        assert {"campfire_results", "campfire_ratings", "campfire_player_games"} <= names
        with storage.engine.connect() as db:
            for table in (results_t, ratings_t, player_games_t):
                assert db.execute(select(func.count()).select_from(table)).scalar_one() == 0
            account = db.execute(text("SELECT account_id FROM campfire_seats")).scalar_one()
        assert account == "acct0"
    finally:
        storage.close()


def test_sqlite_database_of_0005_upgrades_keeping_its_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'before.sqlite3'}"
    at_revision(url, None, "0005_accounts", ROWS)
    _check(url, None)


def test_postgresql_database_of_0005_upgrades_keeping_its_tables(pg_schema: str) -> None:
    at_revision(PG_URL, pg_schema, "0005_accounts", ROWS)
    _check(PG_URL, pg_schema)
