"""`campfire serve`'s uvicorn, with the drain on SIGTERM (`server/http/ops.py`: not ready, the
tables handed over, the sockets told 1012, the writes finished) in one process and in every
worker of `--workers N`.

Imported only when the server starts. The classes live at module level because a worker of
`--workers N` is a spawned process: its uvicorn `Process` object is pickled by reference."""

from __future__ import annotations

import asyncio
import signal
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess, multiprocess


def _drains(app: Any) -> Any:
    """The Campfire app under whatever uvicorn wrapped it in (its middlewares keep the app
    they wrap as `.app`); None when there is none (the app failed to load)."""
    while app is not None and not hasattr(getattr(app, "state", None), "ops"):
        app = getattr(app, "app", None)
    return app


class DrainingServer(uvicorn.Server):
    """uvicorn's server, but SIGTERM drains first and then exits with status 0; SIGINT (Ctrl-C)
    stops as before. `app`: the Campfire app when it was built here, else the one uvicorn
    loads (a worker builds its own)."""

    def __init__(self, config: uvicorn.Config, drain_seconds: float, app: Any = None) -> None:
        super().__init__(config)
        self.app = app
        self.drain_seconds = drain_seconds
        self.loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: Any = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        app = _drains(self.app if self.app is not None else self.config.loaded_app)
        if sig != signal.SIGTERM or self.loop is None or self.should_exit or app is None:
            super().handle_exit(sig, frame)
            return
        self.loop.call_soon_threadsafe(app.state.ops.begin_drain, self.drain_seconds, self._done)

    def _done(self) -> None:
        self.should_exit = True


class DrainingProcess(multiprocess.Process):
    """One worker of `--workers N`: a `DrainingServer` where uvicorn runs a plain one."""

    #: set by the supervisor before it makes its workers; each keeps its own copy, which
    #: travels with it to the spawned process
    drain_seconds = 10.0

    def __init__(self, config: uvicorn.Config, sockets: list[Any]) -> None:
        super().__init__(config, sockets)
        self.drain_seconds = type(self).drain_seconds

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = DrainingServer(self.config, self.drain_seconds)
        return self._server


class DrainingSupervisor(Multiprocess):
    """uvicorn's supervisor of workers, each worker a `DrainingProcess`: its SIGTERM reaches
    every worker, each drains, and the supervisor waits for them all."""

    def __init__(self, config: uvicorn.Config, sockets: list[Any], drain_seconds: float) -> None:
        super().__init__(config, sockets)
        self.drain_seconds = drain_seconds

    def run(self) -> None:
        # uvicorn's supervisor makes (and remakes, when one dies) its workers through the
        # module's `Process`; while this supervisor runs, that is the draining one
        DrainingProcess.drain_seconds = self.drain_seconds
        plain = multiprocess.Process
        multiprocess.Process = DrainingProcess  # type: ignore[misc]
        try:
            super().run()
        finally:
            multiprocess.Process = plain  # type: ignore[misc]


def serve_workers(config: uvicorn.Config, drain_seconds: float) -> None:
    """Run `config.workers` workers on one port, each draining on SIGTERM."""
    DrainingSupervisor(config, [config.bind_socket()], drain_seconds).run()
