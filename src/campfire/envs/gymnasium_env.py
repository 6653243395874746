"""One learner seat against Campfire bots, as a Gymnasium environment.

    import gymnasium, campfire.envs.gymnasium_env
    env = gymnasium.make("campfire/Powwow-v0", players=4, opponents="random")

The other seats are played by `opponents`: a level name, ``"module:factory"``, a bot object, a
bot factory or a policy ``policy(observation, action_mask) -> action`` (self-play), one for all
or one per other seat (`campfire.envs.opponents`). The observation is the learner's seat view,
encoded (`Game.encoding`); `info["action_mask"]`
(and `env.action_masks()`) marks its legal actions. The reward is the learner's share of the
result when the game ends (+1 for a win, the losers sharing the loss so the table sums to zero).
An illegal action ends the game at once as a loss (-1), with the reason in `info["illegal_action"]`.
"""

from __future__ import annotations

import io
import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from campfire.envs.opponents import Policy
from campfire.envs.opponents import opponents as resolve_opponents
from campfire.i18n import N_
from campfire.kernel.bots import Bot
from campfire.kernel.errors import IllegalAction, Refusal
from campfire.kernel.registry import get_game
from campfire.kernel.state import State


class CampfireEnv(gymnasium.Env[np.ndarray, np.int64]):
    """`game` with the learner at `seat` and `opponents` at the other seats (one for all, or
    one per other seat in seat order: see `campfire.envs.opponents`). Game options are keyword
    arguments; `max_steps` truncates after that many learner actions."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int = 0,
        opponents: Any = "random",
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = get_game(game)
        self.players = self.game.default_players if players is None else players
        self.options = options
        self.encoding = self.game.encoding(self.players, options)  # OptionError when bad
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(
                Refusal(
                    N_("seat must be 0..{last}, not {seat}"), last=self.players - 1, seat=repr(seat)
                )
            )
        # ValueError naming the known levels, TypeError for what is no opponent
        self.opponents = resolve_opponents(self.game, opponents, self.players, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                Refusal(
                    N_("render_mode must be None or 'ansi', not {value}"), value=repr(render_mode)
                )
            )
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(
                Refusal(
                    N_("max_steps must be a positive whole number, not {value}"),
                    value=repr(max_steps),
                )
            )
        self.seat = seat
        self.levels = [opponent.name for opponent in self.opponents]
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoding.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self._rng = random.Random()
        self._bots: dict[int, Bot] = {}
        self._policies: dict[int, Policy] = {}
        self._state: State[Any, Any] | None = None
        self._steps = 0

    @property
    def state_now(self) -> State[Any, Any]:
        if self._state is None:
            raise RuntimeError(Refusal(N_("call reset() before using the environment")))
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        seats = [s for s in range(self.players) if s != self.seat]
        self._bots = {
            s: opponent.factory(self._rng.randrange(2**32))
            for s, opponent in zip(seats, self.opponents, strict=True)
            if opponent.factory is not None
        }
        self._policies = {
            s: opponent.policy
            for s, opponent in zip(seats, self.opponents, strict=True)
            if opponent.policy is not None
        }
        self._state = self.game.new_state(self.players, self.options, narrate=False)
        self._steps = 0
        self._play_others()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.state_now
        if state.is_terminal:
            raise RuntimeError(Refusal(N_("the game is over: call reset()")))
        try:
            move = self.encoding.action(int(action))
            state.apply(move, seat=self.seat)
        except (ValueError, IllegalAction) as error:
            info = self._info()
            info["illegal_action"] = str(error)
            return self._observation(), -1.0, True, False, info
        self._steps += 1
        self._play_others()
        terminated = state.is_terminal
        reward = state.returns()[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a 0/1 vector (empty unless it is the learner's turn)."""
        state = self.state_now
        if state.to_move == self.seat:
            return np.frombuffer(self.encoding.legal_mask(state.legal_actions()), np.int8)
        return np.zeros(self.encoding.num_actions, dtype=np.int8)

    def render(self) -> str | None:
        """The table as the learner's seat sees it, as text."""
        if self.render_mode is None:
            return None
        from rich.console import Console

        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, force_terminal=False)
        console.print(self.game.text.render(self.state_now.view(self.seat)))
        return out.getvalue()

    def _play_others(self) -> None:
        """Settle chance and let the bots act until the learner is to act or the game ends."""
        state = self.state_now
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(self._rng))
            elif seat == self.seat:
                return
            elif seat in self._policies:
                state.apply(self._policy_action(seat))
            else:
                state.apply(self._bots[seat].choose(state.view(seat), state.legal_actions()))

    def _policy_action(self, seat: int) -> Any:
        """The action a policy picks for `seat` from its encoded view and legal actions."""
        state = self.state_now
        legal = state.legal_actions()
        mask = np.frombuffer(self.encoding.legal_mask(legal), np.int8)
        observation = np.frombuffer(self.encoding.observe(state.view(seat)), np.float32)
        chosen = np.asarray(self._policies[seat](observation, mask))
        if chosen.size != 1 or chosen.dtype.kind not in "iu":
            raise ValueError(
                Refusal(
                    N_("the policy at seat {seat} returned {chosen}, not one action"),
                    seat=seat,
                    chosen=repr(chosen),
                )
            )
        index = int(chosen.reshape(-1)[0])
        if not 0 <= index < len(mask) or not mask[index]:
            raise ValueError(
                Refusal(
                    N_("the policy at seat {seat} chose action {index}, not legal there"),
                    seat=seat,
                    index=index,
                )
            )
        return self.encoding.action(index)

    def _observation(self) -> np.ndarray:
        return np.frombuffer(self.encoding.observe(self.state_now.view(self.seat)), np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}


_ENTRY = "campfire.envs.gymnasium_env:CampfireEnv"
gymnasium.register("campfire/Powwow-v0", entry_point=_ENTRY, kwargs={"game": "powwow"})
gymnasium.register("campfire/WakaTanka-v0", entry_point=_ENTRY, kwargs={"game": "wakatanka"})
