"""What an operator sees of a server process: Prometheus metrics (`GET /metrics`).

One set of metrics per process, in prometheus-client's default registry. Under `campfire serve
--workers N` the serve command gives the workers one `PROMETHEUS_MULTIPROC_DIR` (a temporary
folder it makes and removes), and `exposition` sums every worker's values, so one scrape of the
port shows the whole port. The gauges say how they add up across processes (`livesum`: only
the processes alive now). Pure: imports nothing of the server, so every layer may count.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess

from campfire.kernel import PlayerMove

#: the environment variable prometheus-client reads for its multiprocess folder
MULTIPROC_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"

#: seconds; a move, a commit and a bot's decision are milliseconds when all is well
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)
#: seconds the event loop came late to a timer: a millisecond is fine, 100 ms is a stall
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

MOVES_APPLIED = Counter(
    "campfire_moves_applied",
    "Player moves this process applied through the rules (its own and other processes')",
)
NOTICES_RECEIVED = Counter(
    "campfire_notices_received",
    "Bus notices this process received that another process published",
)
NOTICES_UNSERVED = Counter(
    "campfire_notices_unserved",
    "Bus messages this process received about a table it holds no socket of",
)
NOTICES_PUBLISHED = Counter(
    "campfire_notices_published", "Bus notices this process published for the others"
)
NOTICES_UNHEARD = Counter(
    "campfire_notices_unheard",
    "Bus notices this process did not publish because no other process hears the table",
)
MOVE_SECONDS = Histogram(
    "campfire_move_seconds",
    "From an act received to its move stored and queued to every local seat",
    buckets=FAST_BUCKETS,
)
TABLES_LIVE = Gauge(
    "campfire_tables_live",
    "Tables waiting or being played held in this process's memory",
    multiprocess_mode="livesum",
)
SOCKETS = Gauge(
    "campfire_sockets", "Open table WebSockets on this process", multiprocess_mode="livesum"
)
BOT_DECISION_SECONDS = Histogram(
    "campfire_bot_decision_seconds",
    "Time a bot took to choose its move (its pause before playing not counted)",
    buckets=FAST_BUCKETS,
)
DB_COMMIT_SECONDS = Histogram(
    "campfire_db_commit_seconds",
    "Time one group commit of moves took (statements and commit)",
    buckets=FAST_BUCKETS,
)
EVENT_LOOP_LAG_SECONDS = Histogram(
    "campfire_event_loop_lag_seconds",
    "How late the event loop woke a periodic timer: time it was busy with something else",
    buckets=LAG_BUCKETS,
)

#: seconds between two looks at the event loop's lag (and the gauges sampled with it)
SAMPLE_SECONDS = 0.5


def count_moves(entries: Iterable[Any]) -> None:
    """Count the player moves among new record entries (stored dicts with a `player`, or
    kernel `PlayerMove`s); chance outcomes are not moves."""
    moves = sum(
        1
        for entry in entries
        if isinstance(entry, PlayerMove) or (isinstance(entry, dict) and "player" in entry)
    )
    if moves:
        MOVES_APPLIED.inc(moves)


@contextlib.contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    """Observe the seconds the block took, whether it finished or raised."""
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - start)


async def watch_loop(sample: Any = None, every: float = SAMPLE_SECONDS) -> None:
    """Measure how late the event loop wakes up (`campfire_event_loop_lag_seconds`) and call
    `sample()` (which sets the gauges) on each round, until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        EVENT_LOOP_LAG_SECONDS.observe(max(0.0, loop.time() - start - every))
        if sample is not None:
            sample()


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_VARIABLE))


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus text format, and its content type: this process's, or every
    worker's of the port together in multiprocess mode."""
    if multiprocess():
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def process_gone(pid: int) -> None:
    """Forget a worker that exited (its live gauges no longer count)."""
    if multiprocess():
        _multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
