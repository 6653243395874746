"""The Gymnasium environment: one learner seat against bots, checked by Gymnasium's own checker."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import campfire.envs.gymnasium_env  # noqa: F401  (registers the ids)
from campfire.envs.gymnasium_env import CampfireEnv
from campfire.kernel import OptionError, RandomBot

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


class Recorder:
    """A bot object that keeps the views it was shown (RandomBot's choices)."""

    def __init__(self) -> None:
        self.bot = RandomBot(0)
        self.seats: set[int] = set()

    def choose(self, view: Any, legal: Any) -> Any:
        self.seats.add(view.seat)
        return self.bot.choose(view, legal)


def play_one(env: CampfireEnv, seed: int) -> Any:
    """A whole game with random legal learner actions; the learner's reward."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    while True:
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated or truncated:
            assert env.state_now.is_terminal
            return reward


@pytest.mark.parametrize("game", ["powwow", "wakatanka"])
def test_opponents_in_every_form(game):
    """A level, a bot object, a factory (a class or a function of the seed), `module:factory`
    as the arena takes it, a policy on encoded views, and the batched rule bot."""
    recorder = Recorder()
    made: list[int | None] = []

    def factory(seed: int | None) -> RandomBot:
        made.append(seed)
        return RandomBot(seed)

    views: list[np.ndarray] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        views.append(observation)
        return int(np.flatnonzero(mask)[0])

    forms = ["easy", recorder, factory, RandomBot, "tests.bots.own_bot:Cautious", policy, "rule"]
    env = CampfireEnv(
        game,
        players=len(forms) + 1 if game == "powwow" else 4,
        seat=1,
        opponents=(forms if game == "powwow" else [recorder, policy, "rule"]),
    )
    for seed in range(2):
        play_one(env, seed)
        assert env.state_now.is_terminal
    # the other seats in order: 0, 2, 3 ...; the learner is at 1
    assert recorder.seats == {2 if game == "powwow" else 0}  # the seat it was given
    assert views
    seat_of = env.players
    for observation in views:
        viewer = int(np.argmax(observation[:seat_of]))
        assert viewer == (6 if game == "powwow" else 2)  # the policy's seat, its own view
    if game == "powwow":
        assert len(made) == 2 and len(set(made)) == 2  # a fresh bot per game, seeded apart
        assert env.levels[:2] == ["easy", "Recorder"]


def test_self_play_with_the_learners_own_policy_is_seeded():
    """The policy the learner trains plays the other seats too; the same seed, the same games."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> np.int64:
        return np.int64(np.flatnonzero(mask)[-1] if observation[0] > 0 else np.flatnonzero(mask)[0])

    def rewards() -> list[Any]:
        env = gymnasium.make("campfire/WakaTanka-v0", players=4, opponents=policy)
        return [play_one(env.unwrapped, seed) for seed in range(3)]  # type: ignore[arg-type]

    assert rewards() == rewards()


def test_bad_opponents_get_clear_errors():
    with pytest.raises(ValueError, match="cannot import 'nowhere'"):
        CampfireEnv("powwow", opponents="nowhere:Bot")
    with pytest.raises(ValueError, match="no bot factory named 'NOT_A_FACTORY'"):
        CampfireEnv("powwow", opponents="tests.bots.own_bot:NOT_A_FACTORY")
    with pytest.raises(TypeError, match="an opponent is a level name"):
        CampfireEnv("powwow", opponents=3.5)
    with pytest.raises(TypeError, match="neither one argument"):
        CampfireEnv("powwow", opponents=lambda a, b, c: 0)

    env = CampfireEnv("powwow", players=2, seat=1, opponents=lambda obs, mask: 259)
    with pytest.raises(ValueError, match="policy at seat 0 chose action 259, not legal"):
        env.reset(seed=0)  # the policy moves first, and disputes with no guess standing
    env = CampfireEnv("powwow", players=2, seat=1, opponents=lambda obs, mask: "guess")
    with pytest.raises(ValueError, match="not one action"):
        env.reset(seed=0)
