"""Engine benchmark: Campfire's games against OpenSpiel's and PettingZoo's, in one run.

    .venv/bin/python -m benchmarks.engine            # about a minute, pinned to one core
    .venv/bin/python -m benchmarks.engine --quick    # a few seconds, for a smoke run

Every engine runs the same loop: get the legal actions (at a chance node: the chance outcomes),
choose one at random (chance outcomes by their probabilities), apply it, until the game ends.
A step is one apply. Campfire runs in draw mode (each feather or card drawn is a chance step,
as in OpenSpiel) and in shuffle mode (a whole shuffle is one chance step, as in records), with
narration off as search and the adapters run it (`new_state(..., narrate=False)`: no events),
and once with the events people's interfaces narrate.
Times are this process's CPU time (`time.process_time`), pinned to one core, so other work on
a shared machine does not count against any engine; the references run in the same process,
so the ratios compare like with like.

Figures: steps/s and games/s for Campfire's games (4 players) vs OpenSpiel's
`python_liars_poker` (a Python game) and `liars_dice` (C++); Campfire's PettingZoo
environments vs PettingZoo's `leduc_holdem_v4` through the same AEC loop; the cost of one seat
view and one legal-action list; steps/s from 3 to 8 players.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from campfire.kernel import get_game

GameRun = Callable[[random.Random], int]  # plays one game, returns its steps


def measure(run: GameRun, seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """Play whole games for about `seconds` of CPU time: steps/s, games/s and games played."""
    rng = random.Random(seed)
    run(rng)  # warm up
    steps = games = 0
    started = time.process_time()
    while True:
        steps += run(rng)
        games += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return steps / elapsed, games / elapsed, games


# --- the loops -----------------------------------------------------------------------------
def campfire_run(name: str, players: int, mode: str, narrate: bool = False) -> GameRun:
    """Campfire's engine as search and the adapters use it: narration off unless asked."""
    game = get_game(name)

    def run(rng: random.Random) -> int:
        state = game.new_state(players, chance=mode, narrate=narrate)  # type: ignore[arg-type]
        steps = 0
        while not state.is_terminal:
            if state.to_move is None:
                if mode == "draw":
                    outcomes = state.chance_outcomes()
                    move = rng.choices(outcomes, [p for _, p in outcomes])[0][0]
                else:
                    move = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                move = legal[rng.randrange(len(legal))]
            state.apply(move)
            steps += 1
        return steps

    return run


def openspiel_run(name: str, params: dict[str, Any] | None = None) -> GameRun:
    import open_spiel.python.games  # noqa: F401  (registers python_liars_poker)
    import pyspiel

    import campfire.envs.openspiel  # noqa: F401  (registers python_campfire_*)

    game = pyspiel.load_game(name, params or {})

    def run(rng: random.Random) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                move = rng.choices(outcomes, [p for _, p in outcomes])[0][0]
            else:
                legal = state.legal_actions()
                move = legal[rng.randrange(len(legal))]
            state.apply_action(move)
            steps += 1
        return steps

    return run


def aec_run(make: Callable[[], Any]) -> GameRun:
    """PettingZoo's AEC loop: `last()`, a random action from the mask, `step`."""
    env = make()

    def run(rng: random.Random) -> int:
        env.reset(seed=rng.randrange(2**31))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            steps += 1
        return steps

    return run


def leduc() -> Any:
    from pettingzoo.classic import leduc_holdem_v4

    return leduc_holdem_v4.env()


def powwow_env() -> Any:
    from campfire.envs import powwow_v0

    return powwow_v0.env(players=4)


def wakatanka_env() -> Any:
    from campfire.envs import wakatanka_v0

    return wakatanka_v0.env(players=4)


def classic_wrapped(name: str) -> Callable[[], Any]:
    """A Campfire env behind the three wrappers leduc_holdem_v4 has (our `env()` has one)."""

    def make() -> Any:
        from campfire.envs.aec import CampfireAECEnv, wrap_like_classic

        return wrap_like_classic(CampfireAECEnv(name, 4))

    return make


# --- the per-call costs --------------------------------------------------------------------
def sample_states(name: str, players: int, count: int) -> list[Any]:
    """Mid-game states (a player to act) from random games."""
    game = get_game(name)
    rng = random.Random(1)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_state(players)
        while not state.is_terminal:
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
                continue
            if rng.random() < 0.2:
                states.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return states[:count]


def per_call(states: list[Any], call: Callable[[Any], Any], seconds: float) -> float:
    """Microseconds per call over `states`, repeated for about `seconds`."""
    calls = 0
    started = time.process_time()
    while True:
        for state in states:
            call(state)
        calls += len(states)
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return elapsed / calls * 1e6


