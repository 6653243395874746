"""The research adapters keep each seat's secrets: whatever PettingZoo, Gymnasium, OpenSpiel and
the `VectorEnv` show a seat is unchanged when everything that seat cannot see is dealt again,
and changes when something it can see does (`tests/honesty.py`). An option that is off shows
nothing of itself (Pow Wow's tomahawks, in every option combination)."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any
from unittest.mock import patch

import numpy as np
import pyspiel
import pytest

import campfire.envs.openspiel  # noqa: F401  (registers the games)
from campfire.envs.aec import CampfireAECEnv
from campfire.envs.gymnasium_env import CampfireEnv
from campfire.envs.vector import VectorEnv
from campfire.kernel import Record, State, get_game
from campfire.kernel.records import apply_entry
from tests.honesty import CASES, Tally, case_id, other_seat, positions, redeal, visible

Case = tuple[str, int, dict[str, Any]]


def started_at(env: Any, state: State[Any, Any]) -> Any:
    """`env` reset to a copy of `state`: its game's `new_state` hands out the copy (no chance
    is due there, and in Gymnasium the learner is to move, so the environment plays nothing)."""
    with patch.object(env.game, "new_state", lambda *args, **kwargs: state.clone()):
        return env.reset()


def same(first: Any, second: Any) -> bool:
    """Two observations (arrays, or dicts of arrays) hold the same values."""
    if isinstance(first, dict):
        return first.keys() == second.keys() and all(same(first[k], second[k]) for k in first)
    return bool(np.array_equal(np.asarray(first), np.asarray(second)))


# --- PettingZoo ------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_observes_every_agent_by_its_own_view_only(case: Case) -> None:
    """At every step of a game played through the environment, every agent's observation (its
    mask included), and the spectator's rendering, survive a re-deal of what it cannot see."""
    name, players, options = case
    env = CampfireAECEnv(name, players, render_mode="ansi", **options)
    other = CampfireAECEnv(name, players, render_mode="ansi", **options)
    env.reset(seed=11)
    rng = random.Random(11)
    tally = Tally()
    for step in range(120):
        state = env.state_now
        if state.to_move is None:
            break
        for seat, agent in enumerate(env.possible_agents):
            seen = env.observe(agent)
            twin = redeal(state, seat, rng)
            tally.twin(state, twin)
            started_at(other, twin)
            assert same(other.observe(agent), seen), (step, agent)
            variant = redeal(state, other_seat(seat, players, step), rng)
            if visible(variant.view(seat)) != visible(state.view(seat)):
                tally.visible += 1
                started_at(other, variant)
                assert not same(other.observe(agent), seen), (step, agent)
        started_at(other, redeal(state, None, rng))
        assert other.render() == env.render()  # the spectator's table
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    tally.check(minimum=20)


# --- Gymnasium -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gymnasium_shows_the_learner_its_own_view_only(case: Case) -> None:
    """The learner's observation, `info` and rendered table at its turns survive a re-deal of
    what it cannot see, whichever seat it holds, and change with what it sees."""
    name, players, options = case
    envs = [
        CampfireEnv(name, players, seat=seat, render_mode="ansi", **options)
        for seat in range(players)
    ]
    rng = random.Random(12)
    tally = Tally()
    for step, state in enumerate(positions(name, players, options, seed=12, limit=80)):
        seat = state.to_move
        assert seat is not None
        env = envs[seat]
        observation, info = started_at(env, state)
        shown = env.render()
        twin = redeal(state, seat, rng)
        tally.twin(state, twin)
        twin_observation, twin_info = started_at(env, twin)
        assert same(twin_observation, observation), step
        assert same(twin_info, info), step
        assert env.render() == shown, step
        variant = redeal(state, other_seat(seat, players, step), rng)
        if visible(variant.view(seat)) != visible(state.view(seat)):
            tally.visible += 1
            variant_observation, _ = started_at(env, variant)
            assert not same(variant_observation, observation), step
            assert env.render() != shown, step
    tally.check(minimum=15)


