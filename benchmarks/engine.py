"""Engine benchmark: Campfire's games against OpenSpiel's and PettingZoo's, in one run.

    .venv/bin/python -m benchmarks.engine            # about five minutes, pinned to one core
    .venv/bin/python -m benchmarks.engine --quick    # a few seconds, for a smoke run
    .venv/bin/python -m benchmarks.engine --batch    # only the batched engine vs liars_dice
    .venv/bin/python -m benchmarks.engine --openspiel  # only the games through OpenSpiel
    .venv/bin/python -m benchmarks.engine --openspiel --seconds 6 --slices 30  # steadier ratios

Every engine runs the same loop: get the legal actions (at a chance node: the chance outcomes),
choose one at random (chance outcomes by their probabilities), apply it, until the game ends.
A step is one apply. Campfire runs in draw mode (each feather or card drawn is a chance step,
as in OpenSpiel) and in shuffle mode (a whole shuffle is one chance step, as in records), with
narration off as search and the adapters run it (`new_state(..., narrate=False)`: no events),
and once with the events people's interfaces narrate.
Times are this process's CPU time (`time.process_time`), pinned to one core, so other work on
a shared machine does not count against any engine; the references run in the same process,
in turns with each engine measured against them (five alternating slices; the ratio is the
median of the slices' ratios), so the ratios compare like with like even while the machine's
speed drifts.

Figures: steps/s and games/s for Campfire's games (4 players) vs OpenSpiel's
`python_liars_poker` (a Python game) and `liars_dice` (C++), the games through OpenSpiel
(`pyspiel.load_game`) among them; Campfire's PettingZoo environments vs PettingZoo's
`leduc_holdem_v4` through the same AEC loop; the batched engine (`campfire.envs.vector`, random
legal actions drawn from the masks with NumPy, a step being one game's move) vs `liars_dice`;
the cost of one seat view and one legal-action list; steps/s from 3 to 8 players.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from campfire.kernel import Record, get_game

GameRun = Callable[[random.Random], int]  # plays one game, returns its steps


def compare(
    run: GameRun, reference: GameRun, seconds: float, slices: int = 5
) -> tuple[tuple[float, float, int], float]:
    """`run`'s figures and its speed relative to `reference`, measured in `slices` alternating
    turns of each (the ratio is the median of the slices' ratios): a shared machine's speed
    drifts, and alternating keeps both engines under the same conditions."""
    share = seconds / slices
    steps, games, played, ratios = [], [], [], []
    for i in range(slices):
        base = measure(reference, share, seed=i)
        mine = measure(run, share, seed=i)
        steps.append(mine[0])
        games.append(mine[1])
        played.append(mine[2])
        ratios.append(mine[0] / base[0])
    return (statistics.median(steps), statistics.median(games), sum(played)), statistics.median(
        ratios
    )


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


def random_legal(
    mask: np.ndarray, rng: np.random.Generator, rounds: tuple[int, ...] = (4, 32)
) -> np.ndarray:
    """One uniformly random legal action per row of `mask` `[B, A]`, by rejection: each row
    draws a few uniform actions at once and takes the first legal one (uniform among the legal
    ones); the rows with none legal draw more, and the rows still left after `rounds` take the
    legal action with the highest of independent uniform scores in [1, 2). Every stage picks
    uniformly among the legal actions, so the whole does too, at a fraction of the cost of
    scoring all B x A entries (a late guess leaves few of Pow Wow's 260 actions legal)."""
    rows, width = mask.shape
    flat = mask.reshape(-1)
    lift = np.arange(0, rows * width, width)  # each row's place in `flat`
    chosen = np.empty(rows, np.int64)
    left = np.arange(rows)
    for tries in rounds:
        drawn = rng.integers(0, width, size=(len(left), tries))
        drawn += lift[left][:, None]
        legal = flat.take(drawn)
        first = legal.argmax(axis=1)
        first += np.arange(0, len(left) * tries, tries)
        chosen[left] = drawn.reshape(-1).take(first)
        left = left[legal.reshape(-1).take(first) == 0]
        if not len(left):
            break
    chosen -= lift
    if len(left):
        scores = rng.random((len(left), width), dtype=np.float32)
        scores += 1.0
        scores *= mask[left]
        chosen[left] = scores.argmax(axis=1)
    return chosen


def vector_run(
    name: str,
    players: int,
    num_envs: int,
    engine: str = "auto",
    records: bool = False,
    batch_steps: int = 4,
    kept: list[dict[str, Any]] | None = None,
) -> GameRun:
    """`campfire.envs.vector.VectorEnv`: `batch_steps` steps of the whole batch per call, random
    legal actions chosen from the masks with NumPy; a step is one game's move. Finished games
    are logged either way; `records` also turns them into format-1 JSON at every call, the last
    call's kept in `kept` (to replay them after the measurement)."""
    from campfire.envs.vector import VectorEnv

    env = VectorEnv(name, num_envs=num_envs, players=players, engine=engine)
    _, info = env.reset(seed=0)
    generator = np.random.default_rng(0)
    state = {"mask": info["action_mask"]}

    def run(rng: random.Random) -> int:
        mask = state["mask"]
        for _ in range(batch_steps):
            _, _, _, _, info = env.step(random_legal(mask, generator))
            mask = info["action_mask"]
        state["mask"] = mask
        if records:
            made = env.finished_records()
            if kept is not None:
                kept[:] = made
        else:
            env.batch.finished.clear()  # logged and dropped: the JSON is made only when asked for
        return batch_steps * num_envs

    return run


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
def row(
    label: str, figures: tuple[float, float, int], ratio: float | None, games: bool = True
) -> str:
    """A table row; `games` False for a batch, whose calls are not games."""
    steps, per_second, played = figures
    shown = f"{ratio:6.2f}x" if ratio is not None else "      -"
    if not games:
        return f"| {label:<48} | {steps:>11,.0f} | {'-':>9} | {'-':>6} | {shown} |"
    return f"| {label:<48} | {steps:>11,.0f} | {per_second:>9,.1f} | {played:>6} | {shown} |"


def header(reference: str) -> list[str]:
    return [
        "",
        f"| {'engine':<48} | {'steps/s':>11} | {'games/s':>9} | {'games':>6} | vs {reference} |",
        f"|{'-' * 50}|{'-' * 13}:|{'-' * 11}:|{'-' * 8}:|{'-' * (5 + len(reference))}:|",
    ]


def batch_rows(seconds: float) -> None:
    """The batched engine vs `liars_dice`, measured in turns with it."""
    liars_dice = openspiel_run("liars_dice")
    lines = header("liars_dice")
    lines.append(row("OpenSpiel liars_dice (C++, 2p)", measure(liars_dice, seconds), 1.0))
    kept: dict[str, list[dict[str, Any]]] = {"powwow": [], "wakatanka": []}
    batches = [
        ("Campfire VectorEnv powwow (4p, B=1024)", vector_run("powwow", 4, 1024)),
        (
            "  the same, each finished game as JSON",
            vector_run("powwow", 4, 1024, records=True, kept=kept["powwow"]),
        ),
        ("  the same, B=64", vector_run("powwow", 4, 64)),
        ("  the same, kernel engine", vector_run("powwow", 4, 1024, engine="kernel")),
        ("Campfire VectorEnv wakatanka (4p, B=1024)", vector_run("wakatanka", 4, 1024)),
        (
            "  the same, each finished game as JSON",
            vector_run("wakatanka", 4, 1024, records=True, kept=kept["wakatanka"]),
        ),
        ("  the same, B=64", vector_run("wakatanka", 4, 64)),
        ("  the same, kernel engine", vector_run("wakatanka", 4, 1024, engine="kernel")),
    ]
    for label, run in batches:
        figures, ratio = compare(run, liars_dice, seconds)
        lines.append(row(label, figures, ratio, games=False))
    print("\n".join(lines))
    for name, records in kept.items():  # exact: the last batch's finished games replay
        for record in records:
            if not Record.from_json(record).replay().is_terminal:
                raise AssertionError(f"a batched {name} game does not replay to its end")
        print(f"{name}: {len(records)} finished games of the last measured call replayed exactly")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per figure")
    parser.add_argument("--quick", action="store_true", help="0.3 s per measurement")
    parser.add_argument("--cpu", type=int, default=0, help="the core to run on (-1: any)")
    parser.add_argument(
        "--batch", action="store_true", help="only the batched engine's rows (vs liars_dice)"
    )
    parser.add_argument(
        "--openspiel",
        action="store_true",
        help="only the games through OpenSpiel (vs python_liars_poker)",
    )
    parser.add_argument(
        "--slices",
        type=int,
        default=5,
        help="alternating slices per ratio of --openspiel (more: steadier on a busy machine)",
    )
    args = parser.parse_args()
    if args.slices < 1:
        parser.error(f"--slices must be at least 1, not {args.slices}")
    seconds = 0.3 if args.quick else args.seconds
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(f"Campfire engine benchmark: {seconds} s per figure, on cores {cores}")
    if args.batch:
        batch_rows(seconds)
        return

    poker_run = openspiel_run("python_liars_poker")
    lines = header("python_liars_poker")
    lines.append(row("OpenSpiel python_liars_poker (Python, 2p)", measure(poker_run, seconds), 1.0))
    if args.openspiel:
        for name in ("powwow", "wakatanka"):
            run = openspiel_run(f"python_campfire_{name}")
            figures, ratio = compare(run, poker_run, seconds, args.slices)
            lines.append(row(f"Campfire {name} through OpenSpiel (4p)", figures, ratio))
        print("\n".join(lines))
        return
    rows: list[tuple[str, GameRun]] = [
        ("OpenSpiel liars_dice (C++, 2p)", openspiel_run("liars_dice"))
    ]
    for name in ("powwow", "wakatanka"):
        for mode in ("draw", "shuffle"):
            rows.append((f"Campfire {name} (4p, {mode} mode)", campfire_run(name, 4, mode)))
        rows.append(
            (
                f"Campfire {name} (4p, shuffle mode, narrated)",
                campfire_run(name, 4, "shuffle", narrate=True),
            )
        )
    for name in ("powwow", "wakatanka"):
        rows.append(
            (f"Campfire {name} through OpenSpiel (4p)", openspiel_run(f"python_campfire_{name}"))
        )
    for label, run in rows:
        figures, ratio = compare(run, poker_run, seconds)
        lines.append(row(label, figures, ratio))
    print("\n".join(lines))

    leduc_run = aec_run(leduc)
    lines = header("leduc_holdem_v4")
    lines.append(row("PettingZoo leduc_holdem_v4 (rlcard, 2p)", measure(leduc_run, seconds), 1.0))
    envs = [
        ("Campfire powwow_v0.env() (4p)", powwow_env),
        ("Campfire wakatanka_v0.env() (4p)", wakatanka_env),
        ("Campfire powwow_v0, leduc's 3 wrappers (4p)", classic_wrapped("powwow")),
        ("Campfire wakatanka_v0, leduc's 3 wrappers (4p)", classic_wrapped("wakatanka")),
    ]
    for label, make in envs:
        figures, ratio = compare(aec_run(make), leduc_run, seconds)
        lines.append(row(label, figures, ratio))
    print("\n".join(lines))

    batch_rows(seconds)

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
