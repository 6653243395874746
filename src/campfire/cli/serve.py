"""`campfire serve`: the game server and the browser table; `campfire db upgrade`: its schema."""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer

from campfire.cli.common import fail

DEFAULT_DB = "sqlite:///data/campfire.sqlite3"


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str, typer.Option(help="database URL: SQLite file (default) or postgresql://...")
    ] = DEFAULT_DB,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://host:6379/0): lets several processes serve one database"
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="server processes on this port (more than 1 needs --redis)")
    ] = 1,
    bot_pause: Annotated[
        float, typer.Option(help="seconds a bot waits before it plays, so people can follow")
    ] = 1.0,
    seed: Annotated[
        int | None, typer.Option(help="fix the shuffles and the bots (for tests and demos)")
    ] = None,
    away_seconds: Annotated[
        float,
        typer.Option(
            help="seconds a player must be away before others may give their seat to a bot"
        ),
    ] = 60.0,
    tables_per_minute: Annotated[
        int, typer.Option(help="new tables one address may open in a minute")
    ] = 30,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help="compress WebSocket messages (less traffic, about a third more server CPU)"
        ),
    ] = False,
    waiting_hours: Annotated[
        float,
        typer.Option(help="hours a table waits for its players before it closes"),
    ] = 24.0,
    waiting_per_address: Annotated[
        int,
        typer.Option(
            help="tables waiting for players that one address may have at once (players "
            "behind one school or carrier address share it)"
        ),
    ] = 10,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="proxies (comma-separated addresses, or *) whose X-Forwarded-For is trusted; "
            "default: none"
        ),
    ] = None,
) -> None:
    """Serve the lobby and tables at http://HOST:PORT (tables survive a restart)."""
    import uvicorn

    from campfire.server import create_app
    from campfire.server.http.app import CONFIG_VARIABLE

    if not 0 < port < 65536:
        fail(f"--port must be between 1 and 65535, not {port}")
    if bot_pause < 0:
        fail(f"--bot-pause cannot be negative ({bot_pause})")
    if away_seconds < 0:
        fail(f"--away-seconds cannot be negative ({away_seconds})")
    if tables_per_minute < 1:
        fail(f"--tables-per-minute must be at least 1, not {tables_per_minute}")
    if not waiting_hours > 0:
        fail(f"--waiting-hours must be above 0, not {waiting_hours}")
    if waiting_per_address < 1:
        fail(f"--waiting-per-address must be at least 1, not {waiting_per_address}")
    if workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    if workers > 1 and redis is None:
        fail("--workers above 1 needs --redis: the processes share tables through Redis")
    settings: dict[str, Any] = {
        "db_url": db,
        "bot_pause": bot_pause,
        "seed": seed,
        "away_seconds": away_seconds,
        "tables_per_minute": tables_per_minute,
        "redis_url": redis,
        "waiting_hours": waiting_hours,
        "waiting_per_address": waiting_per_address,
    }
    if redis is not None:
        try:
            _check_redis(redis)
        except RuntimeError as error:
            fail(str(error))
    try:
        # opening it here upgrades the schema once and turns a bad URL into one clear line
        app = create_app(**settings)
    except Exception as error:  # a bad URL or an unreachable database: one line, no traceback
        fail(f"cannot open the database {db!r}: {error}")
    print(f"Campfire is at http://{host}:{port}/", flush=True)
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws_max_size": 64 * 1024,
        "ws_per_message_deflate": ws_deflate,
        "log_level": "warning",
        "proxy_headers": forwarded_allow_ips is not None,
        "forwarded_allow_ips": forwarded_allow_ips or "",
        "server_header": False,
    }
    if workers == 1:
        uvicorn.run(app, **options)
        return
    # each worker process builds its own app from the settings
    os.environ[CONFIG_VARIABLE] = json.dumps(settings)
    uvicorn.run("campfire.server.http.app:app_from_env", factory=True, workers=workers, **options)


def _check_redis(url: str) -> None:
    import redis as redis_client

    try:
        client = redis_client.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (ValueError, redis_client.RedisError) as error:
        raise RuntimeError(f"cannot reach Redis at {url}: {error}") from None


db_app = typer.Typer(help="The server's database: create or upgrade its layout.")


@db_app.command("upgrade")
def upgrade(
    db: Annotated[
        str, typer.Option(help="database URL: SQLite file (default) or postgresql://...")
    ] = DEFAULT_DB,
) -> None:
    """Create the tables, or bring an older database to the newest layout (nothing is lost)."""
    from campfire.server.store import migrate
    from campfire.server.store.storage import Storage

    try:
        storage = Storage(db, upgrade=False)
        before = migrate.current(storage.raw_engine)
        migrate.upgrade(storage.raw_engine)
        after = migrate.current(storage.raw_engine)
        storage.close()
    except Exception as error:
        fail(f"cannot upgrade the database {db!r}: {error}")
    if before == after:
        print(f"the database is up to date (revision {after})")
    else:
        print(f"upgraded the database from revision {before or 'none'} to {after}")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.add_typer(db_app, name="db")
