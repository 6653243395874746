"""Bots are honest: a bot's choice depends on its seat view and its seed, never on the hidden
part of the state. The same position is dealt again in everything the seat cannot see (other
hands, its own feathers, the stack), and each level must choose exactly as before."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from copy import deepcopy
from typing import Any

import pytest

from campfire.bots import make_bot
from campfire.games.powwow.bots import ExpertBot as PowwowExpert
from campfire.games.powwow.bots import HardBot as PowwowHard
from campfire.games.powwow.bots.duel import DuelBot
from campfire.games.wakatanka.bots import ExpertBot as WakatankaExpert
from campfire.games.wakatanka.bots import HardBot as WakatankaHard
from campfire.kernel import Bot, State, get_game

CASES = [
    ("powwow", 4, {}),
    ("powwow", 3, {"tomahawks": True}),
    ("powwow", 2, {}),  # heads-up, where the equilibrium plays
    ("wakatanka", 4, {}),
]


def positions(
    name: str, players: int, options: dict[str, Any], count: int
) -> Iterator[State[Any, Any]]:
    """Positions from games between medium bots, a few turns apart."""
    game = get_game(name)
    found = 0
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_state(players, options)
        bots = [make_bot(game, "medium", s) for s in range(players)]
        turn = 0
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(rng))
                continue
            if turn % 5 == 3:
                yield state
                found += 1
                if found == count:
                    return
            state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
            turn += 1


def hidden(state: Any) -> Any:
    """The part of a state no seat sees as a whole: hands or worn feathers, and the stack."""
    if state.game.name == "powwow":
        return ([list(w) for w in state.worn], state.stack.items())
    return ([list(h) for h in state.hands], [list(s) for s in state.stacks])


Maker = Callable[[int], Bot]


def makers(name: str) -> dict[str, Maker]:
    game = get_game(name)

    def level_maker(level: str) -> Maker:
        return lambda seed: make_bot(game, level, seed)

    def small_hard(seed: int) -> Bot:
        if name == "powwow":
            return PowwowHard(seed, budget=120)
        return WakatankaHard(seed, worlds=4, horizon=4, trust=None)  # search at once

    def small_expert(seed: int) -> Bot:
        if name == "powwow":
            return PowwowExpert(seed, budget=120, trust=0.0)  # search whatever the readings
        return WakatankaExpert(seed, worlds=4, horizon=4, trust=None)

    def duelling_expert(seed: int) -> Bot:
        expert = PowwowExpert(seed, budget=120, duel="always")
        expert.duelist = DuelBot(seed, iterations=20)
        return expert

    out = {level: level_maker(level) for level in game.bot_levels()}
    out["hard (small budget)"] = small_hard
    out["expert (small budget, searching)"] = small_expert
    if name == "powwow":
        out["heads-up equilibrium"] = lambda seed: DuelBot(seed, iterations=20)
        out["expert (heads-up equilibrium)"] = duelling_expert
    return out


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_choices_ignore_what_the_view_hides(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    differed = 0
    checked = 0
    every = makers(name)
    for index, state in enumerate(positions(name, players, options, 8)):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        twin = game.sample_state(view, random.Random(1000 + index), chance=state.mode)
        assert twin.view(seat) == view  # the seat cannot tell the two apart
        assert twin.legal_actions() == state.legal_actions()
        differed += hidden(twin) != hidden(state)
        for level, make in every.items():
            if level in ("hard", "expert") and index % 4:
                continue  # the full-budget bots on a few positions only: they take longer
            first = make(index).choose(view, state.legal_actions())
            second = make(index).choose(twin.view(seat), twin.legal_actions())
            assert first == second, (level, index)
            checked += 1
    assert differed >= 6  # the hidden part really was dealt differently
    # random, easy, medium, small hard and small expert (and in Pow Wow the heads-up bots)
    # everywhere; hard and expert on two
    assert checked == 8 * (len(every) - 2) + 2 * 2


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_models_built_over_a_game_ignore_what_the_views_hide(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """The expert's per-seat models are built from every view it was shown: at points of a game
    against medium players, a copy of the expert (its models as they stand) is shown the view of
    a re-dealt twin and must choose exactly as the expert does on the real view."""
    game = get_game(name)
    if name == "powwow":  # searching the table as medium, and as read (every seat doubted)
        experts: list[Any] = [
            PowwowExpert(3, budget=120, trust=0.0),
            PowwowExpert(3, budget=120, trust=1.1, read=True, regret=True, margin=0.0),
        ]
    else:  # the expert as it plays, and searching over its reading of every seat
        experts = [
            WakatankaExpert(3, worlds=4, horizon=4),
            WakatankaExpert(3, worlds=4, horizon=4, mixture=True, margin=0.0),
            WakatankaExpert(3, worlds=4, horizon=4, mixture=True, margin=0.0, regret=True),
        ]
    for expert in experts:
        compared, informed = _compare_over_a_game(game, players, options, expert)
        assert compared >= 3
        assert informed >= 2  # compared with the models holding something


def _compare_over_a_game(
    game: Any, players: int, options: dict[str, Any], expert: Any
) -> tuple[int, int]:
    """Play `expert` against medium players, comparing its choices with a copy's on twins."""
    rng = random.Random(7)
    state = game.new_state(players, options)
    bots: list[Any] = [expert] + [make_bot(game, "medium", s) for s in range(1, players)]
    compared = informed = 0
    while not state.is_terminal and compared < 8:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(seat)
        if seat == 0 and len(state.history) % 3 == 0:
            twin = game.sample_state(view, random.Random(len(state.history)), chance=state.mode)
            assert twin.view(0) == view
            copy = deepcopy(expert)  # the models as they stand, before this choice
            on_twin = copy.choose(twin.view(0), twin.legal_actions())
            action = expert.choose(view, state.legal_actions())
            assert on_twin == action
            compared += 1
            informed += sum(expert.judged.values()) > 0
            state.apply(action)
            continue
        state.apply(bots[seat].choose(view, state.legal_actions()))
    return compared, informed
