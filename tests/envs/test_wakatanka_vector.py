"""Waka Tanka's NumPy engine against the scalar engine, step by step: random batched games, each
row shadowed by a kernel state dealt the same shuffle and marker, compared at every step for the
seat to move, the legal actions, every seat's observation, the results and the final view."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.envs.vector import VectorEnv, _batch_engines
from campfire.games.wakatanka.cards import CARDS, TILES
from campfire.games.wakatanka.vector import WakatankaBatch
from campfire.kernel import Record, get_game
from campfire.kernel.records import apply_entry
from campfire.kernel.state import State

GAME = get_game("wakatanka")


def shadow(batch: WakatankaBatch, row: int) -> State:  # type: ignore[type-arg]
    """A kernel state dealt as the batch dealt row `row`'s game."""
    state: State = GAME.new_state(batch.players, batch.options.model_dump(), narrate=False)  # type: ignore[type-arg]
    order = [CARDS[c] for c in batch.orders[row].tolist()]
    apply_entry(state, {"chance": "shuffle", "order": order})
    apply_entry(state, {"chance": "marker", "tile": TILES[int(batch.marker_at_start[row])]})
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 6),
    first=st.integers(0, 5),
    rows=st.integers(1, 6),
    seed=st.integers(0, 2**31),
    final_seat=st.integers(0, 5),
)
def test_batched_games_step_with_the_scalar_engine(players, first, rows, seed, final_seat):
    first %= players
    final_seat %= players
    batch = WakatankaBatch(rows, players, {"first_player": first}, None)
    batch.final_seat = final_seat
    batch.reset(seed)
    encoding = GAME.encoding(players, {"first_player": first})
    rng = np.random.default_rng(seed)
    states = [shadow(batch, r) for r in range(rows)]
    ends = 0
    for _ in range(400):
        mask = batch.mask()
        views = [batch.observe(np.full(rows, seat, np.int64)) for seat in range(players)]
        to_move = batch.observe()  # the default viewer: the seat to move
        for r in range(rows):
            assert np.array_equal(to_move[r], views[int(batch.turn[r])][r])
        for r, state in enumerate(states):
            assert state.to_move == batch.turn[r]
            legal = np.frombuffer(encoding.legal_mask(state.legal_actions()), np.int8)
            assert np.array_equal(mask[r], legal)
            for seat in range(players):
                expected = np.frombuffer(encoding.observe(state.view(seat)), np.float32)
                assert np.array_equal(views[seat][r], expected)
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        actions[rng.random(rows) < 0.2] = -1  # some games wait
        rewards, over, scores = batch.step(actions)
        for r in range(rows):
            if actions[r] < 0:
                assert not over[r]
                continue
            state = states[r]
            state.apply(encoding.action(int(actions[r])))
            assert over[r] == state.is_terminal
            if over[r]:
                ends += 1
                assert list(rewards[r]) == [np.float32(x) for x in state.returns()]
                assert list(scores[r]) == GAME.summary(state)["tokens"]
                final = np.frombuffer(encoding.observe(state.view(final_seat)), np.float32)
                assert np.array_equal(batch.final.pop(r), final)
                states[r] = shadow(batch, r)
            else:
                assert not rewards[r].any()
        assert not batch.final
    finished = batch.records()
    assert len(finished) == ends
    for _, record in finished:
        assert Record.from_json(record).replay().is_terminal


def test_the_entry_point_names_the_numpy_engine():
    assert _batch_engines()["wakatanka"].load() is WakatankaBatch
    assert VectorEnv("wakatanka", num_envs=2).engine == "numpy"


@pytest.mark.parametrize("opponents", [None, "rule"])
def test_long_runs_compact_the_log_and_still_replay(opponents):
    """Past the log's first 256 steps (compacted, grown), the records still replay."""
    env = VectorEnv("wakatanka", num_envs=3, players=3, opponents=opponents)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=2)
    games = 0
    for _ in range(900):
        _, _, _, _, info = env.step(
            (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        )
        for record in env.finished_records():
            games += 1
            assert Record.from_json(record).replay().is_terminal
        assert len(env.batch.log_moves) <= 4096  # type: ignore[attr-defined]
    assert games > 5
