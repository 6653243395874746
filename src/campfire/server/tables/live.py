"""A table in a server process's memory: seats, the game state, its events and connections.

A live table is a cache of the database: `Hub` changes it only after the database took the
change, and catches it up from the database when another process changed the table first.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from campfire.i18n import N_, translator
from campfire.kernel import Bot, Event, Game, State
from campfire.kernel.errors import Refusal
from campfire.server.cluster.bus import Presence
from campfire.server.names import name_key
from campfire.server.protocol import ChatHistory, ChatLine, TableChanged, Update
from campfire.server.store.schema import FINISHED, PLAYING
from campfire.server.tables.connections import Connection, encode
from campfire.server.tables.webgame import WebGame

HUMAN = "human"
BOT = "bot"
#: seconds a player must have been away (no open connection) before others may give their seat
#: to a bot; a player may always give their own seat
AWAY_SECONDS = 60.0
#: the level of a bot that takes over a seat when the request names none (and when a clock runs out)
TAKEOVER_LEVEL = "medium"
#: chat lines a connection gets when it opens (the whole chat: `GET /api/tables/{id}/chat`)
CHAT_HISTORY = 100


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bot: Bot | None = None
    #: turns in a row its clock ran out
    timeouts: int = 0

    @property
    def taken(self) -> bool:
        return self.kind == BOT or self.token_hash is not None


@dataclass
class LiveTable:
    id: str
    game: Game[Any]
    web: WebGame
    players: int
    options: dict[str, Any]
    seats: list[Seat]
    state: State[Any, Any]
    status: str
    created: float
    updated: float
    next_id: str | None = None
    #: the database row's version this copy reflects
    version: int = 0
    #: every event so far, with the record length after the move that caused it
    events: list[tuple[int, Event]] = field(default_factory=list)
    at: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    #: a catch-up from the database is scheduled
    behind: bool = False
    #: event kinds of the last change (bots pause longer after a reveal)
    last_kinds: set[str] = field(default_factory=set)
    #: what the bus knows of each seated person's connections in every process
    presence: dict[int, Presence] = field(default_factory=dict)
    #: wall-clock time this process loaded the table (away since then, when nothing is known)
    loaded: float = field(default_factory=time.time)
    #: seconds away before other players may give a seat to a bot
    away_limit: float = AWAY_SECONDS
    #: token hash -> the seat it held before a bot took over (a clearer refusal)
    retired: dict[str, int] = field(default_factory=dict)
    #: shown in the lobby; otherwise reachable by its invite link only
    listed: bool = False
    #: ratings move after each game; every person at it is signed in
    rated: bool = False
    #: the creator's seat token hash: they may remove people from the waiting room
    host_hash: str | None = None
    #: seconds per turn (None: no clock) and when the running clock runs out
    clock: int | None = None
    deadline: float | None = None
    #: every chat message so far, in order (the "chat" message of each)
    chat: list[ChatLine] = field(default_factory=list)
    #: the number of the next chat line this copy has not taken (old lines roll out)
    chat_next: int = 0
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the names the host removed (folded): they stay out of this table
    removed: set[str] = field(default_factory=set)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        wanted = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return seat.seat
        return None

    def named(self, name: str) -> bool:
        """Someone at the table already has this name (whatever its case)."""
        wanted = name_key(name)
        return any(s.name is not None and name_key(s.name) == wanted for s in self.seats)

    def host_seat(self) -> int | None:
        """The seat the host sits at (None: no host, or they gave their seat away)."""
        if self.host_hash is None:
            return None
        return next((s.seat for s in self.seats if s.token_hash == self.host_hash), None)

    def is_host(self, token: str | None) -> bool:
        if not token or self.host_hash is None:
            return False
        return secrets.compare_digest(self.host_hash, token_hash(token))

    def clock_meta(self) -> dict[str, Any]:
        """The turn clock: seconds per turn, and whose clock runs until when."""
        seat = self.state.to_move if self.status == PLAYING else None
        running = (
            self.deadline is not None
            and seat is not None
            and self.seats[seat].kind == HUMAN
            and self.clock is not None
        )
        return {
            "seconds": self.clock,
            "deadline": self.deadline if running else None,
            "seat": seat if running else None,
        }

    def retired_seat(self, token: str) -> int | None:
        """The seat a token held before it was given to a bot."""
        return self.retired.get(token_hash(token))

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if not s.taken]

    def local_count(self, seat: int) -> int:
        return sum(1 for c in self.connections if c.seat == seat)

    def away_for(self, seat: int) -> float | None:
        """Seconds the seat's player has had no open connection anywhere; None while connected."""
        if self.local_count(seat):
            return None
        known = self.presence.get(seat)
        if known is not None and known.online:
            return None
        since = known.away_since if known is not None and known.away_since else self.loaded
        return max(0.0, time.time() - since)

    def meta(self) -> dict[str, Any]:
        online: dict[int | None, int] = {}
        for conn in self.connections:
            online[conn.seat] = online.get(conn.seat, 0) + 1
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "options": self.options,
            "status": self.status,
            "at": self.at,
            "to_move": self.state.to_move if self.status == PLAYING else None,
            "winners": self.state.winners() if self.status == FINISHED else [],
            "seats": [self._seat_meta(s) for s in self.seats],
            "away_limit": self.away_limit,
            "spectators": online.get(None, 0),
            "next": self.next_id,
            "created": self.created,
            "has_page": self.web.has_page,
            "listed": self.listed,
            "rated": self.rated,
            "host": self.host_seat(),
            "clock": self.clock_meta(),
        }

    def _seat_meta(self, s: Seat) -> dict[str, Any]:
        away = self.away_for(s.seat) if s.kind == HUMAN and s.token_hash is not None else None
        return {
            "seat": s.seat,
            "kind": s.kind,
            "level": s.level,
            "name": s.name,
            "taken": s.taken,
            "online": s.kind == BOT or (s.token_hash is not None and away is None),
            # a seated person with no open connection, and for how many seconds (the page
            # offers "Let a bot play" once it reaches the table's away_limit)
            "away": away is not None,
            "away_for": None if away is None else math.floor(away * 10) / 10,
        }

    def update_for(
        self,
        seat: int | None,
        events: Iterable[tuple[int, Event]],
        full: bool,
        meta: dict[str, Any] | None = None,
        voice: int | None = None,
        lang: str = "en",
    ) -> Update:
        """The message one connection gets: its own view, the events it may see, its controls.
        `voice`: the seat whose words tell the events (a player who just became a spectator
        still reads "Your time ran out"); only events `seat` may see are told. Each event is
        its `kind` and `data` (what it means) and its `text` in the reader's `lang`."""
        state = self.state
        view = state.view(seat)
        controls = None
        if self.status == PLAYING and seat is not None and state.to_move == seat:
            controls = self.web.controls(view, state.legal_actions())
        describe = self.describe
        return Update(
            type="update",
            at=self.at,
            full=full,
            table=self.meta() if meta is None else meta,
            view=view.to_json(),
            controls=controls,
            extras=self.web.extras(view),
            events=[
                {
                    "at": at,
                    "kind": e.kind,
                    "data": e.to_json(),
                    "text": describe(e, seat if voice is None else voice, lang),
                }
                for at, e in events
                if e.visible_to(seat)
            ],
        )

    def describe(self, event: Event, seat: int | None, lang: str = "en") -> str:
        """The game narrates its own events; the server narrates its own (the clock)."""
        if event.kind == CLOCK_EVENT:
            return clock_text(event, seat, lang)
        return self.game.describe(event, seat, lang)

    def push_chat(self, messages: list[ChatLine], keep: int) -> None:
        """Tell every connection the new lines (an emote in the connection's language); keep
        only the last `keep` in memory."""
        for message in messages:
            self.chat.append(message)
            by_lang: dict[str, str] = {}
            for conn in list(self.connections):
                encoded = by_lang.get(conn.lang)
                if encoded is None:
                    encoded = by_lang[conn.lang] = encode(chat_in(message, conn.lang))
                conn.push(encoded)
        if len(self.chat) > keep:
            del self.chat[: len(self.chat) - keep]

    def chat_history(self, length: int, lang: str = "en") -> ChatHistory:
        """The chat so far (its emotes in `lang`), and the most characters a line may have."""
        said = [chat_in(m, lang) for m in self.chat[-CHAT_HISTORY:]]
        return ChatHistory(type="chat_history", messages=said, length=length)

    def broadcast(self, events: list[tuple[int, Event]]) -> None:
        """Every connection gets its seat's update in its language; each (seat, language)'s is
        built and encoded once."""
        if not self.connections:
            return
        meta = self.meta()
        by_seat: dict[tuple[int | None, str], str] = {}
        for conn in list(self.connections):
            message = by_seat.get((conn.seat, conn.lang))
            if message is None:
                message = by_seat[(conn.seat, conn.lang)] = encode(
                    self.update_for(conn.seat, events, full=False, meta=meta, lang=conn.lang)
                )
            conn.push(message)

    def broadcast_meta(self) -> None:
        if not self.connections:
            return
        message = encode(TableChanged(type="table", table=self.meta()))
        for conn in list(self.connections):
            conn.push(message)


