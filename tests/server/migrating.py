"""Set-up shared by the migration tests: a database left at an older revision, holding rows of
that revision's layout, ready for `Storage` to upgrade it to the head."""

from __future__ import annotations

from collections.abc import Sequence

from alembic import command
from sqlalchemy import create_engine, text

from campfire.server.store import migrate
from campfire.server.store.storage import engine_url


def at_revision(url: str, schema: str | None, revision: str, rows: Sequence[str]) -> None:
    """Upgrade the database at `url` (its `schema` on PostgreSQL) to `revision` only, then
    insert `rows` (SQL of that revision's layout)."""
    engine = create_engine(engine_url(url))
    try:
        with engine.connect() as connection:
            migrate._search_path(connection, schema)
            command.upgrade(migrate.config(connection, schema), revision)
            connection.commit()
            for row in rows:
                connection.execute(text(row))
            connection.commit()
    finally:
        engine.dispose()
