"""A table's chat: lines checked, rate-limited across processes, stored with their line number
(the database decides the order when two processes write at once) and told to every
connection here; the other processes hear a notice and read the lines they lack."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import anyio

from campfire.i18n import N_
from campfire.server.cluster.bus import Bus
from campfire.server.names import invisible
from campfire.server.protocol import ChatLine, NoticeKind
from campfire.server.refusals import Refusal, Refused
from campfire.server.store.storage import ChatRow, Conflict, Storage
from campfire.server.tables.connections import Connection
from campfire.server.tables.live import EMOTE_MARK, EMOTES, LiveTable, chat_in

log = logging.getLogger("campfire.server")
T = TypeVar("T")


class ChatHost(Protocol):
    """What the chat needs of the process around it: the bus, the database and the one way
    to call it from async code."""

    bus: Bus
    storage: Storage

    async def store(self, call: Callable[..., T], *args: Any) -> T: ...


#: characters per message, messages per seat (or per spectators' address) per window
CHAT_LENGTH = 300
CHAT_RATE = (5, 10.0)
#: chat messages one table keeps: the oldest make room for new ones, the chat never closes
CHAT_KEPT = 2000


def chat_text(raw: Any, emote: Any = None) -> str:
    """What a chat line may hold: trimmed, no control or invisible characters, not too long;
    or a quick message, stored as its key (each reader sees its words in their language)."""
    if emote is not None:
        if raw is not None:
            raise Refused(422, Refusal(N_("a chat message is 'text' or an 'emote', not both")))
        if not isinstance(emote, str) or emote not in EMOTES:
            raise Refused(
                422,
                Refusal(
                    N_("'emote' must be one of the quick messages: {emotes}"),
                    emotes=", ".join(EMOTES),
                ),
            )
        return EMOTE_MARK + emote
    if not isinstance(raw, str):
        raise Refused(422, Refusal(N_("'text' must be the message, a string")))
    text = raw.strip()
    if not text:
        raise Refused(422, Refusal(N_("a chat message cannot be empty")))
    if len(text) > CHAT_LENGTH:
        raise Refused(
            422,
            Refusal(
                N_("a chat message has at most {limit} characters, not {length}"),
                limit=CHAT_LENGTH,
                length=len(text),
            ),
        )
    if invisible(text):
        raise Refused(
            422, Refusal(N_("a chat message cannot hold control or invisible characters"))
        )
    return text


def chat_sender(conn: Connection) -> str:
    """Whose budget a line counts against: a seat's own (one person), or every spectator
    connection from one address together (many sockets are still one sender)."""
    if conn.seat is not None:
        return f"seat{conn.seat}"
    return f"watch:{conn.address}"


def chat_message(row: ChatRow, lang: str = "en") -> ChatLine:
    """A stored line as a reader of `lang` sees it (an emote carries its key too)."""
    if row.text.startswith(EMOTE_MARK) and row.text[1:] in EMOTES:
        emote = row.text[1:]
        line = ChatLine(type="chat", seat=row.seat, name=row.name, text=EMOTES[emote], at=row.at)
        line["emote"] = emote
        return chat_in(line, lang)
    return ChatLine(type="chat", seat=row.seat, name=row.name, text=row.text, at=row.at)


class TableChat:
    def __init__(self, hub: ChatHost) -> None:
        self.hub = hub

    async def say(self, table: LiveTable, conn: Connection, raw: Any, emote: Any = None) -> None:
        """Store one chat line (typed, or an emote's key) from a connection and tell every
        connection, here and elsewhere."""
        hub = self.hub
        text = chat_text(raw, emote)
        who = chat_sender(conn)
        limit, window = CHAT_RATE
        wait = await hub.bus.hit(f"chat:{table.id}:{who}", limit, window)
        if wait is not None:
            raise Refused(
                429,
                Refusal(
                    N_("at most {limit} messages in {window} s: wait {wait} s"),
                    limit=limit,
                    window=float(window),
                    wait=round(max(wait, 0.1), 1),
                ),
            )
        if conn.seat is not None:
            name = table.seats[conn.seat].name or f"Seat {conn.seat}"
        else:
            name = conn.name or "Spectator"
        for _ in range(10):
            try:
                await hub.store(
                    hub.storage.add_chat,
                    table.id,
                    conn.seat,
                    name,
                    text,
                    time.time(),
                    CHAT_KEPT,
                    table.at,
                )
                break
            except Conflict:  # another process wrote the same line number first
                continue
        else:
            raise Refused(503, Refusal(N_("the message could not be stored: try again")))
        await self.catch_up(table)
        await hub.bus.publish(table.id, NoticeKind.CHAT)

    async def catch_up(self, table: LiveTable) -> None:
        """Tell this process's connections every chat line stored since, in order."""
        async with table.chat_lock:
            try:
                rows = await anyio.to_thread.run_sync(
                    self.hub.storage.chat_since, table.id, table.chat_next
                )
            except Exception as error:
                log.warning("could not read the chat of table %s: %s", table.id, error)
                return
            table.push_chat([chat_message(r) for r in rows], CHAT_KEPT)
            if rows:
                table.chat_next = rows[-1].idx + 1
