"""OpenSpiel's information states are perfect recall: distinct information-state strings never
share a tensor, and an option that is off shows nothing in the observation."""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import campfire.envs.openspiel  # noqa: F401  (registers the games)

POWWOW_OPTIONS = [
    {"players": players, "buzzards": buzzards, "tomahawks": tomahawks, **extra}
    for players, buzzards, tomahawks, extra in itertools.product(
        (2, 3), (1, 2), (False, True), ({}, {"end_after_eliminations": 1}, {"first_player": 1})
    )
]
WAKATANKA_OPTIONS = [{"players": 3}, {"players": 4, "first_player": 2}, {"players": 6}]
CONFIGS = [("python_campfire_powwow", p) for p in POWWOW_OPTIONS] + [
    ("python_campfire_wakatanka", p) for p in WAKATANKA_OPTIONS
]


def _walk(game: Any, rng: np.random.Generator, seen: dict[bytes, str], games: int) -> None:
    """Random games; every information state of every player, string against tensor, both
    ways (one tensor per string, and one string per tensor)."""
    players = game.num_players()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            for player in range(players):
                string = state.information_state_string(player)
                tensor = np.asarray(state.information_state_tensor(player), np.float32)
                assert len(tensor) == game.information_state_tensor_size()
                key = tensor.tobytes()
                assert seen.setdefault(key, string) == string, "two strings share a tensor"
            legal = state.legal_actions()
            # small raises first: long rounds and the late part of the guess range get played
            weights = np.exp(-np.arange(len(legal)) / 40.0)
            state.apply_action(int(rng.choice(legal, p=weights / weights.sum())))


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=lambda x: str(x))
def test_distinct_information_states_never_share_a_tensor(name, params):
    game = pyspiel.load_game(name, params)
    seen: dict[bytes, str] = {}
    _walk(game, np.random.default_rng(7), seen, games=4 if "wakatanka" in name else 6)
    assert len(seen) > 50


def _powwow_after(guesses: tuple[int, ...]) -> Any:
    game = pyspiel.load_game("python_campfire_powwow", {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)  # a 1 for everyone
    for value in guesses:
        state.apply_action(value + 20)
    return state


def test_the_issues_guess_histories_are_told_apart():
    """2-player Pow Wow, guesses (5, 6, 8, 10) against (3, 6, 8, 10): the same observation
    (each seat's latest guess is the same), different information states."""
    one, two = _powwow_after((5, 6, 8, 10)), _powwow_after((3, 6, 8, 10))
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert one.information_state_string(0) != two.information_state_string(0)
    assert one.information_state_tensor(0) != two.information_state_tensor(0)
    assert one.information_state_tensor(0) != one.observation_tensor(0)


def test_past_rounds_are_remembered_after_a_resample():
    """A resampled state keeps the moves of the rounds before (its history starts empty)."""
    game = pyspiel.load_game("python_campfire_powwow", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    rounds = 0
    while rounds < 2 or state.is_chance_node():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            legal = state.legal_actions()
            action = legal[-1] if len(legal) < 250 else legal[0]
            rounds += action == 259
            state.apply_action(action)
    player = state.current_player()
    past = json.loads(state.information_state_string(player))["past_turns"]
    assert len(past) == 2 and all(moves[-1][1] == 259 for moves in past)
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.information_state_tensor(player) == state.information_state_tensor(player)


@pytest.mark.parametrize("params", POWWOW_OPTIONS, ids=str)
def test_sections_of_an_option_that_is_off_show_nothing(params):
    """With tomahawks off no seat is shown a tomahawk, in the observation or the information
    state, nor any agree, reverse or extra feather; with them on, every seat starts ready."""
    game = pyspiel.load_game("python_campfire_powwow", params)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    n = params["players"]
    for perfect_recall in (False, True):
        observation = make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=perfect_recall)
        )
        for player in range(n):
            observation.set_from(state, player)
            tomahawks = observation.dict["tomahawks"]
            assert list(tomahawks) == [1.0 if params["tomahawks"] else 0.0] * n
            view = json.loads(observation.string_from(state, player))
            assert view["tomahawks"] == [params["tomahawks"]] * n
    assert game.num_distinct_actions() == (262 + 259 * n if params["tomahawks"] else 260)
