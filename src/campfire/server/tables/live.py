"""A table in a server process's memory: seats, the game state, its events and connections.

A live table is a cache of the database: `Hub` changes it only after the database took the
change, and catches it up from the database when another process changed the table first.

At a process that does not own the table (a relay: it holds sockets of a table another process
owns), the owner's moves arrive with what each seat is shown of them; the relay passes that on
and keeps the entries aside, unapplied (`relayed`). The rules run here only when something
reads the state (a socket's first look, a record, this process taking the table over), once
for all the entries kept aside.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from campfire.i18n import N_, translator
from campfire.kernel import Bot, Event, Game, IllegalAction, State
from campfire.kernel.errors import Refusal
from campfire.kernel.records import apply_entry
from campfire.server.cluster.bus import Presence
from campfire.server.metrics import count_moves
from campfire.server.names import name_key
from campfire.server.protocol import (
    ChatHistory,
    ChatLine,
    RelayedEvent,
    SeatView,
    TableChanged,
    Update,
)
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

log = logging.getLogger("campfire.server")


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


class SeatPart(NamedTuple):
    """One seat's (or the spectators') part of a change in no language: its view, its
    controls when it is to move, the page's extras, and the events it may see. Read back from
    another process, the first three stay the JSON text the owner made (`orjson.Fragment`): a
    relay passes them on without reading them."""

    view: Any
    controls: Any
    extras: Any
    events: list[tuple[int, Event]]

    def to_json(self) -> SeatView:
        return SeatView(
            view=_text(self.view),
            controls=_text(self.controls),
            extras=_text(self.extras),
            events=[RelayedEvent(at=at, kind=e.kind, data=dict(e.data)) for at, e in self.events],
        )

    @classmethod
    def from_json(cls, raw: Any) -> SeatPart:
        """A seat's part as another process sent it; ValueError when it is not one."""
        try:
            shown = [raw[key] for key in ("view", "controls", "extras")]
            if not all(isinstance(text, str) for text in shown):
                raise TypeError("view, controls and extras must be JSON text")
            events = [(int(e["at"]), Event(str(e["kind"]), dict(e["data"]))) for e in raw["events"]]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a seat's view: {error}") from None
        view, controls, extras = (orjson.Fragment(text) for text in shown)
        return cls(view, controls, extras, events)


def _text(value: Any) -> str:
    return orjson.dumps(value).decode()


