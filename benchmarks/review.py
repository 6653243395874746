"""The reviewer against its targets: losses that order the bot levels, and its CPU cost.

    .venv/bin/python -m benchmarks.review                 # 72 games a game (a long while)
    .venv/bin/python -m benchmarks.review --games 4       # a smoke run
    .venv/bin/python -m benchmarks.review --jobs 2        # games spread over 2 processes

Each game seats random, easy, medium and expert at a 4-player table (in each of their 24
orders in turn), plays it out and reviews the whole record (`campfire.review.review_record`).

- **Loss per decision, by level**: the mean loss of a level's decisions, with a 95% interval
  over games (each game's mean for that level is one sample: the decisions of one game are not
  independent). The target: random > easy > medium > expert.
- **CPU per whole game reviewed** (`time.process_time` of the review in the process doing it,
  so other work on the machine does not count against it): median over the first 20 games,
  against the targets (Pow Wow 10 s, Waka Tanka 20 s on one core), beside the reference of the
  same run: replaying the record without judging it.

The load average is printed at the start and the end: what else the machine was doing.

`--server`: the server's move round trip (a Waka Tanka table of four people, one WebSocket a
seat, as `benchmarks.server` times it) with no review running, the reference, then while
reviews of freshly finished bot tables run one after another (each one computed anew in the
server's reviewing process): the median, p95 and p99 of both.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

LEVELS = ("random", "easy", "medium", "expert")
#: every order of the four levels around the table, game after game: who sits after whom
#: matters (in Waka Tanka the next player calls your plays), so no order is favoured
SEATINGS = list(itertools.permutations(LEVELS))
TARGET_SECONDS = {"powwow": 10.0, "wakatanka": 20.0}


def one_game(name: str, index: int) -> dict[str, Any]:
    """Game `index` of `name`: played out by the four levels, then reviewed and timed."""
    from campfire.bots.match import play_one
    from campfire.kernel import Record, get_game
    from campfire.review import review_record

    game = get_game(name)
    seats = list(SEATINGS[index % len(SEATINGS)])
    state = play_one(game, 4, {}, seats, f"review/{name}/{index}")
    record = Record.of(state)
    started = time.process_time()
    record.replay()
    replay = time.process_time() - started
    started = time.process_time()
    review = review_record(record)
    seconds = time.process_time() - started
    losses: dict[str, list[float]] = {level: [] for level in LEVELS}
    for d in review.decisions:
        losses[seats[d.seat]].append(d.loss)
    return {
        "index": index,
        "seats": seats,
        "losses": losses,
        "decisions": len(review.decisions),
        "seconds": seconds,
        "replay_seconds": replay,
    }


def interval(samples: list[float]) -> tuple[float, float, float]:
    """The mean and a 95% interval (normal approximation over the samples)."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return mean, mean - half, mean + half


