"""Every message the server speaks, in one place: browser -> server, server -> browser, and
process -> process over the bus.

Pure: it imports nothing of the server, so every layer may use it. The types are `TypedDict`s,
which are plain dicts at run time, so a message built here is encoded to exactly the bytes it
always was (key order is the order written below). A message a peer sends is still checked
where it arrives (a browser's by `http/sockets.py`, another process's by `tables/sync.py`):
these types say what a well-formed one holds, not that one is well formed.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict

# --- browser -> server (one JSON object per WebSocket text message) --------------------------


class Hello(TypedDict):
    """The first message on a socket: the seat's token (None to watch), a spectator's name,
    and on a reconnect `at`, the record index of the last update the page got as that same
    token: the first update then carries only the events after it (`full` false)."""

    type: Literal["hello"]
    token: NotRequired[str | None]
    name: NotRequired[str | None]
    at: NotRequired[int | None]


class Act(TypedDict):
    """Play `action` at the table; `at` is the record index the page last saw."""

    type: Literal["act"]
    id: NotRequired[int | str]
    action: dict[str, Any]
    at: NotRequired[int | None]


class BotRequest(TypedDict):
    """Hand a seat (one's own unless the host names another) to a bot of `level`."""

    type: Literal["bot"]
    id: NotRequired[int | str]
    seat: NotRequired[int]
    level: NotRequired[str | None]


class Say(TypedDict):
    """A chat line: typed `text`, or the key of a quick message (`emote`)."""

    type: Literal["chat"]
    id: NotRequired[int | str]
    text: NotRequired[str]
    emote: NotRequired[str]


class Ping(TypedDict):
    type: Literal["ping"]
    id: NotRequired[int | str]


#: the message types a browser may send after its hello
CLIENT_TYPES = ("act", "bot", "chat", "ping")

# --- server -> browser --------------------------------------------------------------------


class Update(TypedDict):
    """One seat's (or the spectators') view after a change, with the events it may see."""

    type: Literal["update"]
    at: int
    full: bool
    table: dict[str, Any]
    view: Any
    controls: Any
    extras: Any
    events: list[dict[str, Any]]


class TableChanged(TypedDict):
    """The table's seats, clock or status changed, and no move came with it."""

    type: Literal["table"]
    table: dict[str, Any]


class SeatLost(TypedDict):
    """This socket no longer holds its seat (a bot took it, the host removed it, it ran out)."""

    type: Literal["seat"]
    seat: None
    reason: str
    reclaim: bool
    removed: bool
    #: what the `reason` (told in the connection's language) means: its key and values
    key: NotRequired[str]
    args: NotRequired[dict[str, Any]]


class ChatLine(TypedDict):
    type: Literal["chat"]
    seat: int | None
    name: str
    #: an emote's words are in the reader's language
    text: str
    at: float
    #: a quick message's key (its `text` is said in each reader's language)
    emote: NotRequired[str]


class ChatHistory(TypedDict):
    type: Literal["chat_history"]
    messages: list[ChatLine]
    length: int


class Ok(TypedDict):
    """The message `id` was done."""

    type: Literal["ok"]
    id: int | str | None


class Pong(TypedDict):
    type: Literal["pong"]
    id: int | str | None


class Error(TypedDict):
    """A refusal: `fatal` ones end the socket (the page stops reconnecting to it)."""

    type: Literal["error"]
    id: NotRequired[int | str | None]
    status: int
    reason: str
    fatal: NotRequired[bool]
    #: a refusal of the rules: its meaning (the English template) and its values, beside the
    #: `reason` told in the connection's language
    key: NotRequired[str]
    args: NotRequired[dict[str, Any]]


ServerMessage = Update | TableChanged | SeatLost | ChatLine | ChatHistory | Ok | Pong | Error


def error(status: int, reason: str, *, fatal: bool | None = None) -> Error:
    """An error as a socket gets it (without `fatal` when None: the page may retry)."""
    message = Error(type="error", status=status, reason=reason)
    if fatal is not None:
        message["fatal"] = fatal
    return message


def answered_error(
    ref: int | str | None,
    status: int,
    reason: str,
    key: str | None = None,
    args: dict[str, Any] | None = None,
) -> Error:
    """The refusal of one message the socket sent (`ref` is that message's id)."""
    message = Error(type="error", id=ref, status=status, reason=reason)
    if key is not None:
        message["key"] = key
        message["args"] = args or {}
    return message


# --- process -> process (the bus) -----------------------------------------------------------


class NoticeKind(StrEnum):
    """What changed at a table, as one process tells the others."""

    #: moves were stored (carrying `Moves` when the entries follow on, else nothing)
    MOVES = "moves"
    #: a seat was taken in a waiting table (carrying `Joined`)
    JOINED = "joined"
    #: seats changed otherwise (a bot took one, one was removed or freed, a new game)
    SEATS = "seats"
    #: a seat's first connection opened or last closed (carrying `PresenceCarried`)
    PRESENCE = "presence"
    #: new chat lines were stored
    CHAT = "chat"
    #: the host cancelled the waiting table: it is gone
    CANCELLED = "cancelled"
    #: notices may have been left out: sent by a process that kept the table quiet, once
    #: another listens (carrying `LeftOut`), or said by the bus itself for every table ("*")
    #: after it lost its connection
    RESYNC = "resync"


#: the table id of a notice about every table (a resync)
EVERY_TABLE = "*"


class RelayedEvent(TypedDict):
    """One event of a relayed change as its seat may see it (its words are each reader's)."""

    at: int
    kind: str
    data: dict[str, Any]


class SeatView(TypedDict):
    """What one seat (or the spectators) is shown of a change, in no language: an `Update`
    without its table meta and without the events' words; its view, controls and extras as
    the JSON text the owner made, which a relay passes on unread."""

    view: str
    controls: str
    extras: str
    events: list[RelayedEvent]


class Moves(TypedDict):
    """The record entries one commit stored, from index `start`, and the table after them.

    When another process listens to the table, the owner also sends what each seat is shown
    (`views`: seat 0, 1, ..., then the spectators) and the table after the change, so that
    process relays it to its sockets without applying the rules."""

    start: int
    entries: list[Any]
    version: int
    deadline: float | None
    mover: int | None
    timeouts: int
    views: NotRequired[list[SeatView | None]]
    status: NotRequired[str]
    to_move: NotRequired[int | None]
    winners: NotRequired[list[int]]


class PresenceCarried(TypedDict):
    seat: int
    online: bool
    since: float | None


class Joined(TypedDict):
    """The seat a join gave away, so a process at the version before need not read it."""

    version: int
    seat: int
    name: str
    hash: str
    host: bool
    presence: PresenceCarried


class LeftOut(TypedDict):
    """What a RESYNC carries: what its sender left out while nobody else heard the table, so
    that the new listener reads the database only if it lacks some of it. Its changes go up
    to table version `version` (-1: none), and `chat` says whether chat lines were among
    them. A RESYNC that carries nothing may have left out anything."""

    version: int
    chat: bool


#: what a notice may carry
Carried = Moves | Joined | PresenceCarried | LeftOut | dict[str, Any]


class Envelope(TypedDict):
    """One bus message: the sending process and its notices, in order, as
    [table id, kind, carried or None] each (an older process sent one notice as t, k, d)."""

    p: str
    n: list[tuple[str, str, Carried | None]]


def left_out(known: LeftOut | None, kind: str, carried: Carried | None) -> LeftOut | None:
    """`known` with one more notice left out; None once one of them said no version."""
    if known is None:
        return None
    if kind == NoticeKind.CHAT:
        return known if known["chat"] else LeftOut(version=known["version"], chat=True)
    if kind == NoticeKind.PRESENCE:  # presence is looked up again by the watch, not resynced
        return known
    version = carried.get("version") if isinstance(carried, dict) else None
    if type(version) is not int:
        return None
    if version <= known["version"]:
        return known
    return LeftOut(version=version, chat=known["chat"])


def read_left_out(carried: object) -> LeftOut | None:
    """A RESYNC's `LeftOut`, or None when it carries none (or a malformed one)."""
    if not isinstance(carried, dict):
        return None
    version, chat = carried.get("version"), carried.get("chat")
    if type(version) is not int or type(chat) is not bool:
        return None
    return LeftOut(version=version, chat=chat)


#: a quiet table that has left out nothing yet
NOTHING_LEFT_OUT = LeftOut(version=-1, chat=False)


class Listening(TypedDict):
    """On the channel every process hears: process `p` now hears these tables' channels. A
    process that stopped publishing a table's notices because nobody else heard them starts
    again, and says RESYNC on the table's channel for what it left out meanwhile."""

    p: str
    listening: list[str]


# --- process -> owner, and back: acts forwarded to the table's owner ------------------------


class ActAsked(TypedDict):
    """A seat's act that reached a process which does not own the table, sent to the owner on
    its own channel; `id` pairs the answer with the question, `at` is as the socket sent it."""

    id: str
    table: str
    seat: int
    action: dict[str, Any]
    at: int | None


class SeatChange(StrEnum):
    """A change of seats in a game under way, which its owner makes like a move."""

    #: a seat handed to a bot (by its own player, or by another after the away limit)
    HAND_TO_BOT = "bot"
    #: a seat the turn clock gave to a bot taken back with its old token
    RECLAIM = "reclaim"


class SeatChangeAsked(TypedDict):
    """A seat change of a game under way that reached a process which does not own the table,
    sent to the owner as an act is. A token travels only as its hash (`hash`, for a reclaim):
    a seat's secret never crosses the bus."""

    id: str
    table: str
    change: SeatChange
    by: int | None
    seat: int | None
    level: str | None
    hash: str | None


#: what one process asks a table's owner
Question = ActAsked | SeatChangeAsked


class ActAnswered(TypedDict):
    """The owner's answer to `ActAsked` (or `SeatChangeAsked`) `id`: done (`status` 200, the
    table's record length `at` after it; `seat`, the seat a reclaim gave back), or refused
    (`status`, `reason`, and a rules' refusal's `key` and `args`). `moved`: the owner holds no
    socket of the table and let it go, for the asker to take."""

    id: str
    status: int
    at: int
    reason: str
    key: NotRequired[str]
    args: NotRequired[dict[str, Any]]
    moved: bool
    seat: NotRequired[int]


class Asked(TypedDict):
    """A bus message to one process: the asking process `p` and its question."""

    p: str
    q: Question


class Answered(TypedDict):
    """A bus message to the asking process: the owner `p` and its answer."""

    p: str
    a: ActAnswered
