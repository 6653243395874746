"""Bots are honest: a bot's choice depends on its seat view and its seed, never on the hidden
part of the state. The same position is dealt again in everything the seat cannot see (other
hands, its own feathers, the stack), and each level must choose exactly as before."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from campfire.bots import make_bot
from campfire.games.powwow.bots import HardBot as PowwowHard
from campfire.games.wakatanka.bots import HardBot as WakatankaHard
from campfire.kernel import Bot, State, get_game

CASES = [("powwow", 4, {}), ("powwow", 3, {"tomahawks": True}), ("wakatanka", 4, {})]


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

    out = {level: level_maker(level) for level in game.bot_levels()}
    out["hard (small budget)"] = small_hard
    return out


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_choices_ignore_what_the_view_hides(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    differed = 0
    checked = 0
    for index, state in enumerate(positions(name, players, options, 8)):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        twin = game.sample_state(view, random.Random(1000 + index), chance=state.mode)
        assert twin.view(seat) == view  # the seat cannot tell the two apart
        assert twin.legal_actions() == state.legal_actions()
        differed += hidden(twin) != hidden(state)
        for level, make in makers(name).items():
            if level == "hard" and index % 4:
                continue  # the full-budget hard bot on a few positions only: it takes longer
            first = make(index).choose(view, state.legal_actions())
            second = make(index).choose(twin.view(seat), twin.legal_actions())
            assert first == second, (level, index)
            checked += 1
    assert differed >= 6  # the hidden part really was dealt differently
    assert checked == 8 * 4 + 2  # random, easy, medium, small hard everywhere; hard on two
