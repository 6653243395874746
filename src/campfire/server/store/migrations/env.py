"""Alembic's entry point: migrations run on the connection `store.migrate` hands over."""

from __future__ import annotations

from alembic import context

from campfire.server.store.migrate import VERSION_TABLE

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    version_table=VERSION_TABLE,
    version_table_schema=context.config.attributes.get("schema"),
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
