"""`VectorEnv` keeps Gymnasium 1.x's vector conventions: Gymnasium's own wrappers run on it, its
spaces hold what it returns, a seed fixes everything, and games start again in the same step
with their last observation and results in `info`."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from campfire.envs.vector import VectorEnv
from campfire.kernel import RandomBot, Record, get_game

from .test_vector import random_actions

GAMES = [("powwow", {"tomahawks": True}), ("powwow", {}), ("wakatanka", {})]


def learner_moves(record: dict[str, Any], seat: int) -> int:
    return sum(1 for move in record["moves"] if move.get("player") == seat)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("opponents", ["random", "rule", None])
def test_record_episode_statistics_counts_every_game_as_its_record_says(game, options, opponents):
    """Gymnasium's wrapper reads the env's autoreset mode and `[B]` rewards: its episode returns
    and lengths are the learner's result and number of moves in each finished record."""
    seat = 1
    env = RecordEpisodeStatistics(
        VectorEnv(game, num_envs=6, players=4, seat=seat, opponents=opponents, **options),
        buffer_length=10_000,
    )
    assert env.unwrapped.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=5)
    inner = env.unwrapped
    assert isinstance(inner, VectorEnv)
    inner.finished_records()  # games ended before the learner's first move: no episodes
    episodes: list[tuple[float, int]] = []
    for _ in range(400):
        _, rewards, terminations, truncations, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        reported: dict[int, tuple[float, int]] = {}
        for row, record in inner.finished_records(rows=True):
            if row in reported:  # ended before the learner moved again
                assert learner_moves(record, seat) == 0
                continue
            state = Record.from_json(record).replay()
            assert rewards[row] == np.float32(state.returns()[seat])
            # without opponents every move is a step; with them, the learner's moves are
            length = len([m for m in record["moves"] if "player" in m])
            reported[row] = (
                rewards[row],
                length if opponents is None else learner_moves(record, seat),
            )
        assert sorted(reported) == np.flatnonzero(terminations).tolist()
        episodes += [reported[row] for row in sorted(reported)]  # the wrapper's order
        if "episode" in info:
            assert np.array_equal(info["_episode"], terminations | truncations)
    assert len(episodes) > 10
    assert list(env.return_queue) == pytest.approx([r for r, _ in episodes])
    assert list(env.length_queue) == [n for _, n in episodes]


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("opponents", ["rule", None])
def test_spaces_hold_every_observation_and_the_seed_fixes_everything(game, options, opponents):
    """What `gymnasium.utils.env_checker` asks of an env, for the batch: observations in the
    space, the same seed giving the same data, a different one different data, returned arrays
    not reused."""

    def run(seed: int) -> list[Any]:
        env = VectorEnv(game, num_envs=4, players=4, opponents=opponents, **options)
        rng = np.random.default_rng(1)
        obs, info = env.reset(seed=seed)
        out: list[Any] = [obs, info]
        for _ in range(60):
            assert env.observation_space.contains(obs)
            assert obs.dtype == env.single_observation_space.dtype
            before = obs.copy()
            actions = random_actions(info["action_mask"], rng)
            assert env.action_space.contains(actions)
            obs, rewards, terminations, truncations, info = env.step(actions)
            assert np.array_equal(out[-5 if len(out) > 2 else 0], before)  # not reused
            assert rewards.dtype == np.float64 and terminations.dtype == np.bool_
            out += [obs, rewards, terminations, truncations, info]
        return out

    first = run(11)
    assert data_equivalence(first, run(11), exact=True)
    assert not data_equivalence(first, run(12))


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_game_that_ends_starts_again_in_the_same_step(game, options):
    """Same-step autoreset: the observation of a row that ended is the new game's first
    decision, the ended game's last view of the learner is `final_obs` and its results are in
    `final_info`."""
    env = VectorEnv(game, num_envs=8, players=3, seat=2, opponents="random", **options)
    encoding = get_game(game).encoding(3, options)
    rng = np.random.default_rng(2)
    obs, info = env.reset(seed=3)
    ends = 0
    for _ in range(300):
        obs, _, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
        assert (info["to_move"] == 2).all()  # the learner's turn in every game, always
        if not terminations.any():
            continue
        finished = {row: record for row, record in env.finished_records(rows=True)}
        for row in np.flatnonzero(terminations).tolist():
            ends += 1
            record = Record.from_json(finished[row])
            state = record.replay()
            final = np.frombuffer(encoding.observe(state.view(2)), np.float32)
            assert np.array_equal(info["final_obs"][row], final)
            assert info["final_info"]["_returns"][row]
            assert list(info["final_info"]["returns"][row]) == state.returns()
            # the new game's first decision is in `obs` (the replay test follows each row's
            # observations across the restart, game after game)
            assert not np.array_equal(obs[row], info["final_obs"][row])
    assert ends > 5


@pytest.mark.parametrize(("game", "opponents"), [("powwow", None), ("wakatanka", "rule")])
def test_max_steps_truncates_with_the_last_observation(game, opponents):
    """After `max_steps` of the caller's actions in a game it is truncated: `final_obs` is the
    learner's view of the game as it was left (kernel states show it), a new game starts."""
    env = VectorEnv(game, num_envs=5, players=4, opponents=opponents, max_steps=7, engine="kernel")
    encoding = get_game(game).encoding(4, {})
    rng = np.random.default_rng(4)
    _, info = env.reset(seed=8)
    steps = np.zeros(5, np.int64)
    truncated = 0
    for _ in range(40):
        states = list(env.batch.states)  # type: ignore[attr-defined]
        _, _, terminations, truncations, info = env.step(random_actions(info["action_mask"], rng))
        steps += 1
        assert not (terminations & truncations).any()
        assert (truncations == ((steps == 7) & ~terminations)).all()
        for row in np.flatnonzero(truncations).tolist():
            truncated += 1
            assert info["_final_obs"][row] and not states[row].is_terminal
            left = np.frombuffer(encoding.observe(states[row].view(0)), np.float32)
            assert np.array_equal(info["final_obs"][row], left)
            assert env.batch.states[row] is not states[row]  # type: ignore[attr-defined]
        steps[terminations | truncations] = 0
    assert truncated > 0
    # truncated games are no records: only games that ended are
    for record in env.finished_records():
        assert Record.from_json(record).replay().is_terminal


