"""Create or upgrade the database layout with Alembic, one process at a time.

Every server start runs this under a lock (PostgreSQL: an advisory lock; SQLite: a lock file
beside the database), so processes starting together never race on `CREATE TABLE`; the second
finds the layout current and does nothing. A database made before migrations existed (the three
tables, no version table) is stamped as revision 0001 and upgraded from there, losing nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "campfire_schema_version"
#: pg_advisory_lock key: any fixed number, the same in every process
LOCK_KEY = 0x43414D50


def config(connection: Connection, schema: str | None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    cfg.attributes["schema"] = schema
    return cfg


def head() -> str:
    revision = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine, schema: str | None = None) -> str | None:
    """The revision the database is at; None for an empty (or pre-migration) database."""
    with engine.connect() as connection:
        _search_path(connection, schema)
        context = MigrationContext.configure(
            connection, opts={"version_table": VERSION_TABLE, "version_table_schema": schema}
        )
        return context.get_current_revision()


def upgrade(engine: Engine, schema: str | None = None) -> None:
    """Bring the database to the newest layout (a no-op when it is there already)."""
    with engine.connect() as connection, _lock(connection):
        _search_path(connection, schema)
        cfg = config(connection, schema)
        found = inspect(connection)
        if found.has_table("campfire_tables", schema=schema) and not found.has_table(
            VERSION_TABLE, schema=schema
        ):
            command.stamp(cfg, "0001")
        command.upgrade(cfg, "head")
        connection.commit()


def _search_path(connection: Connection, schema: str | None) -> None:
    if schema is not None and connection.dialect.name == "postgresql":
        connection.execute(text(f'SET search_path TO "{schema}"'))
        connection.commit()


@contextlib.contextmanager
def _lock(connection: Connection) -> Iterator[None]:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK_KEY})
        connection.commit()
        try:
            yield
        finally:
            connection.rollback()
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
            connection.commit()
        return
    database = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    with open(Path(database).with_name(Path(database).name + ".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
