"""`campfire serve`: the game server and the browser table."""

from __future__ import annotations

from typing import Annotated

import typer

from campfire.cli.common import fail

DEFAULT_DB = "sqlite:///data/campfire.sqlite3"


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str, typer.Option(help="database URL: SQLite file (default) or postgresql://...")
    ] = DEFAULT_DB,
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
) -> None:
    """Serve the lobby and tables at http://HOST:PORT (tables survive a restart)."""
    import uvicorn

    from campfire.server import create_app

    if not 0 < port < 65536:
        fail(f"--port must be between 1 and 65535, not {port}")
    if bot_pause < 0:
        fail(f"--bot-pause cannot be negative ({bot_pause})")
    if away_seconds < 0:
        fail(f"--away-seconds cannot be negative ({away_seconds})")
    if tables_per_minute < 1:
        fail(f"--tables-per-minute must be at least 1, not {tables_per_minute}")
    try:
        app = create_app(
            db,
            bot_pause=bot_pause,
            seed=seed,
            away_seconds=away_seconds,
            tables_per_minute=tables_per_minute,
        )
    except Exception as error:  # a bad URL or an unreachable database: one line, no traceback
        fail(f"cannot open the database {db!r}: {error}")
    print(f"Campfire is at http://{host}:{port}/", flush=True)
    uvicorn.run(app, host=host, port=port, ws_max_size=64 * 1024, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