@pytest.mark.parametrize(
    ("game", "limit", "options"), [("powwow", 2, {"buzzards": 1}), ("wakatanka", 12, {})]
)
def test_max_steps_on_the_numpy_engines(game, limit, options):
    """Truncation drops a game in the NumPy engines too: the flags come after `max_steps` of
    the learner's moves, the new game is at the learner's turn, and every record still replays."""
    env = VectorEnv(game, num_envs=6, players=4, opponents="rule", max_steps=limit, **options)
    assert env.engine == "numpy"
    rng = np.random.default_rng(7)
    _, info = env.reset(seed=7)
    steps = np.zeros(6, np.int64)
    truncated = ended = 0
    for _ in range(150):
        _, _, terminations, truncations, info = env.step(random_actions(info["action_mask"], rng))
        steps += 1
        assert (truncations == ((steps == limit) & ~terminations)).all()
        assert (info["to_move"] == 0).all()
        for row in np.flatnonzero(truncations | terminations).tolist():
            assert env.single_observation_space.contains(info["final_obs"][row])
        truncated += int(truncations.sum())
        steps[terminations | truncations] = 0
        for record in env.finished_records():
            ended += 1
            state = Record.from_json(record).replay()
            assert state.is_terminal
            assert learner_moves(record, 0) <= limit
    assert truncated > 0 and ended > 0


class Counting:
    """A bot object: random, counting its calls."""

    def __init__(self) -> None:
        self.bot = RandomBot(0)
        self.calls = 0

    def choose(self, view: Any, legal: Any) -> Any:
        self.calls += 1
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("game", ["powwow", "wakatanka"])
def test_campfire_bots_play_inside_the_batch_through_kernel_states(game):
    bot = Counting()
    opponents = ["easy", bot, "campfire.kernel.bots:RandomBot"]
    env = VectorEnv(game, num_envs=3, players=4, seat=0, opponents=opponents)
    assert env.engine == "kernel"
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(150):
        _, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
        assert (info["to_move"] == 0).all()
    assert bot.calls > 0
    records = env.finished_records()
    assert records
    for record in records:
        assert Record.from_json(record).replay().is_terminal


def test_a_policy_opponent_sees_its_own_seats_views():
    seen: list[np.ndarray] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.append(observation)
        return random_actions(mask, np.random.default_rng(len(seen)))

    env = VectorEnv("powwow", num_envs=4, players=3, seat=0, opponents=policy)
    _, info = env.reset(seed=1)
    for _ in range(20):
        _, _, _, _, info = env.step(random_actions(info["action_mask"], np.random.default_rng(0)))
    assert seen
    for observation in seen:
        viewer = observation[:, :3].argmax(axis=1)
        mover = observation[:, 3:6].argmax(axis=1)
        assert (viewer == mover).all() and (viewer != 0).all()


def test_bad_opponents_and_limits_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="kernel engine"):
        VectorEnv("powwow", num_envs=2, opponents="easy", engine="numpy")
    with pytest.raises(ValueError, match="unknown bot level 'wizard'"):
        VectorEnv("powwow", num_envs=2, opponents="wizard")
    with pytest.raises(ValueError, match="2 levels for 3 other seats"):
        VectorEnv("powwow", num_envs=2, players=4, opponents=["rule", "rule"])
    with pytest.raises(TypeError, match="an opponent is"):
        VectorEnv("powwow", num_envs=2, opponents=3)
    with pytest.raises(ValueError, match="max_steps"):
        VectorEnv("powwow", num_envs=2, max_steps=0)
    with pytest.raises(ValueError, match="seat must be"):
        VectorEnv("powwow", num_envs=2, players=3, seat=3)

    def cheat(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.full(len(mask), 259)  # dispute, with no guess standing at first

    env = VectorEnv("powwow", num_envs=2, players=3, seat=1, opponents=cheat)
    with pytest.raises(ValueError, match="opponent at seat 0 chose action 259"):
        env.reset(seed=0)

    def scalar(observation: np.ndarray, mask: np.ndarray) -> int:
        return 0  # one action for all the games: not a policy over a batch

    env = VectorEnv("wakatanka", num_envs=2, players=3, seat=1, opponents=scalar)
    with pytest.raises(ValueError, match=r"shape \(\) for 2 games: one whole number per game"):
        env.reset(seed=0)


def test_the_constructors_seed_still_seeds_a_first_reset():
    with pytest.warns(DeprecationWarning, match="reset"):
        old = VectorEnv("powwow", num_envs=2, seed=9)
    new = VectorEnv("powwow", num_envs=2)
    assert np.array_equal(old.reset()[0], new.reset(seed=9)[0])


def test_gymnasium_accepts_it_as_a_vector_env():
    env = VectorEnv("wakatanka", num_envs=2, players=3)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.single_action_space == gymnasium.spaces.Discrete(50)
