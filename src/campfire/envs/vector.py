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

The batch is built on the kernel API alone (each game is a kernel state in shuffle mode with
narration off), so it serves every game with an encoding and can never disagree with the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

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


class VectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` games of `game` (a name or a `Game`) for `players` seats with the game's
    options as keyword arguments, chance drawn from a generator seeded with `seed`."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int = 1,
        players: int | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        self.game: Game[Any] = get_game(game) if isinstance(game, str) else game
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        self.players = self.game.default_players if players is None else players
        self.options = dict(options)
        self.encoding = self.game.encoding(self.players, self.options)  # OptionError when bad
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
        # one encoding per game: an encoding remembers what it last encoded of a game (Pow
        # Wow's used pile, Waka Tanka's reveals) and reuses it while that game goes on, which
        # games taken in turns would defeat with one shared encoding
        self._encodings = [self.game.encoding(self.players, self.options) for _ in range(num_envs)]
        self._rng = random.Random(seed)
        self._states: list[State[Any, Any]] = []
        self._finished: list[State[Any, Any]] = []
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, self.num_actions), np.int8)
        self._to_move = np.zeros(num_envs, np.int64)
        # flat views of the arrays: a row is written from the encoding's buffers by a slice
        self._obs_flat = self._obs.data.cast("B").cast("f")
        self._mask_flat = self._mask.data.cast("B")
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
        if seed is not None:
            self._rng.seed(seed)
        self._states = [self._new_game() for _ in range(self.num_envs)]
        for b in range(self.num_envs):
            self._write(b)
        self._started = True
        return self._obs.copy(), self._info()

    def step(
        self, actions: Sequence[int] | Array
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """One action per game (for its seat to move); games that end start again at once."""
        if not self._started:
            raise CampfireError("call reset() before step()")
        chosen = self._check(actions)
        rewards = np.zeros((self.num_envs, self.players), np.float32)
        terminations = np.zeros(self.num_envs, np.bool_)
        states, table, rng = self._states, self._actions, self._rng
        for b, action in enumerate(chosen):
            state = states[b]
            state.apply(table[action])
            while state.to_move is None:
                if state.is_terminal:
                    rewards[b] = state.returns()
                    terminations[b] = True
                    self._finished.append(state)
                    state = states[b] = self._new_game()
                    break
                state.apply(state.sample_chance(rng))
            self._write(b)
        truncations = np.zeros(self.num_envs, np.bool_)
        return self._obs.copy(), rewards, terminations, truncations, self._info()

    def finished_records(self) -> list[dict[str, Any]]:
        """The format-1 records of the games finished since the last call, in the order they
        ended."""
        finished, self._finished = self._finished, []
        return [Record.of(state).to_json() for state in finished]

    # --- PettingZoo-style views ------------------------------------------------------------
    def observe(self, seat: int) -> Array:
        """The encoded view of `seat` in every game `[B, obs]` (whoever is to move)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat!r}")
        if not self._started:
            raise CampfireError("call reset() before observe()")
        observe = self.encoding.observe
        return np.stack(
            [np.frombuffer(observe(state.view(seat)), np.float32) for state in self._states]
        )

    @property
    def states(self) -> list[State[Any, Any]]:
        """The games as kernel states (read them; changing one breaks the batch)."""
        return self._states

    # --- inside ----------------------------------------------------------------------------
    def _new_game(self) -> State[Any, Any]:
        state: State[Any, Any] = self.game.new_state(self.players, self.options, narrate=False)
        rng = self._rng
        while state.to_move is None:
            state.apply(state.sample_chance(rng))
        return state

    def _write(self, b: int) -> None:
        """Row `b` of the observations, masks and seats to move, from its game."""
        state = self._states[b]
        seat = state.to_move
        size = self.encoding.observation_size
        self._obs_flat[b * size : (b + 1) * size] = self._encodings[b].observe(state.view(seat))
        width = self.num_actions
        legal = self.encoding.legal_mask(state.legal_actions())  # shared: masks of common lists
        self._mask_flat[b * width : (b + 1) * width] = legal
        self._to_move[b] = seat  # type: ignore[assignment]  # a game here always has one

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "to_move": self._to_move.copy()}

    def _check(self, actions: Sequence[int] | Array) -> list[int]:
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
                f"is not legal for seat {int(self._to_move[b])} (see info['action_mask'])"
            )
        result: list[int] = chosen.tolist()
        return result
