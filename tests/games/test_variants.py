"""Research variants: small games for solvers, as options of both games (never at a table)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pyspiel
import pytest

import campfire.envs.openspiel  # noqa: F401  (registers the games)
from campfire.envs.vector import VectorEnv
from campfire.games.powwow.actions import DISPUTE, Guess
from campfire.games.wakatanka.cards import TILES
from campfire.kernel import Record, get_game
from campfire.kernel.errors import IllegalAction, OptionError

POWWOW = get_game("powwow")
WAKATANKA = get_game("wakatanka")

POWWOW_VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (2, {"buzzards": 1, "feathers": "1 2 3", "guess_min": 1, "guess_max": 6, "max_guesses": 2}),
    (3, {"buzzards": 2, "feathers": "1 2 3 4 5 x2 ? zero", "guess_max": 20, "tomahawks": True}),
    (4, {"max_guesses": 1, "end_after_eliminations": 1}),
]
WAKATANKA_VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (3, {"animals": 3, "cards": 1, "tokens_to_win": 1, "max_turns": 6}),
    (4, {"animals": 4, "cards": 2, "tokens_to_win": 2}),
    (3, {"max_turns": 12}),
]


def _play(game: Any, players: int, options: dict[str, Any], level: str, seed: int) -> Any:
    state = game.new_state(players, options)
    rng = random.Random(seed)
    bots = [game.bot_levels()[level](seed=seed + s) for s in range(players)]
    while not state.is_terminal:
        spec = state.chance_due()
        if spec is not None:
            state.apply(spec.sample(rng))
            continue
        seat = state.to_move
        legal = state.legal_actions()
        action = bots[seat].choose(state.view(seat), legal)
        assert action in legal
        state.apply(action)
    return state


@pytest.mark.parametrize(("players", "options"), POWWOW_VARIANTS, ids=str)
@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_powwow_variants_play_to_the_end_with_every_level(players, options, level):
    state = _play(POWWOW, players, options, level, seed=5)
    assert sum(state.returns()) == pytest.approx(0.0)
    record = Record.of(state)
    assert {k: record.options[k] for k in options} == options
    replayed = Record.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert replayed.is_terminal and replayed.winners() == state.winners()


@pytest.mark.parametrize(("players", "options"), WAKATANKA_VARIANTS, ids=str)
@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_wakatanka_variants_play_to_the_end_with_every_level(players, options, level):
    state = _play(WAKATANKA, players, options, level, seed=5)
    assert sum(state.returns()) == pytest.approx(0.0)
    if "max_turns" in options:
        assert len(state.turns) <= options["max_turns"]
    record = Record.of(state)
    replayed = Record.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert replayed.is_terminal and replayed.winners() == state.winners()


def test_powwow_guess_range_and_guess_limit_shape_the_legal_moves():
    options = {"feathers": "1 2 3", "guess_min": 1, "guess_max": 6, "max_guesses": 2}
    state = POWWOW.new_state(2, options, chance="draw", narrate=False)
    while state.chance_due() is not None:
        state.apply(state.chance_due().sample(random.Random(0)))
    assert sorted(state.all_feathers()) == ["1", "2", "3"]
    assert list(state.legal_actions()) == [Guess(v) for v in range(1, 7)]
    with pytest.raises(IllegalAction, match="between 1 and 6, not 7"):
        state.apply(Guess(7))
    state.apply(Guess(2))
    assert list(state.legal_actions()) == [*(Guess(v) for v in range(3, 7)), DISPUTE]
    state.apply(Guess(4))
    assert list(state.legal_actions()) == [DISPUTE]  # two guesses: the most a round holds
    with pytest.raises(IllegalAction, match="already holds 2 guesses"):
        state.apply(Guess(5))
    encoding = POWWOW.encoding(2, options)
    assert encoding.num_actions == 7  # six guesses and dispute
    assert encoding.action(0) == Guess(1) and encoding.action(6) == DISPUTE


def test_wakatanka_fewer_animals_cards_and_tokens():
    options = {"animals": 4, "cards": 2, "tokens_to_win": 1}
    state = WAKATANKA.new_state(3, options, chance="draw", narrate=False)
    assert state.chance_due().outcomes() == [
        (outcome, pytest.approx(1 / 4)) for outcome, _ in state.chance_due().outcomes()
    ]
    assert len(state.chance_due().outcomes()) == 4  # the marker starts on one of four tiles
    rng = random.Random(4)
    while state.chance_due() is not None:
        state.apply(state.chance_due().sample(rng))
    assert Counter(state.all_cards()) == {card: 2 for card in (*TILES[:4], "mouse")}
    marker = state.view(0).marker
    plays = {a.tile for a in state.legal_actions() if type(a).__name__ == "Play"}
    at = TILES.index(marker)
    assert plays <= {TILES[(at - 1) % 4], TILES[(at + 1) % 4]}
    # one token wins: the first exposed bluff or successful spell ends the game
    while not state.is_terminal:
        state.apply(random.Random(len(state.turns)).choice(state.legal_actions()))
    assert max(state.tokens) <= 1


def test_wakatanka_max_turns_ends_with_the_most_tokens_then_fewest_cards():
    state = _play(WAKATANKA, 3, {"max_turns": 5}, "random", seed=1)
    assert len(state.turns) <= 5
    if len(state.turns) == 5 and state.winners():
        best = max(state.tokens)
        most = [s for s in range(3) if state.tokens[s] == best]
        fewest = min(state.hand_size[s] for s in most)
        assert state.winners() == [s for s in most if state.hand_size[s] == fewest]


@pytest.mark.parametrize(
    ("game", "players", "options", "reason"),
    [
        (POWWOW, 4, {"guess_min": 10, "guess_max": 5}, "guess_min 10 is above guess_max 5"),
        (POWWOW, 4, {"guess_max": 300}, "guess_max"),
        (POWWOW, 4, {"feathers": "1 2 purple"}, "'purple' is not a feather code"),
        (POWWOW, 4, {"feathers": "1 2 3 4"}, "4 players need at least 5 feathers"),
        (POWWOW, 3, {"feathers": "1 2 3 4 5", "tomahawks": True}, "at least 7 feathers"),
        (POWWOW, 4, {"max_guesses": 0}, "max_guesses"),
        (WAKATANKA, 3, {"animals": 2}, "animals"),
        (WAKATANKA, 3, {"cards": 7}, "cards"),
        (WAKATANKA, 3, {"tokens_to_win": 5}, "tokens_to_win"),
        (WAKATANKA, 4, {"max_turns": 3}, "every one of the 4 players needs a turn"),
    ],
)
def test_bad_variants_are_refused_with_the_reason(game, players, options, reason):
    with pytest.raises(OptionError, match=reason):
        game.new_state(players, options)


def test_a_real_game_carries_no_research_option():
    for game in (POWWOW, WAKATANKA):
        state = game.new_state(4)
        assert state.options.research() == []
        assert set(Record.of(state).options) == set(game.default_options())
        assert set(state.view(0).to_json()["options"]) == set(game.default_options())
    assert POWWOW.new_state(4, {"max_guesses": 3}).options.research() == ["max_guesses"]


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (
            "python_campfire_powwow",
            {"players": 2, "buzzards": 1, "feathers": "1 2 3", "guess_min": 1, "guess_max": 6},
        ),
        ("python_campfire_powwow", {"players": 3, "max_guesses": 2, "tomahawks": True}),
        (
            "python_campfire_wakatanka",
            {"players": 3, "animals": 3, "cards": 1, "tokens_to_win": 1, "max_turns": 6},
        ),
    ],
)
def test_variants_are_openspiel_parameters(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.campfire.options.research()


def test_variants_run_in_a_vector_env_on_the_kernel_engine():
    options: dict[str, Any] = {"players": 2, "buzzards": 1, "feathers": "1 2 3", "guess_max": 6}
    env = VectorEnv("powwow", num_envs=4, **options)
    assert env.engine == "kernel" and env.num_actions == 28  # guesses -20..6, dispute
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"research variant .* kernel engine"):
        VectorEnv("powwow", num_envs=4, engine="numpy", **options)
    with pytest.raises(ValueError, match="'rule' opponent plays the full game"):
        VectorEnv("powwow", num_envs=4, opponents="rule", **options)
    wakatanka = VectorEnv("wakatanka", num_envs=2, players=3, cards=1, animals=3)
    assert wakatanka.engine == "kernel"
