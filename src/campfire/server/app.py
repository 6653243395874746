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
import re
import unicodedata
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from campfire.kernel import Record, games, get_game
from campfire.server.bus import Bus, make_bus
from campfire.server.connections import Connection
from campfire.server.hub import Hub, Refused, TableSpec
from campfire.server.live import AWAY_SECONDS, BOT, LiveTable
from campfire.server.storage import FINISHED, PLAYING, WAITING, Storage
from campfire.server.webgame import web_game

log = logging.getLogger("campfire.server")

STATIC = Path(__file__).parent / "static"
#: the largest request body and WebSocket message accepted
BODY_LIMIT = 8 * 1024
MESSAGE_LIMIT = 4 * 1024
NAME_LIMIT = 24
TABLE_ID = re.compile(r"^[a-z2-9]{12}$")
#: seconds a new WebSocket has to say hello
HELLO_TIMEOUT = 10.0
LISTING_LIMIT = 30
#: new tables one address may open in a minute (a person never needs more; a script might)
TABLES_PER_MINUTE = 30

#: how `campfire serve --workers N` hands its settings to each worker process
CONFIG_VARIABLE = "CAMPFIRE_SERVE_CONFIG"

ModelT = TypeVar("ModelT", bound=BaseModel)
MEDIA_TYPES = {
    "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "svg": "image/svg+xml",
}


