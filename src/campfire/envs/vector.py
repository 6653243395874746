"""B games of one game stepped together on NumPy arrays, with Gymnasium's vector conventions.

    from campfire.envs.vector import VectorEnv
    env = VectorEnv("powwow", num_envs=1024, players=4, seed=0, tomahawks=True)
    obs, info = env.reset(seed=0)
    actions = ...  # one legal action per game, from info["action_mask"]
    obs, rewards, terminations, truncations, info = env.step(actions)

Every game in the batch always has a seat to move: chance is resolved inside, from the seeded
generator, and a game that ends is started again at once (Gymnasium's same-step autoreset).
`obs` is the encoded view of the seat to move `[B, obs]` (the game's `Encoding`), `rewards`
`[B, players]` is each seat's result in a game that ended this step (else 0),
`info["action_mask"]` `[B, num_actions]` and `info["to_move"]` `[B]`. Each finished game is
kept as its format-1 record (`finished_records()`), which replays through the scalar engine to
the same results and observations: the batch is exact, not an approximation of the rules.

Two engines run a batch. A game may ship its own NumPy engine (structure of arrays: one row per
game, the whole batch moved by a few dozen array operations; entry point group
``campfire.vector``, Pow Wow's is `campfire.games.powwow.vector`), which lives in the game's
folder because it is the game's rules written over arrays. Every game with an encoding also runs
on `KernelBatch`: B kernel states in shuffle mode with narration off, exact by construction and
as fast as the scalar engine. Both are held to the same record-replay test.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from campfire.kernel.errors import CampfireError
from campfire.kernel.records import Record
from campfire.kernel.registry import get_game
from campfire.kernel.state import Game, State

Array = np.ndarray[Any, Any]


class Batch(Protocol):
    """A batched engine of one game: B games, each always at a seat's turn.

    A game can ship its own (NumPy arrays, entry point group ``campfire.vector``, see
    `campfire.games.powwow.vector`); every game has `KernelBatch`, built on the kernel API."""

    num_envs: int
    turn: Array  # the seat to move in each game [B]
    finished: list[Any]  # the games finished and not yet handed out as records

    def reset(self, seed: int | None = None) -> None: ...
    def step(self, actions: Array) -> tuple[Array, Array, Array]:
        """Rewards [B, players] (float32), terminations [B], final scores [B, players]."""
        ...

    def records(self) -> list[dict[str, Any]]: ...
    def mask(self) -> Array: ...
    def observe(self, viewer: Array | None = None) -> Array: ...


class KernelBatch:
    """B kernel states in shuffle mode, narration off, chance drawn from one seeded generator:
    exact for every game by construction, at the scalar engine's speed."""

    def __init__(
        self,
        game: Game[Any],
        num_envs: int,
        players: int,
        options: dict[str, Any],
        seed: int | None,
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.num_envs = num_envs
        self.encoding = game.encoding(players, options)  # OptionError when bad
        # one encoding per game: an encoding remembers what it last encoded of a game (Pow
        # Wow's used pile, Waka Tanka's reveals) and reuses it while that game goes on, which
        # games taken in turns would defeat with one shared encoding
        self.encodings = [game.encoding(players, options) for _ in range(num_envs)]
        self.actions = [self.encoding.action(i) for i in range(self.encoding.num_actions)]
        self.rng = random.Random(seed)
        self.states: list[State[Any, Any]] = []
        self.finished: list[State[Any, Any]] = []
        self.turn = np.zeros(num_envs, np.int64)
        size = self.encoding.observation_size
        self.obs = np.zeros((num_envs, size), np.float32)
        self.legal = np.zeros((num_envs, self.encoding.num_actions), np.int8)
        # flat views of the arrays: a row is written from the encoding's buffers by a slice
        self.obs_flat = self.obs.data.cast("B").cast("f")
        self.legal_flat = self.legal.data.cast("B")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self.states = [self._new_game() for _ in range(self.num_envs)]
        for b in range(self.num_envs):
            self._write(b)

    def step(self, actions: Array) -> tuple[Array, Array, Array]:
        rewards = np.zeros((self.num_envs, self.players), np.float32)
        scores = np.zeros((self.num_envs, self.players), np.int64)
        terminations = np.zeros(self.num_envs, np.bool_)
        states, table, rng = self.states, self.actions, self.rng
        for b, action in enumerate(actions.tolist()):
            state = states[b]
            state.apply(table[action])
            while state.to_move is None:
                if state.is_terminal:
                    rewards[b] = state.returns()
                    scores[b] = _scores(self.game.summary(state))
                    terminations[b] = True
                    self.finished.append(state)
                    state = states[b] = self._new_game()
                    break
                state.apply(state.sample_chance(rng))
            self._write(b)
        return rewards, terminations, scores

    def records(self) -> list[dict[str, Any]]:
        finished, self.finished = self.finished, []
        return [Record.of(state).to_json() for state in finished]

    def mask(self) -> Array:
        return self.legal.copy()

    def observe(self, viewer: Array | None = None) -> Array:
        if viewer is None:
            return self.obs.copy()
        return np.stack(
            [
                np.frombuffer(self.encoding.observe(state.view(seat)), np.float32)
                for state, seat in zip(self.states, viewer.tolist(), strict=True)
            ]
        )

    def _new_game(self) -> State[Any, Any]:
        state: State[Any, Any] = self.game.new_state(self.players, self.options, narrate=False)
        rng = self.rng
        while state.to_move is None:
            state.apply(state.sample_chance(rng))
        return state

    def _write(self, b: int) -> None:
        """Row `b` of the observations, masks and seats to move, from its game."""
        state = self.states[b]
        seat = state.to_move
        size = self.encoding.observation_size
        self.obs_flat[b * size : (b + 1) * size] = self.encodings[b].observe(state.view(seat))
        width = self.encoding.num_actions
        legal = self.encoding.legal_mask(state.legal_actions())  # shared: masks of common lists
        self.legal_flat[b * width : (b + 1) * width] = legal
        self.turn[b] = seat  # type: ignore[assignment]  # a game here always has one


def _scores(summary: dict[str, Any]) -> list[int]:
    """Each seat's count that decides a game: Pow Wow's buzzards, Waka Tanka's tokens."""
    for key in ("buzzards", "tokens"):
        if key in summary:
            return list(summary[key])
    return []


def _batch_engines() -> dict[str, Any]:
    """The batched engines games ship, by game name (entry point group ``campfire.vector``)."""
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group="campfire.vector")}


class VectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` games of `game` (a name or a `Game`) for `players` seats with the game's
    options as keyword arguments, chance drawn from a generator seeded with `seed`.

    `engine` picks the batched engine: ``"auto"`` (the game's own NumPy engine when it ships
    one, else the kernel's), ``"numpy"`` or ``"kernel"``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int = 1,
        players: int | None = None,
        seed: int | None = None,
        engine: str = "auto",
        **options: Any,
    ) -> None:
        self.game: Game[Any] = get_game(game) if isinstance(game, str) else game
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        self.players = self.game.default_players if players is None else players
        self.options = dict(options)
        self.encoding = self.game.encoding(self.players, self.options)  # OptionError when bad
        engines = _batch_engines()
        if engine not in ("auto", "numpy", "kernel"):
            raise ValueError(f"engine must be auto, numpy or kernel, not {engine!r}")
        if engine == "numpy" and self.game.name not in engines:
            raise ValueError(f"{self.game.title} has no NumPy engine: use engine='kernel'")
        self.batch: Batch
        if engine != "kernel" and self.game.name in engines:
            factory = engines[self.game.name].load()
            self.batch = factory(num_envs, self.players, self.options, seed)
            self.engine = "numpy"
        else:
            self.batch = KernelBatch(self.game, num_envs, self.players, self.options, seed)
            self.engine = "kernel"
        self.num_envs = num_envs
        self.num_actions = self.encoding.num_actions
        size = self.encoding.observation_size
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        #: PettingZoo's names of the seats
        self.agents = [f"player_{s}" for s in range(self.players)]
        self._actions = [self.encoding.action(i) for i in range(self.num_actions)]
        self._mask = np.zeros((num_envs, self.num_actions), np.int8)
        self._rows = np.arange(num_envs)
        self._started = False

    # --- Gymnasium's vector API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """New games everywhere (unfinished ones are dropped); `seed` reseeds chance."""
        if options:
            raise ValueError(
                "game options are given when the batch is made, not at reset: "
                f"VectorEnv(..., {', '.join(f'{k}=...' for k in options)})"
            )
        self.batch.reset(seed)
        self._started = True
        return self.batch.observe(), self._info()

    def step(
        self, actions: Sequence[int] | Array
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """One action per game (for its seat to move); games that end start again at once.
        `info["final_scores"]` holds each seat's buzzards (Pow Wow) or tokens (Waka Tanka) in
        the games that ended."""
        if not self._started:
            raise CampfireError("call reset() before step()")
        chosen = self._check(actions)
        rewards, terminations, scores = self.batch.step(chosen)
        truncations = np.zeros(self.num_envs, np.bool_)
        info = self._info()
        info["final_scores"] = scores
        return self.batch.observe(), rewards, terminations, truncations, info

    def finished_records(self) -> list[dict[str, Any]]:
        """The format-1 records of the games finished since the last call, in the order they
        ended."""
        return self.batch.records()

    # --- PettingZoo-style views ------------------------------------------------------------
    def observe(self, seat: int) -> Array:
        """The encoded view of `seat` in every game `[B, obs]` (whoever is to move)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat!r}")
        if not self._started:
            raise CampfireError("call reset() before observe()")
        return self.batch.observe(np.full(self.num_envs, seat, np.int64))

    # --- inside ----------------------------------------------------------------------------
    def _info(self) -> dict[str, Any]:
        self._mask = self.batch.mask()
        return {"action_mask": self._mask.copy(), "to_move": self.batch.turn.copy()}

    def _check(self, actions: Sequence[int] | Array) -> Array:
        """The actions as numbers, or a ValueError naming the first game where one is wrong."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(
                f"step takes one action per game: shape ({self.num_envs},), not {chosen.shape}"
            )
        if chosen.dtype.kind not in "iu":
            if chosen.dtype.kind == "f" and np.all(chosen == np.floor(chosen)):
                chosen = chosen.astype(np.int64)
            else:
                raise ValueError(f"actions must be whole numbers, not {chosen.dtype}")
        outside = (chosen < 0) | (chosen >= self.num_actions)
        if outside.any():
            b = int(np.flatnonzero(outside)[0])
            raise ValueError(
                f"game {b}: action {int(chosen[b])} is not in 0..{self.num_actions - 1}"
            )
        legal = self._mask[self._rows, chosen]
        if not legal.all():
            b = int(np.flatnonzero(legal == 0)[0])
            action = int(chosen[b])
            raise ValueError(
                f"game {b}: action {action} ({self.game.text.command(self._actions[action])}) "
                f"is not legal for seat {int(self.batch.turn[b])} (see info['action_mask'])"
            )
        return chosen.astype(np.int64)
