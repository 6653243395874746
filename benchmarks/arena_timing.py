"""Bot decision times and the cost of Pow Wow's exact odds, against their budgets.

    .venv/bin/python -m benchmarks.arena_timing            # a few minutes
    .venv/bin/python -m benchmarks.arena_timing --quick    # a smoke run

Every decision of every bot in whole games (hard against medium, tomahawks on and off) is timed
in this process's CPU time (`time.process_time`), so other work on a shared machine does not
count against a bot. Figures per game and level: decisions, mean, p50, p95, max in ms, and the
p95 against the budget the issue sets (hard: 1 s, medium: 50 ms); the random bot is the
reference of what a decision costs when nothing is thought.

The odds: `campfire odds` computes the exact distribution for one seat; its time per call is
shown against the "well under 10 ms" it must stay within, and against a Monte Carlo estimate of
the same distribution from 1000 dealt states (`Game.sample_state`), the obvious alternative.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from campfire.bots import make_bot
from campfire.games.powwow import PowwowView
from campfire.games.powwow.feathers import count
from campfire.games.powwow.odds import seat_odds
from campfire.kernel import get_game

BUDGET_MS = {"expert": 1000.0, "hard": 1000.0, "medium": 50.0}

SETTINGS: list[tuple[str, int, dict[str, Any]]] = [
    ("powwow", 4, {}),
    ("powwow", 4, {"tomahawks": True}),
    ("powwow", 2, {}),
    ("powwow", 2, {"tomahawks": True}),
    ("wakatanka", 4, {}),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def decision_times(
    name: str, players: int, options: dict[str, Any], games: int, top: str = "hard"
) -> dict[str, list[float]]:
    """CPU ms of each decision, by level, over `games` games of `top` vs medium (and random)."""
    game = get_game(name)
    levels = [top, *["medium"] * (players - 1)]
    if players > 2:
        levels[-1] = "random"
    times: dict[str, list[float]] = {level: [] for level in levels}
    for i in range(games):
        rng = random.Random(f"timing/{i}")
        seats = levels[i % players :] + levels[: i % players]
        bots = [make_bot(game, level, rng.randrange(2**32)) for level in seats]
        state = game.new_state(players, options, narrate=False)
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(rng))
                continue
            view, legal = state.view(seat), state.legal_actions()
            started = time.process_time()
            action = bots[seat].choose(view, legal)
            times[seats[seat]].append(1000 * (time.process_time() - started))
            state.apply(action)
    return times


def odds_views(count_wanted: int) -> list[PowwowView]:
    """Seat views from medium games, one or two unseen feathers, tomahawks on."""
    game = get_game("powwow")
    views: list[PowwowView] = []
    seed = 0
    while len(views) < count_wanted:
        rng = random.Random(seed)
        seed += 1
        state = game.new_state(5, {"tomahawks": True}, narrate=False)
        bots = [make_bot(game, "medium", s) for s in range(5)]
        while not state.is_terminal and len(views) < count_wanted:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(rng))
                continue
            views.append(state.view(seat))
            state.apply(bots[seat].choose(views[-1], state.legal_actions()))
    return views


def per_call(run: Callable[[], object], seconds: float) -> float:
    """CPU ms per call of `run`, over about `seconds`."""
    calls = 0
    started = time.process_time()
    while True:
        run()
        calls += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return 1000 * elapsed / calls


def _odds_of(view: PowwowView) -> Callable[[], object]:
    return lambda: seat_odds(view)


def _coach_of(view: PowwowView) -> Callable[[], object]:
    from campfire.games.powwow.coach import coach

    return lambda: coach(view)


def monte_carlo(view: PowwowView, samples: int = 1000) -> dict[int, float]:
    """The reference: the total's distribution estimated from dealt states (no `?` turn-over
    is dealt here, so it is cheaper than a full estimate would be)."""
    game = get_game("powwow")
    rng = random.Random(0)
    out: dict[int, float] = {}
    for _ in range(samples):
        state = game.sample_state(view, rng)
        total = count(f for worn in state.worn for f in worn).total
        out[total] = out.get(total, 0.0) + 1 / samples
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few games only (a smoke run)")
    parser.add_argument("--games", type=int, default=12, help="games per setting")
    parser.add_argument("--level", default="hard", help="the level timed against medium")
    parser.add_argument("--no-odds", action="store_true", help="skip the odds and coach timing")
    args = parser.parse_args()
    games = 2 if args.quick else args.games
    print(f"Decision times, CPU ms per decision ({args.level} vs medium; random is the reference)")
    header = f"{'game':<24}{'level':<8}{'n':>6}{'mean':>9}{'p50':>9}{'p95':>9}{'max':>9}  budget"
    print(header)
    for name, players, options in SETTINGS:
        label = f"{name} {players}p" + (" tomahawks" if options.get("tomahawks") else "")
        times = decision_times(name, players, options, games, args.level)
        for level, values in times.items():
            if not values:
                continue
            p95 = percentile(values, 0.95)
            budget = BUDGET_MS.get(level)
            verdict = f"p95 {p95 / budget:.0%} of {budget:g} ms" if budget else "reference"
            print(
                f"{label:<24}{level:<8}{len(values):>6}{sum(values) / len(values):>9.2f}"
                f"{percentile(values, 0.5):>9.2f}{p95:>9.2f}{max(values):>9.2f}  {verdict}"
            )
    if args.no_odds:
        return
    print()
    views = odds_views(20 if args.quick else 200)
    two = [v for v in views if v.seat is not None and len(v.feathers[v.seat]) == 2]
    seconds = 0.2 if args.quick else 2.0
    exact = per_call(lambda: [seat_odds(v) for v in views], seconds) / len(views)
    worst = max(per_call(_odds_of(v), seconds / 10) for v in views[:20] + two[:5])
    mc = per_call(lambda: monte_carlo(views[0]), seconds)
    print("Pow Wow exact odds (campfire odds, the terminal coach), CPU ms per seat view")
    print(f"  exact, mean over {len(views)} views: {exact:.3f} ms ({exact / 10:.1%} of 10 ms)")
    print(f"  exact, slowest of the views timed:   {worst:.3f} ms")
    print(f"  reference: Monte Carlo, 1000 dealt states: {mc:.1f} ms ({mc / exact:.0f}x slower)")
    from campfire.games.powwow.coach import coach

    read = per_call(lambda: [coach(v) for v in views[:40]], seconds) / len(views[:40])
    slowest = max(per_call(_coach_of(v), seconds / 10) for v in views[:20] + two[:5])
    print(
        f"  the coach (blind and read), mean over 40 views: {read:.2f} ms; slowest {slowest:.2f} ms"
    )


if __name__ == "__main__":
    main()