def summarise(name: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    by_level = {}
    for level in LEVELS:
        per_game = [statistics.fmean(g["losses"][level]) for g in games if g["losses"][level]]
        decisions = sum(len(g["losses"][level]) for g in games)
        mean, low, high = interval(per_game)
        by_level[level] = {
            "decisions": decisions,
            "mean_loss": round(mean, 4),
            "low": round(low, 4),
            "high": round(high, 4),
        }
    means = [by_level[level]["mean_loss"] for level in LEVELS]
    timed = [g["seconds"] for g in sorted(games, key=lambda g: g["index"])[:20]]
    return {
        "game": name,
        "games": len(games),
        "levels": by_level,
        "ordered": all(a > b for a, b in itertools.pairwise(means)),
        "separated": all(
            by_level[a]["low"] > by_level[b]["high"] for a, b in itertools.pairwise(LEVELS)
        ),
        "seconds": {
            "timed_games": len(timed),
            "median": round(statistics.median(timed), 2),
            "max": round(max(timed), 2),
            "target": TARGET_SECONDS[name],
            "decisions_per_game": round(statistics.fmean(g["decisions"] for g in games), 1),
            "replay_ms_median": round(
                1000 * statistics.median(g["replay_seconds"] for g in games), 1
            ),
        },
    }


def show(summary: dict[str, Any]) -> None:
    print(f"\n{summary['game']}: {summary['games']} games of random, easy, medium, expert")
    print(f"{'level':<8} {'decisions':>9} {'mean loss':>10}   95% interval")
    for level, row in summary["levels"].items():
        print(
            f"{level:<8} {row['decisions']:>9} {row['mean_loss']:>10.4f}"
            f"   [{row['low']:.4f}, {row['high']:.4f}]"
        )
    print(
        f"ordered random > easy > medium > expert: {summary['ordered']}"
        f" (intervals apart: {summary['separated']})"
    )
    s = summary["seconds"]
    print(
        f"CPU per whole game reviewed: median {s['median']} s over {s['timed_games']} games"
        f" (max {s['max']} s; target {s['target']} s), {s['decisions_per_game']} decisions a"
        f" game; reference: replaying the record {s['replay_ms_median']} ms"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def server_p99(moves: int, tables: int = 8) -> dict[str, Any]:
    """Move round trips on a served SQLite database, without and with reviews running."""
    import random
    import tempfile
    import threading
    from pathlib import Path

    import httpx

    from benchmarks.server import Served, over_websockets

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        served = Served(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", None)
        stop = threading.Event()
        reviewed = [0]

        # finished bot tables made beforehand: while the moves are timed, the server only
        # reviews them (one after another, each a new review), it plays no bot game
        http = httpx.Client(base_url=served.base, timeout=600)
        finished = []
        for _ in range(tables):
            bots = {str(s): "medium" for s in range(4)}
            body = {"game": "wakatanka", "players": 4, "bots": bots}
            finished.append(http.post("/api/tables", json=body).json()["id"])
        for table_id in finished:
            while http.get(f"/api/tables/{table_id}").json()["status"] != "finished":
                time.sleep(0.05)

        def review_load() -> None:
            for table_id in finished:
                if stop.is_set():
                    return
                http.get(f"/api/tables/{table_id}/review").raise_for_status()
                reviewed[0] += 1

        try:
            over_websockets(served, 40, random.Random(0))  # warm up
            for label, load in (("without reviews", False), ("while reviews run", True)):
                thread = threading.Thread(target=review_load) if load else None
                if thread is not None:
                    thread.start()
                times = over_websockets(served, moves, random.Random(1))
                stop.set()
                if thread is not None:
                    thread.join()
                out[label] = {
                    "moves": len(times),
                    "p50_ms": round(1000 * statistics.median(times), 2),
                    "p95_ms": round(1000 * percentile(times, 0.95), 2),
                    "p99_ms": round(1000 * percentile(times, 0.99), 2),
                }
                stop.clear()
            out["reviews_made"] = reviewed[0]
        finally:
            http.close()
            served.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=72)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", choices=["powwow", "wakatanka"], action="append")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--server", type=int, metavar="MOVES", default=0)
    args = parser.parse_args()
    if args.server:
        print(f"load average at the start: {os.getloadavg()}", flush=True)
        found = server_p99(args.server)
        for label in ("without reviews", "while reviews run"):
            row = found[label]
            print(
                f"move over WebSocket, {label:<17}: p50 {row['p50_ms']} ms, p95 {row['p95_ms']}"
                f" ms, p99 {row['p99_ms']} ms ({row['moves']} moves)"
            )
        print(f"reviews made while the moves were timed: {found['reviews_made']}")
        print(f"load average at the end: {os.getloadavg()}", flush=True)
        return
    names = args.game or ["powwow", "wakatanka"]
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    out = []
    for name in names:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(one_game, [name] * args.games, range(args.games)))
        summary = summarise(name, games)
        out.append(summary)
        if not args.json:
            show(summary)
    print(f"load average at the end: {os.getloadavg()}", flush=True)
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
