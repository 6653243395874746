"""`campfire serve`: the game server and the browser table; `campfire db upgrade`: its schema."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from typing import Annotated, Any

import typer

from campfire.cli.common import Lang, chosen, fail, spoken
from campfire.i18n import N_

DEFAULT_DB = "sqlite:///data/campfire.sqlite3"


def serve(
    host: Annotated[str, typer.Option(help=N_("address to listen on"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("port to listen on"))] = 8000,
    db: Annotated[
        str, typer.Option(help=N_("database URL: SQLite file (default) or postgresql://..."))
    ] = DEFAULT_DB,
    redis: Annotated[
        str | None,
        typer.Option(
            help=N_("Redis URL (redis://host:6379/0): lets several processes serve one database")
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help=N_("server processes on this port (more than 1 needs --redis)"))
    ] = 1,
    bot_pause: Annotated[
        float, typer.Option(help=N_("seconds a bot waits before it plays, so people can follow"))
    ] = 1.0,
    seed: Annotated[
        int | None, typer.Option(help=N_("fix the shuffles and the bots (for tests and demos)"))
    ] = None,
    away_seconds: Annotated[
        float,
        typer.Option(
            help=N_("seconds a player must be away before others may give their seat to a bot")
        ),
    ] = 60.0,
    tables_per_minute: Annotated[
        int, typer.Option(help=N_("new tables one address may open in a minute"))
    ] = 30,
    signin_per_account: Annotated[
        int,
        typer.Option(help=N_("password sign-ins one account may be tried with in the window")),
    ] = 10,
    signin_per_address: Annotated[
        int,
        typer.Option(
            help=N_("password sign-ins one address may try in the window (every account together)")
        ),
    ] = 30,
    signin_window: Annotated[
        float, typer.Option(help=N_("seconds the sign-in limits count over"))
    ] = 300.0,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help=N_("compress WebSocket messages (less traffic, about a third more server CPU)")
        ),
    ] = False,
    waiting_hours: Annotated[
        float,
        typer.Option(help=N_("hours a table waits for its players before it closes")),
    ] = 24.0,
    waiting_per_address: Annotated[
        int,
        typer.Option(
            help=N_(
                "tables waiting for players that one address may have at once (players "
                "behind one school or carrier address share it)"
            )
        ),
    ] = 10,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "proxies (comma-separated addresses, or *) whose X-Forwarded-For is trusted; "
                "default: none"
            )
        ),
    ] = None,
    log_format: Annotated[
        str, typer.Option(help=N_("log lines as 'text' or 'json' (one JSON object a line)"))
    ] = "text",
    drain_seconds: Annotated[
        float,
        typer.Option(
            help=N_(
                "on SIGTERM: seconds to hand the tables over, tell the sockets to reconnect "
                "and finish the writes before exiting"
            )
        ),
    ] = 10.0,
    lang: Lang = None,
) -> None:
    """Serve the lobby and tables at http://HOST:PORT (tables survive a restart)."""
    chosen(lang)
    import uvicorn

    from campfire.server.logs import FORMATS, log_config
    from campfire.server.metrics import MULTIPROC_VARIABLE

    if log_format not in FORMATS:
        fail(
            N_("--log-format must be one of {formats}, not {value}"),
            formats=", ".join(FORMATS),
            value=repr(log_format),
        )
    if not drain_seconds > 0:
        fail(N_("--drain-seconds must be above 0, not {value}"), value=drain_seconds)
    metrics_dir = None
    if workers > 1 and not os.environ.get(MULTIPROC_VARIABLE):
        # every worker counts into files here; a scrape of any worker sums them all. Set
        # before the server (and prometheus-client's values) is imported
        metrics_dir = tempfile.mkdtemp(prefix="campfire-metrics-")
        os.environ[MULTIPROC_VARIABLE] = metrics_dir
    try:
        _serve(
            uvicorn,
            host=host,
            port=port,
            db=db,
            redis=redis,
            workers=workers,
            bot_pause=bot_pause,
            seed=seed,
            away_seconds=away_seconds,
            tables_per_minute=tables_per_minute,
            signin_per_account=signin_per_account,
            signin_per_address=signin_per_address,
            signin_window=signin_window,
            ws_deflate=ws_deflate,
            waiting_hours=waiting_hours,
            waiting_per_address=waiting_per_address,
            forwarded_allow_ips=forwarded_allow_ips,
            logging=log_config(log_format) if log_format == "json" else None,
            drain_seconds=drain_seconds,
        )
    finally:
        if metrics_dir is not None:
            os.environ.pop(MULTIPROC_VARIABLE, None)
            shutil.rmtree(metrics_dir, ignore_errors=True)


