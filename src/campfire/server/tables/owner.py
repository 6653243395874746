"""One owner per live table: the one process that applies its moves, drives its bots, plays its
clock and writes its moves to the database (several processes only; one process owns all).

The owner holds the table's owner lease on the bus (`Bus.own`, `SET NX PX`, renewed while it
holds the table). An act that reaches a process which does not own the table is forwarded to
the owner over the bus and the owner's answer (done, or the refusal) is relayed to the socket;
when nobody holds the lease, the asking process takes it (catching up from the database
first) and applies the act itself; the process that stores a game's deal takes the lease
right then, without reading back what it just stored (usually the process that serves the
table); when the owner does not answer (it died), the asker takes the lease once it runs out.
A seat change of a game under way (a seat handed to a bot, or taken back from one) goes to
the owner the same way, since the owner drives the bots and plays the clock; a seat change of
a waiting table (a join, a leave, a removal, a cancellation) is written by the process that
receives it, fenced by the table's row lock: a waiting table has no owner, as nothing runs
there until the game starts.

Fencing: the database stores a table's moves by record index, and a move is stored only at
the index the table is at (`Writer.append`: `Conflict` otherwise). An owner that lost its
lease without noticing (a stalled event loop, a partition from Redis) and writes after the new
owner gets that conflict: it steps down (lets the lease go, stops its bots) and catches up
from the database; it does not retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast

from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.server.cluster.bus import OWNER_SECONDS, Bus
from campfire.server.protocol import ActAnswered, ActAsked, Question, SeatChange, SeatChangeAsked
from campfire.server.refusals import Refused, from_meaning, meaning
from campfire.server.tables.live import LiveTable
from campfire.server.tables.room import Room

log = logging.getLogger("campfire.server")

#: seconds an asker waits for the owner's answer before it counts the owner as gone
ASK_SECONDS = 3.0
#: seconds an asker waits for the notice of a move the owner said it made, before it reads
#: the move from the database
NOTICE_SECONDS = 0.5
#: seconds between an asker's looks at the lease of an owner that does not answer
LOOK_SECONDS = 0.25

#: what a socket hears when neither the owner answers nor its lease runs out in time
OWNER_SILENT = Refusal(
    N_("the process that holds this table did not answer: nothing was applied, try again")
)


class CatchUp(Protocol):
    async def catch_up(self, table: LiveTable) -> None: ...


class OwnerHost(Protocol):
    """What owning tables needs of the process around it."""

    bus: Bus
    tables: dict[str, LiveTable]

    @property
    def sync(self) -> CatchUp: ...

    def room(self, table: LiveTable) -> Room: ...

    async def get(self, table_id: str) -> LiveTable: ...

    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: Mapping[str, Any],
        at: int | None,
        *,
        forwarded: bool = False,
    ) -> None: ...

    async def hand_to_bot(
        self,
        table: LiveTable,
        by: int,
        seat: int,
        level: str | None = None,
        *,
        forwarded: bool = False,
    ) -> None: ...

    async def reclaim(
        self,
        table: LiveTable,
        token: str | None,
        *,
        hashed: str | None = None,
        forwarded: bool = False,
    ) -> int: ...


class Owners:
    """Taking, keeping and giving up the owner lease of this process's tables."""

    def __init__(self, hub: OwnerHost) -> None:
        self.hub = hub

    def owns(self, table: LiveTable) -> bool:
        return self.hub.bus.owns(table.id)

    async def take(self, table: LiveTable, *, current: bool = False) -> str | None:
        """The owning process after trying to take the table: this process's name when it
        owns it (a process that just took it has caught up from the database first, unless
        the caller says its copy is `current`: it holds the table's lock and has just stored
        the table's last change itself), another process's, or None when the bus could not
        say."""
        bus = self.hub.bus
        if not bus.shared or bus.owns(table.id):
            return bus.process
        holder = await bus.own(table.id)
        if holder == bus.process and not current:
            async with table.lock:
                await self.hub.sync.catch_up(table)
        return holder

    async def forward(
        self, table: LiveTable, seat: int, action: Mapping[str, Any], at: int | None
    ) -> bool:
        """True when the table's owner (another process) did the act (its refusal is raised
        here); False when this process owns the table now and applies the act itself."""
        answer = await self._ask(
            table,
            lambda: ActAsked(
                id=secrets.token_hex(8), table=table.id, seat=seat, action=dict(action), at=at
            ),
        )
        if answer is None:
            return False
        await self._answered(table, answer)
        return True

    async def change(
        self,
        table: LiveTable,
        change: SeatChange,
        *,
        by: int | None = None,
        seat: int | None = None,
        level: str | None = None,
        hashed: str | None = None,
    ) -> ActAnswered | None:
        """A seat change of a game under way goes to the table's owner, as an act does: its
        answer when another process made it (its refusal raised here, this copy brought up to
        it), None when this process owns the table now and makes the change itself."""
        answer = await self._ask(
            table,
            lambda: SeatChangeAsked(
                id=secrets.token_hex(8),
                table=table.id,
                change=change,
                by=by,
                seat=seat,
                level=level,
                hash=hashed,
            ),
        )
        if answer is None:
            return None
        await self._answered(table, answer)
        # a seat change leaves the record as it was: this copy reads the seats as stored
        async with table.lock:
            await self.hub.sync.catch_up(table)
        return answer

    async def _ask(self, table: LiveTable, question: Callable[[], Question]) -> ActAnswered | None:
        """The owner's answer to `question`, or None when this process owns the table (it
        took the lease, nobody holding it, or the silent owner's ran out)."""
        bus = self.hub.bus
        holder = await self.take(table)
        deadline = time.monotonic() + OWNER_SECONDS + ASK_SECONDS
        while holder != bus.process:
            if holder is None:
                raise Refused(503, OWNER_SILENT)
            answer = await bus.ask(holder, question(), ASK_SECONDS)
            if answer is not None:
                return answer
            log.warning("table %s: its owner %s does not answer", table.id, holder)
            silent = holder
            # the owner died (or is cut off): its lease runs out, and this process takes it
            while holder == silent:
                if time.monotonic() > deadline:
                    raise Refused(503, OWNER_SILENT)
                await asyncio.sleep(LOOK_SECONDS)
                holder = await self.take(table)
        return None

    async def _answered(self, table: LiveTable, answer: ActAnswered) -> None:
        """The owner's answer: done (this copy is brought up to it), or its refusal raised."""
        try:
            status, reached = int(answer["status"]), int(answer["at"])
        except (KeyError, TypeError, ValueError):
            raise Refused(503, OWNER_SILENT) from None
        if status == 200:
            # the owner's notice is usually on its way (and carries what the seats are shown)
            if not await table.reached(reached, NOTICE_SECONDS):
                async with table.lock:
                    if table.at < reached:
                        await self.hub.sync.catch_up(table)
            if answer.get("moved"):  # the owner let the table go: its bots wake here
                self.hub.room(table).kick()
            return
        key, args = answer.get("key"), answer.get("args")
        reason: str = str(answer.get("reason") or OWNER_SILENT)
        if isinstance(key, str) and isinstance(args, dict):
            with contextlib.suppress(KeyError, IndexError, ValueError):
                reason = from_meaning(key, args)
        raise Refused(status, reason)

    async def answer(self, question: Question) -> ActAnswered:
        """Another process forwarded a seat's act (or a seat change) to this process as the
        table's owner: do it, and say how it went. An owner that holds no socket of the table
        lets it go, so that the asker (which holds the sockets) owns it from its next act on."""
        answer = ActAnswered(id=str(question.get("id")), status=200, at=0, reason="", moved=False)
        table: LiveTable | None = None
        try:
            table_id = question["table"]
            if not isinstance(table_id, str):
                raise Refused(
                    422, Refusal(N_("a forwarded act must name a table, a seat and an action"))
                )
            table = await self.hub.get(table_id)
            if await self.take(table) != self.hub.bus.process:
                raise Refused(503, OWNER_SILENT)
            if "change" in question:
                seat = await self._change(table, cast(SeatChangeAsked, question))
                if seat is not None:
                    answer["seat"] = seat
            else:
                await self._act(table, question)
        except Refused as refused:
            answer["status"], answer["reason"] = refused.status, str(refused.reason)
            key, args = meaning(refused.reason)
            if key is not None and args is not None:
                answer["key"], answer["args"] = key, args
        except Exception:
            log.exception("answering a forwarded act failed")
            answer["status"], answer["reason"] = 503, OWNER_SILENT
        if table is not None:
            answer["at"] = table.at
            if not table.connections and self.owns(table):
                await self.let_go(table)
                answer["moved"] = True
        return answer

    async def _act(self, table: LiveTable, question: ActAsked) -> None:
        seat, action, at = question["seat"], question["action"], question.get("at")
        if not (
            isinstance(seat, int)
            and isinstance(action, dict)
            and (at is None or isinstance(at, int))
        ):
            raise Refused(
                422, Refusal(N_("a forwarded act must name a table, a seat and an action"))
            )
        await self.hub.act(table, seat, action, at, forwarded=True)

    async def _change(self, table: LiveTable, question: SeatChangeAsked) -> int | None:
        """Make a forwarded seat change; the seat a reclaim gave back."""
        change, by, seat = question.get("change"), question.get("by"), question.get("seat")
        level, hashed = question.get("level"), question.get("hash")
        if change == SeatChange.HAND_TO_BOT and (
            isinstance(by, int)
            and isinstance(seat, int)
            and (level is None or isinstance(level, str))
        ):
            await self.hub.hand_to_bot(table, by, seat, level, forwarded=True)
            return None
        if change == SeatChange.RECLAIM and isinstance(hashed, str):
            return await self.hub.reclaim(table, None, hashed=hashed, forwarded=True)
        raise Refused(422, Refusal(N_("a forwarded seat change must say what changes")))

    async def let_go(self, table: LiveTable) -> None:
        """Stop owning the table: its bots stop here, then its lease goes (after the change
        under way, if any, is stored and made current)."""
        async with table.lock:
            if table.driver is not None and not table.driver.done():
                table.driver.cancel()
            await self.hub.bus.disown(table.id)

    def stale(self, table: LiveTable) -> None:
        """The database refused this owner's move at an index another process stored first:
        this process is no longer the owner. It steps down (its bots stop, the lease goes) and
        the caller catches up from the database; nothing is retried."""
        if not self.hub.bus.shared:
            return
        log.warning("table %s: another process stored first; stepping down", table.id)
        driver = table.driver
        if driver is not None and not driver.done() and driver is not asyncio.current_task():
            driver.cancel()
        self.forget(table.id)

    def forget(self, table_id: str) -> None:
        """The table left this process (or its game ended): its lease goes, if held."""
        self.hub.bus.give_up(table_id)

    def lost(self, table_id: str) -> None:
        """The bus lost the table's lease (it ran out, or another took it): bots stop here."""
        table = self.hub.tables.get(table_id)
        if table is not None and table.driver is not None and not table.driver.done():
            table.driver.cancel()