@dataclass
class LiveTable:
    id: str
    game: Game[Any]
    web: WebGame
    players: int
    options: dict[str, Any]
    seats: list[Seat]
    #: the state after the last entry applied here (`state`: after every entry, `at`)
    settled: State[Any, Any]
    status: str
    created: float
    updated: float
    next_id: str | None = None
    #: the database row's version this copy reflects
    version: int = 0
    #: every event applied here so far, with the record length after the move that caused it
    told: list[tuple[int, Event]] = field(default_factory=list)
    #: the record's length, entries kept aside included
    at: int = 0
    #: entries the owner (another process) stored after `settled`, kept aside unapplied
    relayed: list[dict[str, Any]] = field(default_factory=list)
    #: the seat to move and the winners after them, as the owner told
    relayed_to_move: int | None = None
    relayed_winners: list[int] = field(default_factory=list)
    #: an entry kept aside did not apply here: this copy is no longer the database's
    diverged: bool = False
    #: who waits for the record to reach a length (`reached`), and that length
    waiting: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)
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
    #: the record length and each seat's part of the last change told (see `views`)
    _parts: tuple[int, dict[int | None, SeatPart]] = (-1, {})

    @property
    def state(self) -> State[Any, Any]:
        """The game as of every stored entry this copy knows (entries kept aside applied now)."""
        if self.relayed:
            self.settle()
        return self.settled

    @state.setter
    def state(self, state: State[Any, Any]) -> None:
        """A state that holds every entry so far (any kept aside among them)."""
        self.settled = state
        self.relayed = []

    @property
    def events(self) -> list[tuple[int, Event]]:
        """Every event so far, with the record length after the move that caused it."""
        if self.relayed:
            self.settle()
        return self.told

    @events.setter
    def events(self, events: list[tuple[int, Event]]) -> None:
        self.told = events

    @property
    def to_move(self) -> int | None:
        """The seat to move (read without applying entries kept aside)."""
        return self.relayed_to_move if self.relayed else self.settled.to_move

    def winners(self) -> list[int]:
        return self.relayed_winners if self.relayed else list(self.settled.winners())

    async def reached(self, at: int, timeout: float) -> bool:
        """Wait until this copy's record is `at` long (a notice on its way); whether it is."""
        if self.at >= at:
            return True
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((at, done))
        try:
            await asyncio.wait_for(asyncio.shield(done), timeout)
        except TimeoutError:
            pass
        finally:
            self.waiting = [(n, f) for n, f in self.waiting if f is not done]
        return self.at >= at

    def moved_on(self) -> None:
        """The record grew: whoever waited for this length is woken."""
        for at, done in self.waiting:
            if at <= self.at and not done.done():
                done.set_result(None)

    def settle(self) -> None:
        """Apply the entries kept aside through the rules, now that something reads the game.
        One that does not apply (never expected: the owner applied it) leaves the game at the
        last entry that did, and the copy `diverged`: the next look reloads it."""
        entries, self.relayed = self.relayed, []
        state = self.settled.clone()
        applied = 0
        for raw in entries:
            try:
                events = apply_entry(state, raw)
            except (ValueError, IllegalAction) as error:
                log.error("table %s: relayed entry %s does not apply: %s", self.id, raw, error)
                self.diverged = True
                break
            applied += 1
            self.told.extend((len(state.history), e) for e in events)
        count_moves(entries[:applied])
        self.settled = state

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
        seat = self.to_move if self.status == PLAYING else None
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
            "to_move": self.to_move if self.status == PLAYING else None,
            "winners": self.winners() if self.status == FINISHED else [],
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

    def part_for(self, seat: int | None, events: Iterable[tuple[int, Event]]) -> SeatPart:
        """What `seat` is shown of the game and of `events`, in no language yet."""
        state = self.state
        view = state.view(seat)
        controls = None
        if self.status == PLAYING and seat is not None and state.to_move == seat:
            controls = self.web.controls(view, state.legal_actions())
        return SeatPart(
            view.to_json(),
            controls,
            self.web.extras(view),
            [(at, e) for at, e in events if e.visible_to(seat)],
        )

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
        part = self.part_for(seat, events)
        return self.update_of(part, seat if voice is None else voice, full, meta, lang)

    def update_of(
        self,
        part: SeatPart,
        voice: int | None,
        full: bool = False,
        meta: dict[str, Any] | None = None,
        lang: str = "en",
    ) -> Update:
        """A seat's part of a change told in `lang`, in `voice`'s words."""
        describe = self.describe
        return Update(
            type="update",
            at=self.at,
            full=full,
            table=self.meta() if meta is None else meta,
            view=part.view,
            controls=part.controls,
            extras=part.extras,
            events=[
                {"at": at, "kind": e.kind, "data": e.to_json(), "text": describe(e, voice, lang)}
                for at, e in part.events
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
        """Every connection gets its seat's update in its language; each seat's part is
        worked out once, and each (seat, language)'s message encoded once. The parts are
        kept for the owner's notice to the other processes (`views`)."""
        parts: dict[int | None, SeatPart] = {}
        self._parts = (self.at, parts)
        if not self.connections:
            return
        for conn in self.connections:
            if conn.seat not in parts:
                parts[conn.seat] = self.part_for(conn.seat, events)
        self.tell(parts)

    def tell(self, parts: Mapping[int | None, SeatPart]) -> None:
        """Every connection gets its seat's part of a change, told in its language."""
        meta = self.meta()
        by_seat: dict[tuple[int | None, str], str] = {}
        for conn in list(self.connections):
            message = by_seat.get((conn.seat, conn.lang))
            if message is None:
                part = parts.get(conn.seat)
                if part is None:
                    continue
                message = by_seat[(conn.seat, conn.lang)] = encode(
                    self.update_of(part, conn.seat, meta=meta, lang=conn.lang)
                )
            conn.push(message)

    def views(self, events: list[tuple[int, Event]]) -> list[SeatView | None]:
        """What every seat, then the spectators, is shown of the change just made current, for
        the other processes to relay (each seat's part worked out once, with `broadcast`).
        None for a seat nobody is connected to anywhere (a bot's, an absent player's): a relay
        that has a socket of it after all applies the change itself."""
        at, parts = self._parts
        if at != self.at:
            parts = {}
        out: list[SeatView | None] = []
        for seat in [*range(self.players), None]:
            if seat is not None and not self.watched(seat):
                out.append(None)
                continue
            part = parts.get(seat)
            if part is None:
                part = parts[seat] = self.part_for(seat, events)
            out.append(part.to_json())
        return out

    def watched(self, seat: int) -> bool:
        """Whether the seat's player has a connection here or, as far as the bus said, on
        another process."""
        if self.seats[seat].kind != HUMAN:
            return False
        known = self.presence.get(seat)
        return (known is not None and known.online) or self.local_count(seat) > 0

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
