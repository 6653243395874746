"""Both games as OpenSpiel Python games: importing this module registers them.

    import pyspiel
    import campfire.envs.openspiel  # registers the games
    game = pyspiel.load_game("python_campfire_powwow", {"players": 4, "tomahawks": True})

The states run in draw mode (`chance="draw"`): every feather or card drawn from a face-down stack
is one OpenSpiel chance node whose outcomes are the distinct items left, with their
probabilities (`State.chance_outcomes`), and Waka Tanka's starting marker is a chance node of its
six tiles. Action and chance numbers come from the game's `Encoding`; information-state and
observation tensors and strings come from the seat view only. `resample_from_infostate` fills in
what the seat cannot see with `Game.sample_state`, which is what OpenSpiel's IS-MCTS needs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from itertools import compress
from typing import Any

import numpy as np
import pyspiel

from campfire.kernel.chance import Draw, Pick, Shuffled
from campfire.kernel.encoding import Encoding
from campfire.kernel.registry import get_game
from campfire.kernel.state import Game, PlayerMove, State

# OpenSpiel asks for the player to move several times a step: its ids as plain ints, once
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: OpenSpiel parameter defaults of each game (OpenSpiel has no "none": 0 stands for it)
PARAMETERS: dict[str, dict[str, int | bool]] = {
    "powwow": {
        "players": 4,
        "buzzards": 3,
        "tomahawks": False,
        "end_after_eliminations": 0,
        "first_player": 0,
    },
    "wakatanka": {"players": 4, "first_player": 0},
}
#: an upper bound of Waka Tanka's length for OpenSpiel; the rules set none (cards can go back
#: and forth for ever), but random play ends within a few hundred moves
WAKATANKA_MAX_LENGTH = 10_000


def _options(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Campfire options from OpenSpiel parameters."""
    options = {key: value for key, value in params.items() if key != "players"}
    if name == "powwow" and not options.get("end_after_eliminations"):
        options["end_after_eliminations"] = None
    return options


@cache
def _encoding(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Encoding:
    return get_game(name).encoding(players, dict(options))


def _max_length(name: str, players: int, options: Mapping[str, Any]) -> int:
    if name == "powwow":
        # rounds: each gives one buzzard; a round: up to 259 guesses, a dispute, an agree or a
        # reverse per player, and the draws (a feather per player, extras, the `?` turn-over)
        rounds = players * int(options.get("buzzards", 3))
        return rounds * (261 + 4 * players)
    return WAKATANKA_MAX_LENGTH


class _Box:
    """Holds the Campfire state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by pickling
    them: this makes a clone a `State.clone` and keeps the encoding out of the pickle.
    """

    __slots__ = ("encoding", "name", "options", "state")

    def __init__(self, name: str, options: dict[str, Any], state: State[Any, Any]) -> None:
        self.name = name
        self.options = options
        self.state = state
        self.encoding = _encoding(name, state.players, tuple(sorted(options.items())))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.name, self.options, self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Box, (self.name, self.options, self.state))


class CampfireGame(pyspiel.Game):  # type: ignore[misc]
    """A Campfire game for OpenSpiel; `name` is the Campfire game's name."""

    def __init__(self, name: str, game_type: Any, params: Mapping[str, Any] | None) -> None:
        values = {**PARAMETERS[name], **(params or {})}
        players = int(values["players"])
        options = _options(name, values)
        encoding = _encoding(name, players, tuple(sorted(options.items())))
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=encoding.num_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_length(name, players, options),
        )
        super().__init__(game_type, info, dict(values))
        self.campfire: Game[Any] = get_game(name)
        self.campfire_name = name
        self.players = players
        self.options = options
        self.encoding = encoding
        self.rng = random.Random()

    def new_initial_state(self, state: State[Any, Any] | None = None) -> CampfireState:
        if state is None:
            state = self.campfire.new_state(
                self.players, self.options, chance="draw", narrate=False
            )
        return CampfireState(self, state)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {dict(params)}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = kind.private_info
        if not kind.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations come from one seat's view or the public view only")
        return ViewObserver(self.encoding, private == pyspiel.PrivateInfoType.SINGLE_PLAYER)


