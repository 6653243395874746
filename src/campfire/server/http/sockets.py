"""The WebSocket of a table: hello with a seat token (or none, to watch), then moves, hand-overs,
chat and pings in; every change's update for this connection's seat, and the chat, out."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI, WebSocket
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from campfire.i18n import N_, negotiate, refusal_text, translator
from campfire.server import metrics
from campfire.server.http.requests import (
    MESSAGE_LIMIT,
    SURROGATE_REFUSAL,
    ActBody,
    display_name,
    first_error,
    lone_surrogate,
)
from campfire.server.protocol import CLIENT_TYPES, Ok, Pong, answered_error, error
from campfire.server.refusals import Refusal, Refused, meaning, told
from campfire.server.tables.admission import check_origin
from campfire.server.tables.connections import Connection
from campfire.server.tables.hub import Hub
from campfire.server.tables.live import LiveTable

#: seconds a new WebSocket has to say hello
HELLO_TIMEOUT = 10.0


#: the name a spectator watches (and chats) under, from the socket (its session cookie) and the
#: name the hello gave (None: none), and whether that name is of a seat at the table (its own)
WatcherName = Callable[[WebSocket, LiveTable, str | None], Awaitable[tuple[str | None, bool]]]


async def _guest_name(
    _websocket: WebSocket, _table: LiveTable, raw: str | None
) -> tuple[str | None, bool]:
    return (None if raw is None else display_name(raw)), False


def add_socket_routes(
    app: FastAPI,
    hub: Hub,
    table_named: Any,
    draining: Callable[[], bool] = lambda: False,
    watcher_name: WatcherName = _guest_name,
) -> None:
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        # the connection's language, as a page's: ?lang=, the cookie, Accept-Language
        lang = negotiate(
            websocket.query_params.get("lang"),
            websocket.cookies.get("lang"),
            websocket.headers.get("accept-language"),
        )
        if draining():
            # refused before the handshake: a proxy passes the 503 on to another process
            restarting = Refusal(N_("this server is restarting: connect again"))
            await websocket.send_denial_response(
                JSONResponse(told({}, restarting, lang, "error"), 503)
            )
            return
        await websocket.accept()
        try:
            check_origin(websocket.headers.get("origin"), websocket.headers.get("host"))
            table = await table_named(table_id)
            seat, name, own, since = await _hello(websocket, table, lang)
            await hub.sync.current(table)
            address = websocket.client.host if websocket.client else ""
            conn = await hub.connect(table, seat, name, address, lang, own_name=own, since=since)
        except Refused as refused:
            await _refuse(websocket, refused, lang, fatal=True)
            return
        sender = asyncio.get_running_loop().create_task(_pump(websocket, conn))
        metrics.SOCKETS.inc()
        try:
            while not conn.dropped:
                message = await _receive(websocket, conn.lang)
                if message is None:
                    break
                await _handle(table, conn, message)
        finally:
            metrics.SOCKETS.dec()
            await hub.disconnect(table, conn)
            conn.push(None)
            with contextlib.suppress(Exception):
                await sender

    async def _handle(table: LiveTable, conn: Connection, message: Any) -> None:
        ref = message.get("id") if isinstance(message, dict) else None
        ref = ref if isinstance(ref, (int, str)) and len(str(ref)) <= 40 else None
        try:
            if not isinstance(message, dict):
                raise Refused(422, Refusal(N_("a message must be a JSON object")))
            kind = message.get("type")
            if kind == "ping":
                conn.push(Pong(type="pong", id=ref))
                return
            if kind == "chat":
                await hub.chat.say(table, conn, message.get("text"), message.get("emote"))
                conn.push(Ok(type="ok", id=ref))
                return
            if kind not in ("act", "bot"):
                raise Refused(
                    422,
                    Refusal(
                        N_("unknown message type {kind!r} (types: {types})"),
                        kind=kind,
                        types=", ".join(CLIENT_TYPES),
                    ),
                )
            if conn.seat is None:
                raise Refused(403, Refusal(N_("spectators watch: join a seat to play")))
            if kind == "bot":
                seat = message.get("seat", conn.seat)
                level = message.get("level")
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise Refused(422, Refusal(N_("'seat' must be a seat number")))
                if level is not None and (not isinstance(level, str) or len(level) > 40):
                    raise Refused(422, Refusal(N_("'level' must be one of the game's bot levels")))
                await hub.hand_to_bot(table, conn.seat, seat, level)
                conn.push(Ok(type="ok", id=ref))
                return
            try:
                body = ActBody.model_validate(
                    {k: v for k, v in message.items() if k not in ("type", "id")}
                )
            except ValidationError as error:
                raise Refused(422, first_error(error)) from None
            with metrics.timed(metrics.MOVE_SECONDS):
                await hub.act(table, conn.seat, body.action, body.at)
            conn.push(Ok(type="ok", id=ref))
        except Refused as refused:
            reason = refusal_text(refused.reason, translator(conn.lang))
            conn.push(answered_error(ref, refused.status, reason, *meaning(refused.reason)))

    async def _hello(
        websocket: WebSocket, table: LiveTable, lang: str
    ) -> tuple[int | None, str | None, bool, int | None]:
        """The seat a hello's token holds (None: a spectator), the name a spectator watches
        under (a signed-in one's account name), whether that name is of their own seat, and
        the record index the page last saw (None: it saw nothing, or says nothing)."""
        try:
            async with asyncio.timeout(HELLO_TIMEOUT):
                message = await _receive(websocket, lang)
        except TimeoutError:
            raise Refused(408, Refusal(N_("say hello first: {hello}"), hello=HELLO)) from None
        if message is None:
            raise Refused(400, Refusal(N_("the connection closed before hello")))
        if not isinstance(message, dict) or message.get("type") != "hello":
            raise Refused(422, Refusal(N_("the first message must be {hello}"), hello=HELLO))
        token = message.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 100):
            raise Refused(422, Refusal(N_("'token' must be your seat token, or null to watch")))
        since = message.get("at")
        if since is not None and (
            not isinstance(since, int) or isinstance(since, bool) or since < 0
        ):
            raise Refused(
                422,
                Refusal(N_("'at' must be the record index of the last update you got, or null")),
            )
        seat = await hub.seat_for(table, token)
        if seat is not None:
            return seat, None, False, since
        raw = message.get("name")
        if raw is not None and (not isinstance(raw, str) or len(raw) > 200):
            raise Refused(422, Refusal(N_("'name' must be the name you watch (and chat) under")))
        name, own = await watcher_name(websocket, table, raw)
        return None, name, own, since

    async def _receive(websocket: WebSocket, lang: str) -> Any:
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
                too_long = Refusal(
                    N_("a message has at most {limit} characters"), limit=MESSAGE_LIMIT
                )
                await _send(websocket, told(error(413, ""), too_long, lang))
                continue
            try:
                message = json.loads(text)
            except (ValueError, RecursionError):
                not_json = Refusal(N_("a message must be JSON"))
                await _send(websocket, told(error(400, ""), not_json, lang))
                continue
            if lone_surrogate(message):
                await _send(websocket, told(error(400, ""), SURROGATE_REFUSAL, lang))
                continue
            return message

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
                await websocket.close(conn.close_code if not conn.dropped else 1013)

    async def _send(websocket: WebSocket, message: Mapping[str, Any] | str) -> bool:
        try:
            await websocket.send_text(message if isinstance(message, str) else json.dumps(message))
            return True
        except Exception:
            return False

    async def _refuse(websocket: WebSocket, refused: Refused, lang: str, fatal: bool) -> None:
        await _send(websocket, told(error(refused.status, "", fatal=fatal), refused.reason, lang))
        with contextlib.suppress(Exception):
            await websocket.close(4000 + refused.status)


#: the hello a socket must open with, as its refusals quote it
HELLO = '{"type": "hello", "token": ...}'
