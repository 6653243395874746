"""B games of one game stepped together on NumPy arrays, a Gymnasium 1.x vector environment.

    from campfire.envs.vector import VectorEnv
    env = VectorEnv("powwow", num_envs=1024, players=4, seat=0, opponents="rule")
    obs, info = env.reset(seed=0)
    actions = ...  # one legal action per game, from info["action_mask"]
    obs, rewards, terminations, truncations, info = env.step(actions)

Every game in the batch always has a seat to move: chance is resolved inside, from the seeded
generator, and a game that ends (or is truncated at `max_steps`) is started again, by default at
once (Gymnasium's same-step autoreset, its last view in ``info["final_obs"]``), or with
``autoreset_mode=AutoresetMode.NEXT_STEP`` (Gymnasium 1.x's default) at the next step, whose
action for that game is ignored. `rewards` ``[B]`` are
the learner's (`seat`); opponents named by `opponents` move inside the batch, or, with none,
the caller acts for whichever seat is to move (``info["to_move"]``; every seat's results in
``info["returns"]``). Each finished game is kept as its format-1 record with its row
(`finished_records`), which replays through the scalar engine to the same results and
observations: the batch is exact, not an approximation of the rules.

Two engines run a batch. A game may ship its own NumPy engine (structure of arrays: one row per
game, the whole batch moved by a few dozen array operations; entry point group
``campfire.vector``, Pow Wow's is `campfire.games.powwow.vector`), which lives in the game's
folder because it is the game's rules written over arrays. Every game with an encoding also runs
on `KernelBatch`: B kernel states in shuffle mode with narration off, exact by construction and
as fast as the scalar engine. Both are held to the same record-replay test.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from campfire.envs.opponents import Opponent, RandomPolicy, research_options
from campfire.envs.opponents import opponents as resolve_opponents
from campfire.i18n import N_
from campfire.kernel.bots import Bot
from campfire.kernel.errors import CampfireError, Refusal
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
    #: whose view `final` holds, and the encoded view of that seat when each game ended (by
    #: row; the caller empties it)
    final_seat: int
    final: dict[int, Array]

    def reset(self, seed: int | None = None) -> None: ...
    def step(self, actions: Array) -> tuple[Array, Array, Array]:
        """Rewards [B, players] (float32), terminations [B], final scores [B, players]. A row
        whose action is negative waits: nothing happens there."""
        ...

    def reset_rows(self, rows: Array) -> None:
        """New games in `rows`, the games there dropped unfinished (a truncation)."""
        ...

    def records(self) -> list[tuple[int, dict[str, Any]]]:
        """(row, format-1 record) of each game finished since the last call."""
        ...

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
        self.finished: list[tuple[int, State[Any, Any]]] = []
        self.final_seat = 0
        self.final: dict[int, Array] = {}
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
            if action < 0:
                continue
            state = states[b]
            state.apply(table[action])
            while state.to_move is None:
                if state.is_terminal:
                    rewards[b] = state.returns()
                    scores[b] = _scores(self.game.summary(state))
                    terminations[b] = True
                    self.finished.append((b, state))
                    view = self.encoding.observe(state.view(self.final_seat))
                    self.final[b] = np.frombuffer(view, np.float32).copy()
                    state = states[b] = self._new_game()
                    break
                state.apply(state.sample_chance(rng))
            self._write(b)
        return rewards, terminations, scores

    def reset_rows(self, rows: Array) -> None:
        for b in rows.tolist():
            self.states[b] = self._new_game()
            self._write(b)

    def records(self) -> list[tuple[int, dict[str, Any]]]:
        finished, self.finished = self.finished, []
        return [(b, Record.of(state).to_json()) for b, state in finished]

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


def _autoreset_mode(mode: Any) -> AutoresetMode:
    """Gymnasium's autoreset mode from the mode or its value; the two this env offers only."""
    try:
        chosen = AutoresetMode(mode)
    except ValueError:
        chosen = None
    if chosen not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        raise ValueError(
            Refusal(
                N_(
                    "autoreset_mode must be AutoresetMode.SAME_STEP or AutoresetMode.NEXT_STEP "
                    "('SameStep' or 'NextStep'), not {mode}: a game that ends always starts again"
                ),
                mode=repr(mode),
            )
        )
    return chosen


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
    options as keyword arguments.

    `seat` is the learner's seat: `rewards` (shape ``[B]``) are its results. `opponents` None
    (the default) leaves every seat to the caller, who acts for the seat to move in each game
    (``info["to_move"]``), every seat's results in ``info["returns"]`` ``[B, players]``;
    otherwise the other seats are played inside the batch by what `opponents` names (one for
    all or one per other seat, see `campfire.envs.opponents`) and every step is the learner's.
    `max_steps` truncates a game after that many of the caller's actions in it. `engine` picks
    the batched engine: ``"auto"`` (the game's own NumPy engine when it ships one and no
    opponent needs kernel states, else the kernel's), ``"numpy"`` or ``"kernel"``. Chance and
    the opponents are seeded by ``reset(seed=...)`` (the constructor's `seed` is kept for
    older code: the seed of a first reset given none).

    `autoreset_mode` (an `AutoresetMode` or its value, declared in ``metadata``) says when a
    game that ended starts again. ``SAME_STEP`` (the default): in the step where it ends, its
    row's observation is the new game's and the ended game's last view and results are in
    ``info["final_obs"]`` and ``info["final_info"]``. ``NEXT_STEP``: that step's row shows the
    ended game's last view (the learner's), ``info["to_move"]`` -1 and a mask that allows every
    action; the next step ignores that row's action and returns the new game's first
    observation with reward 0 and terminated and truncated False, as Gymnasium's own vector envs
    do in that mode."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int = 1,
        players: int | None = None,
        seed: int | None = None,
        engine: str = "auto",
        seat: int = 0,
        opponents: Any = None,
        max_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        **options: Any,
    ) -> None:
        self.game: Game[Any] = get_game(game) if isinstance(game, str) else game
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        # the instance's own: the class's says the default mode
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(
                Refusal(
                    N_("num_envs must be a whole number of at least 1, not {value}"),
                    value=repr(num_envs),
                )
            )
        self.players = self.game.default_players if players is None else players
        self.options = dict(options)
        self.encoding = self.game.encoding(self.players, self.options)  # OptionError when bad
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise ValueError(
                Refusal(
                    N_("seat must be 0..{last}, not {seat}"), last=self.players - 1, seat=repr(seat)
                )
            )
        if max_steps is not None and (
            not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1
        ):
            raise ValueError(
                Refusal(
                    N_("max_steps must be a positive whole number, not {value}"),
                    value=repr(max_steps),
                )
            )
        self.seat = seat
        self.max_steps = max_steps
        self.opponents: list[Opponent] | None = None
        if opponents is not None:
            self.opponents = resolve_opponents(
                self.game, opponents, self.players, self.options, batched=True
            )
        needs_states = any(o.factory is not None for o in self.opponents or [])
        engines = _batch_engines()
        if engine not in ("auto", "numpy", "kernel"):
            raise ValueError(
                Refusal(N_("engine must be auto, numpy or kernel, not {value}"), value=repr(engine))
            )
        if engine == "numpy" and self.game.name not in engines:
            raise ValueError(
                Refusal(N_("{game} has no NumPy engine: use engine='kernel'"), game=self.game.title)
            )
        if engine == "numpy" and needs_states:
            raise ValueError(
                Refusal(
                    N_(
                        "Campfire bots as opponents need the kernel engine (engine='kernel' or"
                        " 'auto'); the NumPy engine takes 'random', 'rule' or policies"
                    )
                )
            )
        research = research_options(getattr(self.encoding, "options", None))
        if engine == "numpy" and research:
            raise ValueError(
                Refusal(
                    N_(
                        "a research variant ({options}) runs on the kernel engine only"
                        " (engine='kernel' or 'auto')"
                    ),
                    options=", ".join(research),
                )
            )
        self.batch: Batch
        if engine != "kernel" and self.game.name in engines and not needs_states and not research:
            factory = engines[self.game.name].load()
            self.batch = factory(num_envs, self.players, self.options, None)
            self.engine = "numpy"
        else:
            self.batch = KernelBatch(self.game, num_envs, self.players, self.options, None)
            self.engine = "kernel"
        self.batch.final_seat = seat
        if seed is not None:
            warnings.warn(
                "VectorEnv(seed=...) is kept for older code: give the seed to reset(seed=...)",
                DeprecationWarning,
                stacklevel=2,
            )
        self._first_seed = seed
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
        self._lengths = np.zeros(num_envs, np.int64)
        self._others = [s for s in range(self.players) if s != seat]
        self._bots: list[dict[int, Bot]] = [{} for _ in range(num_envs)]
        self._bot_rng = random.Random()
        self._started = False
        #: NEXT_STEP: the rows that ended at the last step, whose next action is ignored
        self._autoreset = np.zeros(num_envs, np.bool_)

    # --- Gymnasium's vector API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """New games everywhere (unfinished ones are dropped); `seed` seeds chance and the
        opponents (None: a fresh seed, or the constructor's at the first reset)."""
        if options:
            raise ValueError(
                Refusal(
                    N_(
                        "game options are given when the batch is made, not at reset:"
                        " VectorEnv(..., {options})"
                    ),
                    options=", ".join(f"{k}=..." for k in options),
                )
            )
        if seed is None and not self._started:
            seed = self._first_seed
        sequence = np.random.SeedSequence(seed)
        chance, others = sequence.spawn(2)
        self.batch.reset(int(chance.generate_state(1, np.uint64)[0]))
        self._bot_rng = random.Random(int(others.generate_state(1, np.uint64)[0]))
        for opponent in self.opponents or []:
            if isinstance(opponent.policy, RandomPolicy):
                opponent.policy.seed(self._bot_rng.randrange(2**63))
        self._lengths[:] = 0
        self._autoreset[:] = False
        self.batch.final.clear()
        self._started = True
        if self.opponents is not None:
            for b in range(self.num_envs):
                self._new_bots(b)
            self._play_others(np.ones(self.num_envs, np.bool_), *self._blank())
        return self.batch.observe(), self._info()

    def step(
        self, actions: Sequence[int] | Array
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """One action per game, for its seat to move (the learner's, with opponents). A game
        that ends or is truncated starts again in the same step (its last observation in
        ``info["final_obs"]``, its results in ``info["final_info"]``) or, in NEXT_STEP mode,
        at the next step, which ignores its action (see the class's docstring)."""
        if not self._started:
            raise CampfireError(Refusal(N_("call reset() before step()")))
        restarting = self._autoreset  # NEXT_STEP: these rows' new games are shown now
        next_step = self.autoreset_mode is AutoresetMode.NEXT_STEP
        chosen = self._check(actions, restarting)
        if next_step:
            # the engine started their new games already (at the learner's turn): they wait
            chosen[restarting] = -1
        returns, scores, done = self._blank()
        self.batch.final.clear()
        finals: dict[int, Array] = {}
        self._apply(chosen, returns, scores, done, finals)
        self._lengths += 1
        self._lengths[restarting] = 0
        if self.opponents is not None:
            self._play_others(np.ones(self.num_envs, np.bool_), returns, scores, done, finals)
        truncations = np.zeros(self.num_envs, np.bool_)
        if self.max_steps is not None:
            truncations = (self._lengths >= self.max_steps) & ~done
            if truncations.any():
                rows = np.flatnonzero(truncations)
                now = self.batch.observe(np.full(self.num_envs, self.seat, np.int64))
                for b in rows.tolist():
                    finals[b] = now[b]
                self.batch.reset_rows(rows)
                if self.opponents is not None:
                    for b in rows.tolist():
                        self._new_bots(b)
                    self._play_others(truncations.copy(), *self._blank())
        ended = done | truncations
        self._lengths[ended] = 0
        observations = self.batch.observe()
        if next_step:
            self._autoreset = ended
            info = self._info()
            info["returns"] = returns
            info["final_scores"] = scores
            for b, obs in finals.items():  # the ended game's last view, until the next step
                observations[b] = obs
            rewards = returns[:, self.seat].astype(np.float64)
            return observations, rewards, done, truncations, info
        info = self._info()
        info["returns"] = returns
        info["final_scores"] = scores
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            for b, obs in finals.items():
                final_obs[b] = obs
            info["final_obs"], info["_final_obs"] = final_obs, ended
            info["final_info"] = {
                "returns": returns,
                "final_scores": scores,
                "_returns": ended,
                "_final_scores": ended,
            }
            info["_final_info"] = ended
        rewards = returns[:, self.seat].astype(np.float64)
        return observations, rewards, done, truncations, info

    def finished_records(self, rows: bool = False) -> list[Any]:
        """The format-1 records of the games finished since the last call, in the order they
        ended; with `rows`, ``(row, record)`` pairs: the batch row each game was played in."""
        finished = self.batch.records()
        return finished if rows else [record for _, record in finished]

    # --- PettingZoo-style views ------------------------------------------------------------
    def observe(self, seat: int) -> Array:
        """The encoded view of `seat` in every game `[B, obs]` (whoever is to move)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(
                Refusal(
                    N_("seat must be 0..{last}, not {seat}"), last=self.players - 1, seat=repr(seat)
                )
            )
        if not self._started:
            raise CampfireError(Refusal(N_("call reset() before observe()")))
        return self.batch.observe(np.full(self.num_envs, seat, np.int64))

    # --- inside ----------------------------------------------------------------------------
    def _blank(self) -> tuple[Array, Array, Array]:
        B, N = self.num_envs, self.players
        return np.zeros((B, N), np.float32), np.zeros((B, N), np.int64), np.zeros(B, np.bool_)

    def _apply(
        self,
        actions: Array,
        returns: Array,
        scores: Array,
        done: Array,
        finals: dict[int, Array] | None = None,
    ) -> None:
        """One batch step; the first game to end in each row this step is the one reported (a
        second, ended before the learner moved again, is kept among the records only)."""
        rewards, terminations, final_scores = self.batch.step(actions)
        if terminations.any():
            new = terminations & ~done
            returns[new] = rewards[new]
            scores[new] = final_scores[new]
            done |= new
            for b in np.flatnonzero(terminations).tolist():
                if finals is not None and b not in finals:
                    finals[b] = self.batch.final[b]
                if self.opponents is not None and self._bots[b]:
                    self._new_bots(b)
            self.batch.final.clear()

    def _play_others(
        self,
        rows: Array,
        returns: Array,
        scores: Array,
        done: Array,
        finals: dict[int, Array] | None = None,
    ) -> None:
        """The opponents move in `rows` until the learner is to move there."""
        assert self.opponents is not None
        seat = self.seat
        while True:
            turn = self.batch.turn
            waiting = rows & (turn != seat)
            if not waiting.any():
                return
            actions = np.full(self.num_envs, -1, np.int64)
            observations = masks = None
            by_policy: dict[int, tuple[Any, list[Array]]] = {}
            for index, other in enumerate(self._others):
                here = np.flatnonzero(waiting & (turn == other))
                if not len(here):
                    continue
                opponent = self.opponents[index]
                if opponent.policy is not None:
                    by_policy.setdefault(id(opponent.policy), (opponent.policy, []))[1].append(here)
                    continue
                states = self.batch.states  # type: ignore[attr-defined]  # the kernel engine
                for b in here.tolist():
                    state = states[b]
                    action = self._bots[b][other].choose(state.view(other), state.legal_actions())
                    actions[b] = self.encoding.action_index(action)
            if by_policy:
                observations, masks = self.batch.observe(), self.batch.mask()
            for policy, parts in by_policy.values():
                assert observations is not None and masks is not None
                here = np.concatenate(parts)
                chosen = np.asarray(policy(observations[here], masks[here]))
                if chosen.shape != (len(here),) or chosen.dtype.kind not in "iu":
                    raise ValueError(
                        Refusal(
                            N_(
                                "an opponent's policy returned {dtype} actions of shape {shape}"
                                " for {games} games: one whole number per game"
                            ),
                            dtype=str(chosen.dtype),
                            shape=str(chosen.shape),
                            games=len(here),
                        )
                    )
                actions[here] = chosen
            self._apply(self._checked(actions, masks, waiting), returns, scores, done, finals)

    def _checked(self, actions: Array, masks: Array | None, rows: Array) -> Array:
        """The opponents' actions, refused with the reason when one is illegal."""
        masks = self.batch.mask() if masks is None else masks
        here = np.flatnonzero(rows)
        chosen = actions[here]
        bad = (chosen < 0) | (chosen >= self.num_actions)
        if not bad.any():
            bad = masks[here, chosen] == 0
        if bad.any():
            b = int(here[np.flatnonzero(bad)[0]])
            raise ValueError(
                Refusal(
                    N_(
                        "game {game}: the opponent at seat {seat} chose action {action},"
                        " which is not legal there"
                    ),
                    game=b,
                    seat=int(self.batch.turn[b]),
                    action=int(actions[b]),
                )
            )
        return actions

    def _new_bots(self, b: int) -> None:
        """Fresh Campfire bots for row `b`'s new game, seeded from the opponents' generator."""
        assert self.opponents is not None
        rng = self._bot_rng
        self._bots[b] = {
            other: opponent.factory(rng.randrange(2**32))
            for other, opponent in zip(self._others, self.opponents, strict=True)
            if opponent.factory is not None
        }

    def _info(self) -> dict[str, Any]:
        self._mask = self.batch.mask()
        info = {"action_mask": self._mask.copy(), "to_move": self.batch.turn.copy()}
        if self._autoreset.any():  # NEXT_STEP: an ended game takes any action, and ignores it
            info["action_mask"][self._autoreset] = 1
            info["to_move"][self._autoreset] = -1
        return info

    def _check(self, actions: Sequence[int] | Array, ignored: Array) -> Array:
        """The actions as numbers, or a ValueError naming the first game where one is wrong
        (the games of `ignored`, which start again at this step, take any number)."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(
                Refusal(
                    N_("step takes one action per game: shape ({games},), not {shape}"),
                    games=self.num_envs,
                    shape=str(chosen.shape),
                )
            )
        if chosen.dtype.kind not in "iu":
            if chosen.dtype.kind == "f" and np.all(chosen == np.floor(chosen)):
                chosen = chosen.astype(np.int64)
            else:
                raise ValueError(
                    Refusal(
                        N_("actions must be whole numbers, not {dtype}"), dtype=str(chosen.dtype)
                    )
                )
        if ignored.any():
            chosen = np.where(ignored, 0, chosen)
        outside = (chosen < 0) | (chosen >= self.num_actions)
        if outside.any():
            b = int(np.flatnonzero(outside)[0])
            raise ValueError(
                Refusal(
                    N_("game {game}: action {action} is not in 0..{last}"),
                    game=b,
                    action=int(chosen[b]),
                    last=self.num_actions - 1,
                )
            )
        legal = self._mask[self._rows, chosen] | ignored
        if not legal.all():
            b = int(np.flatnonzero(legal == 0)[0])
            action = int(chosen[b])
            raise ValueError(
                Refusal(
                    N_(
                        "game {game}: action {action} ({command}) is not legal for seat {seat}"
                        " (see info['action_mask'])"
                    ),
                    game=b,
                    action=action,
                    command=self.game.text.command(self._actions[action]),
                    seat=int(self.batch.turn[b]),
                )
            )
        return chosen.astype(np.int64)
