"""Live tables: seats, the game state, who is connected, and the bots that play on the server.

Every change goes through `Hub.act` (or the start of a game): under the table's lock the move is
tried on a copy of the state, the chance outcomes that follow are drawn, the new record entries
are written to storage, and only then is the copy made current and every connection told. A
move that loses a race, breaks a rule or fails to store changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import random
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio

from campfire.bots import make_bot
from campfire.kernel import (
    Bot,
    Event,
    Game,
    IllegalAction,
    OptionError,
    RandomBot,
    Record,
    RecordError,
    State,
    get_game,
)
from campfire.server.storage import (
    FINISHED,
    PLAYING,
    WAITING,
    Conflict,
    SeatRow,
    Storage,
    TableRow,
)
from campfire.server.webgame import WebGame, web_game

log = logging.getLogger("campfire.server")

HUMAN = "human"
BOT = "bot"
#: messages waiting for one slow connection before it is dropped
QUEUE_LIMIT = 512
#: connections (players and spectators) one table accepts
CONNECTION_LIMIT = 64
#: finished tables kept in memory with nobody watching (the rest reload from storage on demand)
FINISHED_KEPT = 200
#: seconds a player must have been away (no open connection) before others may give their seat
#: to a bot; a player may always give their own seat
AWAY_SECONDS = 60.0
#: the level of a bot that takes over a seat when the request names none
TAKEOVER_LEVEL = "medium"


class Refused(Exception):
    """A request the table turns down: an HTTP status and a reason a person can act on."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id() -> str:
    """12 characters from 32: unguessable enough that the invite link is the key."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


@dataclass
class Seat:
    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bot: Bot | None = None

    @property
    def taken(self) -> bool:
        return self.kind == BOT or self.token_hash is not None


class Connection:
    """One WebSocket: its seat (None for a spectator) and the messages waiting to be sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.dropped = False

    def push(self, message: dict[str, Any] | None) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)


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
    #: every event so far, with the record length after the move that caused it
    events: list[tuple[int, Event]] = field(default_factory=list)
    at: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    #: event kinds of the last change (bots pause longer after a reveal)
    last_kinds: set[str] = field(default_factory=set)
    #: seat -> when (time.monotonic) its player's last connection closed, or they sat down
    away_since: dict[int, float] = field(default_factory=dict)
    #: seconds away before other players may give a seat to a bot
    away_limit: float = AWAY_SECONDS
    #: token hash -> the seat it held before a bot took over (this run only: a clearer refusal)
    retired: dict[str, int] = field(default_factory=dict)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        wanted = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return seat.seat
        return None

    def retired_seat(self, token: str) -> int | None:
        """The seat a token held before it was given to a bot, if this server remembers it."""
        return self.retired.get(token_hash(token))

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if not s.taken]

    def away_for(self, seat: int) -> float | None:
        """Seconds the seat's player has had no open connection; None while connected."""
        since = self.away_since.get(seat)
        return None if since is None else max(0.0, time.monotonic() - since)

    def seat_connected(self, seat: int) -> None:
        self.away_since.pop(seat, None)

    def seat_disconnected(self, seat: int) -> None:
        place = self.seats[seat]
        seated = place.kind == HUMAN and place.token_hash is not None
        if seated and not any(c.seat == seat for c in self.connections):
            self.away_since[seat] = time.monotonic()

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
            "seats": [self._seat_meta(s, online.get(s.seat, 0) > 0) for s in self.seats],
            "away_limit": self.away_limit,
            "spectators": online.get(None, 0),
            "next": self.next_id,
            "created": self.created,
            "has_page": self.web.has_page,
        }

    def _seat_meta(self, s: Seat, online: bool) -> dict[str, Any]:
        away = self.away_for(s.seat)
        return {
            "seat": s.seat,
            "kind": s.kind,
            "level": s.level,
            "name": s.name,
            "taken": s.taken,
            "online": s.kind == BOT or online,
            # a seated person with no open connection, and for how many seconds (the page
            # offers "Let a bot play" once it reaches the table's away_limit)
            "away": away is not None,
            "away_for": None if away is None else math.floor(away * 10) / 10,
        }

    def update_for(
        self, seat: int | None, events: Iterable[tuple[int, Event]], full: bool
    ) -> dict[str, Any]:
        """The message one connection gets: its own view, the events it may see, its controls."""
        state = self.state
        view = state.view(seat)
        controls = None
        if self.status == PLAYING and seat is not None and state.to_move == seat:
            controls = self.web.controls(view, state.legal_actions())
        return {
            "type": "update",
            "at": self.at,
            "full": full,
            "table": self.meta(),
            "view": view.to_json(),
            "controls": controls,
            "extras": self.web.extras(view),
            "events": [
                {"at": at, "kind": e.kind, "data": e.to_json(), "text": self.game.describe(e, seat)}
                for at, e in events
                if e.visible_to(seat)
            ],
        }

    def broadcast(self, events: list[tuple[int, Event]]) -> None:
        by_seat: dict[int | None, dict[str, Any]] = {}
        for conn in list(self.connections):
            message = by_seat.get(conn.seat)
            if message is None:
                message = by_seat[conn.seat] = self.update_for(conn.seat, events, full=False)
            conn.push(message)

    def broadcast_meta(self) -> None:
        message = {"type": "table", "table": self.meta()}
        for conn in list(self.connections):
            conn.push(message)


