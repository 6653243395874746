"""`VectorEnv`'s two autoreset modes, held to a scalar engine driven by hand: each row of the
batch is the games its records show, one after the other, as Gymnasium's vector envs present
a sub-env in that mode (same step: the new game's observation at once, the last one in
`final_obs`; next step: the last observation, then a step whose action is ignored, reward 0,
neither flag). Gymnasium's `RecordEpisodeStatistics` counts the same episodes in both."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from campfire.envs.vector import VectorEnv
from campfire.kernel import Record, get_game
from campfire.kernel.records import apply_entry, entry_from_json
from campfire.kernel.state import PlayerMove

from .test_vector import random_actions

MODES = [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP]
CASES = [
    ("powwow", {"tomahawks": True}, "auto"),
    ("powwow", {}, "auto"),
    ("powwow", {}, "kernel"),
    ("wakatanka", {}, "auto"),
    ("wakatanka", {}, "kernel"),
]


@dataclass
class Episode:
    """One game as a single-game env shows it to the learner: its observation, mask and
    action at each of its turns, then its last observation and result."""

    observations: list[np.ndarray]
    masks: list[np.ndarray]
    actions: list[int]
    final: np.ndarray
    reward: float


def by_hand(record: dict[str, Any], seat: int) -> Episode | None:
    """Drive the scalar engine through `record` one entry at a time, as a single-game env
    would (None: the learner never moved in that game, so no env would show it)."""
    game = get_game(record["game"])
    encoding = game.encoding(record["players"], record["options"])
    state = Record.from_json(record).new_state()
    episode = Episode([], [], [], np.zeros(0, np.float32), 0.0)
    for raw in record["moves"]:
        entry = entry_from_json(game, raw)
        if isinstance(entry, PlayerMove) and entry.seat == seat:
            view = state.view(seat)
            episode.observations.append(np.frombuffer(encoding.observe(view), np.float32))
            mask = encoding.legal_mask(state.legal_actions())
            episode.masks.append(np.frombuffer(mask, np.int8))
            episode.actions.append(encoding.action_index(entry.action))
        apply_entry(state, raw)
    assert state.is_terminal
    if not episode.actions:
        return None
    episode.final = np.frombuffer(encoding.observe(state.view(seat)), np.float32)
    episode.reward = state.returns()[seat]
    return episode


def expected_row(episodes: list[Episode], mode: AutoresetMode) -> list[dict[str, Any]]:
    """What one row shows at reset and after each step, for these episodes one after the
    other, by Gymnasium's rules for the mode."""
    shown: list[dict[str, Any]] = [{"obs": episodes[0].observations[0], "to_move": True}]
    for i, episode in enumerate(episodes):
        following = episodes[i + 1] if i + 1 < len(episodes) else None
        for k, action in enumerate(episode.actions):
            step: dict[str, Any] = {"action": action, "reward": 0.0, "terminated": False}
            if k + 1 < len(episode.actions):
                step["obs"], step["mask"] = episode.observations[k + 1], episode.masks[k + 1]
                shown.append(step)
                continue
            step.update(reward=episode.reward, terminated=True)
            if mode is AutoresetMode.SAME_STEP:
                step["final_obs"] = episode.final
                if following is None:
                    shown.append(step)  # the next game's start: not known by hand here
                    return shown
                step["obs"], step["mask"] = following.observations[0], following.masks[0]
                shown.append(step)
            else:
                step["obs"], step["ended"] = episode.final, True
                shown.append(step)
                if following is None:
                    return shown
                # the step after: its action is ignored, the next game begins
                shown.append(
                    {
                        "action": None,
                        "reward": 0.0,
                        "terminated": False,
                        "obs": following.observations[0],
                        "mask": following.masks[0],
                    }
                )
    return shown


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("game", "options", "engine"), CASES)
def test_each_row_is_its_records_games_driven_by_hand(mode, game, options, engine):
    seat, players, rows = 1, 3, 4
    env = RecordEpisodeStatistics(
        VectorEnv(
            game,
            num_envs=rows,
            players=players,
            seat=seat,
            opponents="random",
            engine=engine,
            autoreset_mode=mode,
            **options,
        ),
        buffer_length=10_000,
    )
    inner = env.unwrapped
    assert isinstance(inner, VectorEnv)
    assert inner.metadata["autoreset_mode"] is mode
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=21)
    records: list[list[dict[str, Any]]] = [[] for _ in range(rows)]
    for row, record in inner.finished_records(rows=True):
        records[row].append(record)
    seen: list[list[dict[str, Any]]] = [[{"obs": obs[b]}] for b in range(rows)]
    ended_in_order: list[tuple[int, int]] = []  # (step, row) of each episode the wrapper saw
    for t in range(260):
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert not truncations.any()
        assert (info["to_move"][~terminations] == seat).all()
        for b in range(rows):
            step = {
                "action": int(actions[b]),
                "obs": obs[b],
                "mask": info["action_mask"][b],
                "reward": float(rewards[b]),
                "terminated": bool(terminations[b]),
            }
            if mode is AutoresetMode.SAME_STEP and terminations[b]:
                step["final_obs"] = info["final_obs"][b]
                assert info["_final_obs"][b] and info["_final_info"][b]
            if mode is AutoresetMode.NEXT_STEP:
                assert "final_obs" not in info
                if terminations[b]:
                    assert info["to_move"][b] == -1 and info["action_mask"][b].all()
            seen[b].append(step)
            if terminations[b]:
                ended_in_order.append((t, b))
        for row, record in inner.finished_records(rows=True):
            records[row].append(record)

    compared = 0
    episodes_by_row: list[list[Episode]] = []
    for b in range(rows):
        episodes = [e for e in (by_hand(r, seat) for r in records[b]) if e is not None]
        episodes_by_row.append(episodes)
        assert episodes, "every row finishes a game in this many steps"
        expected = expected_row(episodes, mode)
        assert len(expected) <= len(seen[b])
        for got, want in zip(seen[b], expected, strict=False):
            if "obs" in want:
                assert np.array_equal(got["obs"], want["obs"])
            if "mask" in want:
                assert np.array_equal(got["mask"], want["mask"])
            if "action" in want and want["action"] is not None:
                assert got["action"] == want["action"]  # the engine played what was given
            if "reward" in want:
                assert got["reward"] == pytest.approx(want["reward"])
                assert got["terminated"] == want["terminated"]
            if "final_obs" in want:
                assert np.array_equal(got["final_obs"], want["final_obs"])
            compared += 1
    assert compared > 200

    # the wrapper's episodes, in the order they ended: each game's result and learner turns
    lengths = {b: [len(e.actions) for e in eps] for b, eps in enumerate(episodes_by_row)}
    returns = {b: [e.reward for e in eps] for b, eps in enumerate(episodes_by_row)}
    want_returns, want_lengths = [], []
    for _, b in ended_in_order:
        want_returns.append(returns[b].pop(0))
        want_lengths.append(lengths[b].pop(0))
    assert list(env.return_queue) == pytest.approx(want_returns)
    assert list(env.length_queue) == want_lengths


