"""Who may open a socket at a table: a seated player always gets in; spectators are bounded per
table and per address, so a crowd of anonymous sockets cannot lock the players out; a browser
page of another site may not open one at all (its `Origin` names another host)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from campfire.i18n import N_
from campfire.server.refusals import Refusal, Refused
from campfire.server.tables.connections import Connection

#: spectator connections one table accepts (seated players always get in)
SPECTATOR_LIMIT = 64
#: spectator connections one address may hold at one table
SPECTATORS_PER_ADDRESS = 8
#: connections one seat may hold at once: a further one replaces the seat's oldest
SEAT_CONNECTIONS = 8


def admit(connections: Iterable[Connection], seat: int | None, address: str) -> Connection | None:
    """Refuse a spectator over the limits (429); for a seat at its limit, the connection the
    new one replaces (the oldest of that seat), which the caller lets go."""
    if seat is not None:
        mine = [c for c in connections if c.seat == seat]
        return min(mine, key=lambda c: c.opened) if len(mine) >= SEAT_CONNECTIONS else None
    watching = [c for c in connections if c.seat is None]
    if len(watching) >= SPECTATOR_LIMIT:
        raise Refused(
            429,
            Refusal(
                N_("this table already has {limit} spectators: players still get in"),
                limit=SPECTATOR_LIMIT,
            ),
        )
    if sum(1 for c in watching if c.address == address) >= SPECTATORS_PER_ADDRESS:
        raise Refused(
            429,
            Refusal(
                N_("your address already watches this table {times} times: close a tab first"),
                times=SPECTATORS_PER_ADDRESS,
            ),
        )
    return None


def same_host(origin: str, host: str | None) -> bool:
    """Whether a browser's `Origin` names this server's host (the `Host` it was reached by);
    "null" and an unreadable origin do not."""
    wanted = urlsplit(f"//{host or ''}").hostname
    found = urlsplit(origin).hostname if origin != "null" else None
    return found is not None and wanted is not None and found == wanted


def check_origin(origin: str | None, host: str | None) -> None:
    """A WebSocket opened by a page must come from a page of this server (same host name);
    scripts that send no `Origin` are not browsers and are let through."""
    if origin is not None and not same_host(origin, host):
        raise Refused(
            403,
            Refusal(
                N_("this table's socket opens only from its own pages, not {origin!r}"),
                origin=origin[:80],
            ),
        )
