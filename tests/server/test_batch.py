"""Asks made while a batch is out go together in the next, in order; a failed batch fails its
own askers only; an asker that gives up does not take the batch down."""

from __future__ import annotations

import asyncio

import pytest

from campfire.server.batch import Batcher, Each


def test_asks_made_while_a_batch_is_out_go_together_in_the_next_in_order() -> None:
    async def main() -> None:
        batches: list[list[int]] = []
        asked_at: dict[int, float] = {}
        started: list[float] = []
        loop = asyncio.get_running_loop()

        async def send(batch: list[int]) -> dict[int, int]:
            started.append(loop.time())
            batches.append(batch)
            await asyncio.sleep(0.02)
            return {n: n * n for n in batch}

        batcher: Batcher[int, dict[int, int]] = Batcher(send)

        async def ask(n: int) -> int:
            await asyncio.sleep(0.001 * n)
            asked_at[n] = loop.time()
            return (await batcher(n))[n]

        answers = await asyncio.gather(*(ask(n) for n in range(40)))
        assert answers == [n * n for n in range(40)]
        assert [n for batch in batches for n in batch] == list(range(40))
        assert len(batches) < 10  # not a round trip each
        # every batch began after each of its asks: an answer is never older than its question
        for batch, begun in zip(batches, started, strict=True):
            assert all(asked_at[n] <= begun for n in batch)

    asyncio.run(main())


def test_a_failed_batch_fails_its_askers_and_the_next_batch_goes_out() -> None:
    async def main() -> None:
        calls = 0

        async def send(batch: list[str]) -> list[str]:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0.01)
            if calls == 1:
                raise RuntimeError("the service went away")
            return batch

        batcher: Batcher[str, list[str]] = Batcher(send)
        first = await asyncio.gather(batcher("a"), batcher("b"), return_exceptions=True)
        assert [str(e) for e in first] == ["the service went away"] * 2
        assert await batcher("c") == ["c"]

    asyncio.run(main())


def test_an_asker_that_gives_up_leaves_the_others_their_answer() -> None:
    async def main() -> None:
        async def send(batch: list[int]) -> int:
            await asyncio.sleep(0.05)
            return sum(batch)

        batcher: Batcher[int, int] = Batcher(send)
        impatient = asyncio.ensure_future(batcher(1))
        patient = asyncio.ensure_future(batcher(2))
        await asyncio.sleep(0.01)
        impatient.cancel()
        assert await patient == 3
        with pytest.raises(asyncio.CancelledError):
            await impatient
        await batcher.flush(1.0)

    asyncio.run(main())


def test_each_asker_gets_its_own_answer_and_only_its_own_error() -> None:
    async def main() -> None:
        batches: list[list[int]] = []

        async def send(batch: list[int]) -> list[int | BaseException]:
            batches.append(batch)
            await asyncio.sleep(0.01)
            return [ValueError(f"no {n}") if n == 3 else n * 10 for n in batch]

        each: Each[int, int] = Each(send)

        async def ask(n: int) -> int:
            if n:  # after the first ask's batch went out
                await asyncio.sleep(0)
            return await each(n)

        answers = await asyncio.gather(*(ask(n) for n in range(6)), return_exceptions=True)
        assert answers[:3] == [0, 10, 20] and answers[4:] == [40, 50]
        assert isinstance(answers[3], ValueError) and str(answers[3]) == "no 3"
        assert batches == [[0], [1, 2, 3, 4, 5]]  # the rest waited for the first, together
        assert await each(7) == 70

    asyncio.run(main())
