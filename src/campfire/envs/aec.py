"""One PettingZoo AEC environment for every Campfire game, built on the kernel API only.

Each agent ``player_<seat>`` observes ``{"observation": <its seat view, encoded>, "action_mask":
<its legal actions>}``; rewards come once, when the game ends (`State.returns`: +1 for each
winner, the rest share the loss so the rewards sum to zero). Chance is settled by the
environment's own generator, seeded by `reset(seed=...)`.
"""

from __future__ import annotations

import io
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from campfire.i18n import N_
from campfire.kernel.errors import IllegalAction, Refusal
from campfire.kernel.registry import get_game
from campfire.kernel.state import State

AgentID = str
Observation = dict[str, np.ndarray]
Info = dict[str, Any]
_ACTION_NUMBER = (int, np.integer)


class CampfireAECEnv(AECEnv[AgentID, Observation, int]):  # type: ignore[misc]
    """`game_name` as a PettingZoo AEC environment; game options are keyword arguments.

    `max_steps` (optional) truncates a game after that many player actions: a limit for
    training loops, not a rule of the game.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game_name: str,
        players: int | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = get_game(game_name)
        self.players = self.game.default_players if players is None else players
        self.options = options
        self.encoding = self.game.encoding(self.players, options)  # OptionError when bad
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
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"{game_name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, actions = self.encoding.observation_size, self.encoding.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self._state: State[Any, Any] | None = None
        self._steps = 0

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_now(self) -> State[Any, Any]:
        """The game being played (call `reset` first)."""
        if self._state is None:
            raise RuntimeError(Refusal(N_("call reset() before using the environment")))
        return self._state

    # --- the AEC cycle ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._state = self.game.new_state(self.players, self.options, narrate=False)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._settle_chance()
        self.agent_selection = self.possible_agents[self._to_move()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not isinstance(action, _ACTION_NUMBER) or isinstance(action, bool):
            raise ValueError(
                Refusal(
                    N_("{agent} is to act: give an action number, not {action}"),
                    agent=agent,
                    action=repr(action),
                )
            )
        state = self.state_now
        try:
            move = self.encoding.action(int(action))
        except ValueError as error:
            raise ValueError(
                Refusal(N_("{agent}: {error}"), agent=agent, error=_said(error))
            ) from None
        try:
            state.apply(move, seat=self._seat[agent])
        except IllegalAction as error:
            raise IllegalAction(
                Refusal(
                    N_("{agent}: action {action} is illegal: {error}"),
                    agent=agent,
                    action=action,
                    error=_said(error),
                )
            ) from None
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        seat = state.to_move
        if seat is None:
            self._settle_chance()
            seat = state.to_move
        if seat is None:  # chance settled: only the end leaves nobody to move
            self.rewards = dict(zip(self.possible_agents, state.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[seat]
            if self.max_steps is None or self._steps < self.max_steps:
                return  # no reward before the end, and nobody is done yet
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._deads_step_first()

    def observe(self, agent: AgentID) -> Observation:
        state = self.state_now
        seat = self._seat[agent]
        encoding = self.encoding
        observation = np.frombuffer(encoding.observe(state.view(seat)), np.float32)
        if state.to_move == seat:
            mask = np.frombuffer(encoding.legal_mask(state.legal_actions()), np.int8)
        else:
            mask = np.zeros(encoding.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden feather or card), as text."""
        if self.render_mode is None:
            return None
        from rich.console import Console

        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, force_terminal=False)
        console.print(self.game.text.render(self.state_now.view(None)))
        return out.getvalue()

    def close(self) -> None:
        pass

    # --- helpers ---------------------------------------------------------------------------
    def _settle_chance(self) -> None:
        state = self.state_now
        while state.to_move is None and not state.is_terminal:
            state.apply(state.sample_chance(self._rng))

    def _to_move(self) -> int:
        seat = self.state_now.to_move
        assert seat is not None
        return seat


def _forwarded(name: str) -> property:
    def read(self: OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order check, with the attributes an AEC loop reads at every step forwarded
    by plain properties (the wrapper's generic `__getattr__` forwarding cost a quarter of each
    step), and `last`, `step` and `agent_iter` going straight to the environment instead of
    through a forwarded read per field and the base wrapper's calls. It refuses the same
    things, before `reset`, with the same errors and warnings."""

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Info]:
        if not self._has_reset:  # what reading `agent_selection` first raises
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _OrderedAgents:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedAgents(self, max_iter)


class _OrderedAgents(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderedAgentIterator:
        return _OrderedAgentIterator(self.env, self.max_iter)


class _OrderedAgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's checked agent iterator, reading the environment behind the wrapper
    directly."""

    def __next__(self) -> AgentID:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection  # type: ignore[no-any-return]


def wrap(env: CampfireAECEnv) -> AECEnv[AgentID, Observation, int]:
    """PettingZoo's order check around the raw environment.

    The raw environment already refuses, with the reason, an action number out of the space
    (ValueError) or an illegal one (`IllegalAction`), so PettingZoo's out-of-bounds and
    illegal-move wrappers would only add work to every step. `wrap_like_classic` gives the set
    PettingZoo's classic games use, where an illegal move ends the game at -1 instead.
    """
    return OrderEnforcing(env)


def wrap_like_classic(env: CampfireAECEnv) -> AECEnv[AgentID, Observation, int]:
    """The wrappers of PettingZoo's classic games (leduc_holdem_v4 and the rest): an illegal
    move ends the game at -1 for its player, out-of-range actions fail an assertion, and the
    call order is enforced."""
    wrapped: AECEnv[AgentID, Observation, int] = wrappers.TerminateIllegalWrapper(
        env, illegal_reward=-1
    )
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _said(error: BaseException) -> object:
    """An error's reason, keeping its message template when it has one (told at the edge)."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, str) else str(error)