@pytest.mark.parametrize("game", ["powwow", "wakatanka"])
def test_next_step_ignores_the_action_of_a_game_that_ended(game):
    """Any number, even one out of range, is taken for an ended game's row and ignored; the
    other rows are still checked."""
    env = VectorEnv(game, num_envs=3, players=4, opponents="rule", autoreset_mode="NextStep")
    rng = np.random.default_rng(5)
    _, info = env.reset(seed=2)
    ignored = 0
    for _ in range(400):
        actions = random_actions(info["action_mask"], rng)
        ended = info["to_move"] == -1
        if ended.any():
            actions[ended] = 10**6  # out of range: ignored all the same
            ignored += int(ended.sum())
            if not ended.all():
                bad = actions.copy()
                bad[np.flatnonzero(~ended)[0]] = 10**6
                with pytest.raises(ValueError, match="is not in 0"):
                    env.step(bad)
        _, rewards, terminations, truncations, info = env.step(actions)
        assert (rewards[ended] == 0).all()
        assert not (terminations[ended] | truncations[ended]).any()
        assert (info["to_move"][ended] == 0).all()
    assert ignored > 3


@pytest.mark.parametrize(("game", "opponents"), [("powwow", None), ("wakatanka", "rule")])
def test_next_step_truncation_shows_the_game_left_then_a_new_one(game, opponents):
    env = VectorEnv(
        game,
        num_envs=5,
        players=4,
        opponents=opponents,
        max_steps=6,
        engine="kernel",
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    encoding = get_game(game).encoding(4, {})
    rng = np.random.default_rng(4)
    _, info = env.reset(seed=8)
    steps = np.zeros(5, np.int64)
    restarting = np.zeros(5, np.bool_)
    truncated = 0
    for _ in range(60):
        states = list(env.batch.states)  # type: ignore[attr-defined]
        moves = [len(state.history) for state in states]
        obs, rewards, terminations, truncations, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        steps[~restarting] += 1
        assert (truncations == ((steps == 6) & ~terminations)).all()
        assert not (truncations[restarting] | terminations[restarting]).any()
        assert (rewards[restarting] == 0).all()
        for row in np.flatnonzero(truncations).tolist():
            truncated += 1
            left = np.frombuffer(encoding.observe(states[row].view(0)), np.float32)
            assert np.array_equal(obs[row], left) and not states[row].is_terminal
            assert info["to_move"][row] == -1
        for row in np.flatnonzero(restarting).tolist():  # the new game, shown, not moved
            state = env.batch.states[row]  # type: ignore[attr-defined]
            assert state is states[row] and len(state.history) == moves[row]
            now = np.frombuffer(encoding.observe(state.view(state.to_move)), np.float32)
            assert np.array_equal(obs[row], now)
        restarting = terminations | truncations
        steps[restarting] = 0
    assert truncated > 0


def test_a_mode_it_does_not_offer_is_refused_with_the_reason():
    modes: list[Any] = [AutoresetMode.DISABLED, "Disabled", "next", 3]
    for mode in modes:
        with pytest.raises(ValueError, match="autoreset_mode must be"):
            VectorEnv("powwow", num_envs=2, autoreset_mode=mode)
    assert VectorEnv("powwow", num_envs=2).metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert VectorEnv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
