"""The OpenSpiel games pass OpenSpiel's own checks, and its IS-MCTS bot plays them through."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import campfire.envs.openspiel  # noqa: F401  (registers the games)
from campfire.kernel import get_game

GAMES = [
    ("python_campfire_powwow", {"players": 3, "buzzards": 1}),
    ("python_campfire_powwow", {"players": 4, "tomahawks": True, "end_after_eliminations": 1}),
    ("python_campfire_wakatanka", {"players": 3}),
    ("python_campfire_wakatanka", {"players": 5, "first_player": 4}),
]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_openspiel_random_simulation_checks(name, params):
    """OpenSpiel's consistency test for games, serialization included."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_clone_pickle_and_serialization_keep_the_state(name, params):
    """The checks OpenSpiel's games_sim_test makes of every game, along one random game."""
    game = pyspiel.load_game(name, params)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        if step in (1, 8, 40, 100):
            again = pickle.loads(pickle.dumps(state))
            assert str(again) == str(state) and again.history() == state.history()
            new_game, new_state = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state)
            )
            assert str(new_game) == str(game) and str(new_state) == str(state)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(legal)
            size = game.information_state_tensor_size()
            assert len(state.information_state_tensor(player)) == size
            action = int(rng.choice(legal))
            clone = state.clone()
            clone.apply_action(action)
            state.apply_action(action)
            assert str(clone) == str(state) and clone.history() == state.history()
        step += 1
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0) and max(returns) == 1.0


def test_chance_nodes_are_the_kernels_draws():
    game = pyspiel.load_game("python_campfire_powwow", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes[0] == pytest.approx(4 / 36)  # four 1s among the 36 feathers
    assert outcomes[14] == pytest.approx(1 / 36)  # one ? feather
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 14) == "draw:?"
    wakatanka = pyspiel.load_game("python_campfire_wakatanka").new_initial_state()
    assert wakatanka.chance_outcomes() == [(t, pytest.approx(1 / 6)) for t in range(6)]
    assert wakatanka.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "marker:bear"


def test_information_states_come_from_the_seat_view():
    game = pyspiel.load_game("python_campfire_powwow", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    inner = state.campfire
    for seat in range(3):
        view = inner.view(seat).to_json()
        assert json.loads(state.observation_string(seat)) == view
        assert json.loads(state.information_state_string(seat)) == {**view, "past_turns": []}
        sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        encoded = get_game("powwow").encoding(3).observe(inner.view(seat))
        assert state.observation_tensor(seat) == pytest.approx(encoded)
        # the information state begins with the observation, then what it leaves out
        assert state.information_state_tensor(seat)[: len(encoded)] == pytest.approx(encoded)


def test_bad_parameters_are_refused_with_the_reason():
    with pytest.raises(Exception, match="2 to 8 players"):
        pyspiel.load_game("python_campfire_powwow", {"players": 9})
    with pytest.raises(Exception, match="buzzards"):
        pyspiel.load_game("python_campfire_powwow", {"buzzards": 11})


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("python_campfire_powwow", {"players": 3, "buzzards": 1, "tomahawks": True}),
        ("python_campfire_wakatanka", {"players": 3}),
    ],
)
def test_ismcts_plays_a_whole_game(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=12, random_state=rng
    )
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 0
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_python_fast_paths_answer_as_openspiel_does(name, params):
    """The answers a Python caller gets without going through C++ (and the per-step caches
    behind them) are OpenSpiel's own, at every step of a random game."""
    game = pyspiel.load_game(name, params)
    players = game.num_players()
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while True:
        base = pyspiel.State
        assert state.is_terminal() == base.is_terminal(state)
        assert state.is_chance_node() == base.is_chance_node(state)
        assert state.is_player_node() == base.is_player_node(state)
        assert state.legal_actions() == base.legal_actions(state)
        for seat in range(players):
            assert state.legal_actions(seat) == base.legal_actions(state, seat)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        legal.clear()  # the caller's copy: the state's answer stays whole
        assert state.legal_actions() == base.legal_actions(state)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert list(actions) == state.legal_actions()
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.legal_actions() == []


def test_an_action_out_of_the_space_is_refused_with_the_reason():
    game = pyspiel.load_game("python_campfire_wakatanka", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(Exception, match=r"not in 0\.\.49"):
        state.apply_action(50)
    with pytest.raises(Exception, match="accept only when"):
        state.apply_action(49)
    assert state.legal_actions() == pyspiel.State.legal_actions(state)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_numbered_answers_are_the_kernels_own(name, params):
    """The adapter's tables (a draw's outcomes listed from the stack's counts, Waka Tanka's
    legal numbers read off the state) give exactly the kernel's chance outcomes and legal
    actions, numbered and sorted, the probabilities to the bit, at every step."""
    game = pyspiel.load_game(name, params)
    encoding = game.encoding
    rng = np.random.default_rng(9)
    draws = turns = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            inner = state.campfire
            if state.is_chance_node():
                pairs = inner.chance_outcomes()
                expected = sorted((encoding.chance_index(o), p) for o, p in pairs)
                assert state.chance_outcomes() == expected
                actions, probs = zip(*expected, strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                draws += 1
            else:
                expected_legal = sorted(encoding.legal_indices(inner.legal_actions()))
                assert state.legal_actions() == expected_legal
                state.apply_action(int(rng.choice(expected_legal)))
                turns += 1
    assert draws > 0 and turns > 0


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("python_campfire_powwow", {"players": 3, "buzzards": 1, "tomahawks": True}),
        ("python_campfire_wakatanka", {"players": 3}),
    ],
)
def test_campfire_bots_play_in_a_pyspiel_loop(name: str, params: dict[str, Any]) -> None:
    """Every seat a Campfire bot of another level, through `pyspiel.evaluate_bots` (C++ calls
    the Python bots back)."""
    from campfire.envs.openspiel import CampfireBot

    game = pyspiel.load_game(name, params)
    bots = [
        CampfireBot(game, p, level, seed=p) for p, level in enumerate(("easy", "medium", "hard"))
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert sum(returns) == pytest.approx(0.0) and max(returns) > 0
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        CampfireBot(game, 0, "genius")
    with pytest.raises(ValueError, match="no player 3"):
        CampfireBot(game, 3, "easy")
