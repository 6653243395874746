"""One WebSocket's side of a table: its seat and the messages waiting to be sent to it."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping
from typing import Any

import orjson

#: the close code that tells a page to reconnect at once ("service restart")
RESTART_CODE = 1012
#: messages waiting for one slow connection before it is dropped
QUEUE_LIMIT = 512


def encode(message: Mapping[str, Any]) -> str:
    return orjson.dumps(message).decode()


class Connection:
    """Messages are queued already encoded: a table encodes each seat's update once, however
    many connections that seat (or the spectators) has."""

    def __init__(
        self, seat: int | None, name: str | None = None, address: str = "", lang: str = "en"
    ) -> None:
        self.seat = seat
        #: the language its texts are told in (each seat and spectator may read another)
        self.lang = lang
        #: where it comes from (spectators are counted per address) and since when
        self.address = address
        self.opened = time.monotonic()
        #: the name a spectator gave in hello (they chat as "Spectator" otherwise)
        self.name = name
        #: tells this connection apart in shared rate limits
        self.key = secrets.token_hex(8)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.dropped = False
        #: the WebSocket close code once the queue ends: 1012 (service restart) when the
        #: process hands its tables over, so the page reconnects at once
        self.close_code = 1000

    def push(self, message: Mapping[str, Any] | str | None) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(
            message if message is None or isinstance(message, str) else encode(message)
        )