def _serve(
    uvicorn: Any,
    *,
    host: str,
    port: int,
    db: str,
    redis: str | None,
    workers: int,
    bot_pause: float,
    seed: int | None,
    away_seconds: float,
    tables_per_minute: int,
    signin_per_account: int,
    signin_per_address: int,
    signin_window: float,
    ws_deflate: bool,
    waiting_hours: float,
    waiting_per_address: int,
    forwarded_allow_ips: str | None,
    logging: dict[str, Any] | None,
    drain_seconds: float,
) -> None:
    from campfire.server import create_app
    from campfire.server.http.app import CONFIG_VARIABLE

    if logging is not None:
        import logging.config as logging_config

        logging_config.dictConfig(logging)

    if not 0 < port < 65536:
        fail(N_("--port must be between 1 and 65535, not {value}"), value=port)
    if bot_pause < 0:
        fail(N_("--bot-pause cannot be negative ({value})"), value=bot_pause)
    if away_seconds < 0:
        fail(N_("--away-seconds cannot be negative ({value})"), value=away_seconds)
    if tables_per_minute < 1:
        fail(N_("--tables-per-minute must be at least 1, not {value}"), value=tables_per_minute)
    if signin_per_account < 1:
        fail(N_("--signin-per-account must be at least 1, not {value}"), value=signin_per_account)
    if signin_per_address < 1:
        fail(N_("--signin-per-address must be at least 1, not {value}"), value=signin_per_address)
    if not 1 <= signin_window <= 86400:
        fail(
            N_("--signin-window must be between 1 and 86400 seconds, not {value}"),
            value=f"{signin_window:g}",
        )
    if not waiting_hours > 0:
        fail(N_("--waiting-hours must be above 0, not {value}"), value=waiting_hours)
    if waiting_per_address < 1:
        fail(N_("--waiting-per-address must be at least 1, not {value}"), value=waiting_per_address)
    if workers < 1:
        fail(N_("--workers must be at least 1, not {value}"), value=workers)
    if workers > 1 and redis is None:
        fail(N_("--workers above 1 needs --redis: the processes share tables through Redis"))
    settings: dict[str, Any] = {
        "db_url": db,
        "bot_pause": bot_pause,
        "seed": seed,
        "away_seconds": away_seconds,
        "tables_per_minute": tables_per_minute,
        "redis_url": redis,
        "waiting_hours": waiting_hours,
        "waiting_per_address": waiting_per_address,
        "signin_per_account": signin_per_account,
        "signin_per_address": signin_per_address,
        "signin_window": signin_window,
    }
    if redis is not None:
        try:
            _check_redis(redis)
        except RuntimeError as error:
            fail(N_("cannot reach Redis at {url}: {error}"), url=redis, error=error)
    try:
        # opening it here upgrades the schema once and turns a bad URL into one clear line
        app = create_app(**settings)
    except Exception as error:  # a bad URL or an unreachable database: one line, no traceback
        fail(N_("cannot open the database {db}: {error}"), db=repr(db), error=error)
    print(
        spoken().gettext(N_("Campfire is at {address}"), address=f"http://{host}:{port}/"),
        flush=True,
    )
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws_max_size": 64 * 1024,
        "ws_per_message_deflate": ws_deflate,
        "log_level": "warning",
        "proxy_headers": forwarded_allow_ips is not None,
        "forwarded_allow_ips": forwarded_allow_ips or "",
        "server_header": False,
        # the drain's own limit; uvicorn waits this long for requests in flight at the end
        "timeout_graceful_shutdown": drain_seconds,
    }
    if logging is not None:
        options["log_config"] = logging
    from campfire.cli.draining import DrainingServer, serve_workers

    if workers == 1:
        DrainingServer(uvicorn.Config(app, **options), drain_seconds, app).run()
        return
    # each worker process builds its own app from the settings
    os.environ[CONFIG_VARIABLE] = json.dumps(settings)
    config = uvicorn.Config(
        "campfire.server.http.app:app_from_env", factory=True, workers=workers, **options
    )
    with contextlib.suppress(KeyboardInterrupt):
        serve_workers(config, drain_seconds)


def _check_redis(url: str) -> None:
    import redis as redis_client

    try:
        client = redis_client.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (ValueError, redis_client.RedisError) as error:
        raise RuntimeError(str(error)) from None


db_app = typer.Typer(help=N_("The server's database: create or upgrade its layout."))


@db_app.command("upgrade")
def upgrade(
    db: Annotated[
        str, typer.Option(help=N_("database URL: SQLite file (default) or postgresql://..."))
    ] = DEFAULT_DB,
    lang: Lang = None,
) -> None:
    """Create the tables, or bring an older database to the newest layout (nothing is lost)."""
    tr = chosen(lang)
    from campfire.server.store import migrate
    from campfire.server.store.storage import Storage

    try:
        storage = Storage(db, upgrade=False)
        before = migrate.current(storage.raw_engine)
        migrate.upgrade(storage.raw_engine)
        after = migrate.current(storage.raw_engine)
        storage.close()
    except Exception as error:
        fail(N_("cannot upgrade the database {db}: {error}"), db=repr(db), error=error)
    if before == after:
        print(tr.gettext(N_("the database is up to date (revision {revision})"), revision=after))
    else:
        print(
            tr.gettext(
                N_("upgraded the database from revision {before} to {after}"),
                before=before or tr.gettext(N_("none")),
                after=after,
            )
        )


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.add_typer(db_app, name="db")
