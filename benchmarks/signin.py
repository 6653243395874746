"""Sign-in benchmark: the CPU one password check costs at Campfire's argon2id cost, against
named references in the same run, and how many checks a second the bounded pool gets through.

    .venv/bin/python -m benchmarks.signin            # about ten seconds
    .venv/bin/python -m benchmarks.signin --quick    # a smoke run

Figures: process CPU time and wall time of one verify (a sign-in: right or wrong password, or
an unknown name against the dummy hash, all the same work), median of many, at
- Campfire's cost (`campfire.accounts.passwords`: argon2id, 19 MiB, 2 passes, 1 lane; OWASP's
  first recommended setting),
- RFC 9106's second recommended option, argon2-cffi's default (64 MiB, 3 passes, 4 lanes),
- SHA-256 of the password once (what no one should do: the floor).
Then the throughput of `Hasher` (2 threads) with 50 sign-ins at once.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import statistics
import time
from collections.abc import Callable

from argon2 import PasswordHasher

from campfire.accounts.passwords import MEMORY_COST, PARALLELISM, TIME_COST, WORKERS, Hasher


def timed(check: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Median CPU seconds (this process, all threads) and wall seconds of one call."""
    cpu, wall = [], []
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        check()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 40
    password = "correct horse battery staple"
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")

    rows = []
    ours = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_COST, parallelism=PARALLELISM)
    stored = ours.hash(password)
    rows.append(
        (
            f"Campfire: argon2id m={MEMORY_COST // 1024} MiB t={TIME_COST} p={PARALLELISM}",
            timed(lambda: ours.verify(stored, password), rounds),
        )
    )
    rfc = PasswordHasher()  # argon2-cffi's default: RFC 9106 low-memory
    stored_rfc = rfc.hash(password)
    rows.append(
        (
            f"reference: argon2id m={rfc.memory_cost // 1024} MiB t={rfc.time_cost} "
            f"p={rfc.parallelism} (RFC 9106)",
            timed(lambda: rfc.verify(stored_rfc, password), max(3, rounds // 2)),
        )
    )
    rows.append(
        (
            "floor: one SHA-256",
            timed(lambda: hashlib.sha256(password.encode()).digest(), rounds),
        )
    )
    print(f"{'one sign-in check':<52} {'CPU ms':>8} {'wall ms':>8}")
    for label, (cpu, wall) in rows:
        print(f"{label:<52} {cpu * 1000:8.2f} {wall * 1000:8.2f}")

    async def flood(n: int) -> float:
        hasher = Hasher(queue=n)
        try:
            start = time.perf_counter()
            found = await asyncio.gather(*(hasher.verify(password, stored) for _ in range(n)))
            assert all(found)
            return time.perf_counter() - start
        finally:
            hasher.close()

    n = 10 if args.quick else 50
    took = asyncio.run(flood(n))
    print(
        f"{n} sign-ins at once through the pool ({WORKERS} threads): {took:.2f} s, "
        f"{n / took:.0f} a second"
    )
    print(f"load average at the end {os.getloadavg()[0]:.2f} (other work on the machine)")


if __name__ == "__main__":
    main()
