"""The one writer of one live table in this process.

A `LiveTable` is a cache of the database; `Room` is the only code that moves that cache on: it
alone assigns the table's `version`, its state and record position, and it alone makes a
change current, tells the local seats and wakes the bots, in that order, in one place. Whoever
changes a table (a move made here, entries another process stored, a seat taken or handed
over) first stores the change, then hands the stored result to the room, under the room's lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from campfire.kernel import Event, IllegalAction, State
from campfire.kernel.records import apply_entry
from campfire.server.metrics import count_moves
from campfire.server.store.schema import FINISHED
from campfire.server.tables.clock import clock_event
from campfire.server.tables.live import LiveTable, SeatPart

log = logging.getLogger("campfire.server")


class Room:
    """One table's single writer: its lock, its version, and "make current, tell, kick"."""

    def __init__(
        self,
        table: LiveTable,
        kick: Callable[[LiveTable], None],
        ended: Callable[[LiveTable], None] | None = None,
    ) -> None:
        self.table = table
        self._kick = kick
        #: told once the game ends, as this copy sees it (the hub writes the results)
        self._ended = ended

    @property
    def lock(self) -> asyncio.Lock:
        """Held by every change to the table, from the look before storing to being told."""
        return self.table.lock

    def replay(
        self, entries: list[dict[str, Any]], timed_out: dict[int, int] | None = None
    ) -> tuple[State[Any, Any], list[tuple[int, Event]]] | None:
        """Stored entries applied through the rules to a copy (the table is not changed);
        None if one fails. A seat in `timed_out` had its turn played by the clock: its move
        says so."""
        table = self.table
        timed_out = dict(timed_out or {})
        state = table.state.clone()
        stamped: list[tuple[int, Event]] = []
        for raw in entries:
            mover = raw.get("player")
            try:
                events = apply_entry(state, raw)
            except (ValueError, IllegalAction) as error:
                log.error("table %s: stored entry %s does not apply: %s", table.id, raw, error)
                return None
            if mover in timed_out:
                strikes = timed_out.pop(mover)
                events = [clock_event(mover, strikes), *events]
            stamped.extend((len(state.history), e) for e in events)
        return state, stamped

    def made_current(
        self,
        state: State[Any, Any] | None,
        stamped: list[tuple[int, Event]],
        *,
        status: str,
        deadline: float | None,
        version: int,
        updated: float | None = None,
        changed: bool = True,
    ) -> None:
        """A stored change becomes this copy's: the new state (None: the same), then every local
        seat is told (its events, or only the table's meta when `changed` and no events), then
        the bots are woken. The only place moves reach the table."""
        table = self.table
        ended = status == FINISHED and table.status != FINISHED
        if state is not None:
            count_moves(state.history[table.at :])
            table.state = state
            table.at = len(state.history)
            table.events.extend(stamped)
            table.last_kinds = {e.kind for _, e in stamped}
        table.status = status
        table.deadline = deadline
        self.stamp(version, updated)
        table.moved_on()
        if stamped:
            table.broadcast(stamped)
        elif changed:
            table.broadcast_meta()
        self.kick()
        if ended and self._ended is not None:
            self._ended(table)

    def relayed(
        self,
        entries: list[dict[str, Any]],
        parts: list[SeatPart | None],
        *,
        status: str,
        deadline: float | None,
        version: int,
        to_move: int | None,
        winners: list[int],
    ) -> None:
        """The owner's stored change, taken without the rules: its entries are kept aside
        until something here reads the game (`LiveTable.settle`), and every local seat is
        told what the owner says it is shown (`parts`: seat 0, 1, ..., then the spectators)."""
        table = self.table
        ended = status == FINISHED and table.status != FINISHED
        table.relayed.extend(entries)
        table.at += len(entries)
        table.relayed_to_move, table.relayed_winners = to_move, winners
        table.last_kinds = {e.kind for part in parts if part for _, e in part.events}
        table.status = status
        table.deadline = deadline
        self.stamp(version)
        table.moved_on()
        by_seat: dict[int | None, SeatPart] = {
            seat: part for seat, part in enumerate(parts[:-1]) if part is not None
        }
        spectators = parts[-1]
        if spectators is not None:
            by_seat[None] = spectators
        table.tell(by_seat)
        self.kick()
        if ended and self._ended is not None:
            self._ended(table)

    def stamp(self, version: int, updated: float | None = None) -> None:
        """The database row's version this copy now reflects (the only assignment of it)."""
        self.table.version = version
        self.table.updated = time.time() if updated is None else updated

    def seats_changed(self, version: int, *, touch: bool = True) -> None:
        """A stored change of seats, host or next table: the new version, and every local seat
        sees the table's meta. `touch`: the change counts as the table's last activity."""
        updated = None if touch else self.table.updated
        self.stamp(version, updated)
        self.table.broadcast_meta()

    def kick(self) -> None:
        """Wake the bot whose turn it is (here, or where its lease is held)."""
        self._kick(self.table)
