"""`CampfireState._apply_action` goes straight to the rules for a number it handed out as legal
this step, and through `State.apply` (every check) for any other: the two paths must reach the
same states. A differential test over many random games, in lockstep with a kernel state that
is only ever moved by `State.apply`."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pyspiel
import pytest

import campfire.envs.openspiel  # noqa: F401  (registers the games)
from campfire.kernel.errors import IllegalAction

GAMES = [
    ("python_campfire_powwow", {"players": 2}),
    ("python_campfire_powwow", {"players": 4, "tomahawks": True, "end_after_eliminations": 1}),
    ("python_campfire_powwow", {"players": 2, "feathers": "1 2 3", "guess_min": 1, "guess_max": 6}),
    ("python_campfire_wakatanka", {"players": 3}),
    ("python_campfire_wakatanka", {"players": 4}),
    ("python_campfire_wakatanka", {"players": 3, "animals": 3, "cards": 1, "max_turns": 6}),
]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_the_fast_path_reaches_the_states_state_apply_reaches(name, params):
    game = pyspiel.load_game(name, params)
    encoding = game.encoding
    rng = random.Random(5)
    fast = slow = refused = 0
    for _ in range(40):
        state = game.new_initial_state()
        reference = state.campfire.clone()  # moved by State.apply only
        while not state.is_terminal():
            asked = rng.random() < 0.8  # else apply without asking first: the checked path
            if state.is_chance_node():
                pairs = reference.chance_outcomes()
                numbers = sorted(encoding.chance_index(o) for o, _ in pairs)
                if asked:
                    assert [n for n, _ in state.chance_outcomes()] == numbers
                number = rng.choice(numbers)
                outcome = next(o for o, _ in pairs if encoding.chance_index(o) == number)
                reference.apply(outcome)
            else:
                legal = sorted(encoding.legal_indices(reference.legal_actions()))
                if asked:
                    assert state.legal_actions() == legal
                    illegal = [a for a in range(encoding.num_actions) if a not in legal]
                    if illegal and rng.random() < 0.1:  # an illegal number is still refused
                        before = list(state.history())
                        with pytest.raises(Exception, match=r"\S"):  # IllegalAction's reason
                            state.apply_action(rng.choice(illegal))
                        assert state.history() == before
                        assert state.legal_actions() == legal
                        refused += 1
                number = rng.choice(legal)
                reference.apply(encoding.action(number))
            state.apply_action(number)
            fast += asked
            slow += not asked
            inner = state.campfire
            assert inner.history == reference.history
            assert inner.to_move == reference.to_move
            assert inner.is_terminal == reference.is_terminal
            assert state.current_player() == pyspiel.State.current_player(state)
            if not inner.is_terminal and inner.to_move is not None:
                assert inner.view(inner.to_move) == reference.view(reference.to_move)
        assert state.returns() == reference.returns()
    assert fast > 0 and slow > 0 and refused > 0


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_clones_and_copies_keep_their_own_player_to_move(name, params):
    """`current_player` is read off the state's own box (`_Seat`), and `is_terminal` and
    `is_chance_node` are answers kept in the state's own `__dict__`: a clone, a pickled copy and
    a deserialized state answer for themselves once they and the original go separate ways, to
    Python and to C++ alike."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(11)

    def step(state: Any) -> None:
        if state.is_chance_node():
            numbers, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(numbers, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))

    def player(state: Any) -> int:
        inner = state.campfire
        if inner.to_move is not None:
            return int(inner.to_move)
        return int(pyspiel.PlayerId.TERMINAL if inner.is_terminal else pyspiel.PlayerId.CHANCE)

    def check(state: Any) -> None:
        seat = player(state)
        assert state.current_player() == seat == pyspiel.State.current_player(state)
        assert state.is_terminal() == (seat == int(pyspiel.PlayerId.TERMINAL))
        assert pyspiel.State.is_terminal(state) == state.is_terminal()
        assert state.is_chance_node() == (seat == int(pyspiel.PlayerId.CHANCE))
        assert pyspiel.State.is_chance_node(state) == state.is_chance_node()

    for _ in range(5):
        state = game.new_initial_state()
        copies = []
        while not state.is_terminal():
            if rng.random() < 0.1:
                copies.append(state.clone())
                copies.append(pickle.loads(pickle.dumps(state)))
                copies.append(
                    pyspiel.deserialize_game_and_state(
                        pyspiel.serialize_game_and_state(game, state)
                    )[1]
                )
            step(state)
            for other in [state, *copies]:
                check(other)
            if copies and rng.random() < 0.5:  # a copy moves on alone
                other = rng.choice(copies)
                if not other.is_terminal():
                    before = state.current_player()
                    step(other)
                    assert state.current_player() == before
                    check(state)
                    check(other)


@pytest.mark.parametrize("name", ["python_campfire_powwow", "python_campfire_wakatanka"])
def test_lists_a_caller_changes_do_not_make_a_number_legal(name):
    """`legal_actions` and `chance_outcomes` hand out copies: a caller that shuffles them (as
    OpenSpiel's MCTS does) or adds a number to them changes nothing the state trusts, and an
    unlisted number is still refused with its reason."""
    rng = random.Random(11)
    state = pyspiel.load_game(name, {"players": 3}).new_initial_state()
    chance_steps = player_steps = 0
    while not state.is_terminal() and (chance_steps < 20 or player_steps < 20):
        if state.is_chance_node():
            listed = state.chance_outcomes()
            numbers = {n for n, _ in listed}
            bogus = next(n for n in range(10_000) if n not in numbers)
            listed.append((bogus, 0.5))
            rng.shuffle(listed)
            assert {n for n, _ in state.chance_outcomes()} == numbers
            with pytest.raises((IllegalAction, ValueError)):
                state.clone().apply_action(bogus)
            chance_steps += 1
            number = rng.choice(sorted(numbers))
        else:
            legal = state.legal_actions()
            distinct = state.get_game().num_distinct_actions()
            unlisted = next((n for n in range(distinct) if n not in legal), None)
            if unlisted is not None:
                legal.append(unlisted)
                legal.sort()
                assert unlisted not in state.legal_actions()
                with pytest.raises((IllegalAction, ValueError)):
                    state.clone().apply_action(unlisted)
            player_steps += 1
            number = rng.choice(state.legal_actions())
        state.apply_action(number)
    assert chance_steps and player_steps