@dataclass
class TableSpec:
    game: str
    players: int | None
    options: dict[str, Any]
    bots: dict[int, str]


class Hub:
    """Every live table of one server, loaded from storage on demand."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_pause: float = 1.0,
        seed: int | None = None,
        away_seconds: float = AWAY_SECONDS,
    ) -> None:
        self.storage = storage
        self.bot_pause = bot_pause
        self.away_seconds = away_seconds
        self.seed = seed
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._closing = False

    # --- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Bring back every table that was waiting or being played, and wake its bots."""
        ids = await anyio.to_thread.run_sync(self.storage.ids, [WAITING, PLAYING])
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except Refused as refused:
                log.error("table %s cannot be restored: %s", table_id, refused.reason)
                continue
            self.kick(table)

    async def stop(self) -> None:
        self._closing = True
        drivers = [t.driver for t in self.tables.values() if t.driver is not None]
        for task in drivers:
            task.cancel()
        for task in drivers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            for conn in table.connections:
                conn.push(None)

    # --- tables ----------------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            found = await anyio.to_thread.run_sync(self.storage.load, table_id)
            if found is None:
                raise Refused(404, f"there is no table {table_id!r}")
            table = self._restore(*found)
            self.tables[table_id] = table
            return table

    def _restore(self, row: TableRow, entries: list[dict[str, Any]]) -> LiveTable:
        try:
            game = get_game(row.game)
        except KeyError as error:
            raise Refused(
                409, f"this table plays a game this server does not know: {error}"
            ) from None
        record = Record(row.game, row.players, row.options, entries)
        try:
            steps = record.steps()
            state = record.replay()
        except RecordError as error:
            raise Refused(409, f"this table's record no longer replays: {error}") from None
        table = LiveTable(
            id=row.id,
            game=game,
            web=web_game(game),
            players=row.players,
            options=row.options,
            seats=[Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in row.seats],
            state=state,
            status=row.status,
            created=row.created,
            updated=row.updated,
            next_id=row.next_id,
            at=len(entries),
            away_limit=self.away_seconds,
        )
        # nobody is connected yet: every seated person counts as away from now
        now = time.monotonic()
        table.away_since = {s.seat: now for s in table.seats if s.kind == HUMAN and s.taken}
        table.events = [(i + 1, e) for i, (_, events) in enumerate(steps) for e in events]
        self._seat_bots(table)
        return table

    def _seat_bots(self, table: LiveTable) -> None:
        for seat in table.seats:
            if seat.kind == BOT and seat.bot is None:
                assert seat.level is not None
                seat.bot = make_bot(table.game, seat.level, self._seed(table.id, seat.seat))

    def _seed(self, table_id: str, salt: int) -> int:
        if self.seed is None:
            return secrets.randbits(32)
        return random.Random(f"{self.seed}/{table_id}/{salt}").randrange(2**32)

    def _chance_rng(self, table: LiveTable) -> random.Random:
        """Seeded servers (tests) deal the same way every time, even across a restart."""
        if self.seed is None:
            return random.SystemRandom()
        return random.Random(f"{self.seed}/{table.id}/chance/{table.at}")

    async def create(self, spec: TableSpec) -> LiveTable:
        try:
            game = get_game(spec.game)
        except KeyError as error:
            raise Refused(422, str(error.args[0])) from None
        try:
            state = game.new_state(spec.players, spec.options)
        except OptionError as error:
            raise Refused(422, str(error)) from None
        players = state.players
        options = Record.of(state).options
        levels = game.bot_levels()
        seats = []
        for s in range(players):
            level = spec.bots.get(s)
            if level is None:
                seats.append(Seat(s, HUMAN))
            elif level not in levels:
                raise Refused(
                    422,
                    f"unknown bot level {level!r} for {game.title} (levels: {', '.join(levels)})",
                )
            else:
                seats.append(Seat(s, BOT, level, f"Bot {s}"))
        for s in spec.bots:
            if not 0 <= s < players:
                raise Refused(422, f"there is no seat {s} for a bot with {players} players")
        now = time.time()
        table = LiveTable(
            id=new_id(),
            game=game,
            web=web_game(game),
            players=players,
            options=options,
            seats=seats,
            state=state,
            status=WAITING,
            created=now,
            updated=now,
            away_limit=self.away_seconds,
        )
        row = TableRow(
            table.id,
            game.name,
            players,
            options,
            WAITING,
            0,
            [],
            now,
            now,
            None,
            [SeatRow(s.seat, s.kind, s.level, s.name, None) for s in seats],
        )
        await anyio.to_thread.run_sync(self.storage.create, row)
        self._seat_bots(table)
        self.tables[table.id] = table
        if not table.free_seats():
            async with table.lock:
                await self._begin(table)
        return table

    async def join(self, table: LiveTable, name: str, seat: int | None) -> tuple[int, str]:
        """Seat `name` (at `seat`, or the first free seat) and hand back the secret token."""
        async with table.lock:
            free = table.free_seats()
            if not free:
                raise Refused(409, "every seat at this table is taken: you can watch")
            if seat is None:
                seat = free[0]
            elif not 0 <= seat < table.players:
                raise Refused(422, f"there is no seat {seat} at a {table.players}-player table")
            elif seat not in free:
                who = table.seats[seat]
                taken = "a bot" if who.kind == BOT else who.name
                raise Refused(409, f"seat {seat} is taken by {taken}: free seats are {free}")
            if any(s.name == name for s in table.seats):
                raise Refused(409, f"someone at this table is already called {name!r}")
            token = secrets.token_urlsafe(24)
            hashed = token_hash(token)
            try:
                await anyio.to_thread.run_sync(
                    self.storage.claim_seat, table.id, seat, name, hashed
                )
            except Conflict as error:
                raise Refused(409, str(error)) from None
            place = table.seats[seat]
            place.name, place.token_hash = name, hashed
            # away until their page connects
            table.away_since[seat] = time.monotonic()
            if table.free_seats():
                table.broadcast_meta()
            else:
                await self._begin(table)
        return seat, token

    async def _begin(self, table: LiveTable) -> None:
        """Every seat is filled: deal (the opening chance outcomes) and tell everyone."""
        await self._commit(table, table.state.clone(), [], PLAYING)

    async def act(
        self, table: LiveTable, seat: int, action: Mapping[str, Any], at: int | None
    ) -> None:
        """Apply `seat`'s action if the table is still at `at` (when given) and it is legal."""
        async with table.lock:
            if table.status == WAITING:
                free = len(table.free_seats())
                raise Refused(
                    409, f"the game has not started: {free} seat{'s' * (free != 1)} still free"
                )
            if table.status == FINISHED:
                raise Refused(409, "the game is over")
            if at is not None and at != table.at:
                raise Refused(
                    409,
                    f"the table has moved on since you looked (your move {at}, now {table.at}): "
                    "nothing was applied",
                )
            try:
                move = table.game.action_from_json(action)
            except ValueError as error:
                raise Refused(422, str(error)) from None
            state = table.state.clone()
            try:
                events = state.apply(move, seat=seat)
            except IllegalAction as error:
                raise Refused(409, str(error)) from None
            await self._commit(table, state, events, PLAYING)

    async def hand_to_bot(
        self, table: LiveTable, by: int, seat: int, level: str | None = None
    ) -> None:
        """A bot of `level` plays `seat` from now on, for good.

        `by` gives their own seat whenever they like; another player may give a seat whose player
        has been away for the table's away limit, so a table never stalls on someone who left.
        The old seat token stops acting for the seat: its open connections become spectators'.
        """
        level = TAKEOVER_LEVEL if level is None else level
        levels = table.game.bot_levels()
        if level not in levels:
            raise Refused(
                422,
                f"unknown bot level {level!r} for {table.game.title} (levels: {', '.join(levels)})",
            )
        async with table.lock:
            if not 0 <= seat < table.players:
                raise Refused(404, f"there is no seat {seat} at a {table.players}-player table")
            if table.status == FINISHED:
                raise Refused(409, "the game is over: there is no seat left to play")
            place = table.seats[seat]
            if place.kind == BOT:
                raise Refused(409, f"seat {seat} is already played by a bot ({place.level})")
            if place.token_hash is None:
                raise Refused(409, f"seat {seat} is free: nobody sits there to hand it over")
            if seat != by:
                who = place.name or f"seat {seat}"
                away = table.away_for(seat)
                if away is None:
                    raise Refused(
                        409, f"{who} is connected: only {who} can give their seat to a bot now"
                    )
                if away < table.away_limit:
                    wait = table.away_limit - away
                    raise Refused(
                        409,
                        f"{who} has been away for {away:.0f} s: their seat can be given to a bot "
                        f"after {table.away_limit:g} s away, in {max(wait, 0.1):.1f} s",
                    )
            old = place.token_hash
            try:
                await anyio.to_thread.run_sync(self.storage.hand_to_bot, table.id, seat, level, old)
            except Conflict as error:
                raise Refused(409, str(error)) from None
            place.kind, place.level, place.token_hash = BOT, level, None
            place.bot = make_bot(table.game, level, self._seed(table.id, seat))
            table.retired[old] = seat
            table.away_since.pop(seat, None)
            table.updated = time.time()
            notice = {
                "type": "seat",
                "seat": None,
                "reason": f"a {level} bot now plays seat {seat}: you are watching",
            }
            for conn in list(table.connections):
                if conn.seat == seat:
                    conn.seat = None
                    conn.push(notice)
                    conn.push(table.update_for(None, table.events, full=True))
            table.broadcast_meta()
            self.kick(table)

    async def _commit(
        self, table: LiveTable, state: State[Any, Any], events: list[Event], status: str
    ) -> None:
        """Draw the chance outcomes that follow, store the new entries, then make it current."""
        rng = self._chance_rng(table)
        # each event is stamped with the record length after the entry that caused it
        stamped = [(len(state.history), e) for e in events]
        while not state.is_terminal and state.to_move is None:
            more = state.apply(state.sample_chance(rng))
            stamped.extend((len(state.history), e) for e in more)
        if state.is_terminal:
            status = FINISHED
        entries = Record.of(state).moves[table.at :]
        try:
            await anyio.to_thread.run_sync(
                self.storage.append, table.id, table.at, entries, status, state.winners()
            )
        except Conflict as error:
            raise Refused(
                409, f"the move could not be stored ({error}): nothing was applied"
            ) from None
        table.state = state
        table.at += len(entries)
        table.status = status
        table.updated = time.time()
        table.events.extend(stamped)
        table.last_kinds = {e.kind for _, e in stamped}
        table.broadcast(stamped)
        self.kick(table)
        if status == FINISHED:
            self._forget_idle()

    async def again(self, table: LiveTable, seat: int) -> tuple[LiveTable, int, str]:
        """The next game at the same table: same game, options and bots; the asker sits down."""
        if table.status != FINISHED:
            raise Refused(409, "the game is not over yet")
        name = table.seats[seat].name or f"Player {seat}"
        async with table.lock:
            if table.next_id is None:
                bots = {s.seat: s.level for s in table.seats if s.kind == BOT and s.level}
                spec = TableSpec(table.game.name, table.players, table.options, bots)
                nxt = await self.create(spec)
                await anyio.to_thread.run_sync(self.storage.set_next, table.id, nxt.id)
                table.next_id = nxt.id
                table.broadcast_meta()
        nxt = await self.get(table.next_id)
        mine = next((s.seat for s in nxt.seats if s.name == name and s.token_hash), None)
        if mine is not None:
            raise Refused(409, f"{name} already sits at the next table")
        free = nxt.free_seats()
        new_seat, token = await self.join(nxt, name, seat if seat in free else None)
        return nxt, new_seat, token

    # --- connections -----------------------------------------------------------------------
    def connect(self, table: LiveTable, seat: int | None) -> Connection:
        if len(table.connections) >= CONNECTION_LIMIT:
            raise Refused(429, f"this table already has {CONNECTION_LIMIT} connections")
        conn = Connection(seat)
        table.connections.add(conn)
        if seat is not None:
            table.seat_connected(seat)
        conn.push(table.update_for(seat, table.events, full=True))
        table.broadcast_meta()
        return conn

    def disconnect(self, table: LiveTable, conn: Connection) -> None:
        table.connections.discard(conn)
        if conn.seat is not None:
            table.seat_disconnected(conn.seat)
        if not self._closing:
            table.broadcast_meta()
            self._forget_idle()

    def _forget_idle(self) -> None:
        """Keep memory bounded: drop the oldest finished tables nobody is looking at."""
        idle = [
            t
            for t in self.tables.values()
            if t.status == FINISHED and not t.connections and not t.lock.locked()
        ]
        if len(idle) <= FINISHED_KEPT:
            return
        idle.sort(key=lambda t: t.updated)
        for table in idle[: len(idle) - FINISHED_KEPT]:
            del self.tables[table.id]

    # --- bots ------------------------------------------------------------------------------
    def kick(self, table: LiveTable) -> None:
        """Make sure a bot whose turn it is gets to play."""
        if self._closing or table.status != PLAYING:
            return
        seat = table.state.to_move
        if seat is None or table.seats[seat].kind != BOT:
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: LiveTable) -> None:
        while table.status == PLAYING and not self._closing:
            seat = table.state.to_move
            if seat is None or table.seats[seat].kind != BOT:
                return
            pause = self.bot_pause * table.web.pause_factor(table.last_kinds)
            await asyncio.sleep(pause)
            at = table.at
            if table.state.to_move != seat:
                continue
            view = table.state.view(seat)
            legal = table.state.legal_actions()
            bot = table.seats[seat].bot
            assert bot is not None
            try:
                action = await anyio.to_thread.run_sync(bot.choose, view, legal)
            except Exception:
                log.exception("the %s bot at table %s failed; it plays at random", seat, table.id)
                action = RandomBot(self._seed(table.id, at)).choose(view, legal)
            try:
                await self.act(table, seat, table.game.action_to_json(action), at)
            except Refused as refused:
                if table.at == at:
                    log.error("bot %s at table %s is stuck: %s", seat, table.id, refused.reason)
                    return
