"""The server tenures long-lived objects so that full collections stay short; garbage in cycles
among them is still freed at the next thaw, and new cycles as ever."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

from campfire.server.collector import Tenure


class Node:
    """An object in a reference cycle with itself: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


async def until(done: weakref.ref[Node] | None = None, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while (done() is not None) if done is not None else gc.get_freeze_count() == 0:
        assert time.monotonic() < deadline, "the tenure loop did not get there"
        await asyncio.sleep(0.01)


def test_a_tenured_cycle_waits_for_the_thaw_and_a_new_one_does_not() -> None:
    async def main() -> None:
        tenure = Tenure(tenure_every=3600, thaw_every=3600)
        old = Node()
        old_ref = weakref.ref(old)
        tenure.start()
        assert gc.get_freeze_count() > 0
        del old
        gc.collect()
        assert old_ref() is not None  # tenured: no collection looks at it
        young = Node()
        young_ref = weakref.ref(young)
        del young
        gc.collect()
        assert young_ref() is None  # made after the tenuring: collected as ever
        tenure.thaw()
        assert old_ref() is None
        await tenure.stop()
        assert gc.get_freeze_count() == 0

    asyncio.run(main())


def test_the_loop_tenures_and_thaws_by_itself() -> None:
    async def main() -> None:
        tenure = Tenure(tenure_every=0.02, thaw_every=0.3)
        tenure.start()
        gc.unfreeze()
        kept = Node()
        kept_ref = weakref.ref(kept)
        await until()  # tenured again by the loop, `kept` with the rest
        del kept
        await until(kept_ref)  # and freed by a thaw
        await tenure.stop()

    asyncio.run(main())