# --- request bodies ------------------------------------------------------------------------
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateBody(_Body):
    game: str = Field(max_length=40)
    players: int | None = Field(None, ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    #: seat -> bot level; every other seat is for a person
    bots: dict[int, Annotated[str, Field(max_length=40)]] = Field(
        default_factory=dict, max_length=64
    )
    #: the creator's display name: they sit down at once (at `seat`, or the first free seat)
    name: str | None = Field(None, max_length=200)
    seat: int | None = Field(None, ge=0, le=63)


class JoinBody(_Body):
    name: str = Field(max_length=200)
    seat: int | None = Field(None, ge=0, le=63)


class ActBody(_Body):
    action: dict[str, Any] = Field(max_length=8)
    #: the record length the player's view showed: a stale move is refused, not misapplied
    at: int | None = Field(None, ge=0)


class BotBody(_Body):
    #: one of the game's bot levels; the server's default level when left out
    level: str | None = Field(None, max_length=40)


def display_name(raw: str) -> str:
    """A name people can read: trimmed, single spaces, no control characters, 1 to 24 long."""
    name = " ".join(raw.split())
    if not name:
        raise Refused(422, "a name cannot be empty")
    if len(name) > NAME_LIMIT:
        raise Refused(422, f"a name has at most {NAME_LIMIT} characters, not {len(name)}")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise Refused(422, "a name cannot hold control or invisible characters")
    return name


def _first_error(error: ValidationError | RequestValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = str(first.get("msg", "invalid"))
    return f"{where}: {message}" if where else message


async def read_body(request: Request, model: type[ModelT]) -> ModelT:
    raw = await request.body()
    if not raw:
        raise Refused(400, "the request needs a JSON body")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise Refused(400, f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise Refused(422, "the body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise Refused(422, _first_error(error)) from None


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 100:
        raise Refused(401, "send the seat token as 'Authorization: Bearer <token>'")
    return token.strip()


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
            raise Refused(
                429,
                f"too many new tables from one address: {self.per_minute} a minute at most; "
                f"try again in {max(wait, 1):.0f} s",
            )


# --- the application -----------------------------------------------------------------------
def create_app(
    db_url: str = "sqlite:///data/campfire.sqlite3",
    *,
    bot_pause: float = 1.0,
    seed: int | None = None,
    schema: str | None = None,
    away_seconds: float = AWAY_SECONDS,
    tables_per_minute: int = TABLES_PER_MINUTE,
    redis_url: str | None = None,
) -> FastAPI:
    """The server: `db_url` is any SQLAlchemy URL (`postgresql://...` uses psycopg); with
    `redis_url`, any number of processes serve the same database together."""
    storage = Storage(db_url, schema=schema)
    bus = make_bus(redis_url, db_url, schema)
    limit = CreationLimit(bus, tables_per_minute)
    hub = Hub(storage, bus, bot_pause=bot_pause, seed=seed, away_seconds=away_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            storage.close()

    app = FastAPI(
        title="Campfire",
        lifespan=lifespan,
        max_body_size=BODY_LIMIT,
        docs_url=None,
        redoc_url=None,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.hub = hub
    app.state.storage = storage

    @app.exception_handler(Refused)
    async def refused(_request: Request, error: Refused) -> JSONResponse:
        return JSONResponse({"error": error.reason}, status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _first_error(error)}, status_code=422)

    @app.middleware("http")
    async def revalidate(request: Request, call_next: Any) -> Response:
        """Pages and modules are small: always revalidated, so an update is seen at once."""
        response: Response = await call_next(request)
        response.headers.setdefault("Cache-Control", "no-cache")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    async def table_named(table_id: str) -> LiveTable:
        if not TABLE_ID.match(table_id):
            raise Refused(404, f"there is no table {table_id[:40]!r}")
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
    async def list_tables() -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for status in (WAITING, PLAYING, FINISHED):
            rows = await asyncio.to_thread(storage.listing, status, LISTING_LIMIT)
            out[status] = [
                {
                    "id": r.id,
                    "game": r.game,
                    "title": _title(r.game),
                    "players": r.players,
                    "options": r.options,
                    "status": r.status,
                    "winners": r.winners,
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
        return out

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        body = await read_body(request, CreateBody)
        name = display_name(body.name) if body.name is not None else None
        address = request.client.host if request.client else ""
        await limit.check(address)
        table = await hub.create(TableSpec(body.game, body.players, body.options, body.bots))
        out: dict[str, Any] = {"id": table.id, "invite": f"/t/{table.id}", "seat": None}
        if name is not None:
            seat, token = await hub.join(table, name, body.seat)
            out.update(seat=seat, token=token)
        out["table"] = table.meta()
        return out

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        table = await table_named(table_id)
        await hub.current(table)
        return table.meta()

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> dict[str, Any]:
        table = await table_named(table_id)
        body = await read_body(request, JoinBody)
        seat, token = await hub.join(table, display_name(body.name), body.seat)
        return {"id": table.id, "seat": seat, "token": token, "table": table.meta()}

    @app.get("/api/tables/{table_id}/state")
    async def get_state(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        await hub.current(table)
        seat = await hub.seat_for(table, bearer(authorization))
        return table.update_for(seat, table.events, full=True)

    @app.post("/api/tables/{table_id}/actions")
    async def post_action(
        table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        seat = await hub.seat_for(table, bearer(authorization))
        if seat is None:
            raise Refused(401, "acting needs your seat token ('Authorization: Bearer <token>')")
        body = await read_body(request, ActBody)
        before = len(table.events)
        await hub.act(table, seat, body.action, body.at)
        update = table.update_for(seat, table.events[before:], full=False)
        return update

    @app.post("/api/tables/{table_id}/again")
    async def play_again(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await table_named(table_id)
        seat = await hub.seat_for(table, bearer(authorization))
        if seat is None:
            raise Refused(401, "only a player at this table can start the next game")
        nxt, new_seat, token = await hub.again(table, seat)
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
                401, "only a player at this table can give a seat to a bot (send your seat token)"
            )
        body = await read_body(request, BotBody) if await request.body() else BotBody()
        await hub.hand_to_bot(table, by, seat, body.level)
        return {"id": table.id, "seat": seat, "table": table.meta()}

    @app.get("/api/tables/{table_id}/record")
    async def download_record(table_id: str) -> Response:
        table = await table_named(table_id)
        await hub.current(table)
        if table.status != FINISHED:
            raise Refused(409, "the record shows every hidden card: it is ready when the game ends")
        text = Record.of(table.state).dumps()
        filename = f"campfire-{table.game.name}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay_step(table_id: str, step: int = 0) -> dict[str, Any]:
        table = await table_named(table_id)
        await hub.current(table)
        if table.status != FINISHED:
            raise Refused(409, "a replay shows everything: it opens when the game ends")
        record = Record.of(table.state)
        total = len(record.moves)
        if not 0 <= step <= total:
            raise Refused(422, f"step must be between 0 and {total}, not {step}")
        state = await asyncio.to_thread(record.replay, step)
        public = state.view(None)
        game = table.game
        return {
            "step": step,
            "steps": total,
            "entry": record.moves[step - 1] if step else None,
            "events": [
                {"kind": e.kind, "text": game.describe(e, None)}
                for at, e in table.events
                if at == step
            ],
            # everything told up to here, private events included: a replay hides nothing
            "story": [
                text for at, e in table.events if at <= step and (text := game.describe(e, None))
            ],
            "views": [state.view(s).to_json() for s in range(table.players)],
            "public": public.to_json(),
            "extras": table.web.extras(public),
            "table": table.meta(),
        }

    # --- real time -----------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            table = await table_named(table_id)
            seat = await _hello(websocket, table)
            conn = await hub.connect(table, seat)
        except Refused as refused:
            await _refuse(websocket, refused, fatal=True)
            return
        sender = asyncio.get_running_loop().create_task(_pump(websocket, conn))
        try:
            while not conn.dropped:
                message = await _receive(websocket)
                if message is None:
                    break
                await _handle(table, conn, message)
        finally:
            await hub.disconnect(table, conn)
            conn.push(None)
            with contextlib.suppress(Exception):
                await sender

    async def _handle(table: LiveTable, conn: Connection, message: Any) -> None:
        ref = message.get("id") if isinstance(message, dict) else None
        ref = ref if isinstance(ref, (int, str)) and len(str(ref)) <= 40 else None
        try:
            if not isinstance(message, dict):
                raise Refused(422, "a message must be a JSON object")
            kind = message.get("type")
            if kind == "ping":
                conn.push({"type": "pong", "id": ref})
                return
            if kind not in ("act", "bot"):
                raise Refused(422, f"unknown message type {kind!r} (types: act, bot, ping)")
            if conn.seat is None:
                raise Refused(403, "spectators watch: join a seat to play")
            if kind == "bot":
                seat = message.get("seat", conn.seat)
                level = message.get("level")
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise Refused(422, "'seat' must be a seat number")
                if level is not None and (not isinstance(level, str) or len(level) > 40):
                    raise Refused(422, "'level' must be one of the game's bot levels")
                await hub.hand_to_bot(table, conn.seat, seat, level)
                conn.push({"type": "ok", "id": ref})
                return
            try:
                body = ActBody.model_validate(
                    {k: v for k, v in message.items() if k not in ("type", "id")}
                )
            except ValidationError as error:
                raise Refused(422, _first_error(error)) from None
            await hub.act(table, conn.seat, body.action, body.at)
            conn.push({"type": "ok", "id": ref})
        except Refused as refused:
            conn.push(
                {"type": "error", "id": ref, "status": refused.status, "reason": refused.reason}
            )

    async def _hello(websocket: WebSocket, table: LiveTable) -> int | None:
        try:
            async with asyncio.timeout(HELLO_TIMEOUT):
                message = await _receive(websocket)
        except TimeoutError:
            raise Refused(408, 'say hello first: {"type": "hello", "token": ...}') from None
        if message is None:
            raise Refused(400, "the connection closed before hello")
        if not isinstance(message, dict) or message.get("type") != "hello":
            raise Refused(422, 'the first message must be {"type": "hello", "token": ...}')
        token = message.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 100):
            raise Refused(422, "'token' must be your seat token, or null to watch")
        return await hub.seat_for(table, token)

    async def _receive(websocket: WebSocket) -> Any:
        """The next JSON message; None when the socket closed. Refused messages get an error."""
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return None
            if message["type"] == "websocket.disconnect":
                return None
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                text = raw.decode("utf-8", "replace")
            if len(text) > MESSAGE_LIMIT:
                await _send(
                    websocket,
                    {
                        "type": "error",
                        "status": 413,
                        "reason": f"a message has at most {MESSAGE_LIMIT} characters",
                    },
                )
                continue
            try:
                return json.loads(text)
            except (ValueError, RecursionError):
                await _send(
                    websocket, {"type": "error", "status": 400, "reason": "a message must be JSON"}
                )

    async def _pump(websocket: WebSocket, conn: Connection) -> None:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            if not await _send(websocket, message):
                conn.dropped = True
                break
        with contextlib.suppress(Exception):
            if websocket.application_state != WebSocketState.DISCONNECTED:
                await websocket.close(1000 if not conn.dropped else 1013)

    async def _send(websocket: WebSocket, message: Mapping[str, Any] | str) -> bool:
        try:
            await websocket.send_text(message if isinstance(message, str) else json.dumps(message))
            return True
        except Exception:
            return False

    async def _refuse(websocket: WebSocket, refused: Refused, fatal: bool) -> None:
        await _send(
            websocket,
            {"type": "error", "status": refused.status, "reason": refused.reason, "fatal": fatal},
        )
        with contextlib.suppress(Exception):
            await websocket.close(4000 + refused.status)

    # --- pages ---------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/rules/{game_name}", include_in_schema=False)
    async def rules_page(game_name: str) -> HTMLResponse:
        web, game = _web_named(game_name)
        rules = web.file("rules.html")
        if rules is None:
            raise Refused(404, f"{game.title} has no rules page")
        page = (STATIC / "rules.html").read_text()
        page = page.replace("{{title}}", game.title).replace("{{rules}}", rules.read_text())
        return HTMLResponse(page)

    @app.get("/games/{game_name}/{file_name}", include_in_schema=False)
    async def game_file(game_name: str, file_name: str) -> Response:
        web, game = _web_named(game_name)
        found = web.file(file_name)
        if found is None:
            raise Refused(404, f"{game.title} has no file {file_name[:60]!r}")
        kind = {
            "js": "text/javascript",
            "css": "text/css",
            "html": "text/html",
            "svg": "image/svg+xml",
        }
        return Response(
            found.read_bytes(), media_type=kind[file_name.rsplit(".", 1)[1]] + "; charset=utf-8"
        )

    def _web_named(game_name: str) -> tuple[Any, Any]:
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise Refused(404, str(error.args[0])) from None
        return web_game(game), game

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _title(name: str) -> str:
    try:
        return get_game(name).title
    except KeyError:
        return name


def app_from_env() -> FastAPI:
    """The app of one `campfire serve --workers N` worker, set up from the environment."""
    import os

    return create_app(**json.loads(os.environ[CONFIG_VARIABLE]))