#: the quick messages of the chat by their key: a line holds the key, and each reader sees the
#: words in their own language (the stored text is EMOTE_MARK + key, which nobody can type:
#: a typed line cannot hold control characters)
EMOTES: dict[str, str] = {
    "nice": N_("Nice one!"),
    "wow": N_("Wow"),
    "hmm": N_("Hmm…"),
    "haha": N_("Ha ha"),
    "bluff": N_("Bluff!"),
    "gg": N_("Good game"),
}
EMOTE_MARK = "\x1e"


def chat_in(message: ChatLine, lang: str) -> ChatLine:
    """A chat line as a reader of `lang` sees it: an emote's words in that language."""
    emote = message.get("emote")
    if emote is None or emote not in EMOTES or lang == "en":
        return message
    return ChatLine(**{**message, "text": translator(lang).gettext(EMOTES[emote])})


#: the server's own event: a seat's turn clock ran out and a bot played the turn for it
CLOCK_EVENT = "clock"


def clock_text(event: Event, seat: int | None, lang: str = "en") -> str:
    tr = translator(lang)
    _ = tr.gettext
    d = event.data
    mine = seat is not None and d["seat"] == seat
    level = tr.level(d["level"])
    if mine:
        text = _("Your time ran out: a {level} bot played your turn.", level=level)
        if d.get("handed"):
            text += " " + _(
                "Two turns in a row: a {level} bot plays your seat from now on.", level=level
            )
    else:
        text = _(
            "Seat {seat}'s time ran out: a {level} bot played the turn.",
            seat=d["seat"],
            level=level,
        )
        if d.get("handed"):
            text += " " + _(
                "Two turns in a row: a {level} bot plays the seat from now on.", level=level
            )
    return text


#: what the sockets of a table the host cancelled hear
CANCELLED = Refusal(N_("the host cancelled this table before it started"))


def bot_reason(seat: int, level: str) -> Refusal:
    return Refusal(
        N_("a {level} bot now plays seat {seat}: you are watching"), level=level, seat=seat
    )


def left_reason(seat: int) -> Refusal:
    return Refusal(N_("you left seat {seat}: it is free again, and you are watching"), seat=seat)


def removed_reason(seat: int) -> Refusal:
    return Refusal(
        N_("the host removed you from seat {seat}: you are watching (join again with the link)"),
        seat=seat,
    )