# --- OpenSpiel -------------------------------------------------------------------------------
def _params(players: int, options: dict[str, Any]) -> dict[str, Any]:
    return {"players": players, **options}


def _shown(state: Any, player: int) -> tuple[Any, ...]:
    """Everything OpenSpiel shows `player`: both tensors and both strings."""
    return (
        tuple(state.observation_tensor(player)),
        state.observation_string(player),
        tuple(state.information_state_tensor(player)),
        state.information_state_string(player),
    )


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_shows_every_player_its_own_information_only(case: Case) -> None:
    """For every player at every decision of a game played through pyspiel, the observation and
    information-state tensors and strings survive a re-deal of what it cannot see
    (`resample_from_infostate`, checked to re-deal), and each of them changes with what it
    sees."""
    name, players, options = case
    game = pyspiel.load_game(f"python_campfire_{name}", _params(players, options))
    rng = random.Random(13)
    state = game.new_initial_state()
    tally = Tally()
    step = 0
    while not state.is_terminal() and step < 60:
        if state.is_chance_node():
            numbers, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(numbers, chances)[0])
            continue
        for player in range(players):
            shown = _shown(state, player)
            twin = state.resample_from_infostate(player, rng.random)
            assert twin.campfire.view(player) == state.campfire.view(player)
            tally.twin(state.campfire, twin.campfire)
            assert _shown(twin, player) == shown, (step, player)
            variant = state.resample_from_infostate(other_seat(player, players, step), rng.random)
            if visible(variant.campfire.view(player)) != visible(state.campfire.view(player)):
                tally.visible += 1
                changed = _shown(variant, player)
                for part, (before, after) in enumerate(zip(shown, changed, strict=True)):
                    assert before != after, (step, player, part)
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    tally.check(minimum=15)


# --- VectorEnv -------------------------------------------------------------------------------
def _observed(env: VectorEnv) -> list[np.ndarray]:
    """Every seat's observation in every game `[seat][B, obs]`."""
    return [env.observe(seat) for seat in range(env.players)]


