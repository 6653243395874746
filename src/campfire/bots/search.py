"""Determinized search over the kernel API: try each option in many full states the searcher
cannot tell apart, play each on with a model of every player, and average.

The hidden part of the game is filled in by the game (`Game.sample_state`, or a belief-weighted
version of it: "worlds", each with a weight), so the search only ever starts from what the
searcher's view allows. In every world each option is played on by the same model for
everyone, which acts from the seat views of that world, never from the hidden cards themselves;
so bluffs and inference are played as the model would play them. Chance is enumerated at the
first chance node of a playout (often the one the option itself causes) and sampled afterwards,
keeping the work per option bounded.

The game supplies three things (a `Playout`): the model (`policy(state, seat)`), the value of a
position to the searcher (`value(state)`, None while the playout should go on) and, optionally,
a value known the moment an action is chosen (`settle(state, action)`: Pow Wow knows the odds
of a dispute without dealing the `?` feather, for example).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from campfire.kernel.state import State

T = TypeVar("T")
Policy = Callable[[Any, int], Any]
Value = Callable[[Any], "float | None"]
Settle = Callable[[Any, Any], "float | None"]


@dataclass
class Playout:
    """How positions are played on and valued, from the searcher's point of view."""

    policy: Policy
    value: Value
    settle: Settle | None = None
    horizon: int = 1000  # moves played after the option at most; then `value` must answer
    fallback: Callable[[Any], float] | None = None  # the value when the horizon is reached

    def run(self, state: State[Any, Any], rng: random.Random, enumerate_chance: bool) -> float:
        """The value of `state` (which is not mutated) once played on."""
        state = state.clone()
        moves = 0
        while True:
            known = self.value(state)
            if known is not None:
                return known
            spec = state.chance_due()
            if spec is not None:
                if enumerate_chance:
                    total = 0.0
                    for outcome, p in spec.outcomes():
                        branch = state.clone()
                        branch.apply(outcome)
                        total += p * self.run(branch, rng, False)
                    return total
                state.apply(spec.sample(rng))
                continue
            if moves >= self.horizon:
                if self.fallback is None:
                    raise RuntimeError("the playout reached its horizon without a value")
                return self.fallback(state)
            seat = state.to_move
            assert seat is not None
            action = self.policy(state, seat)
            if self.settle is not None:
                settled = self.settle(state, action)
                if settled is not None:
                    return settled
            state.apply(action)
            moves += 1

    def after(self, state: State[Any, Any], option: Any, rng: random.Random) -> float:
        """The value of taking `option` now (the searcher is to move in `state`)."""
        if self.settle is not None:
            settled = self.settle(state, option)
            if settled is not None:
                return settled
        branch = state.clone()
        branch.apply(option)
        return self.run(branch, rng, True)


def evaluate(
    options: Sequence[Any],
    worlds: Sequence[tuple[State[Any, Any], float]],
    playout: Playout,
    rng: random.Random,
    on_world: Callable[[State[Any, Any]], None] | None = None,
) -> list[float]:
    """The weighted mean value of each option over the worlds (every option sees every world,
    so their differences are not swamped by the luck of the deal)."""
    totals = [0.0] * len(options)
    mass = 0.0
    for world, weight in worlds:
        if weight <= 0:
            continue
        if on_world is not None:
            on_world(world)
        mass += weight
        for i, option in enumerate(options):
            totals[i] += weight * playout.after(world, option, rng)
    if mass <= 0:
        raise ValueError("no world carries any weight")
    return [t / mass for t in totals]


def best(options: Sequence[T], values: Sequence[float]) -> T:
    """The option of highest value; on a tie, the one listed first."""
    top = max(range(len(options)), key=lambda i: (round(values[i], 9), -i))
    return options[top]


# --- deciding when the others' kinds are in doubt ------------------------------------------
Mix = dict[str, float]


def hypotheses(
    mixes: dict[int, Mix], doubted: Sequence[int], floor: float = 0.1
) -> list[dict[int, Mix]]:
    """The tables a minimax-regret choice weighs: for each kind of player that some doubted
    seat is at least `floor` likely to be, that table with every such seat made that kind for
    sure (the other seats as read). No doubt: just the table as read."""
    kinds = list(dict.fromkeys(k for mix in mixes.values() for k in mix))
    tables = [
        {
            seat: {k: float(k == kind) for k in mix}
            if seat in doubted and mix.get(kind, 0.0) >= floor
            else mix
            for seat, mix in mixes.items()
        }
        for kind in kinds
        if any(mixes[seat].get(kind, 0.0) >= floor for seat in doubted)
    ]
    return tables or [mixes]


def least_regret(
    options: Sequence[T], rows: Sequence[Sequence[float]], baseline: T, margin: float
) -> T:
    """The minimax-regret choice: `rows` value the options under several models of the others;
    an option's regret under one is how far it falls short of that model's best, and the option
    whose largest regret is least is taken, if it improves on the baseline's by more than
    `margin` (misjudging the others then costs little). One row: the best option, if it beats
    the baseline by more than `margin`."""
    regret = [max(max(row) - row[i] for row in rows) for i in range(len(options))]
    top = min(range(len(options)), key=lambda i: (round(regret[i], 9), i))
    if regret[options.index(baseline)] - regret[top] > margin:
        return options[top]
    return baseline