class CampfireState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around a draw-mode Campfire state."""

    def __init__(self, game: CampfireGame, state: State[Any, Any]) -> None:
        super().__init__(game)
        self.box = _Box(game.campfire_name, game.options, state)

    @property
    def campfire(self) -> State[Any, Any]:
        """The Campfire state (draw mode)."""
        return self.box.state

    def current_player(self) -> int:
        state = self.box.state
        if state.is_terminal:
            return _TERMINAL
        seat = state.to_move
        return _CHANCE if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self.box.state
        if player != state.to_move:
            return []
        encoding = self.box.encoding
        # the numbers in order, read off the mask (which the encoding keeps for common lists)
        return list(
            compress(range(encoding.num_actions), encoding.legal_mask(state.legal_actions()))
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self.box.encoding.chance_index
        return sorted((index(outcome), p) for outcome, p in self.box.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        state = self.box.state
        encoding = self.box.encoding
        spec = state.chance_due()
        if spec is not None:
            state.apply(encoding.chance_outcome(int(action), spec))
        else:
            state.apply(encoding.action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.box.state
        encoding = self.box.encoding
        if player == _CHANCE:
            spec = state.chance_due()
            if spec is not None:
                return _entry_text(state.game, encoding.chance_outcome(int(action), spec))
            return f"chance outcome {action}"
        return state.game.text.command(encoding.action(int(action)))

    def is_terminal(self) -> bool:
        return self.box.state.is_terminal

    def returns(self) -> list[float]:
        return self.box.state.returns()

    def resample_from_infostate(self, player: int, sampler: Any) -> CampfireState:
        """A state `player` cannot tell from this one, what it cannot see drawn at random."""
        state = self.box.state
        if state.to_move is None:
            raise ValueError("a state can be resampled only when a player is to act")
        game = self.get_game()
        rng = random.Random(int(sampler() * 2**53))
        sample = state.game.sample_state(state.view(player), rng, chance="draw")
        return CampfireState(game, sample)

    def __str__(self) -> str:
        state = self.box.state
        return " ".join(_entry_text(state.game, entry) for entry in state.history)


def _entry_text(game: Game[Any], entry: Any) -> str:
    if isinstance(entry, PlayerMove):
        return f"{entry.seat}:{game.text.command(entry.action).replace(' ', '_')}"
    if isinstance(entry, Draw):
        return f"draw:{entry.item}"
    if isinstance(entry, Pick):
        return f"{entry.kind}:{entry.value}"
    if isinstance(entry, Shuffled):
        return f"shuffled:{len(entry.items)}"
    return repr(entry)


class ViewObserver:
    """OpenSpiel's observer protocol over seat views: one tensor for both information states and
    observations (the view already holds the round's turns, the past rounds or reveals and
    everything public), and the view itself, as JSON, for the strings."""

    def __init__(self, encoding: Encoding, private: bool) -> None:
        self.encoding = encoding
        self.private = private
        self.tensor = np.zeros(encoding.observation_size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in encoding.sections:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def _view(self, state: CampfireState, player: int) -> Any:
        return state.box.state.view(player if self.private else None)

    def set_from(self, state: CampfireState, player: int) -> None:
        self.tensor[:] = np.frombuffer(self.encoding.observe(self._view(state, player)), np.float32)

    def string_from(self, state: CampfireState, player: int) -> str:
        return json.dumps(self._view(state, player).to_json(), separators=(",", ":"))


def _game_type(name: str, title: str) -> Any:
    campfire = get_game(name)
    return pyspiel.GameType(
        short_name=f"python_campfire_{name}",
        long_name=f"Python Campfire {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=campfire.max_players,
        min_num_players=campfire.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[name],
    )


POWWOW_TYPE = _game_type("powwow", "Pow Wow")
WAKATANKA_TYPE = _game_type("wakatanka", "Waka Tanka")


# OpenSpiel keeps the registered classes until the interpreter exits: they live at module level
# (a class or closure whose last reference OpenSpiel holds crashes the interpreter at exit).
class PowwowGame(CampfireGame):
    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("powwow", POWWOW_TYPE, params)


class WakatankaGame(CampfireGame):
    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("wakatanka", WAKATANKA_TYPE, params)


if "python_campfire_powwow" not in pyspiel.registered_names():
    pyspiel.register_game(POWWOW_TYPE, PowwowGame)
    pyspiel.register_game(WAKATANKA_TYPE, WakatankaGame)
