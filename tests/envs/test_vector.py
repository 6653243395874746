"""The batched engine is exact: every game it plays is a format-1 record that replays through the
scalar engine to the same observations, legal actions, results and buzzards or tokens."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.envs.vector import VectorEnv
from campfire.kernel import CampfireError, OptionError, Record, get_game


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row, uniformly among the legal ones."""
    scores = rng.random(mask.shape) * mask
    chosen: np.ndarray = scores.argmax(axis=1)
    return chosen


@st.composite
def batches(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int, int]:
    """A game, its players and options, a batch size and a seed."""
    game = draw(st.sampled_from(["powwow", "wakatanka"]))
    if game == "powwow":
        players = draw(st.integers(2, 6))
        options: dict[str, Any] = {
            "tomahawks": draw(st.booleans()),
            "buzzards": draw(st.integers(1, 3)),
            "first_player": draw(st.integers(0, players - 1)),
        }
        if players > 2 and draw(st.booleans()):
            options["end_after_eliminations"] = 1
    else:
        players = draw(st.integers(3, 6))
        options = {"first_player": draw(st.integers(0, players - 1))}
    return game, players, options, draw(st.integers(1, 5)), draw(st.integers(0, 2**31))


def play(env: VectorEnv, seed: int, games: int, max_steps: int = 3000) -> list[dict[str, Any]]:
    """Random legal play until `games` games ended; each finished game's record with what the
    batch showed along it (observations, masks, seats to move: the learner's decisions only when
    opponents play inside), its rewards, results, scores and final observation."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for _, record in env.finished_records(rows=True):
        learner_less(env, record)
    seen = [[(obs[b], info["action_mask"][b], int(info["to_move"][b]))] for b in range(len(obs))]
    done: list[dict[str, Any]] = []
    for _ in range(max_steps):
        obs, rewards, terminations, truncations, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        assert rewards.shape == terminations.shape == truncations.shape == (env.num_envs,)
        assert not truncations.any()
        ended = np.flatnonzero(terminations).tolist()
        finished = env.finished_records(rows=True)
        if env.opponents is None:  # else a game may end before the learner moves (never here)
            assert [row for row, _ in finished] == ended
        assert sorted({row for row, _ in finished}) == ended
        reported = set()
        for b, record in finished:
            if b in reported:
                learner_less(env, record)
                continue
            reported.add(b)
            done.append(
                {
                    "record": record,
                    "seen": seen[b],
                    "reward": rewards[b],
                    "returns": info["returns"][b],
                    "scores": info["final_scores"][b],
                    "final_obs": info["final_obs"][b],
                }
            )
            seen[b] = []
        if ended:
            assert np.array_equal(info["_final_obs"], terminations)
            assert np.array_equal(info["_final_info"], terminations)
        else:
            assert "final_obs" not in info
        for b in range(len(obs)):
            if b not in ended:
                assert rewards[b] == 0 and not info["returns"][b].any()
            seen[b].append((obs[b], info["action_mask"][b], int(info["to_move"][b])))
        if len(done) >= games:
            return done
    raise AssertionError(f"only {len(done)} games ended in {max_steps} steps")


def learner_less(env: VectorEnv, record: dict[str, Any]) -> None:
    """A game that ended before the learner moved (one buzzard, one elimination) is a record
    but no episode: it must hold no move of the learner's."""
    assert env.opponents is not None
    assert all(move.get("player") != env.seat for move in record["moves"])


def replay_matches(game_name: str, finished: dict[str, Any], seat: int, learner_only: bool) -> None:
    """The record replays through the scalar engine to what the batch showed: at each decision
    (the learner's only, with opponents inside) the same seat, observation and legal actions; at
    the end the same results, scores and the learner's final view."""
    record = Record.from_json(finished["record"])
    game = get_game(game_name)
    encoding = game.encoding(record.players, record.options)
    state = record.new_state()
    seen = iter(finished["seen"])
    decisions = 0
    from campfire.kernel.records import apply_entry

    for raw in record.moves:
        if state.to_move is not None and (not learner_only or state.to_move == seat):
            obs, mask, to_move = next(seen)
            assert to_move == state.to_move
            expected = np.frombuffer(encoding.observe(state.view(to_move)), np.float32)
            assert np.array_equal(obs, expected)
            legal = np.frombuffer(encoding.legal_mask(state.legal_actions()), np.int8)
            assert np.array_equal(mask, legal)
            decisions += 1
        apply_entry(state, raw)
    assert state.is_terminal
    assert next(seen, None) is None  # the batch showed exactly the game's decisions
    assert decisions > 0
    returns = np.array(state.returns(), np.float32)
    assert np.array_equal(finished["returns"], returns)
    assert finished["reward"] == returns[seat]
    summary = game.summary(state)
    scores = summary["buzzards"] if game_name == "powwow" else summary["tokens"]
    assert list(finished["scores"]) == scores
    final = np.frombuffer(encoding.observe(state.view(seat)), np.float32)
    assert np.array_equal(finished["final_obs"], final)


