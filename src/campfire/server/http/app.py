"""The HTTP and WebSocket face of the server.

JSON API under `/api`, one WebSocket per seat connection under `/ws`, pages and static files
(lobby, table, replay, each game's own drawing code). Every refusal is a 4xx with
`{"error": reason}`; request bodies, names and WebSocket messages are bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
from collections.abc import AsyncIterator
from typing import Annotated, Any, cast

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from campfire.accounts import limits as signin_limits
from campfire.accounts.limits import SignInLimit
from campfire.accounts.passwords import Hasher
from campfire.bots import coach
from campfire.i18n import N_
from campfire.kernel import Record, games, get_game
from campfire.review import localized
from campfire.server import metrics
from campfire.server.cluster.bus import Bus, make_bus
from campfire.server.collector import Tenure
from campfire.server.http.accounts import Accounts, add_account_routes
from campfire.server.http.headers import BodyLimit, DefaultHeaders
from campfire.server.http.language import page_language
from campfire.server.http.ops import Operations, add_ops_routes
from campfire.server.http.pages import add_page_routes, refusal
from campfire.server.http.profiles import add_profile_routes
from campfire.server.http.requests import (
    BODY_LIMIT,
    ActBody,
    BotBody,
    CreateBody,
    JoinBody,
    bearer,
    display_name,
    first_error,
    query_int,
    read_body,
)
from campfire.server.http.sockets import add_socket_routes
from campfire.server.logs import TABLE
from campfire.server.refusals import Refusal, Refused, said
from campfire.server.store.accounts import Account, AccountStore
from campfire.server.store.storage import FINISHED, PLAYING, WAITING, Storage
from campfire.server.tables.chat import chat_message
from campfire.server.tables.hub import (
    WAITING_HOURS,
    WAITING_PER_ADDRESS,
    Hub,
    TableSpec,
)
from campfire.server.tables.live import AWAY_SECONDS, BOT, LiveTable, chat_in, token_hash
from campfire.server.tables.reviews import Reviews
from campfire.server.tables.webgame import web_game

log = logging.getLogger("campfire.server")

TABLE_ID = re.compile(r"^[a-z2-9]{12}$")
#: tables of each status in one page of the lobby listing, by default and at most
LISTING_LIMIT = 30
LISTING_MAX = 100
LISTING_OFFSET_MAX = 10_000
#: seconds per turn a table's clock may be set to
CLOCK_CHOICES = (30, 60, 120, 86400)
#: every response: scripts and styles from this server only, never in a frame, no referrer
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
}
#: new tables one address may open in a minute (a person never needs more; a script might)
TABLES_PER_MINUTE = 30
#: how `campfire serve --workers N` hands its settings to each worker process
CONFIG_VARIABLE = "CAMPFIRE_SERVE_CONFIG"


class CreationLimit:
    """How many tables one address may open per minute, so a script cannot fill the database
    that everybody's tables live in; counted on the bus, so every process shares the count."""

    def __init__(self, bus: Bus, per_minute: int) -> None:
        self.bus = bus
        self.per_minute = per_minute

    async def check(self, address: str) -> None:
        """Count a new table for `address`, or refuse (429) saying when to try again."""
        wait = await self.bus.hit(f"tables:{address}", self.per_minute, 60.0)
        if wait is not None:
            seconds = math.ceil(max(wait, 1))
            raise Refused(
                429,
                Refusal(
                    N_(
                        "too many new tables from one address: {per_minute} a minute at "
                        "most; try again in {seconds} s"
                    ),
                    per_minute=self.per_minute,
                    seconds=seconds,
                ),
                retry_after=seconds,
            )


# --- the application -----------------------------------------------------------------------
#: the reasons Starlette gives by itself, told in each reader's language
STARLETTE_SAID = {
    "Not Found": N_("Not Found"),
    "Method Not Allowed": N_("Method Not Allowed"),
}


