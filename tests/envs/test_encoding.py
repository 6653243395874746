"""The games' encodings: every legal action has a number and back, chance outcomes too, and an
observation is a fixed-size vector of the seat view that hidden information cannot change."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from campfire.games.powwow import DISPUTE, Guess
from campfire.games.wakatanka.actions import ACCEPT, CALL, Play, Spell
from campfire.kernel import OptionError, get_game

CASES = [
    ("powwow", 2, {}),
    ("powwow", 4, {"tomahawks": True}),
    ("powwow", 8, {"tomahawks": True, "buzzards": 1}),
    ("wakatanka", 3, {}),
    ("wakatanka", 6, {"first_player": 2}),
]


def random_walk(name: str, players: int, options: dict[str, Any], seed: int):
    """Yield every state of one random draw-mode game, chance included."""
    game = get_game(name)
    state = game.new_state(players, options, chance="draw")
    rng = random.Random(seed)
    while not state.is_terminal:
        yield state
        if state.to_move is None:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_actions_chance_and_observations_round_trip(name, players, options):
    game = get_game(name)
    encoding = game.encoding(players, options)
    seen_actions: set[int] = set()
    for seed in range(3):
        for state in random_walk(name, players, options, seed):
            spec = state.chance_due()
            if spec is not None:
                for outcome, _ in state.chance_outcomes():
                    index = encoding.chance_index(outcome)
                    assert 0 <= index < encoding.num_chance_outcomes
                    assert encoding.chance_outcome(index, spec) == outcome
                continue
            legal = state.legal_actions()
            indices = encoding.legal_indices(legal)
            assert len(set(indices)) == len(indices)
            assert all(0 <= i < encoding.num_actions for i in indices)
            assert [encoding.action(i) for i in indices] == legal
            assert [encoding.action_index(a) for a in legal] == indices
            seen_actions.update(indices)
            mask = np.zeros(encoding.num_actions, dtype=np.int8)
            encoding.mark_legal(legal, mask)
            assert np.flatnonzero(mask).tolist() == sorted(indices)
            for seat in (state.to_move, None):
                vector = encoding.observe(state.view(seat))
                assert len(vector) == encoding.observation_size
                assert all(0.0 <= x <= 1.0 for x in vector)
    assert len(seen_actions) > 10
    assert sum(size for _, size in encoding.sections) == encoding.observation_size


def test_action_numbers_follow_the_documented_layout():
    powwow = get_game("powwow").encoding(4, {"tomahawks": True})
    assert powwow.num_actions == 262 + 259 * 4
    assert powwow.action_index(Guess(-20)) == 0
    assert powwow.action_index(Guess(238)) == 258
    assert powwow.action_index(DISPUTE) == 259
    assert powwow.action_index(Guess(5, extra_feather_to=2)) == 262 + 259 * 2 + 25
    assert powwow.action(262 + 259 * 3 + 30) == Guess(10, 3)
    assert get_game("powwow").encoding(4).num_actions == 260
    wakatanka = get_game("wakatanka").encoding(4)
    assert wakatanka.num_actions == 50
    assert wakatanka.action_index(Play("puma", "mouse")) == 7 * 1 + 6
    assert wakatanka.action_index(CALL) == 42
    assert wakatanka.action_index(Spell("eagle")) == 48
    assert wakatanka.action_index(ACCEPT) == 49


@pytest.mark.parametrize(
    ("name", "options", "bad_index", "bad_action"),
    [
        ("powwow", {}, 260, Guess(239)),
        ("powwow", {}, -1, Guess(5, extra_feather_to=1)),
        ("wakatanka", {}, 50, Play("wolf", "owl")),
        ("wakatanka", {}, 7.0, "call"),
    ],
)
def test_numbers_and_actions_outside_the_space_are_refused(name, options, bad_index, bad_action):
    encoding = get_game(name).encoding(4, options)
    with pytest.raises(ValueError, match="not in 0"):
        encoding.action(bad_index)
    with pytest.raises(ValueError):
        encoding.action_index(bad_action)


def test_bad_players_or_options_are_refused():
    with pytest.raises(OptionError, match="2 to 8 players"):
        get_game("powwow").encoding(9)
    with pytest.raises(OptionError, match="buzzards"):
        get_game("powwow").encoding(4, {"buzzards": 0})
    with pytest.raises(OptionError, match="3 to 6 players"):
        get_game("wakatanka").encoding(2)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_observations_cannot_tell_hidden_information(name, players, options):
    """Redeal what a seat cannot see: its observation stays exactly the same."""
    game = get_game(name)
    encoding = game.encoding(players, options)
    rng = random.Random(7)
    checked = 0
    for state in random_walk(name, players, options, 11):
        seat = state.to_move
        if seat is None:
            continue
        view = state.view(seat)
        other = game.sample_state(view, rng)
        assert encoding.observe(other.view(seat)) == encoding.observe(view)
        checked += 1
    assert checked > 3


def test_powwow_observation_shows_others_feathers_not_ones_own():
    encoding = get_game("powwow").encoding(3)
    state = get_game("powwow").new_state(3, {}, chance="draw")
    for feather in ("10", "x2", "?"):
        state.apply(next(o for o, _ in state.chance_outcomes() if o.item == feather))
    names = [name for name, _ in encoding.sections]
    start = sum(size for _, size in encoding.sections[: names.index("worn")])
    assert dict(encoding.sections)["worn"] == 3 * 15
    vector = encoding.observe(state.view(0))
    worn = vector[start : start + 45]
    assert worn[0:15] == [0.0] * 15  # seat 0 cannot see its own 10
    assert worn[15 + 11] == 0.5  # seat 1's x2 (code 11), one feather
    assert worn[30 + 14] == 0.5  # seat 2's ? (code 14)


def test_reused_and_fresh_encodings_observe_alike():
    """Waka Tanka's encoding reuses the counts of the reveals it saw last: views of two games
    taken in turns, and a fresh encoding for each view, must give the same vectors."""
    game = get_game("wakatanka")
    shared = game.encoding(4)
    walks = [random_walk("wakatanka", 4, {}, seed) for seed in (21, 22)]
    compared = 0
    for states in zip(*walks, strict=False):
        for state in states:
            if state.to_move is None:
                continue
            view = state.view(state.to_move)
            assert shared.observe(view) == game.encoding(4).observe(view)
            compared += 1
    assert compared > 50


def test_mark_legal_takes_any_list_of_actions():
    """Pow Wow marks whole runs of guesses at once; a list of other guess objects, a partial
    run or a mixture must be marked exactly the same."""
    encoding = get_game("powwow").encoding(3, {"tomahawks": True})
    lists: list[list[Any]] = [
        [Guess(v) for v in range(200, 239)],  # equal guesses, not the canonical objects
        [Guess(5), Guess(7), DISPUTE],
        [Guess(237), Guess(238), Guess(238, 1), Guess(236, 2)],
        [DISPUTE, *[Guess(v, 0) for v in range(-20, 239)]],
    ]
    for legal in lists:
        mask = np.zeros(encoding.num_actions, dtype=np.int8)
        encoding.mark_legal(legal, mask)
        assert np.flatnonzero(mask).tolist() == sorted(encoding.legal_indices(legal))