@pytest.mark.parametrize("engine", ["auto", "kernel"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=batches())
def test_every_batched_game_replays_through_the_scalar_engine(engine, case):
    game, players, options, num_envs, seed = case
    seat = seed % players
    env = VectorEnv(game, num_envs=num_envs, players=players, engine=engine, seat=seat, **options)
    finished = play(env, seed, games=num_envs + 1)
    for one in finished:
        assert one["record"]["format"] == 1
        assert one["record"]["options"] == {**get_game(game).default_options(), **options}
        replay_matches(game, one, seat, learner_only=False)


@pytest.mark.parametrize("opponents", ["random", "rule"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=batches())
def test_games_against_opponents_inside_the_batch_replay_too(opponents, case):
    game, players, options, num_envs, seed = case
    seat = seed % players
    env = VectorEnv(
        game, num_envs=num_envs, players=players, seat=seat, opponents=opponents, **options
    )
    finished = play(env, seed, games=num_envs + 1)
    for one in finished:
        replay_matches(game, one, seat, learner_only=True)


def test_the_same_seed_plays_the_same_games():
    def records(seed: int) -> list[Any]:
        env = VectorEnv("wakatanka", num_envs=3, players=4)
        return [one["record"] for one in play(env, seed, games=4)]

    assert records(7) == records(7)
    assert records(7) != records(8)


def test_shapes_spaces_and_every_seat_to_move():
    env = VectorEnv("powwow", num_envs=4, players=3, tomahawks=True)
    obs, info = env.reset(seed=1)
    encoding = get_game("powwow").encoding(3, {"tomahawks": True})
    assert obs.shape == (4, encoding.observation_size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (4, encoding.num_actions)
    assert info["to_move"].shape == (4,)
    assert env.observation_space.contains(obs)
    assert env.single_action_space == gymnasium.spaces.Discrete(encoding.num_actions)
    assert info["action_mask"].sum(axis=1).min() > 0  # every game has a seat to move
    _, rewards, terminations, truncations, info = env.step(
        random_actions(info["action_mask"], np.random.default_rng(0))
    )
    assert rewards.shape == terminations.shape == truncations.shape == (4,)
    assert info["returns"].shape == (4, 3)
    for seat in range(3):
        view = env.observe(seat)
        assert view.shape == (4, encoding.observation_size)
        assert np.array_equal(view[:, seat], np.ones(4))  # the viewer's own seat, one-hot


def test_bad_input_is_refused_with_the_reason():
    env = VectorEnv("powwow", num_envs=2, players=4)
    with pytest.raises(CampfireError, match="reset"):
        env.step([0, 0])
    _, info = env.reset()
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        env.step([0])
    with pytest.raises(ValueError, match=r"game 1: action 999 is not in 0\.\.259"):
        env.step([0, 999])
    with pytest.raises(ValueError, match="whole numbers"):
        env.step(np.array([0.5, 1.0]))
    assert info["action_mask"][0, 259] == 0  # no guess to dispute yet
    with pytest.raises(ValueError, match=r"game 0: action 259 \(dispute\) is not legal for seat 0"):
        env.step([259, 0])
    with pytest.raises(ValueError, match="seat must be"):
        env.observe(4)
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("powwow", num_envs=0)
    with pytest.raises(OptionError, match="buzzards"):
        VectorEnv("powwow", num_envs=2, buzzards=0)
    with pytest.raises(ValueError, match="given when the batch is made"):
        env.reset(options={"tomahawks": True})


def test_the_benchmarks_random_policy_is_uniform_among_the_legal_actions():
    """benchmarks/engine.py measures the batch with a rejection sampler: it must never pick an
    illegal action and must pick every legal one about equally often, sparse rows included."""
    from benchmarks.engine import random_legal

    mask = np.zeros((4, 260), np.int8)
    mask[0, :] = 1  # every action
    mask[1, 250:] = 1  # a late guess: ten legal
    mask[2, [3, 259]] = 1  # two far apart
    mask[3, 17] = 1  # one
    rng = np.random.default_rng(0)
    draws = 20000
    counts = np.zeros(mask.shape, np.int64)
    for _ in range(draws // 4):
        for _ in range(4):
            counts[np.arange(4), random_legal(mask, rng)] += 1
    assert not (counts * (1 - mask)).any()
    for row in range(4):
        legal = counts[row][mask[row] == 1]
        expected = draws / len(legal)
        # a chi-square statistic far below what a biased sampler would give at this many draws
        assert ((legal - expected) ** 2 / expected).sum() < len(legal) + 6 * np.sqrt(2 * len(legal))
