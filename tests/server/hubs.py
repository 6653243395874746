"""Two processes' hubs in one test: on one SQLite file, each with its own bus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campfire.server.cluster.bus import Bus
from campfire.server.protocol import Carried
from campfire.server.store.storage import Storage
from campfire.server.tables.hub import Hub


def started(tmp_path: Path, here_bus: Bus, there_bus: Bus) -> tuple[Hub, Hub]:
    """Two processes' hubs on one SQLite file, their writers running."""
    url = f"sqlite:///{tmp_path / 'hub.sqlite3'}"
    here, there = Hub(Storage(url), here_bus, seed=1), Hub(Storage(url), there_bus, seed=2)
    for hub in (here, there):
        hub.writer.start()
    return here, there


def stopped(*hubs: Hub) -> None:
    for hub in hubs:
        hub.writer.stop()
        hub.storage.close()


class Recording(Bus):
    """The bus of one process among several, with the notices it sends kept for a test to
    deliver (as Redis would) to another process's hub."""

    shared = True

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, str, Carried | None]] = []

    async def publish(self, table_id: str, kind: str, data: Carried | None = None) -> None:
        self.sent.append((table_id, kind, data))


def counted_reads(hub: Hub) -> list[int]:
    """The start index of every read of a table's changes the hub makes from now on."""
    reads: list[int] = []
    load_since = hub.storage.load_since

    def counted(*args: Any) -> Any:
        reads.append(args[1])
        return load_since(*args)

    hub.storage.load_since = counted  # type: ignore[method-assign,assignment]
    return reads