@pytest.mark.parametrize("engine", ["auto", "kernel"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_vector_env_observes_every_seat_as_its_view(case: Case, engine: str) -> None:
    """Every seat's batched observation, at every step of every game, is the encoding of that
    seat's view in the game's record replayed through the scalar engine — the observation the
    PettingZoo test above proves honest, re-deal by re-deal."""
    name, players, options = case
    env = VectorEnv(name, num_envs=3, players=players, engine=engine, **options)
    encoding = get_game(name).encoding(players, options)
    mask_rng = np.random.default_rng(14)
    _, info = env.reset(seed=14)
    seen: list[list[list[np.ndarray]]] = [[] for _ in range(env.num_envs)]
    checked = 0
    for _ in range(2000):
        shown = _observed(env)
        for b in range(env.num_envs):
            seen[b].append([shown[seat][b] for seat in range(players)])
        scores = mask_rng.random(info["action_mask"].shape) * info["action_mask"]
        _, _, terminations, _, info = env.step(scores.argmax(axis=1))
        ended = [int(b) for b in np.flatnonzero(terminations)]
        for record in env.finished_records():
            if isinstance(record, tuple):  # (row, record) where the batch names the row
                record = record[1]
            row = next((b for b in ended if _replays_to(record, seen[b], encoding)), None)
            assert row is not None, "a finished game shows some seat what its view does not"
            ended.remove(row)
            seen[row] = []
            checked += 1
        if checked >= 4:
            return
    raise AssertionError(f"only {checked} games ended")


def _replays_to(raw: dict[str, Any], seen: list[list[np.ndarray]], encoding: Any) -> bool:
    """Whether the record's decisions showed every seat exactly `seen`."""
    record = Record.from_json(raw)
    state = record.new_state()
    shown = iter(seen)
    for move in record.moves:
        if state.to_move is not None:
            observations = next(shown, None)
            if observations is None:
                return False
            for seat, observation in enumerate(observations):
                expected = np.frombuffer(encoding.observe(state.view(seat)), np.float32)
                if not np.array_equal(observation, expected):
                    return False
        apply_entry(state, move)
    return next(shown, None) is None


# --- an option that is off shows nothing -----------------------------------------------------
POWWOW_OPTIONS = [
    {"tomahawks": t, "buzzards": b, "end_after_eliminations": e, "first_player": f}
    for t, b, e, f in itertools.product([False, True], [1, 3], [None, 1], [0, 2])
]


def _section(sections: Any, name: str, vector: Any) -> np.ndarray:
    """The named part of an observation, where `sections` lays it out."""
    at = 0
    for part, size in sections:
        if part == name:
            return np.asarray(vector)[..., at : at + size]
        at += size
    raise AssertionError(f"no section {name!r} in {[part for part, _ in sections]}")


@pytest.mark.parametrize(
    "options", POWWOW_OPTIONS, ids=[case_id(("powwow", 3, o)) for o in POWWOW_OPTIONS]
)
def test_tomahawks_show_only_when_in_play(options: dict[str, Any]) -> None:
    """With tomahawks off no seat (nor a spectator) is shown a ready tomahawk in its view or
    its encoded view (PettingZoo's and Gymnasium's observation); with them on, the ready ones
    are shown, and a spent one after it is used."""
    players, on = 3, options["tomahawks"]
    encoding = get_game("powwow").encoding(players, options)
    sections = encoding.sections
    spent = False
    for state in positions("powwow", players, options, seed=15, limit=60):
        for seat in (*range(players), None):
            view = state.view(seat)
            shown = _section(sections, "tomahawks", encoding.observe(view))
            assert shown.any() == (on and any(view.tomahawks)), (seat, list(shown))
            if not on:
                assert not any(view.tomahawks)
        spent |= on and not all(state.view(0).tomahawks)
    assert spent or not on  # a tomahawk was used, and shown spent


@pytest.mark.parametrize("engine", ["auto", "kernel"])
@pytest.mark.parametrize(
    "options", POWWOW_OPTIONS, ids=[case_id(("powwow", 3, o)) for o in POWWOW_OPTIONS]
)
def test_batched_tomahawks_show_only_when_in_play(options: dict[str, Any], engine: str) -> None:
    """The same in the `VectorEnv`, for every seat."""
    players, on = 3, options["tomahawks"]
    sections = get_game("powwow").encoding(players, options).sections
    env = VectorEnv("powwow", num_envs=4, players=players, engine=engine, **options)
    _, info = env.reset(seed=16)
    rng = np.random.default_rng(16)
    armed = 0
    for _ in range(30):
        for seat in range(players):
            ready = _section(sections, "tomahawks", env.observe(seat))
            assert on or not ready.any(), (engine, seat)
            armed += int(ready.any())
        scores = rng.random(info["action_mask"].shape) * info["action_mask"]
        info = env.step(scores.argmax(axis=1))[-1]
    assert (armed > 0) == on


@pytest.mark.parametrize(
    "options", POWWOW_OPTIONS, ids=[case_id(("powwow", 3, o)) for o in POWWOW_OPTIONS]
)
def test_openspiel_tomahawks_show_only_when_in_play(options: dict[str, Any]) -> None:
    """The same in OpenSpiel's observation and information-state tensors (every section named
    for tomahawks) and strings."""
    players, on = 3, options["tomahawks"]
    params = {"players": players, **options}
    params["end_after_eliminations"] = options["end_after_eliminations"] or 0  # 0: none
    game = pyspiel.load_game("python_campfire_powwow", params)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for perfect_recall in (False, True):
        kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
        observer = game.make_py_observer(kind)
        for player in range(players):
            observer.set_from(state, player)
            parts = [part for part in observer.dict if "tomahawk" in part]
            assert parts, list(observer.dict)
            assert all(observer.dict[part].any() == on for part in parts), (player, parts)
            shown = json.loads(observer.string_from(state, player))
            assert any(shown["tomahawks"]) == on
        for player in range(players):
            for text in (state.observation_string(player), state.information_state_string(player)):
                assert any(json.loads(text)["tomahawks"]) == on
