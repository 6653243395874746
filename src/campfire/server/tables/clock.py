"""The turn clock: a seat whose time runs out has its turn played by a bot, and after two turns
in a row the bot plays the seat for good. A table's owner plays its overdue turns, found in
memory; one process (the lease of the `clock` duty) also looks in the database for the overdue
tables nobody owns, takes them and plays them (`tables/owner.py`)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

import anyio

from campfire.bots import make_bot
from campfire.kernel import Event, State
from campfire.server.cluster.bus import Bus
from campfire.server.protocol import Moves, NoticeKind
from campfire.server.store.schema import PLAYING
from campfire.server.store.storage import Storage
from campfire.server.tables.live import CLOCK_EVENT, HUMAN, TAKEOVER_LEVEL, LiveTable

log = logging.getLogger("campfire.server")


class CatchUp(Protocol):
    async def catch_up(self, table: LiveTable) -> None: ...


class Owning(Protocol):
    async def take(self, table: LiveTable) -> str | None: ...


class ClockHost(Protocol):
    """What the turn clock needs of the process around it: its tables, leases and database,
    and the one way a move is stored and made current."""

    bus: Bus
    storage: Storage
    closing: bool
    tick: float

    @property
    def sync(self) -> CatchUp: ...

    @property
    def owners(self) -> Owning: ...

    @property
    def tables(self) -> dict[str, LiveTable]: ...

    def close_expired(self) -> None: ...

    def seed_for(self, table_id: str, salt: int) -> int: ...

    async def get(self, table_id: str) -> LiveTable: ...

    async def commit(
        self,
        table: LiveTable,
        state: State[Any, Any],
        events: list[Event],
        mover: int | None = None,
        timeouts: int = 0,
    ) -> Moves: ...

    async def give_to_bot(self, table: LiveTable, seat: int, level: str) -> None: ...


#: turns in a row a seat's clock may run out before a bot takes the seat over
CLOCK_STRIKES = 2


#: seconds the clock's sweeps may go unmade by their leader (it died, or its loop stalled)
#: before another process leads them: five sweeps, and never less than five seconds
def lead_seconds(tick: float) -> float:
    return max(5.0, 5 * tick)


def clock_event(seat: int, strikes: int) -> Event:
    return Event(
        CLOCK_EVENT,
        {
            "seat": seat,
            "timeouts": strikes,
            "level": TAKEOVER_LEVEL,
            "handed": strikes >= CLOCK_STRIKES,
        },
    )


class TurnClock:
    def __init__(self, hub: ClockHost) -> None:
        self.hub = hub

    async def sweep(self) -> None:
        """Play the turns whose clock ran out and let expired waiting tables go."""
        hub = self.hub
        while not hub.closing:
            await asyncio.sleep(hub.tick)
            try:
                hub.close_expired()
                now = time.time()
                bus = hub.bus
                # this process's own tables are in memory: no query for them
                overdue = [
                    t.id
                    for t in list(hub.tables.values())
                    if t.status == PLAYING
                    and t.deadline is not None
                    and t.deadline <= now
                    and bus.owns(t.id)
                ]
                if await bus.lead("clock", lead_seconds(hub.tick)):
                    stored = await anyio.to_thread.run_sync(hub.storage.overdue, now)
                    overdue.extend(t for t in stored if t not in overdue)
                for table_id in overdue:
                    table = await hub.get(table_id)
                    if await hub.owners.take(table) == bus.process:
                        await self.ran_out(table)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("the turn clock sweep failed: %s", error)

    async def ran_out(self, table: LiveTable) -> None:
        """A `medium` bot plays the turn of the seat whose time ran out; after two turns in a
        row, it plays the seat for good."""
        hub = self.hub
        async with table.lock:
            await hub.sync.catch_up(table)
            seat = table.state.to_move
            if (
                table.status != PLAYING
                or seat is None
                or table.deadline is None
                or table.deadline > time.time()
                or table.seats[seat].kind != HUMAN
            ):
                return
            place = table.seats[seat]
            view = table.state.view(seat)
            legal = table.state.legal_actions()
            bot = make_bot(table.game, TAKEOVER_LEVEL, hub.seed_for(table.id, 1000 + table.at))
            action = await anyio.to_thread.run_sync(bot.choose, view, legal)
            state = table.state.clone()
            events = state.apply(action, seat=seat)
            strikes = place.timeouts + 1
            await hub.commit(table, state, [clock_event(seat, strikes), *events], seat, strikes)
            place.timeouts = strikes
            log.info("table %s: seat %s ran out of time (%s in a row)", table.id, seat, strikes)
            if strikes >= CLOCK_STRIKES and place.kind == HUMAN and place.token_hash is not None:
                await hub.give_to_bot(table, seat, TAKEOVER_LEVEL)
        await hub.bus.publish(table.id, NoticeKind.MOVES)
