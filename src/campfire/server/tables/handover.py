"""A process that is about to stop hands its tables over: nothing it acknowledged is lost and
nobody waits for it.

On SIGTERM (`campfire serve`, see `http/ops.py`) the process stops its bots and lets the owner
leases of its tables go at once (the bus notices ask the other processes to look, so the next
one takes a table now instead of after its lease runs out), tells every socket to reconnect
(close code 1012, "service restart"; the page reconnects at once and the proxy sends it to
another process),
and lets the writer finish: the moves already handed to it are committed before the process
exits (`Hub.stop`).
"""

from __future__ import annotations

import logging

from campfire.server.protocol import NoticeKind
from campfire.server.store.schema import PLAYING
from campfire.server.tables.hub import Hub

log = logging.getLogger("campfire.server")

#: "service restart": the server goes away for a moment, reconnect (RFC 6455 registry)
RESTART_CODE = 1012


async def hand_over(hub: Hub) -> int:
    """Release this process's tables to the others and close its sockets with 1012; gives
    how many sockets were told. The moves already queued for the writer still commit."""
    tables = list(hub.tables.values())
    driven = [t for t in tables if t.driver is not None and not t.driver.done()]
    hub.closing = True  # no bot starts again here, no new notices are taken
    await hub.bots.stop(tables)
    owned = set(await hub.bus.disown_all())
    told = 0
    for table in tables:
        for conn in list(table.connections):
            conn.close_code = RESTART_CODE
            conn.push(None)
            told += 1
    handed = [t for t in tables if t in driven or t.id in owned]
    for table in handed:
        if table.status == PLAYING:
            # whoever holds the table looks at it now and takes its bots' lease
            await hub.bus.publish(table.id, NoticeKind.MOVES)
        log.warning(
            "table %s handed over: its owner lease released", table.id, extra={"table": table.id}
        )
    log.warning(
        "handing over: %d tables released, %d sockets told to reconnect",
        len(handed),
        told,
    )
    return told
