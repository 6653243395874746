"""Alembic migrations of the database; `campfire db upgrade` or a server start runs them."""
