"""The database: its layout (schema and Alembic migrations), reads and writes, and the one
thread that commits moves."""