def create_app(
    db_url: str = "sqlite:///data/campfire.sqlite3",
    *,
    bot_pause: float = 1.0,
    seed: int | None = None,
    schema: str | None = None,
    away_seconds: float = AWAY_SECONDS,
    tables_per_minute: int = TABLES_PER_MINUTE,
    redis_url: str | None = None,
    waiting_hours: float = WAITING_HOURS,
    waiting_per_address: int = WAITING_PER_ADDRESS,
    clock_choices: tuple[int, ...] = CLOCK_CHOICES,
    id_salt: str | None = None,
    signin_per_account: int = signin_limits.PER_ACCOUNT,
    signin_per_address: int = signin_limits.PER_ADDRESS,
    signin_window: float = signin_limits.WINDOW,
) -> FastAPI:
    """The server: `db_url` is any SQLAlchemy URL (`postgresql://...` uses psycopg); with
    `redis_url`, any number of processes serve the same database together.

    `clock_choices` are the seconds per turn a table may ask for (tests add a short one);
    a seeded server draws table ids from the seed and `id_salt` (default: random per process,
    so two processes never draw the same ids; tests fix it to deal the same way every run).
    `signin_per_account` and `signin_per_address`: password sign-ins in `signin_window`
    seconds (`campfire serve --signin-per-account`, `--signin-per-address`,
    `--signin-window`)."""
    storage = Storage(db_url, schema=schema)
    bus = make_bus(redis_url, db_url, schema)
    limit = CreationLimit(bus, tables_per_minute)
    choices = tuple(sorted(set(clock_choices)))
    if not choices or min(choices) < 1:
        raise ValueError(f"clock choices must be whole seconds above 0, not {clock_choices}")
    hub = Hub(
        storage,
        bus,
        bot_pause=bot_pause,
        seed=seed,
        away_seconds=away_seconds,
        waiting_hours=waiting_hours,
        waiting_per_address=waiting_per_address,
        id_salt=id_salt,
        tick=min(1.0, choices[0] / 4),
    )
    ops = Operations(hub)
    reviews = Reviews(storage, hub.store)

    hasher = Hasher()
    accounts = Accounts(
        AccountStore(storage.engine),
        hasher,
        SignInLimit(
            bus.hit,
            per_account=signin_per_account,
            per_address=signin_per_address,
            window=signin_window,
        ),
        bus.hit,
    )

    async def renamed(table_ids: list[str]) -> None:
        """Seats renamed in the database (a deleted account's): loaded copies catch up, and
        other processes are told."""
        for table_id in table_ids:
            table = hub.tables.get(table_id)
            if table is not None:
                await hub.sync.refresh(table)
            await bus.publish(table_id, "seats")

    accounts.renamed = renamed

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        tenure = Tenure()
        tenure.start()
        watcher = asyncio.get_running_loop().create_task(metrics.watch_loop(ops.sample))
        try:
            yield
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await tenure.stop()
            await hub.stop()
            hasher.close()
            reviews.close()
            storage.close()

    app = FastAPI(
        title="Campfire",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        # the API is this server's own, described in README.md: no schema is published
        openapi_url=None,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.hub = hub
    app.state.storage = storage
    app.state.ops = ops
    app.state.reviews = reviews

    # {"error": reason}, or a page saying it to a browser that opened the address (pages.py)
    @app.exception_handler(Refused)
    async def refused(request: Request, error: Refused) -> Response:
        return refusal(request, error.status, error.reason, error.retry_after)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        detail = str(error.detail)
        # Starlette's own words for an address or method nobody serves, in the reader's language
        reason = Refusal(STARLETTE_SAID[detail]) if detail in STARLETTE_SAID else detail
        return refusal(request, error.status_code, reason)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        return refusal(request, 422, first_error(error))

    # pages and modules are small: always revalidated, so an update is seen at once; every
    # response carries the security headers
    app.add_middleware(BodyLimit, limit=BODY_LIMIT)
    # pages, scripts and styles are text: about a fifth of their size on the wire
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(
        DefaultHeaders,
        headers=[("cache-control", "no-cache"), *SECURITY_HEADERS.items()],
    )

    async def seat_name(raw: str | None, account: Account | None) -> str | None:
        """The name a person sits under: a signed-in player's account name; a guest's own,
        unless an account goes by it (only that account's owner sits under it)."""
        if raw is None:
            return None
        if account is not None:
            return account.name
        name = display_name(raw)
        if await asyncio.to_thread(accounts.store.named, name) is not None:
            raise Refused(
                409,
                Refusal(
                    N_(
                        "the name {name!r} belongs to an account: sign in to sit under it, "
                        "or pick another name"
                    ),
                    name=name,
                ),
            )
        return name

    async def watcher_name(
        websocket: WebSocket, table: LiveTable, raw: str | None
    ) -> tuple[str | None, bool]:
        """The name a spectator watches and chats under: a signed-in one's account name
        (whatever the hello says; their own seat here may carry it), a guest's own unless an
        account goes by it."""
        account = await accounts.current(websocket)
        if account is None:
            return await seat_name(raw, None), False
        sits = await asyncio.to_thread(accounts.store.seat_of, table.id, account.id)
        return account.name, sits is not None

    async def table_named(table_id: str) -> LiveTable:
        if not TABLE_ID.match(table_id):
            raise Refused(
                404, Refusal(N_("there is no table {table_id!r}"), table_id=table_id[:40])
            )
        TABLE.set(table_id)  # the log lines of this request name the table
        return await hub.get(table_id)

    # --- games ---------------------------------------------------------------------------
    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        out = []
        for name, game in games().items():
            web = web_game(game)
            out.append(
                {
                    "name": name,
                    "title": game.title,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "default_players": game.default_players,
                    "bot_levels": list(game.bot_levels()),
                    "options": web.options(),
                    "has_page": web.has_page,
                }
            )
        return out

    # --- tables --------------------------------------------------------------------------
    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        """The lobby: listed tables only, newest first, `limit` of each status from `offset`."""
        offset = query_int(request, "offset", 0, 0, LISTING_OFFSET_MAX)
        size = query_int(request, "limit", LISTING_LIMIT, 1, LISTING_MAX)
        since = hub.waiting_since()
        out: dict[str, Any] = {}
        totals: dict[str, int] = {}
        for status in (WAITING, PLAYING, FINISHED):
            rows = await asyncio.to_thread(storage.listing, status, size, offset, since, True)
            totals[status] = await asyncio.to_thread(storage.listed_count, status, since)
            out[status] = [
                {
                    "id": r.id,
                    "game": r.game,
                    "title": _title(r.game),
                    "players": r.players,
                    "options": r.options,
                    "status": r.status,
                    "winners": r.winners,
                    "rated": r.rated,
                    "updated": r.updated,
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "level": s.level,
                            "name": s.name,
                            "taken": s.kind == BOT or s.token_hash is not None,
                        }
                        for s in r.seats
                    ],
                }
                for r in rows
            ]
        out["paging"] = {
            "offset": offset,
            "limit": size,
            "total": totals,
            "more": {status: offset + size < totals[status] for status in totals},
        }
        return out

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        account = await accounts.current(request, write=True)
        body = await read_body(request, CreateBody)
        if body.rated and account is None:
            raise Refused(
                401,
                Refusal(N_("a rated table is for signed-in players: sign in (or sign up) first")),
            )
        name = await seat_name(body.name, account)
        if body.clock is not None and body.clock not in choices:
            shown = ", ".join(str(c) for c in choices)
            raise Refused(
                422,
                Refusal(
                    N_("clock: seconds per turn must be one of {shown} (or null), not {clock}"),
                    shown=shown,
                    clock=body.clock,
                ),
            )
        address = request.client.host if request.client else ""
        await limit.check(address)
        spec = TableSpec(
            body.game,
            body.players,
            body.options,
            body.bots,
            listed=body.listed,
            clock=body.clock,
            address=address,
            creator_sits=name is not None,
            rated=body.rated,
        )
        table = await hub.create(spec)
        out: dict[str, Any] = {"id": table.id, "invite": f"/t/{table.id}", "seat": None}
        if name is not None:
            seat, token = await hub.join(
                table, name, body.seat, host=True, account=account.id if account else None
            )
            out.update(seat=seat, token=token)
        out["table"] = table.meta()
        return out

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        table = await table_named(table_id)
        await hub.sync.current(table)
        return table.meta()

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> dict[str, Any]:
        table = await table_named(table_id)
        account = await accounts.current(request, write=True)
        body = await read_body(request, JoinBody)
        if table.rated and account is None:
            raise Refused(
                401,
                Refusal(
                    N_(
                        "this is a rated table: only signed-in players sit at it, so their "
                        "ratings can move. Sign in (or sign up) first; you can watch without."
                    )
                ),
            )
        name = await seat_name(body.name, account)
        assert name is not None
        seat, token = await hub.join(
            table, name, body.seat, account=account.id if account else None
        )
        return {"id": table.id, "seat": seat, "token": token, "table": table.meta()}

    @app.post("/api/tables/{table_id}/seat")
    async def my_seat(table_id: str, request: Request) -> dict[str, Any]:
        """A signed-in player's own seat on this device: a new seat token for it (the seat's
        token on another device stops working; opening the table there takes it back)."""
        table = await table_named(table_id)
        account = await accounts.required(request, write=True)
        seat = await asyncio.to_thread(accounts.store.seat_of, table.id, account.id)
        if seat is None:
            raise Refused(404, Refusal(N_("{name} has no seat at this table"), name=account.name))
        token = secrets.token_urlsafe(24)
        async with table.lock:
            done = await asyncio.to_thread(
                accounts.store.retoken_seat, table.id, seat, account.id, token_hash(token)
            )
        if not done:
            raise Refused(
                409,
                Refusal(
                    N_("seat {seat} is no longer {name}'s (a bot plays it)"),
                    seat=seat,
                    name=account.name,
                ),
            )
        await hub.sync.refresh(table)
        await bus.publish(table.id, "seats")
        return {"id": table.id, "seat": seat, "token": token, "table": table.meta()}

    @app.get("/api/tables/{table_id}/state")
    async def get_state(
        table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        await hub.sync.current(table)
        seat = await hub.seat_for(table, bearer(authorization))
        update = table.update_for(seat, table.events, full=True, lang=page_language(request))
        return cast(dict[str, Any], update)

    @app.post("/api/tables/{table_id}/actions")
    async def post_action(
        table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        seat = await hub.seat_for(table, bearer(authorization))
        if seat is None:
            raise Refused(
                401, Refusal(N_("acting needs your seat token ('Authorization: Bearer <token>')"))
            )
        body = await read_body(request, ActBody)
        before = len(table.events)
        with metrics.timed(metrics.MOVE_SECONDS):
            await hub.act(table, seat, body.action, body.at)
        update = table.update_for(
            seat, table.events[before:], full=False, lang=page_language(request)
        )
        return cast(dict[str, Any], update)

    @app.post("/api/tables/{table_id}/again")
    async def play_again(
        table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        seat = await hub.follower(table, bearer(authorization))
        if seat is None:
            raise Refused(401, Refusal(N_("only a player at this table can start the next game")))
        account = await accounts.current(request, write=True)
        if table.rated and account is None:
            raise Refused(
                401, Refusal(N_("the next game is rated too: sign in first to sit at it"))
            )
        if table.rated and account is not None:
            mine = await asyncio.to_thread(accounts.store.seat_of, table.id, account.id)
            if mine != seat:
                raise Refused(
                    403, Refusal(N_("this seat belongs to another account: sign in as its player"))
                )
        nxt, new_seat, token = await hub.again(table, seat, account.id if account else None)
        return {"id": nxt.id, "seat": new_seat, "token": token, "table": nxt.meta()}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def seat_to_bot(
        table_id: str,
        seat: int,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        by = await hub.seat_for(table, bearer(authorization))
        if by is None:
            raise Refused(
                401,
                Refusal(
                    N_(
                        "only a player at this table can give a seat to a bot (send your "
                        "seat token)"
                    )
                ),
            )
        body = await read_body(request, BotBody) if await request.body() else BotBody()
        await hub.hand_to_bot(table, by, seat, body.level)
        return {"id": table.id, "seat": seat, "table": table.meta()}

    @app.post("/api/tables/{table_id}/reclaim")
    async def reclaim_seat(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Take back, with its old token, a seat the turn clock gave to a bot."""
        table = await table_named(table_id)
        token = bearer(authorization)
        if token is None:
            raise Refused(
                401,
                Refusal(N_("send the token of the seat the clock took ('Authorization: Bearer')")),
            )
        seat = await hub.reclaim(table, token)
        return {"id": table.id, "seat": seat, "table": table.meta()}

    @app.post("/api/tables/{table_id}/cancel")
    async def cancel_table(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The host calls off a table that still waits for players."""
        table = await table_named(table_id)
        token = bearer(authorization)
        if token is None:
            raise Refused(
                401, Refusal(N_("only the host can cancel a table: send the host's seat token"))
            )
        await hub.cancel(table, token)
        return {"id": table.id, "cancelled": True}

    @app.post("/api/tables/{table_id}/seats/{seat}/remove")
    async def remove_from_seat(
        table_id: str, seat: int, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        token = bearer(authorization)
        if token is None:
            raise Refused(
                401,
                Refusal(
                    N_(
                        "only the host can remove someone: send the host's seat token "
                        "('Authorization: Bearer <token>')"
                    )
                ),
            )
        await hub.remove(table, token, seat)
        return {"id": table.id, "seat": seat, "table": table.meta()}

    @app.get("/api/tables/{table_id}/coach")
    async def coach_hint(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The top level's reading of the table for the asking seat only (an opt-in hint)."""
        table = await table_named(table_id)
        await hub.sync.current(table)
        seat = await hub.seat_for(table, bearer(authorization))
        if seat is None:
            raise Refused(401, Refusal(N_("the hint reads your own seat: send your seat token")))
        if table.status != PLAYING:
            raise Refused(409, Refusal(N_("the hint is there while the game is played")))
        view = table.state.view(seat)
        try:
            data = await asyncio.to_thread(coach, table.game, view)
        except ValueError as error:
            raise Refused(409, said(error)) from None
        return {"seat": seat, "at": table.at, "coach": data}

    @app.get("/api/tables/{table_id}/chat")
    async def chat_log(table_id: str, request: Request) -> dict[str, Any]:
        """Everything said at the table, in order (a finished game's replay shows it); quick
        messages in the request's language."""
        table = await table_named(table_id)
        await hub.chat.catch_up(table)
        lang = page_language(request)
        return {"id": table.id, "messages": [chat_in(m, lang) for m in table.chat]}

    @app.get("/api/tables/{table_id}/record")
    async def download_record(table_id: str) -> Response:
        table = await table_named(table_id)
        await hub.sync.current(table)
        if table.status != FINISHED:
            raise Refused(
                409,
                Refusal(N_("the record shows every hidden card: it is ready when the game ends")),
            )
        text = Record.of(table.state).dumps()
        filename = f"campfire-{table.game.name}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/review")
    async def table_review(table_id: str, request: Request) -> dict[str, Any]:
        """Every move of the finished game judged (`campfire.review`): computed once, in a
        worker process, and kept; everyone asking afterwards reads the kept one, its notes
        told in the request's language."""
        table = await table_named(table_id)
        await hub.sync.current(table)
        if table.status != FINISHED:
            raise Refused(
                409,
                Refusal(
                    N_(
                        "a review judges every move with everything revealed: it is ready "
                        "when the game ends"
                    )
                ),
            )
        return localized(await reviews.of(table), page_language(request))

    @app.get("/api/tables/{table_id}/replay")
    async def replay_step(table_id: str, request: Request, step: int = 0) -> dict[str, Any]:
        table = await table_named(table_id)
        lang = page_language(request)
        await hub.sync.current(table)
        if table.status != FINISHED:
            raise Refused(
                409, Refusal(N_("a replay shows everything: it opens when the game ends"))
            )
        record = Record.of(table.state)
        total = len(record.moves)
        if not 0 <= step <= total:
            raise Refused(
                422,
                Refusal(
                    N_("step must be between 0 and {total}, not {step}"), total=total, step=step
                ),
            )
        state = await asyncio.to_thread(record.replay, step)
        public = state.view(None)
        said = await hub.store(storage.chat_since, table.id, 0)
        return {
            "step": step,
            "steps": total,
            "entry": record.moves[step - 1] if step else None,
            "events": [
                {"kind": e.kind, "text": table.describe(e, None, lang)}
                for at, e in table.events
                if at == step
            ],
            # everything told up to here, private events included: a replay hides nothing
            "story": [
                text
                for at, e in table.events
                if at <= step and (text := table.describe(e, None, lang))
            ],
            "views": [state.view(s).to_json() for s in range(table.players)],
            "public": public.to_json(),
            "extras": table.web.extras(public),
            "table": as_it_was(table.meta()),
            # the table talk said up to this step, kept beside the game (not in its record)
            "chat": [
                chat_message(r, lang)
                for r in said
                if (r.step if r.step is not None else total) <= step
            ],
        }

    add_account_routes(app, accounts)
    add_socket_routes(app, hub, table_named, lambda: ops.draining, watcher_name)
    add_ops_routes(app, ops)
    add_page_routes(app)
    add_profile_routes(app, hub.results, hub.store)
    return app


def as_it_was(meta: dict[str, Any]) -> dict[str, Any]:
    """A table's description for a replay: who is away now is not part of the game shown."""
    for seat in meta["seats"]:
        seat.update(online=seat["taken"], away=False, away_for=None)
    return meta


def _title(name: str) -> str:
    try:
        return get_game(name).title
    except KeyError:
        return name


def app_from_env() -> FastAPI:
    """The app of one `campfire serve --workers N` worker, set up from the environment."""
    import os

    return create_app(**json.loads(os.environ[CONFIG_VARIABLE]))
