"""Every live table of one server process, kept in step with the database and the other processes.

Every change goes through the hub: under the table's lock the move is tried on a copy of the
state, the chance outcomes that follow are drawn, the new record entries are written to storage,
and only then is the copy made current, this process's connections told and the other processes
notified. A move that loses a race, breaks a rule or fails to store changes nothing; a process
that finds itself behind (a stale `at`, a lost race, a notice, a version that moved) catches up
from the database by record index, so every connection sees every move, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import anyio
from sqlalchemy.exc import IntegrityError

from campfire.bots import make_bot
from campfire.i18n import N_
from campfire.kernel import (
    Event,
    IllegalAction,
    OptionError,
    PlayerMove,
    Record,
    RecordError,
    State,
    get_game,
)
from campfire.kernel.records import entry_to_json
from campfire.server.cluster.bus import Bus
from campfire.server.names import name_key
from campfire.server.protocol import Joined, Moves, NoticeKind, SeatChange, SeatLost, error
from campfire.server.refusals import Refusal, Refused, ngettext, said, told
from campfire.server.store.results import Results
from campfire.server.store.schema import FINISHED, PLAYING, WAITING
from campfire.server.store.storage import (
    Conflict,
    Deal,
    NameRemoved,
    NameTaken,
    SeatRow,
    Storage,
    TableRow,
)
from campfire.server.store.writer import Writer
from campfire.server.tables.admission import admit
from campfire.server.tables.chat import CHAT_LENGTH, TableChat, chat_message
from campfire.server.tables.clock import CLOCK_STRIKES, TurnClock
from campfire.server.tables.connections import RESTART_CODE, Connection
from campfire.server.tables.driver import BotDriver
from campfire.server.tables.live import (
    AWAY_SECONDS,
    BOT,
    CANCELLED,
    HUMAN,
    TAKEOVER_LEVEL,
    LiveTable,
    Seat,
    bot_reason,
    left_reason,
    removed_reason,
    token_hash,
)
from campfire.server.tables.owner import OWNER_SILENT, Owners
from campfire.server.tables.room import Room
from campfire.server.tables.sync import Sync
from campfire.server.tables.webgame import web_game

log = logging.getLogger("campfire.server")
T = TypeVar("T")

#: finished tables kept in memory with nobody watching (the rest reload from storage on demand)
FINISHED_KEPT = 200
#: hours a table waits for its players before it closes
WAITING_HOURS = 24.0
#: tables one address may have waiting for players at once
WAITING_PER_ADDRESS = 10


#: what a seat's oldest connection hears when one more opened than a seat may hold
SEAT_REPLACED = Refusal(N_("this seat opened in another window: this one is closed"))

ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def new_id(rng: random.Random | None = None) -> str:
    """12 characters from 32: unguessable enough that the invite link is the key."""
    if rng is None:
        return "".join(secrets.choice(ID_ALPHABET) for _ in range(12))
    return "".join(rng.choice(ID_ALPHABET) for _ in range(12))


def removed_name(name: str) -> Refusal:
    return Refusal(
        N_("the host removed {name!r} from this table: it cannot sit here again"), name=name
    )


def address_hash(address: str) -> str:
    """Addresses are kept only as far as counting needs: hashed."""
    return hashlib.sha256(f"campfire-address:{address}".encode()).hexdigest()[:32]


@dataclass
class TableSpec:
    game: str
    players: int | None
    options: dict[str, Any]
    bots: dict[int, str]
    #: shown in the lobby (otherwise the invite link is the only way in)
    listed: bool = False
    #: seconds per turn; None: no clock
    clock: int | None = None
    #: who opens it (counted against the waiting tables one address may have)
    address: str | None = None
    #: the creator sits down at once (their own seat waits for nobody)
    creator_sits: bool = False
    #: ratings move after each game; every person at it is signed in
    rated: bool = False


class Hub:
    """Every live table of one process, loaded from storage on demand."""

    def __init__(
        self,
        storage: Storage,
        bus: Bus | None = None,
        *,
        bot_pause: float = 1.0,
        seed: int | None = None,
        away_seconds: float = AWAY_SECONDS,
        waiting_hours: float = WAITING_HOURS,
        waiting_per_address: int = WAITING_PER_ADDRESS,
        id_salt: str | None = None,
        tick: float = 1.0,
    ) -> None:
        self.storage = storage
        self.bus = bus if bus is not None else Bus()
        self.bot_pause = bot_pause
        self.away_seconds = away_seconds
        self.waiting_seconds = waiting_hours * 3600.0
        self.waiting_per_address = waiting_per_address
        #: seconds between looks for run-out clocks and expired waiting tables
        self.tick = tick
        self.seed = seed
        # a seeded server draws its table ids from a seeded generator (so tests deal the same
        # way every run); the salt keeps two processes with the same seed from drawing the same
        # ids, unless a test fixes it
        salt = id_salt if id_salt is not None else secrets.token_hex(8)
        self._ids = None if seed is None else random.Random(f"{seed}/{salt}/ids")
        self.tables: dict[str, LiveTable] = {}
        #: the one writer of each table in `tables`
        self.rooms: dict[str, Room] = {}
        self.bots = BotDriver(self)
        self.chat = TableChat(self)
        self.clock = TurnClock(self)
        self.sync = Sync(self)
        #: the tables this process owns (applies the moves of), and acts sent to their owners
        self.owners = Owners(self)
        self.writer = Writer(storage)
        self.results = Results(storage.engine)
        self.closing = False
        self._loading = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Bring back every table that was waiting or being played, and wake its bots."""
        self.writer.start()
        self.bus.on_ask, self.bus.on_lost = self.owners.answer, self.owners.lost
        await self.bus.start(self.sync.notice, self.sync.present_pairs)
        ids = await anyio.to_thread.run_sync(
            self.storage.ids, [WAITING, PLAYING], self.waiting_since()
        )
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except Refused as refused:
                log.error("table %s cannot be restored: %s", table_id, refused.reason)
                continue
            await self.unstick(table)
            self.room(table).kick()
        if self.bus.shared:
            self.spawn(self.sync.watch())
        self.spawn(self.clock.sweep())
        # games that ended while no process was left to write their results
        self.spawn(self._settle_left_over())

    def waiting_since(self) -> float:
        """Waiting tables made before this have expired."""
        return time.time() - self.waiting_seconds

    def expired(self, table: LiveTable) -> bool:
        return table.status == WAITING and table.created <= self.waiting_since()

    def _expired_refusal(self) -> Refused:
        return Refused(
            410,
            Refusal(
                N_("this table waited {hours} h for its players and has closed: start a new one"),
                hours=self.waiting_seconds / 3600,
            ),
        )

    async def stop(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bots.stop(list(self.tables.values()))
        for table in self.tables.values():
            for conn in table.connections:
                conn.push(None)
        await self.bus.disown_all()  # the others need not wait for the leases to run out
        await self.bus.stop()
        await anyio.to_thread.run_sync(self.writer.stop)

    async def store(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage call off the event loop; a database that fails (not a lost race,
        which is `Conflict`) is a clear 503 with nothing applied, never a server error."""
        try:
            return await anyio.to_thread.run_sync(call, *args)
        except (Conflict, Refused, IntegrityError):
            raise
        except Exception as error:
            log.error("storage failed in %s: %s", getattr(call, "__name__", call), error)
            raise Refused(
                503, Refusal(N_("the database could not be reached: nothing was changed"))
            ) from None

    def finished(self, table: LiveTable) -> None:
        """The game at `table` just ended, as this process sees it: write its results (the
        ratings of a rated game) off the event loop; written once even when several processes
        see it end (`Results.settle`). Its owner lets it go: nothing is left to apply."""
        self.owners.forget(table.id)
        self.spawn(self._settle(table.id))

    async def _settle(self, table_id: str) -> None:
        try:
            await anyio.to_thread.run_sync(self.results.settle, table_id)
        except Exception as error:
            log.error("table %s: writing its results failed: %s", table_id, error)

    async def _settle_left_over(self) -> None:
        try:
            for table_id in await anyio.to_thread.run_sync(self.results.unsettled):
                await self._settle(table_id)
        except Exception as error:
            log.error("looking for unwritten results failed: %s", error)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- tables ----------------------------------------------------------------------------
    def room(self, table: LiveTable) -> Room:
        """The one writer of `table` (a table loaded again gets a new one)."""
        room = self.rooms.get(table.id)
        if room is None or room.table is not table:
            room = self.rooms[table.id] = Room(table, self.bots.kick, self.finished)
        return room

    async def get(self, table_id: str) -> LiveTable:
        """The live table; 404 when there is none, 410 when it waited too long for players."""
        table = self.tables.get(table_id)
        if table is not None:
            if self.expired(table):
                self._close_expired(table)
                raise self._expired_refusal()
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            found = await anyio.to_thread.run_sync(self.storage.load, table_id)
            if found is None:
                raise Refused(404, Refusal(N_("there is no table {table_id!r}"), table_id=table_id))
            table = self._restore(*found)
            if self.expired(table):
                raise self._expired_refusal()
            rows = await anyio.to_thread.run_sync(self.storage.chat_since, table_id, 0)
            table.chat = [chat_message(r) for r in rows]
            table.chat_next = rows[-1].idx + 1 if rows else 0
            self.tables[table_id] = table
            return table

    def close_expired(self) -> None:
        """Let every waiting table that waited too long for its players go."""
        for table in list(self.tables.values()):
            if self.expired(table):
                self._close_expired(table)

    def _close_expired(self, table: LiveTable) -> None:
        """An expired waiting table leaves memory; whoever watches it is told and let go."""
        self.drop(table, self._expired_refusal().reason)

    def _restore(self, row: TableRow, entries: list[dict[str, Any]]) -> LiveTable:
        try:
            game = get_game(row.game)
        except KeyError as error:
            raise Refused(
                409,
                Refusal(
                    N_("this table plays a game this server does not know: {error}"),
                    error=said(error),
                ),
            ) from None
        record = Record(row.game, row.players, row.options, entries)
        try:
            steps = record.steps()
            state = record.replay()
        except RecordError as error:
            raise Refused(
                409,
                Refusal(
                    N_("this table's record no longer replays: {error}"), error=error.message()
                ),
            ) from None
        table = LiveTable(
            id=row.id,
            game=game,
            web=web_game(game),
            players=row.players,
            options=row.options,
            seats=[Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in row.seats],
            settled=state,
            status=row.status,
            created=row.created,
            updated=row.updated,
            next_id=row.next_id,
            version=row.version,
            at=len(entries),
            away_limit=self.away_seconds,
            listed=row.listed,
            rated=row.rated,
            host_hash=row.host_hash,
            clock=row.clock,
            deadline=row.deadline,
            removed=set(row.removed),
        )
        for s in row.seats:
            table.seats[s.seat].timeouts = s.timeouts
        table.retired = {s.retired_hash: s.seat for s in row.seats if s.retired_hash}
        table.events = [(i + 1, e) for i, (_, events) in enumerate(steps) for e in events]
        self.bots.seat_bots(table)
        return table

    def seed_for(self, table_id: str, salt: int) -> int:
        if self.seed is None:
            return secrets.randbits(32)
        return random.Random(f"{self.seed}/{table_id}/{salt}").randrange(2**32)

    def _chance_rng(self, table_id: str, at: int) -> random.Random:
        """Seeded servers (tests) deal the same way every time, even across a restart."""
        if self.seed is None:
            return random.SystemRandom()
        return random.Random(f"{self.seed}/{table_id}/chance/{at}")

    def _play_chance(
        self,
        table_id: str,
        at: int,
        state: State[Any, Any],
        events: list[Event],
        table: LiveTable | None = None,
    ) -> tuple[list[tuple[int, Event]], list[dict[str, Any]], Deal]:
        """Draw the chance outcomes that follow a move; the new entries and where they lead."""
        rng = self._chance_rng(table_id, at)
        # each event is stamped with the record length after the entry that caused it
        stamped = [(len(state.history), e) for e in events]
        while not state.is_terminal and state.to_move is None:
            more = state.apply(state.sample_chance(rng))
            stamped.extend((len(state.history), e) for e in more)
        game = state.game
        # the server plays in shuffle mode: one history entry is one record entry
        entries = [entry_to_json(game, cast(Any, e)) for e in state.history[at:]]
        status = FINISHED if state.is_terminal else PLAYING
        to_move = None if state.is_terminal else state.to_move
        deadline = None
        if (
            table is not None
            and table.clock is not None
            and to_move is not None
            and table.seats[to_move].kind == HUMAN
        ):
            deadline = time.time() + table.clock
        return stamped, entries, Deal(entries, status, state.winners(), to_move, deadline)

    async def create(self, spec: TableSpec) -> LiveTable:
        try:
            game = get_game(spec.game)
        except KeyError as error:
            raise Refused(422, said(error)) from None
        try:
            state = game.new_state(spec.players, spec.options)
        except OptionError as error:
            raise Refused(422, said(error)) from None
        research: list[str] = state.options.research()
        if research:  # small games for solvers (docs/research.md), not the game as it is played
            raise Refused(
                422,
                Refusal(
                    N_("research variant options are not offered at tables: {research}"),
                    research=", ".join(research),
                ),
            )
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
                    Refusal(
                        N_("unknown bot level {level!r} for {title} (levels: {levels})"),
                        level=level,
                        title=game.title,
                        levels=", ".join(levels),
                    ),
                )
            else:
                seats.append(Seat(s, BOT, level, f"Bot {s}"))
        for s in spec.bots:
            if not 0 <= s < players:
                raise Refused(
                    422,
                    Refusal(
                        N_("there is no seat {seat} for a bot with {players} players"),
                        seat=s,
                        players=players,
                    ),
                )
        address = address_hash(spec.address) if spec.address is not None else None
        people = sum(1 for s in seats if s.kind == HUMAN) - (1 if spec.creator_sits else 0)
        if address is not None and people > 0:  # only a table that waits for people counts
            waiting = await anyio.to_thread.run_sync(
                self.storage.waiting_from, address, self.waiting_since()
            )
            if waiting >= self.waiting_per_address:
                raise Refused(
                    429,
                    Refusal(
                        N_(
                            "{waiting} tables opened from your address are still waiting for "
                            "players ({waiting_per_address} at most): start a game at one of "
                            "them, or let one expire ({hours} h)"
                        ),
                        waiting=waiting,
                        waiting_per_address=self.waiting_per_address,
                        hours=self.waiting_seconds / 3600,
                    ),
                )
        now = time.time()
        stamped: list[tuple[int, Event]] = []
        deal = None
        for _ in range(20):
            table_id = new_id(self._ids)
            if all(s.kind == BOT for s in seats):  # nobody to wait for: it starts as it is made
                begun = state.clone()
                stamped, _, deal = self._play_chance(table_id, 0, begun, [])
            row = TableRow(
                table_id,
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
                listed=spec.listed,
                address=address,
                clock=spec.clock,
                rated=spec.rated,
            )
            try:
                version = await self.store(self.storage.create, row, deal)
                break
            except IntegrityError:  # the id is taken (a seeded server that started again)
                continue
        else:
            raise Refused(503, Refusal(N_("could not find a free table id: try again")))
        if deal is not None:
            state = begun
        table = LiveTable(
            id=table_id,
            game=game,
            web=web_game(game),
            players=players,
            options=options,
            seats=seats,
            settled=state,
            status=WAITING if deal is None else deal.status,
            created=now,
            updated=now,
            version=version,
            at=len(state.history),
            told=stamped,
            away_limit=self.away_seconds,
            listed=spec.listed,
            clock=spec.clock,
            rated=spec.rated,
        )
        table.last_kinds = {e.kind for _, e in stamped}
        self.bots.seat_bots(table)
        if deal is not None:  # dealt here: this process owns the game (see `join`)
            await self.owners.take(table, current=True)
        self.tables[table.id] = table
        self.room(table).kick()
        return table

    async def unstick(self, table: LiveTable) -> None:
        """Deal a waiting table whose seats are all taken (left so by an older server)."""
        async with table.lock:
            if table.status != WAITING or table.free_seats():
                return
            state = table.state.clone()
            stamped, _, deal = self._play_chance(table.id, table.at, state, [], table)
            try:
                version = await self.store(self.storage.begin, table.id, deal)
            except Conflict:
                await self.sync.catch_up(table)
                return
            except Refused as refused:  # the next sweep (or start) tries again
                log.error("table %s could not be dealt: %s", table.id, refused.reason)
                return
            await self.owners.take(table, current=True)
            self._made_current(table, state, stamped, deal, version)
            log.info("table %s had every seat taken but no deal: dealt now", table.id)
        await self.bus.publish(table.id, NoticeKind.MOVES)

    async def join(
        self,
        table: LiveTable,
        name: str,
        seat: int | None,
        host: bool = False,
        account: str | None = None,
    ) -> tuple[int, str]:
        """Seat `name` (at `seat`, or the first free seat) and hand back the secret token.

        The seat that fills the table is stored together with the deal: no kill in between
        can leave a full table that never starts. Asked for no seat in particular, a seat taken
        on another process at the same moment only means the next free one."""
        for _ in range(table.players):
            try:
                return await self._join(table, name, seat, host, account)
            except Conflict:
                if seat is not None:
                    raise Refused(
                        409,
                        Refusal(
                            N_("seat {seat} was just taken: free seats are {free}"),
                            seat=seat,
                            free=str(table.free_seats()),
                        ),
                    ) from None
        raise Refused(409, Refusal(N_("every seat at this table is taken: you can watch")))

    async def _join(
        self, table: LiveTable, name: str, seat: int | None, host: bool, account: str | None
    ) -> tuple[int, str]:
        """No look at the database first: the claim itself refuses a seat or a name taken
        on another process meanwhile (then this copy catches up and the caller tries the
        next seat), and it hands back the table's seats as the database has them, so a
        copy that was behind is current again from the same transaction."""
        async with table.lock:
            if self.expired(table):
                raise self._expired_refusal()
            free = table.free_seats()
            if not free:
                raise Refused(409, Refusal(N_("every seat at this table is taken: you can watch")))
            if seat is None:
                seat = free[0]
            elif not 0 <= seat < table.players:
                raise Refused(
                    422,
                    Refusal(
                        N_("there is no seat {seat} at a {players}-player table"),
                        seat=seat,
                        players=table.players,
                    ),
                )
            elif seat not in free:
                who = table.seats[seat]
                taken = "a bot" if who.kind == BOT else who.name
                raise Refused(
                    409,
                    Refusal(
                        N_("seat {seat} is taken by {taken}: free seats are {free}"),
                        seat=seat,
                        taken=taken,
                        free=free,
                    ),
                )
            if name_key(name) in table.removed:
                raise Refused(403, removed_name(name))
            if table.named(name):
                raise Refused(
                    409, Refusal(N_("someone at this table is already called {name!r}"), name=name)
                )
            token = secrets.token_urlsafe(24)
            hashed = token_hash(token)
            state = None
            stamped: list[tuple[int, Event]] = []
            deal = None
            if table.status == WAITING:
                # the seat may fill the table even where this copy still counts others free
                # (taken on another process a moment ago): the database decides, and deals
                state = table.state.clone()
                stamped, _, deal = self._play_chance(table.id, table.at, state, [], table)
            try:
                claim = await self.store(
                    self.storage.claim_seat, table.id, seat, name, hashed, deal, host, account
                )
            except NameRemoved:
                await self.sync.catch_up(table)
                raise Refused(403, removed_name(name)) from None
            except NameTaken:
                await self.sync.catch_up(table)
                raise Refused(
                    409, Refusal(N_("someone at this table is already called {name!r}"), name=name)
                ) from None
            except Conflict:
                await self.sync.catch_up(table)
                raise
            self.sync.take_seats(table, claim.seats)
            table.host_hash = claim.host_hash
            # away until their page connects
            presence = await self.bus.present(table.id, seat, False, seated=True)
            table.presence[seat] = presence
            if claim.dealt and state is not None and deal is not None:
                # the process that stored the deal owns the game from its first move on: its
                # copy is what was stored, so it is not read back, and its sockets' hellos
                # need no look at the database (`Sync.current`)
                await self.owners.take(table, current=True)
                self._made_current(table, state, stamped, deal, claim.version)
            else:
                self.room(table).seats_changed(claim.version)
        if claim.dealt:
            await self.bus.publish(table.id, NoticeKind.MOVES)
        else:  # the seat travels with the notice: the others need not read the database
            joined = Joined(
                version=claim.version,
                seat=seat,
                name=name,
                hash=hashed,
                host=host,
                presence=presence.carried(seat),
            )
            await self.bus.publish(table.id, NoticeKind.JOINED, joined)
        return seat, token

    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: Mapping[str, Any],
        at: int | None,
        *,
        forwarded: bool = False,
    ) -> None:
        """Apply `seat`'s action if the table is still at `at` (when given) and it is legal.

        Only the table's owner applies it: at another process the act goes to the owner and
        its answer comes back (`Owners.forward`); `forwarded`: this process is the owner
        answering such a question. A move sent again with its `at` after its answer was lost
        (a dropped connection, a killed process) finds itself already stored there and is
        answered as done, not applied twice and not refused."""
        if self.bus.shared and not forwarded and await self.owners.forward(table, seat, action, at):
            return
        async with table.lock:
            if self.bus.shared and (
                not self.bus.serves(table.id)  # no notices heard: read what was stored
                or table.status != PLAYING
                or (at is not None and at > table.at)
            ):
                await self.sync.catch_up(table)
            if at is not None and at < table.at and self._stored_at(table, seat, action, at):
                return
            if table.status == WAITING:
                free = len(table.free_seats())
                raise Refused(
                    409,
                    ngettext(
                        "the game has not started: {n} seat still free",
                        "the game has not started: {n} seats still free",
                        free,
                    ),
                )
            if table.status == FINISHED:
                raise Refused(409, Refusal(N_("the game is over")))
            if at is not None and at != table.at:
                raise Refused(
                    409,
                    Refusal(
                        N_(
                            "the table has moved on since you looked (your move {at}, now {now}): "
                            "nothing was applied"
                        ),
                        at=at,
                        now=table.at,
                    ),
                )
            try:
                move = table.game.action_from_json(action)
            except ValueError as error:
                raise Refused(422, said(error)) from None
            state = table.state.clone()
            try:
                events = state.apply(move, seat=seat)
            except IllegalAction as error:
                # the rules' Refusal as it is: each connection is told it in its language
                raise Refused(409, said(error)) from None
            # a person who moves in time starts their count of run-out clocks again
            person = table.seats[seat].kind == HUMAN
            start = table.at
            try:
                notice = await self.commit(table, state, events, seat if person else None, 0)
            except Refused as refused:
                # lost a race to a process that stored this very move (sent twice): done
                if refused.status == 409 and self._stored_at(table, seat, action, start):
                    return
                raise
            if person:
                table.seats[seat].timeouts = 0
        await self.bus.publish(table.id, NoticeKind.MOVES, notice)
        if self.closing and not table.connections:
            # a move that came in while handing over, for a table already handed over (or
            # nobody here looks at): the table is not kept
            self.owners.forget(table.id)
        if table.status == FINISHED:
            self._forget_idle()

    @staticmethod
    def _stored_at(table: LiveTable, seat: int, action: Mapping[str, Any], at: int) -> bool:
        """Whether record entry `at` is `seat` taking exactly `action`."""
        if not 0 <= at < len(table.state.history):
            return False
        entry = table.state.history[at]
        if not isinstance(entry, PlayerMove) or entry.seat != seat:
            return False
        try:
            wanted = table.game.action_to_json(table.game.action_from_json(action))
        except ValueError:
            return False
        return bool(table.game.action_to_json(entry.action) == wanted)

    async def commit(
        self,
        table: LiveTable,
        state: State[Any, Any],
        events: list[Event],
        mover: int | None = None,
        timeouts: int = 0,
    ) -> Moves:
        """Draw the chance outcomes that follow, store the new entries, then make it current;
        gives the notice that tells the other processes (it carries the new entries)."""
        start = table.at
        stamped, entries, deal = self._play_chance(table.id, table.at, state, events, table)
        try:
            version = await self.writer.append(
                table.id,
                table.at,
                entries,
                deal.status,
                deal.winners,
                deal.to_move,
                deal.deadline,
                mover,
                timeouts,
            )
        except Conflict as error:
            # another process stored first: this one is no longer the table's owner (fencing)
            self.owners.stale(table)
            await self.sync.catch_up(table)
            raise Refused(
                409,
                Refusal(
                    N_("the move could not be stored ({error}): nothing was applied"),
                    error=said(error),
                ),
            ) from None
        except Exception as error:
            log.error("table %s: storing a move failed: %s", table.id, error)
            raise Refused(
                503, Refusal(N_("the move could not be stored: nothing was applied"))
            ) from None
        self._made_current(table, state, stamped, deal, version)
        notice = Moves(
            start=start,
            entries=entries,
            version=version,
            deadline=deal.deadline,
            mover=mover,
            timeouts=timeouts,
        )
        if self.bus.heard(table.id):
            # another process holds sockets of the table: it relays what each seat is shown
            # instead of applying the rules itself
            notice["views"] = table.views(stamped)
            notice["status"], notice["to_move"] = deal.status, deal.to_move
            notice["winners"] = list(deal.winners)
        return notice

    def _made_current(
        self,
        table: LiveTable,
        state: State[Any, Any],
        stamped: list[tuple[int, Event]],
        deal: Deal,
        version: int,
    ) -> None:
        self.room(table).made_current(
            state, stamped, status=deal.status, deadline=deal.deadline, version=version
        )

    async def hand_to_bot(
        self,
        table: LiveTable,
        by: int,
        seat: int,
        level: str | None = None,
        *,
        forwarded: bool = False,
    ) -> None:
        """A bot of `level` plays `seat` from now on, for good.

        `by` gives their own seat whenever they like; another player may give a seat whose player
        has been away (from every process) for the table's away limit, so a table never stalls
        on someone who left. The old seat token stops acting for the seat: its open connections
        become spectators'.
        """
        if not forwarded:  # whether the game is under way (the owner's to change) is read
            await self.sync.current(table)
        if seat == by and level is None and table.status == WAITING:
            # leaving before the game starts: the seat is free again (naming a level still
            # seats that bot in one's place)
            await self.leave(table, seat)
            return
        level = TAKEOVER_LEVEL if level is None else level
        levels = table.game.bot_levels()
        if level not in levels:
            raise Refused(
                422,
                Refusal(
                    N_("unknown bot level {level!r} for {title} (levels: {levels})"),
                    level=level,
                    title=table.game.title,
                    levels=", ".join(levels),
                ),
            )
        if (
            self.bus.shared
            and not forwarded
            and table.status == PLAYING
            and await self.owners.change(
                table, SeatChange.HAND_TO_BOT, by=by, seat=seat, level=level
            )
        ):
            return
        async with table.lock:
            if self.bus.shared:
                await self.sync.catch_up(table)
            if not 0 <= seat < table.players:
                raise Refused(
                    404,
                    Refusal(
                        N_("there is no seat {seat} at a {players}-player table"),
                        seat=seat,
                        players=table.players,
                    ),
                )
            if table.status == FINISHED:
                raise Refused(409, Refusal(N_("the game is over: there is no seat left to play")))
            place = table.seats[seat]
            if place.kind == BOT:
                raise Refused(
                    409,
                    Refusal(
                        N_("seat {seat} is already played by a bot ({level})"),
                        seat=seat,
                        level=place.level,
                    ),
                )
            if place.token_hash is None:
                raise Refused(
                    409,
                    Refusal(
                        N_("seat {seat} is free: nobody sits there to hand it over"), seat=seat
                    ),
                )
            if seat != by:
                who = place.name or Refusal(N_("seat {seat}"), seat=seat)
                if self.bus.shared:
                    table.presence.update(await self.bus.presence(table.id, [seat]))
                away = table.away_for(seat)
                if away is None:
                    raise Refused(
                        409,
                        Refusal(
                            N_("{who} is connected: only {who} can give their seat to a bot now"),
                            who=who,
                        ),
                    )
                if away < table.away_limit:
                    wait = table.away_limit - away
                    raise Refused(
                        409,
                        Refusal(
                            N_(
                                "{who} has been away for {away} s: their seat can be given "
                                "to a bot after {away_limit} s away, in {wait} s"
                            ),
                            who=who,
                            away=round(away),
                            away_limit=float(table.away_limit),
                            wait=round(max(wait, 0.1), 1),
                        ),
                    )
            await self.give_to_bot(table, seat, level)
        await self.bus.publish(table.id, NoticeKind.SEATS)

    async def give_to_bot(self, table: LiveTable, seat: int, level: str) -> None:
        """Store and make current a bot taking over a person's seat (the table's lock is held)."""
        place = table.seats[seat]
        old = place.token_hash
        assert old is not None
        try:
            version = await self.store(self.storage.hand_to_bot, table.id, seat, level, old)
        except Conflict as error:
            await self.sync.catch_up(table)
            raise Refused(409, said(error)) from None
        place.kind, place.level, place.token_hash = BOT, level, None
        place.bot = make_bot(table.game, level, self.seed_for(table.id, seat))
        table.retired[old] = seat
        table.presence.pop(seat, None)
        if table.state.to_move == seat:
            table.deadline = None
        room = self.room(table)
        room.stamp(version)
        self.to_spectators(
            table, seat, bot_reason(seat, level), reclaim=place.timeouts >= CLOCK_STRIKES
        )
        table.broadcast_meta()
        room.kick()

    async def reclaim(
        self,
        table: LiveTable,
        token: str | None,
        *,
        hashed: str | None = None,
        forwarded: bool = False,
    ) -> int:
        """The person whose seat the turn clock gave to a bot takes it back with their token
        (or its hash, from another process), while the game goes on; the bot's moves so far
        stand."""
        if hashed is None:
            if token is None:
                raise Refused(403, Refusal(N_("this token lost no seat at this table to a bot")))
            hashed = token_hash(token)
        if not forwarded:  # whether the game is under way (the owner's to change) is read
            await self.sync.current(table)
        if self.bus.shared and not forwarded and table.status == PLAYING:
            answer = await self.owners.change(table, SeatChange.RECLAIM, hashed=hashed)
            if answer is not None:
                seat = answer.get("seat")
                if not isinstance(seat, int):
                    raise Refused(503, OWNER_SILENT)
                return seat
        async with table.lock:
            if self.bus.shared:
                await self.sync.catch_up(table)
            seat = table.retired.get(hashed)
            if seat is None or table.seats[seat].kind != BOT:
                raise Refused(403, Refusal(N_("this token lost no seat at this table to a bot")))
            place = table.seats[seat]
            if place.timeouts < CLOCK_STRIKES:
                raise Refused(
                    409,
                    Refusal(
                        N_(
                            "seat {seat} was handed to a bot, not taken by the clock: it stays a "
                            "bot's"
                        ),
                        seat=seat,
                    ),
                )
            if table.status != PLAYING:
                raise Refused(
                    409, Refusal(N_("the game is over: follow Play again into the next one"))
                )
            mine = table.state.to_move == seat and table.clock is not None
            deadline = time.time() + table.clock if mine and table.clock else None
            try:
                version = await self.store(
                    self.storage.reclaim_seat, table.id, seat, hashed, deadline
                )
            except Conflict as error:
                await self.sync.catch_up(table)
                raise Refused(409, said(error)) from None
            place.kind, place.level, place.token_hash, place.bot = HUMAN, None, hashed, None
            place.timeouts = 0
            table.retired.pop(hashed, None)
            if deadline is not None:
                table.deadline = deadline
            self.room(table).seats_changed(version)
        await self.bus.publish(table.id, NoticeKind.SEATS)
        return seat

    async def follower(self, table: LiveTable, token: str | None) -> int | None:
        """The seat whose player may follow into the next game: the token's seat, or the seat
        a bot took over from it (the clock, or the player's own leaving)."""
        try:
            return await self.seat_for(table, token)
        except Refused:
            retired = table.retired_seat(token) if token else None
            if retired is not None and table.seats[retired].kind == BOT:
                return retired
            raise

    async def remove(self, table: LiveTable, token: str | None, seat: int) -> None:
        """The host sends someone away from the waiting room: the seat is free again, the
        removed token stops working and its connections watch."""
        async with table.lock:
            if self.bus.shared:
                await self.sync.catch_up(table)
            if not table.is_host(token):
                raise Refused(
                    403,
                    Refusal(N_("only the host (who made this table) can remove someone from it")),
                )
            if not 0 <= seat < table.players:
                raise Refused(
                    404,
                    Refusal(
                        N_("there is no seat {seat} at a {players}-player table"),
                        seat=seat,
                        players=table.players,
                    ),
                )
            if table.status != WAITING:
                raise Refused(
                    409,
                    Refusal(
                        N_(
                            "the game has started: nobody can be removed now (a player who is "
                            "away can be given to a bot)"
                        )
                    ),
                )
            place = table.seats[seat]
            if place.kind == BOT:
                raise Refused(
                    409, Refusal(N_("seat {seat} is a bot's: there is nobody to remove"), seat=seat)
                )
            if place.token_hash is None:
                raise Refused(
                    409, Refusal(N_("seat {seat} is free: there is nobody to remove"), seat=seat)
                )
            if place.token_hash == table.host_hash:
                raise Refused(409, Refusal(N_("you cannot remove yourself: you are the host")))
            await self._vacate(table, seat, True, removed_reason(seat))
        await self.bus.present(table.id, seat, False)
        await self.bus.publish(table.id, NoticeKind.SEATS)

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A player leaves a table that has not started: their seat is free again (not a
        bot's), their token stops working and their connections watch."""
        async with table.lock:
            if self.bus.shared:
                await self.sync.catch_up(table)
            if table.status != WAITING or table.seats[seat].token_hash is None:
                raise Refused(
                    409, Refusal(N_("the game has started: a bot can play your seat instead"))
                )
            await self._vacate(table, seat, False, left_reason(seat))
        await self.bus.present(table.id, seat, False)
        await self.bus.publish(table.id, NoticeKind.SEATS)

    async def _vacate(self, table: LiveTable, seat: int, removed: bool, reason: str) -> None:
        """Store and make current a waiting table's seat freed (the table's lock is held);
        a removed player's token is remembered, to tell them why it no longer works."""
        place = table.seats[seat]
        old = place.token_hash
        assert old is not None
        try:
            version = await self.store(self.storage.remove_seat, table.id, seat, old, removed)
        except Conflict as error:
            await self.sync.catch_up(table)
            raise Refused(
                409, Refusal(N_("{error}: nothing was changed"), error=said(error))
            ) from None
        if removed and place.name is not None:
            table.removed.add(name_key(place.name))
        place.name, place.token_hash = None, None
        if removed:
            table.retired[old] = seat
        table.presence.pop(seat, None)
        self.room(table).stamp(version)
        self.to_spectators(table, seat, reason, removed=removed)
        table.broadcast_meta()

    async def cancel(self, table: LiveTable, token: str | None) -> None:
        """The host calls off a table still waiting for players: it is gone, and whoever
        watches it is told."""
        async with table.lock:
            if self.bus.shared:
                await self.sync.catch_up(table)
            if not table.is_host(token):
                raise Refused(403, Refusal(N_("only the host (who made this table) can cancel it")))
            if table.status != WAITING:
                raise Refused(
                    409,
                    Refusal(N_("the game has started: a table is cancelled only while waiting")),
                )
            try:
                await self.store(self.storage.cancel, table.id)
            except Conflict as error:
                await self.sync.catch_up(table)
                raise Refused(
                    409, Refusal(N_("{error}: nothing was changed"), error=said(error))
                ) from None
            self.drop(table, CANCELLED)
        await self.bus.publish(table.id, NoticeKind.CANCELLED)

    def drop(self, table: LiveTable, reason: str | None) -> None:
        """A table that is gone leaves memory; whoever watches it is told and let go. No
        `reason`: the table is not gone, this copy is (it no longer matches the database);
        its sockets reconnect (1012) to a copy loaded afresh."""
        self.tables.pop(table.id, None)
        self.rooms.pop(table.id, None)
        self.owners.forget(table.id)
        for conn in list(table.connections):
            if reason is None:
                conn.close_code = RESTART_CODE
            else:
                conn.push(told(error(410, "", fatal=True), reason, conn.lang))
            conn.push(None)
        if table.connections:
            table.connections.clear()
            self.spawn(self.bus.serve(table.id, False))

    def to_spectators(
        self, table: LiveTable, seat: int, reason: str, reclaim: bool = False, removed: bool = False
    ) -> None:
        for conn in list(table.connections):
            if conn.seat == seat:
                conn.seat = None
                notice = SeatLost(
                    type="seat", seat=None, reason="", reclaim=reclaim, removed=removed
                )
                conn.push(told(notice, reason, conn.lang))
                # the story so far stays told to them as they lived it ("Your time ran out")
                conn.push(
                    table.update_for(None, table.events, full=True, voice=seat, lang=conn.lang)
                )

    async def again(
        self, table: LiveTable, seat: int, account: str | None = None
    ) -> tuple[LiveTable, int, str]:
        """The next game at the same table: same game, options and bots; the asker sits down
        (as `account`, when signed in)."""
        await self.sync.current(table)  # a copy nobody here watches may be behind
        if table.status != FINISHED:
            raise Refused(409, Refusal(N_("the game is not over yet")))
        name = table.seats[seat].name or f"Player {seat}"
        async with table.lock:
            if self.bus.shared:
                await self.sync.catch_up(table)
            if table.next_id is None:
                # a seat a bot took over from a person is that person's again in the next game
                people = set(table.retired.values())
                bots = {
                    s.seat: s.level
                    for s in table.seats
                    if s.kind == BOT and s.level and s.seat not in people
                }
                spec = TableSpec(
                    table.game.name,
                    table.players,
                    table.options,
                    bots,
                    listed=table.listed,
                    clock=table.clock,
                    rated=table.rated,
                )
                nxt = await self.create(spec)
                version = await self.store(self.storage.set_next, table.id, nxt.id)
                table.next_id = nxt.id
                self.room(table).seats_changed(version, touch=False)
                await self.bus.publish(table.id, NoticeKind.SEATS)
        nxt = await self.get(table.next_id)
        mine = next((s.seat for s in nxt.seats if s.name == name and s.token_hash), None)
        if mine is not None:
            raise Refused(409, Refusal(N_("{name} already sits at the next table"), name=name))
        free = nxt.free_seats()
        host = nxt.host_hash is None and not any(s.token_hash for s in nxt.seats)
        new_seat, token = await self.join(nxt, name, seat if seat in free else None, host, account)
        return nxt, new_seat, token

    async def seat_for(self, table: LiveTable, token: str | None) -> int | None:
        """The seat a token holds (None: a spectator); 403 for a token of no seat here."""
        if token is None:
            return None
        seat = table.seat_of(token)
        if seat is None and self.bus.shared:  # seated, or handed to a bot, on another process
            await self.sync.refresh(table)
            seat = table.seat_of(token)
        if seat is None:
            retired = table.retired_seat(token)
            if retired is not None and table.seats[retired].kind == BOT:
                back = table.seats[retired].timeouts >= CLOCK_STRIKES and table.status == PLAYING
                raise Refused(
                    403,
                    Refusal(
                        N_(
                            "a bot now plays seat {retired}: this token no longer acts for it "
                            "(the clock took it: take it back with /reclaim)"
                        )
                        if back
                        else N_("a bot now plays seat {retired}: this token no longer acts for it"),
                        retired=retired,
                    ),
                )
            if retired is not None:
                raise Refused(
                    403,
                    Refusal(
                        N_(
                            "the host removed this token's player from seat {retired}: it no "
                            "longer acts at this table"
                        ),
                        retired=retired,
                    ),
                )
            raise Refused(403, Refusal(N_("this seat token does not belong to this table")))
        return seat

    # --- connections -----------------------------------------------------------------------
    async def connect(
        self,
        table: LiveTable,
        seat: int | None,
        name: str | None = None,
        address: str = "",
        lang: str = "en",
        *,
        own_name: bool = False,
        since: int | None = None,
    ) -> Connection:
        """A socket of `table` for `seat` (None: a spectator named `name`; `own_name`: the
        name is the spectator's own account's, which may sit here and watch from elsewhere).
        `since`: the record index the page last saw as this seat (a reconnect), so its first
        update carries only what it missed; a full one if that is not a point of this game."""
        replaced = admit(table.connections, seat, address)
        if name is not None and not own_name and table.named(name):
            raise Refused(
                409,
                Refusal(
                    N_("a player at this table is called {name!r}: pick another name"), name=name
                ),
            )
        if replaced is not None:
            table.connections.discard(replaced)
            replaced.push(told(error(409, "", fatal=True), SEAT_REPLACED, replaced.lang))
            replaced.push(None)
        conn = Connection(seat, name, address, lang)
        first = seat is not None and not table.local_count(seat)
        serving = bool(table.connections)
        table.connections.add(conn)
        events = table.events
        if since is not None and since <= table.at:
            # the history a reconnect missed, as a live socket would have had it (lila-ws's
            # versioned history, kept here for the whole game)
            missed = [(at, event) for at, event in events if at > since]
            conn.push(table.update_for(seat, missed, full=False, lang=lang))
        else:
            conn.push(table.update_for(seat, events, full=True, lang=lang))
        conn.push(table.chat_history(CHAT_LENGTH, conn.lang))
        table.broadcast_meta()
        if not serving:  # this process hears the table's notices only while it serves it
            await self.bus.serve(table.id, True)
            if self.bus.shared:  # a change made before the subscription took is read
                self.spawn(self.sync.current(table))
        if first and seat is not None:
            presence = table.presence[seat] = await self.bus.present(table.id, seat, True)
            await self.bus.publish(table.id, NoticeKind.PRESENCE, presence.carried(seat))
        return conn

    async def disconnect(self, table: LiveTable, conn: Connection) -> None:
        table.connections.discard(conn)
        if not table.connections and not self.closing:
            await self.bus.serve(table.id, False)
        seat = conn.seat
        place = table.seats[seat] if seat is not None else None
        if (
            seat is not None
            and place is not None
            and place.kind == HUMAN
            and not table.local_count(seat)
        ):
            presence = table.presence[seat] = await self.bus.present(table.id, seat, False)
            await self.bus.publish(table.id, NoticeKind.PRESENCE, presence.carried(seat))
        if not self.closing:
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
            self.rooms.pop(table.id, None)
            self.owners.forget(table.id)
