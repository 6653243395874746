"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests and play whole games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from campfire.envs import powwow_v0, wakatanka_v0
from campfire.envs.aec import CampfireAECEnv, wrap_like_classic
from campfire.kernel import IllegalAction, OptionError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

ENVS = [
    pytest.param(lambda: powwow_v0.env(), id="powwow"),
    pytest.param(
        lambda: powwow_v0.env(players=3, tomahawks=True, buzzards=2), id="powwow-tomahawks"
    ),
    pytest.param(lambda: wakatanka_v0.env(), id="wakatanka"),
    pytest.param(lambda: wakatanka_v0.env(players=6, first_player=5), id="wakatanka-6"),
    pytest.param(lambda: wrap_like_classic(wakatanka_v0.raw_env(players=3)), id="classic-wrappers"),
]


@pytest.mark.parametrize("make", ENVS)
def test_pettingzoo_api_test(make):
    api_test(make(), num_cycles=300)


@pytest.mark.parametrize("make", ENVS)
def test_pettingzoo_seed_test(make):
    seed_test(make, num_cycles=300)


def play_random(env, seed: int) -> tuple[dict[str, float], int]:
    """Random legal actions through the usual AEC loop; the summed rewards and the step count."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        if termination or truncation:
            action = None
        else:
            legal = np.flatnonzero(observation["action_mask"])
            assert env.observation_space(agent).contains(observation)
            action = int(rng.choice(legal))
        env.step(action)
        steps += 1
    return total, steps


@pytest.mark.parametrize("module", [powwow_v0, wakatanka_v0])
def test_a_whole_game_ends_with_zero_sum_rewards(module):
    env = module.env(players=4)
    for seed in range(3):
        total, steps = play_random(env, seed)
        winners = [agent for agent, value in total.items() if value > 0]
        assert winners, total
        assert all(total[agent] == 1.0 for agent in winners)
        assert sum(total.values()) == pytest.approx(0.0)
        assert steps > 4


def test_the_same_seed_plays_the_same_game():
    first = play_random(wakatanka_v0.env(), 5)
    again = play_random(wakatanka_v0.env(), 5)
    assert first == again


def test_only_the_agent_to_act_has_legal_actions():
    env = powwow_v0.env(players=3)
    env.reset(seed=1)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert mask[:259].all() and not mask[259]  # every opening guess, no dispute yet
        else:
            assert not mask.any()


def test_an_illegal_action_is_refused_by_the_raw_env_with_the_reason():
    env = powwow_v0.raw_env(players=3)
    env.reset(seed=3)
    with pytest.raises(IllegalAction, match="no guess to dispute"):
        env.step(259)  # dispute, before any guess


def test_the_env_refuses_illegal_and_out_of_range_actions_with_the_reason():
    env = powwow_v0.env(players=3)
    env.reset(seed=3)
    with pytest.raises(IllegalAction, match="player_0: action 259 is illegal"):
        env.step(259)
    with pytest.raises(ValueError, match=r"player_0: action 260 is not in 0\.\.259"):
        env.step(260)
    with pytest.raises(ValueError, match="give an action number, not 'dispute'"):
        env.step("dispute")
    env.step(np.int64(3))  # numpy integers, as sampled from the action space, are fine
    assert env.agent_selection == "player_1"


def test_with_classic_wrappers_an_illegal_action_ends_the_game():
    env = wrap_like_classic(powwow_v0.raw_env(players=3))
    env.reset(seed=3)
    offender = env.agent_selection
    env.step(259)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1


def test_max_steps_truncates():
    env = wakatanka_v0.env(max_steps=5)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.unwrapped._steps == 5


def test_ansi_render_shows_the_public_table_only():
    env = powwow_v0.env(players=3, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "Pow Wow" in text and "Stack: 33 feathers" in text
    state = env.unwrapped.state_now
    assert text.count("▒▒") == 3  # every worn feather face down for a spectator
    assert state.view(None).feathers == ((None,), (None,), (None,))


def test_bad_arguments_get_clear_errors():
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        powwow_v0.env(colour="red")
    with pytest.raises(OptionError, match="3 to 6 players"):
        wakatanka_v0.env(players=7)
    with pytest.raises(ValueError, match="render_mode"):
        CampfireAECEnv("powwow", render_mode="human")
    env = wakatanka_v0.raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


def test_the_order_check_refuses_use_before_reset():
    env = wakatanka_v0.env()
    for name in ("agents", "agent_selection", "rewards", "terminations", "infos"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    env.reset(seed=0)
    assert env.agent_selection == "player_0" and env.agents == env.possible_agents


def _outcome(call: Any) -> tuple[str, str]:
    try:
        result = call()
    except Exception as error:
        return type(error).__name__, str(error)
    return "returned", type(result).__name__


def test_the_order_check_behaves_as_pettingzoos_own():
    """Our order check reaches the environment by shorter paths; PettingZoo's wrapper around the
    same environment must refuse the same calls with the same errors and play the same game."""
    ours = wakatanka_v0.env(players=3)
    stock = wrappers.OrderEnforcingWrapper(wakatanka_v0.raw_env(players=3))
    calls: list[Callable[[Any], Any]] = [
        lambda env: env.last(),
        lambda env: env.last(observe=False),
        lambda env: env.step(0),
        lambda env: env.agent_iter(),
        lambda env: env.observe("player_0"),
    ]
    for call in calls:
        assert _outcome(lambda call=call: call(ours)) == _outcome(lambda call=call: call(stock))
    games = []
    for env in (ours, stock):
        env.reset(seed=4)
        rng = np.random.default_rng(4)
        played: list[Any] = []
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            played.append((agent, observation["observation"].tobytes(), reward, termination))
            legal = np.flatnonzero(observation["action_mask"])
            env.step(None if termination or truncation else int(rng.choice(legal)))
        played.append(_outcome(lambda env=env: env.last()))  # after the end too
        with pytest.raises(AssertionError, match="need to call step"):  # next twice, no step
            env.reset(seed=4)
            iterator = iter(env.agent_iter())
            next(iterator)
            next(iterator)
        games.append(played)
    assert games[0] == games[1]
    assert len(games[0]) > 20
