"""What the operator and the proxy ask a process: `GET /metrics` (Prometheus text), `GET
/healthz` (the process runs), `GET /readyz` (it can serve: the database and Redis answer, and
it is not draining), and the drain that runs on SIGTERM before an upgrade.

None of these is part of the game's API (they are not under `/api`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from campfire.server import metrics
from campfire.server.cluster.bus import RedisBus
from campfire.server.store.schema import FINISHED
from campfire.server.tables.handover import hand_over
from campfire.server.tables.hub import Hub

log = logging.getLogger("campfire.server")

#: seconds a readiness look waits for the database or Redis before it says "not ready"
CHECK_SECONDS = 2.0
#: seconds a draining process still answers (readiness 503, sockets refused, requests in
#: flight finished) after handing over, so a proxy or balancer sees it go; capped by the drain
LINGER_SECONDS = 1.0
#: the default of `campfire serve --drain-seconds`
DRAIN_SECONDS = 10.0


class Operations:
    """A process's health, readiness and drain."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.draining = False
        self._drain: asyncio.Task[None] | None = None

    def sample(self) -> None:
        """Set the gauges that are read off the live state."""
        metrics.TABLES_LIVE.set(sum(1 for t in self.hub.tables.values() if t.status != FINISHED))

    async def checks(self) -> dict[str, str]:
        """Each dependency's answer: "ok", or why not."""
        out = {"database": await self._check(asyncio.to_thread(self._ping_database))}
        bus = self.hub.bus
        if isinstance(bus, RedisBus):
            out["redis"] = await self._check(bus.redis.ping())
        return out

    def _ping_database(self) -> None:
        with self.hub.storage.raw_engine.connect() as db:
            db.execute(text("SELECT 1"))

    @staticmethod
    async def _check(call: Any) -> str:
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                await call
        except TimeoutError:
            return f"no answer in {CHECK_SECONDS:g} s"
        except Exception as error:
            return f"{type(error).__name__}: {str(error).strip()[:200]}"
        return "ok"

    def begin_drain(self, seconds: float, done: Callable[[], None]) -> None:
        """Start the drain (SIGTERM): stop being ready, hand the tables over, tell the sockets to
        reconnect, linger a moment, then call `done` (the server then stops listening, finishes
        the requests in flight and the writer's moves, and exits)."""
        if self._drain is not None:
            return
        self.draining = True
        self._drain = asyncio.get_running_loop().create_task(self._drain_then(seconds, done))

    async def _drain_then(self, seconds: float, done: Callable[[], None]) -> None:
        start = time.monotonic()
        log.warning("draining: at most %g s until this process exits", seconds)
        try:
            budget = max(0.0, seconds - LINGER_SECONDS)
            async with asyncio.timeout(budget):
                # the sockets told over at most half the time left, the rest for the writes
                await hand_over(self.hub, within=budget / 2)
        except Exception as error:
            log.error("handing over failed: %s", error)
        with contextlib.suppress(Exception):
            await asyncio.sleep(max(0.0, min(LINGER_SECONDS, seconds - (time.monotonic() - start))))
        done()


def add_ops_routes(app: FastAPI, ops: Operations) -> None:
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """The process runs and its event loop answers (nothing else is asked)."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> Response:
        """200 when the database (and Redis, if configured) answer; 503 otherwise, and while the
        process drains before it stops."""
        if ops.draining:
            return JSONResponse({"status": "draining"}, status_code=503)
        checks = await ops.checks()
        ready = all(v == "ok" for v in checks.values())
        return JSONResponse(
            {"status": "ready" if ready else "unavailable", "checks": checks},
            status_code=200 if ready else 503,
        )

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        ops.sample()
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)