# --- the report ----------------------------------------------------------------------------
def row(label: str, figures: tuple[float, float, int], reference: float | None) -> str:
    steps, games, played = figures
    ratio = f"{steps / reference:6.2f}x" if reference else "      -"
    return f"| {label:<48} | {steps:>11,.0f} | {games:>9,.1f} | {played:>6} | {ratio} |"


def header(reference: str) -> list[str]:
    return [
        "",
        f"| {'engine':<48} | {'steps/s':>11} | {'games/s':>9} | {'games':>6} | vs {reference} |",
        f"|{'-' * 50}|{'-' * 13}:|{'-' * 11}:|{'-' * 8}:|{'-' * (5 + len(reference))}:|",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per figure")
    parser.add_argument("--quick", action="store_true", help="0.3 s per measurement")
    parser.add_argument("--cpu", type=int, default=0, help="the core to run on (-1: any)")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else args.seconds
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(f"Campfire engine benchmark: {seconds} s per figure, on cores {cores}")

    lines = header("python_liars_poker")
    poker = measure(openspiel_run("python_liars_poker"), seconds)
    lines.append(row("OpenSpiel python_liars_poker (Python, 2p)", poker, poker[0]))
    dice = measure(openspiel_run("liars_dice"), seconds)
    lines.append(row("OpenSpiel liars_dice (C++, 2p)", dice, poker[0]))
    for name in ("powwow", "wakatanka"):
        for mode in ("draw", "shuffle"):
            figures = measure(campfire_run(name, 4, mode), seconds)
            lines.append(row(f"Campfire {name} (4p, {mode} mode)", figures, poker[0]))
        figures = measure(campfire_run(name, 4, "shuffle", narrate=True), seconds)
        lines.append(row(f"Campfire {name} (4p, shuffle mode, narrated)", figures, poker[0]))
    spiel = {
        "powwow": measure(openspiel_run("python_campfire_powwow"), seconds),
        "wakatanka": measure(openspiel_run("python_campfire_wakatanka"), seconds),
    }
    for name, figures in spiel.items():
        lines.append(row(f"Campfire {name} through OpenSpiel (4p)", figures, poker[0]))
    print("\n".join(lines))

    lines = header("leduc_holdem_v4")
    leduc_figures = measure(aec_run(leduc), seconds)
    reference = leduc_figures[0]
    lines.append(row("PettingZoo leduc_holdem_v4 (rlcard, 2p)", leduc_figures, reference))
    envs = [
        ("Campfire powwow_v0.env() (4p)", powwow_env),
        ("Campfire wakatanka_v0.env() (4p)", wakatanka_env),
        ("Campfire powwow_v0, leduc's 3 wrappers (4p)", classic_wrapped("powwow")),
        ("Campfire wakatanka_v0, leduc's 3 wrappers (4p)", classic_wrapped("wakatanka")),
    ]
    for label, make in envs:
        lines.append(row(label, measure(aec_run(make), seconds), reference))
    print("\n".join(lines))

    print()
    print(f"| {'call (4 players, mid-game states)':<48} | {'µs/call':>11} |")
    print(f"|{'-' * 50}|{'-' * 13}:|")
    for name in ("powwow", "wakatanka"):
        states = sample_states(name, 4, 200)
        view = per_call(states, lambda s: s.view(s.to_move), seconds)
        legal = per_call(states, lambda s: s.legal_actions(), seconds)
        encoding = get_game(name).encoding(4)
        views = [s.view(s.to_move) for s in states]
        encode = per_call(views, encoding.observe, seconds)
        print(f"| {name + ': view(seat)':<48} | {view:>11.2f} |")
        print(f"| {name + ': legal_actions()':<48} | {legal:>11.2f} |")
        print(f"| {name + ': encoding.observe(view)':<48} | {encode:>11.2f} |")

    print()
    print(f"| {'players (draw mode)':<48} | {'steps/s':>11} | {'games/s':>9} | {'games':>6} |")
    print(f"|{'-' * 50}|{'-' * 13}:|{'-' * 11}:|{'-' * 8}:|")
    for name, counts in (("powwow", range(3, 9)), ("wakatanka", range(3, 7))):
        for players in counts:
            steps, games, played = measure(campfire_run(name, players, "draw"), seconds)
            label = f"{name}, {players} players"
            print(f"| {label:<48} | {steps:>11,.0f} | {games:>9,.1f} | {played:>6} |")


if __name__ == "__main__":
    main()
