"""Keeping one process's tables in step with the database and the other processes: the
notices that carry another process's moves, joins and presence; catching a copy up from the
database by record index when it finds itself behind; and the periodic look (versions, stalled
bots, presence) that finds what a lost notice or a killed process left behind."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import Any, Protocol, TypeVar

import anyio

from campfire.kernel import Event, State
from campfire.server.batch import Batcher
from campfire.server.cluster.bus import Bus, Presence
from campfire.server.protocol import EVERY_TABLE, Carried, NoticeKind, read_left_out
from campfire.server.store.schema import FINISHED, PLAYING
from campfire.server.store.storage import SeatRow, Storage
from campfire.server.tables.chat import TableChat
from campfire.server.tables.clock import CLOCK_STRIKES
from campfire.server.tables.driver import BotDriver
from campfire.server.tables.live import (
    BOT,
    CANCELLED,
    HUMAN,
    LiveTable,
    SeatPart,
    bot_reason,
    left_reason,
    removed_reason,
)
from campfire.server.tables.room import Room

log = logging.getLogger("campfire.server")
T = TypeVar("T")


class SyncHost(Protocol):
    """What keeping in step needs of the process around it: its tables, bots, chat, bus and
    database, and the ways a table is loaded, started, dropped or its seat given up."""

    bus: Bus
    storage: Storage
    closing: bool
    bot_pause: float
    tables: dict[str, LiveTable]

    @property
    def bots(self) -> BotDriver: ...

    @property
    def chat(self) -> TableChat: ...

    def room(self, table: LiveTable) -> Room: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def drop(self, table: LiveTable, reason: str | None) -> None: ...

    def to_spectators(
        self, table: LiveTable, seat: int, reason: str, reclaim: bool = False, removed: bool = False
    ) -> None: ...

    async def store(self, call: Callable[..., T], *args: Any) -> T: ...

    async def get(self, table_id: str) -> LiveTable: ...

    async def unstick(self, table: LiveTable) -> None: ...


#: seconds between a shared process's looks at the database for what it may have missed
WATCH_SECONDS = 2.0
#: the looks for stalled tables a leader may miss (it died) before another process leads
LEAD_WATCHES = 5
#: tables whose presence one round trip to Redis reads
PRESENCE_BATCH = 50


class Sync:
    """A process's tables kept in step with what the other processes store and tell."""

    def __init__(self, hub: SyncHost) -> None:
        self.hub = hub
        #: the stored versions of tables about to be shown to a socket, many to a query
        self.versions: Batcher[str, dict[str, int]] = Batcher(self.read_versions)

    def notice(self, table_id: str, kind: str, data: Carried | None = None) -> None:
        """Another process changed a table (or the bus lost notices: "*")."""
        if self.hub.closing:
            return
        targets = (
            list(self.hub.tables.values())
            if table_id == EVERY_TABLE
            else [self.hub.tables.get(table_id)]
        )
        for table in targets:
            if table is None:
                continue
            if kind == NoticeKind.CANCELLED:
                self.hub.drop(table, CANCELLED)
                continue
            if kind == NoticeKind.PRESENCE:
                carried = Presence.from_carried(data)
                if carried is not None and 0 <= carried[0] < table.players:
                    self.take_presence(table, dict([carried]))
                else:
                    self.hub.spawn(self.refresh_presence(table))
                continue
            if kind == NoticeKind.RESYNC and (missed := read_left_out(data)) is not None:
                # a process that kept the table to itself says what it left out: read only
                # what this copy lacks (a table made there and served here has it already)
                if missed["chat"]:
                    self.hub.spawn(self.hub.chat.catch_up(table))
                if missed["version"] > table.version and not table.behind:
                    table.behind = True
                    self.hub.spawn(self.refresh(table))
                continue
            if kind in (NoticeKind.CHAT, NoticeKind.RESYNC):
                self.hub.spawn(self.hub.chat.catch_up(table))
                if kind == NoticeKind.CHAT:
                    continue
            if kind == NoticeKind.MOVES and data is not None and not table.behind:
                self.hub.spawn(self.take_moves(table, data))
            elif kind == NoticeKind.JOINED and data is not None and not table.behind:
                self.hub.spawn(self.take_join(table, data))
            elif not table.behind:
                table.behind = True
                self.hub.spawn(self.refresh(table))

    async def take_moves(self, table: LiveTable, data: Mapping[str, Any]) -> None:
        """The entries another process just committed, carried by its notice: applied at once
        when they follow this copy's last entry (and no clock ran out), else read from the
        database."""
        async with table.lock:
            try:
                start, entries = int(data["start"]), list(data["entries"])
                version, deadline = data["version"], data.get("deadline")
                mover, timeouts = data.get("mover"), int(data.get("timeouts") or 0)
            except (KeyError, TypeError, ValueError):
                start, entries, version, deadline, mover, timeouts = -1, [], None, None, None, 0
            if start < table.at and start >= 0:
                return  # already taken (from the database)
            if start != table.at or table.behind or timeouts:
                await self.catch_up(table)
                return
            room = self.hub.room(table)
            relayed = self.relayable(table, data)
            if relayed is not None:
                if isinstance(mover, int) and 0 <= mover < table.players:
                    table.seats[mover].timeouts = 0
                parts, status, to_move, winners = relayed
                room.relayed(
                    entries,
                    parts,
                    status=status,
                    deadline=deadline if isinstance(deadline, (int, float)) else None,
                    version=version,
                    to_move=to_move,
                    winners=winners,
                )
                return
            replayed = room.replay(entries)
            if replayed is None:
                await self.catch_up(table)
                return
            state, stamped = replayed
            if isinstance(mover, int) and 0 <= mover < table.players:
                table.seats[mover].timeouts = 0
            if not (isinstance(version, int) and version == table.version + 1):
                version = table.version  # the next look at the database catches up
            room.made_current(
                state,
                stamped,
                status=FINISHED if state.is_terminal else PLAYING,
                deadline=deadline if isinstance(deadline, (int, float)) else None,
                version=version,
            )

    @staticmethod
    def relayable(
        table: LiveTable, data: Mapping[str, Any]
    ) -> tuple[list[SeatPart | None], str, int | None, list[int]] | None:
        """What the owner's notice says each seat is shown, and the table after it, when it
        says all that and is the very next change of this copy; else None (the entries are
        then applied here, as from an owner that sends no views)."""
        raw, status = data.get("views"), data.get("status")
        to_move, winners = data.get("to_move"), data.get("winners")
        if not (
            isinstance(raw, list)
            and len(raw) == table.players + 1
            and data.get("version") == table.version + 1
            and status in (PLAYING, FINISHED)
            and (to_move is None or (isinstance(to_move, int) and 0 <= to_move < table.players))
            and isinstance(winners, list)
            and all(isinstance(w, int) for w in winners)
        ):
            return None
        needed = {conn.seat for conn in table.connections}
        if any(raw[table.players if seat is None else seat] is None for seat in needed):
            return None  # a seat the owner did not know was watched here
        try:
            parts = [None if part is None else SeatPart.from_json(part) for part in raw]
        except ValueError as error:
            log.warning("table %s: a notice's views do not read: %s", table.id, error)
            return None
        return parts, str(status), to_move, winners

    async def take_join(self, table: LiveTable, data: Mapping[str, Any]) -> None:
        """A seat another process just gave away, carried by its notice: taken at once when
        it is the change that follows this copy's version, else read from the database."""
        async with table.lock:
            try:
                version, seat = int(data["version"]), int(data["seat"])
                name, hashed, host = str(data["name"]), str(data["hash"]), bool(data["host"])
                place = table.seats[seat]
            except (KeyError, TypeError, ValueError, IndexError):
                version, place = -1, None
            if version <= table.version and version >= 0:
                return  # already taken (from the database)
            if place is None or version != table.version + 1 or place.taken or table.behind:
                await self.catch_up(table)
                return
            place.name, place.token_hash = name, hashed
            if host:
                table.host_hash = hashed
            carried = Presence.from_carried(data.get("presence"))
            if carried is not None and carried[0] == seat:
                table.presence[seat] = carried[1]
            self.hub.room(table).seats_changed(version, touch=False)

    def present_pairs(self) -> list[tuple[str, int]]:
        return [
            (t.id, c.seat)
            for t in self.hub.tables.values()
            for c in t.connections
            if c.seat is not None
        ]

    async def refresh(self, table: LiveTable) -> None:
        async with table.lock:
            table.behind = False
            await self.catch_up(table)
            self.hub.bots.kick(table)  # a process that stopped may have let its bots go

    async def current(self, table: LiveTable) -> None:
        """Make sure a table is as new as the database (several processes only): a process
        killed between its commit and its notice leaves the others a move behind until they
        look, and whoever reconnects after such a kill must not be shown the old position.
        A game under way that this process owns is current already: its moves, its clock and
        its seat changes are stored here and nowhere else (what another process may still
        change, an account's name, the watch reads within seconds)."""
        bus = self.hub.bus
        if not bus.shared or (table.status == PLAYING and not table.behind and bus.owns(table.id)):
            return
        versions = await self.versions(table.id)
        if self.outdated(versions, [table]):
            await self.refresh(table)

    async def read_versions(self, ids: list[str]) -> dict[str, int]:
        """One query for every table whose version was asked for while the last one was out
        (a wave of new tables is four sockets' hellos each, on every process)."""
        return await self.hub.store(self.hub.storage.versions, sorted(set(ids)))

    @staticmethod
    def outdated(versions: Mapping[str, int], tables: Iterable[LiveTable]) -> list[LiveTable]:
        """The tables whose stored version is ahead of this copy. Only ahead: the versions
        were read a moment ago, and a copy that moved on since (a notice came in the
        meantime) is newer than what was read, not behind; reloading it would hold its moves
        up for a database read (at 500 tables, 20 such reads a second per process)."""
        return [t for t in tables if versions.get(t.id, t.version) > t.version]

    async def catch_up(self, table: LiveTable) -> None:
        """Take what other processes stored since this copy was made (the lock is held)."""
        try:
            found = await anyio.to_thread.run_sync(
                self.hub.storage.load_since, table.id, table.at, table.version
            )
        except Exception as error:
            log.warning("could not catch table %s up: %s", table.id, error)
            return
        if found is None:
            return
        row, entries = found
        if row.version == table.version and not entries:
            return
        # a seat whose count of run-out clocks went up: a bot played its turn for the clock
        timed_out = {
            r.seat: r.timeouts
            for r in row.seats
            if r.timeouts > table.seats[r.seat].timeouts and table.seats[r.seat].kind == HUMAN
        }
        room = self.hub.room(table)
        seats_changed = self.take_seats(table, row.seats)
        state: State[Any, Any] | None = None
        stamped: list[tuple[int, Event]] = []
        if entries:
            replayed = room.replay(entries, timed_out)
            if replayed is None:
                return
            state, stamped = replayed
        changed = seats_changed or row.status != table.status or row.next_id != table.next_id
        changed = changed or row.deadline != table.deadline
        table.next_id, table.host_hash = row.next_id, row.host_hash
        table.removed = set(row.removed)
        room.made_current(
            state,
            stamped,
            status=row.status,
            deadline=row.deadline,
            version=row.version,
            updated=row.updated,
            changed=changed,
        )

    def take_seats(self, table: LiveTable, rows: list[SeatRow]) -> bool:
        changed = False
        for row in rows:
            place = table.seats[row.seat]
            if row.retired_hash is not None:
                table.retired[row.retired_hash] = row.seat
            place.timeouts = row.timeouts
            now = (row.kind, row.level, row.name, row.token_hash)
            if now == (place.kind, place.level, place.name, place.token_hash):
                continue
            changed = True
            became_bot = row.kind == BOT and place.kind != BOT
            removed = row.kind == HUMAN and row.token_hash is None and place.token_hash is not None
            by_host = removed and row.retired_hash == place.token_hash
            place.kind, place.level, place.name, place.token_hash = now
            if became_bot:
                place.bot = None
                self.hub.to_spectators(
                    table,
                    row.seat,
                    bot_reason(row.seat, row.level or ""),
                    reclaim=row.timeouts >= CLOCK_STRIKES,
                )
            elif removed:
                table.presence.pop(row.seat, None)
                why = removed_reason(row.seat) if by_host else left_reason(row.seat)
                self.hub.to_spectators(table, row.seat, why, removed=by_host)
        self.hub.bots.seat_bots(table)
        return changed

    async def refresh_presence(self, table: LiveTable) -> None:
        seated = self.seated(table)
        if seated:
            self.take_presence(table, await self.hub.bus.presence(table.id, seated))

    @staticmethod
    def seated(table: LiveTable) -> list[int]:
        return [s.seat for s in table.seats if s.kind == HUMAN and s.token_hash is not None]

    @staticmethod
    def take_presence(table: LiveTable, found: dict[int, Presence]) -> None:
        """Tell the table's sockets only when someone came or went: a look that finds nothing
        new is every table's every few seconds, and would be a message to every socket."""
        if any(table.presence.get(seat) != presence for seat, presence in found.items()):
            table.presence.update(found)
            table.broadcast_meta()

    async def watch(self) -> None:
        """Several processes: compare versions (of the tables this process serves or owns),
        take over stalled bots, refresh presence."""
        rounds = 0
        while not self.hub.closing:
            await asyncio.sleep(WATCH_SECONDS)
            rounds += 1
            try:
                # only the copies someone here looks at or this process owns: a copy held
                # for nobody is caught up when it is next used (a socket's hello, a move, a
                # read of its state), not every two seconds through the rules
                bus = self.hub.bus
                live = [
                    t
                    for t in self.hub.tables.values()
                    if t.connections or (t.status != FINISHED and bus.owns(t.id))
                ]
                versions = await anyio.to_thread.run_sync(
                    self.hub.storage.versions, [t.id for t in live]
                )
                for table in self.outdated(versions, live):
                    await self.refresh(table)
                for table in [t for t in live if t.diverged]:
                    self.hub.drop(table, None)
                before = time.time() - max(3.0, 4 * self.hub.bot_pause)
                # one process looks for the tables that wait on a dead owner's bots
                leads = await bus.lead("stalled", LEAD_WATCHES * WATCH_SECONDS)
                stalled = (
                    await anyio.to_thread.run_sync(self.hub.storage.stalled, before)
                    if leads
                    else []
                )
                for table_id in stalled:
                    table = await self.hub.get(table_id)
                    await self.refresh(table)
                    await self.hub.unstick(table)
                    self.hub.room(table).kick()
                if rounds % 3 == 0:
                    # a seat with a connection here is online whatever Redis says: only the
                    # others are read (with routing by table, usually none)
                    watched = [
                        (t, [s for s in self.seated(t) if not t.local_count(s)])
                        for t in live
                        if t.connections
                    ]
                    watched = [(t, seated) for t, seated in watched if seated]
                    # a few dozen tables a look, so that no one look holds up the moves
                    for i in range(0, len(watched), PRESENCE_BATCH):
                        batch = watched[i : i + PRESENCE_BATCH]
                        found = await self.hub.bus.presence_at(
                            [(t.id, seated) for t, seated in batch]
                        )
                        for (table, _), presence in zip(batch, found, strict=True):
                            self.take_presence(table, presence)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("watching the database failed: %s", error)
