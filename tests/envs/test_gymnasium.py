"""The Gymnasium environment: one learner seat against bots, checked by Gymnasium's own checker."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import campfire.envs.gymnasium_env  # noqa: F401  (registers the ids)
from campfire.envs.gymnasium_env import CampfireEnv
from campfire.kernel import OptionError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("campfire/Powwow-v0", {"players": 4}),
        ("campfire/Powwow-v0", {"players": 3, "tomahawks": True, "seat": 2}),
        ("campfire/WakaTanka-v0", {"players": 4, "seat": 1}),
    ],
)
def test_gymnasium_check_env(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped)
    assert env.spec is not None and env.spec.id == env_id


@pytest.mark.parametrize("game", ["powwow", "wakatanka"])
def test_a_whole_game_against_random_bots(game):
    env = CampfireEnv(game, players=4, seat=3, opponents="random")
    rng = np.random.default_rng(0)
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        done = False
        reward: Any = 0.0
        while not done:
            assert env.observation_space.contains(observation)
            assert (info["action_mask"] == env.action_masks()).all()
            legal = np.flatnonzero(info["action_mask"])
            assert len(legal) > 0
            observation, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated
        state = env.state_now
        assert state.is_terminal
        assert reward == state.returns()[3]
        assert not info["action_mask"].any()


def test_an_illegal_action_loses_at_once_with_the_reason():
    env = CampfireEnv("powwow", players=3)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(259)  # dispute with no guess standing
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "no guess to dispute" in info["illegal_action"]


def test_max_steps_truncates():
    env = CampfireEnv("wakatanka", max_steps=2)
    _, info = env.reset(seed=4)
    _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not truncated
    _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated or terminated


def test_render_shows_the_learners_view():
    env = CampfireEnv("powwow", players=3, seat=1, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and "1 (you)" in text
    assert text.count("▒▒") == 1  # only the learner's own feather is hidden


def test_bad_arguments_get_clear_errors():
    with pytest.raises(ValueError, match="unknown bot level 'wizard'"):
        CampfireEnv("powwow", opponents="wizard")
    with pytest.raises(ValueError, match="2 levels for 3 other seats"):
        CampfireEnv("powwow", opponents=["random", "random"])
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        CampfireEnv("wakatanka", seat=4)
    with pytest.raises(OptionError, match="tomahawks"):
        CampfireEnv("powwow", tomahawks="yes")
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        CampfireEnv("chess")
