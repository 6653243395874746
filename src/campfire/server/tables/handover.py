"""A process that is about to stop hands its tables over: nothing it acknowledged is lost and
nobody waits for it.

On SIGTERM (`campfire serve`, see `http/ops.py`) the process stops its bots, and table by
table, a slice at a time, lets the owner lease go (the bus notices ask the other processes to
look, so the next one takes a table now instead of after its lease runs out) and tells the
table's sockets to reconnect (close code 1012, "service restart"; the page reconnects at once
and the proxy sends it to another process),
and lets the writer finish: the moves already handed to it are committed before the process
exits (`Hub.stop`).
"""

from __future__ import annotations

import asyncio
import logging
import time

from campfire.server.protocol import NoticeKind
from campfire.server.store.schema import PLAYING
from campfire.server.tables.connections import RESTART_CODE
from campfire.server.tables.hub import Hub
from campfire.server.tables.live import LiveTable

log = logging.getLogger("campfire.server")

#: "service restart": the server goes away for a moment, reconnect (RFC 6455 registry)
#: sockets a draining process tells to reconnect per second at most. They all come back at the
#: other processes at once otherwise, and each waits there behind every one before it: 800
#: sockets told together came back after up to 5.6 s (their handshakes queued behind 800
#: table loads and first updates on the process that took them), on a quiet machine.
HANDOVER_RATE = 250.0
#: tables handed over together: a slice every 0.1 s at that rate
SLICE_SECONDS = 0.1


async def hand_over(hub: Hub, within: float = 4.0, rate: float = HANDOVER_RATE) -> int:
    """Release this process's tables to the others and close their sockets with 1012, a slice
    of tables at a time over at most `within` seconds; gives how many sockets were told. A
    table's lease goes just before its sockets are told (until then its moves are still
    applied here); a table nobody here looks at goes at once. The moves already queued for
    the writer still commit."""
    tables = list(hub.tables.values())
    driven = {t.id for t in tables if t.driver is not None and not t.driver.done()}
    hub.closing = True  # no bot starts again here, no new notices are taken
    await hub.bus.resign()  # nor a sweep: another process makes them from now on
    await hub.bots.stop(tables)
    sockets = sum(len(t.connections) for t in tables)
    seconds = min(within, sockets / rate) if rate > 0 else 0.0
    looked_at = [t for t in tables if t.connections]
    slices = _slices(looked_at, max(1, round(seconds / SLICE_SECONDS)))
    handed = await _release(hub, [t for t in tables if not t.connections], driven)
    told = 0
    begun = time.monotonic()
    for i, part in enumerate(slices):
        handed += await _release(hub, part, driven)
        for table in part:
            for conn in list(table.connections):
                conn.close_code = RESTART_CODE
                conn.push(None)
                told += 1
        if i + 1 < len(slices):
            due = begun + seconds * (i + 1) / len(slices)
            await asyncio.sleep(max(0.0, due - time.monotonic()))
    log.warning(
        "handing over: %d tables released, %d sockets told to reconnect over %.1f s",
        handed,
        told,
        time.monotonic() - begun,
    )
    return told


def _slices(tables: list[LiveTable], count: int) -> list[list[LiveTable]]:
    """The tables in `count` slices of about as many sockets each (a table's sockets together,
    so that a table moves to its next process whole)."""
    total = sum(len(t.connections) for t in tables)
    slices: list[list[LiveTable]] = [[] for _ in range(min(count, max(1, len(tables))))]
    seen = 0
    for table in tables:
        slices[min(len(slices) - 1, seen * len(slices) // max(1, total))].append(table)
        seen += len(table.connections)
    return [part for part in slices if part]


async def _release(hub: Hub, tables: list[LiveTable], driven: set[str]) -> int:
    """Let these tables' leases go; whoever holds a table being played looks at it now and
    takes its bots (a notice), instead of after the lease runs out."""
    owned = set(await hub.bus.disown_many([t.id for t in tables]))
    handed = [t for t in tables if t.id in driven or t.id in owned]
    for table in handed:
        if table.status == PLAYING:
            await hub.bus.publish(table.id, NoticeKind.MOVES)
        log.warning(
            "table %s handed over: its owner lease released", table.id, extra={"table": table.id}
        )
    return len(handed)
