"""Keep CPython's cycle collector from stopping the event loop for hundreds of milliseconds.

A full (generation 2) collection scans every tracked object. A busy server holds a great many
that live long: a thousand sockets' coroutines and closures, hundreds of tables' states and
events (about 380,000 objects at 300 tables of four). Measured under load, each full collection
stopped every table for 100-250 ms, and they came every half minute: that was the p99 of a move.

So objects that have lived a while are tenured (`gc.freeze`): moved where no collection looks.
Reference counting still frees them the moment they are dropped; only garbage held in reference
cycles among tenured objects waits, and it waits at most `thaw_every` seconds: then everything
is thawed and collected once, a single pause in that long a time instead of one every half minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger("campfire.server")

#: seconds between tenurings: what survived this long is likely to live on
TENURE_EVERY = 5.0
#: seconds between full collections of everything, tenured objects included
THAW_EVERY = 900.0


class Tenure:
    """The periodic tenuring of one process (start it once, from the server's lifespan)."""

    def __init__(self, tenure_every: float = TENURE_EVERY, thaw_every: float = THAW_EVERY) -> None:
        self.tenure_every = tenure_every
        self.thaw_every = thaw_every
        self._task: asyncio.Task[None] | None = None
        self._thawed = time.monotonic()

    def start(self) -> None:
        self.tenure()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()

    def tenure(self) -> None:
        """Collect the young generations (cheap: they are small), then tenure the survivors."""
        gc.collect(1)
        gc.freeze()

    def thaw(self) -> None:
        """Collect everything once, tenured objects included, and tenure what is left."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._thawed = time.monotonic()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tenure_every)
            started = time.perf_counter()
            if time.monotonic() - self._thawed >= self.thaw_every:
                self.thaw()
                log.debug("full collection took %.1f ms", (time.perf_counter() - started) * 1e3)
            else:
                self.tenure()
