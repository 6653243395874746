"""The bots that play at a server's tables, driven by the table's owner only.

Whoever wants a table's bots to move must own the table (`tables/owner.py`): it takes the
table's owner lease when nobody holds it, and the bus renews it while the process holds the
table; a process that dies stops renewing, its lease runs out, and the next process that looks
(the process that leads the sweep for tables stalled on a bot, or the next to act there) takes
the table over and its bots with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any, Protocol

import anyio

from campfire.bots import make_bot
from campfire.kernel import RandomBot
from campfire.server.cluster.bus import Bus
from campfire.server.logs import TABLE
from campfire.server.metrics import BOT_DECISION_SECONDS, timed
from campfire.server.store.schema import PLAYING
from campfire.server.tables.live import BOT, LiveTable

log = logging.getLogger("campfire.server")


class Owning(Protocol):
    async def take(self, table: LiveTable) -> str | None: ...


class BotHost(Protocol):
    """What driving the bots needs of the process around it: its leases, its seeds and the one
    way a move is made (the same as a person's)."""

    bus: Bus
    closing: bool
    bot_pause: float

    @property
    def owners(self) -> Owning: ...

    def seed_for(self, table_id: str, salt: int) -> int: ...

    async def act(
        self, table: LiveTable, seat: int, action: Mapping[str, Any], at: int | None
    ) -> None: ...


class BotDriver:
    def __init__(self, hub: BotHost) -> None:
        self.hub = hub

    def seat_bots(self, table: LiveTable) -> None:
        for seat in table.seats:
            if seat.kind == BOT and seat.bot is None:
                assert seat.level is not None
                seat.bot = make_bot(table.game, seat.level, self.hub.seed_for(table.id, seat.seat))

    def kick(self, table: LiveTable) -> None:
        """Make sure a bot whose turn it is gets to play (here, or where its lease is held)."""
        if self.hub.closing or table.status != PLAYING:
            return
        seat = table.to_move
        if seat is None or table.seats[seat].kind != BOT:
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._lease_and_drive(table))

    async def stop(self, tables: list[LiveTable]) -> None:
        drivers = [t.driver for t in tables if t.driver is not None]
        for task in drivers:
            task.cancel()
        for task in drivers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _lease_and_drive(self, table: LiveTable) -> None:
        """Drive the bots if this process owns the table, or takes it now that nobody does
        (the bus renews the lease; losing it cancels this task, `Owners.lost`)."""
        if await self.hub.owners.take(table) != self.hub.bus.process:
            return
        await self._drive(table)

    async def _drive(self, table: LiveTable) -> None:
        hub = self.hub
        TABLE.set(table.id)  # this task's log lines name the table
        while table.status == PLAYING and not hub.closing and hub.bus.owns(table.id):
            seat = table.state.to_move
            if seat is None or table.seats[seat].kind != BOT:
                return
            pause = hub.bot_pause * table.web.pause_factor(table.last_kinds)
            if pause:
                await asyncio.sleep(pause)
            at = table.at
            if table.state.to_move != seat or table.seats[seat].kind != BOT:
                continue
            view = table.state.view(seat)
            legal = table.state.legal_actions()
            bot = table.seats[seat].bot
            assert bot is not None
            try:
                with timed(BOT_DECISION_SECONDS):
                    action = await anyio.to_thread.run_sync(bot.choose, view, legal)
            except Exception:
                log.exception("the %s bot at table %s failed; it plays at random", seat, table.id)
                action = RandomBot(hub.seed_for(table.id, at)).choose(view, legal)
            try:
                await hub.act(table, seat, table.game.action_to_json(action), at)
            except Exception as error:
                if table.at == at:
                    log.error("bot %s at table %s is stuck: %s", seat, table.id, error)
                    return
