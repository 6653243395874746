"""Both games as OpenSpiel Python games: importing this module registers them.

    import pyspiel
    import campfire.envs.openspiel  # registers the games
    game = pyspiel.load_game("python_campfire_powwow", {"players": 4, "tomahawks": True})

The states run in draw mode (`chance="draw"`): every feather or card drawn from a face-down stack
is one OpenSpiel chance node whose outcomes are the distinct items left, with their
probabilities (`State.chance_outcomes`), and Waka Tanka's starting marker is a chance node of its
six tiles. Action and chance numbers come from the game's `Encoding`; observation tensors and
strings come from the seat view only, information-state ones (perfect recall) from the seat
view and the public moves of the game (`campfire.envs.infostate`). `resample_from_infostate`
fills in what the seat cannot see with `Game.sample_state`, which is what OpenSpiel's IS-MCTS
needs.
"""

from __future__ import annotations

import copy
import json
import random
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from itertools import compress
from operator import attrgetter, getitem, itemgetter
from typing import Any

import numpy as np
import pyspiel

from campfire.envs.infostate import PowwowInfostate, WakatankaInfostate, moves
from campfire.i18n import N_
from campfire.kernel.chance import (
    ChanceOutcome,
    ChanceSpec,
    Draw,
    DrawSpec,
    Pick,
    Shuffled,
    drawn,
)
from campfire.kernel.encoding import Encoding
from campfire.kernel.errors import Refusal
from campfire.kernel.registry import get_game
from campfire.kernel.state import Game, PlayerMove, State

# OpenSpiel asks for the player to move several times a step: its ids as plain ints, once
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# `is_terminal` and `is_chance_node` as answers made in C: slot wrappers bound to 1 and 0 that
# take no argument and say True or False (a call without a Python frame). Not builtin functions
# (such as `"1".isdigit`): pybind11 takes one for no override at all, and remembers that
_YES: Callable[[], bool] = (1).__bool__
_NO: Callable[[], bool] = (0).__bool__

#: OpenSpiel parameter defaults of each game (OpenSpiel has no "none": 0 or "" stands for it);
#: those after `first_player` make research variants (`RESEARCH`), never offered at the tables
PARAMETERS: dict[str, dict[str, int | bool | str]] = {
    "powwow": {
        "players": 4,
        "buzzards": 3,
        "tomahawks": False,
        "end_after_eliminations": 0,
        "first_player": 0,
        "guess_min": -20,
        "guess_max": 238,
        "feathers": "",
        "max_guesses": 0,
    },
    "wakatanka": {
        "players": 4,
        "first_player": 0,
        "animals": 6,
        "cards": 0,
        "tokens_to_win": 4,
        "max_turns": 0,
    },
}
#: the parameters whose 0 or "" stands for none
_NONE_WHEN_EMPTY = {"end_after_eliminations", "feathers", "max_guesses", "cards", "max_turns"}
#: an upper bound of Waka Tanka's length for OpenSpiel; the rules set none (cards can go back
#: and forth for ever), but random play ends within a few hundred moves
WAKATANKA_MAX_LENGTH = 10_000


def _options(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Campfire options from OpenSpiel parameters."""
    options = {key: value for key, value in params.items() if key != "players"}
    for key in _NONE_WHEN_EMPTY & options.keys():
        if not options[key]:
            options[key] = None
    return options


@cache
def _encoding(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Encoding:
    return get_game(name).encoding(players, dict(options))


def _max_length(name: str, players: int, options: Mapping[str, Any]) -> int:
    if name == "powwow":
        # rounds: each gives one buzzard; a round: up to 259 guesses, a dispute, an agree or a
        # reverse per player, and the draws (a feather per player, extras, the `?` turn-over)
        rounds = players * int(options.get("buzzards", 3))
        guesses = int(options.get("guess_max", 238)) - int(options.get("guess_min", -20)) + 1
        if options.get("max_guesses"):
            guesses = min(guesses, int(options["max_guesses"]))
        return rounds * (guesses + 2 + 4 * players)
    if options.get("max_turns"):  # the turns, the deal and the marker
        animals = int(options.get("animals", 6))
        cards = options.get("cards") or {3: 4, 4: 5}.get(players, 6)
        return int(options["max_turns"]) + (animals + 1) * int(cards) + 1
    return WAKATANKA_MAX_LENGTH


class _Box:
    """Holds the Campfire state inside an OpenSpiel state, with what OpenSpiel asks of it again
    and again within one step.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by pickling
    them: this makes a clone a `State.clone`, keeps the encoding out of the pickle and leaves the
    per-step caches behind (a copy starts with none).
    """

    __slots__ = (
        "actions",
        "chance",
        "copied",
        "encoding",
        "legal",
        "legal_of",
        "moves_of",
        "name",
        "options",
        "player",
        "prefix",
        "spec",
        "state",
        "tables",
        "to_move",
        "version",
    )

    def __init__(
        self,
        name: str,
        options: dict[str, Any],
        state: State[Any, Any],
        prefix: tuple[PlayerMove, ...] = (),
    ) -> None:
        self.name = name
        self.options = options
        self.state = state
        # the moves made before `state.history` begins (a state resampled from an information
        # state starts with an empty history): perfect recall keeps them
        self.prefix = prefix
        key = tuple(sorted(options.items()))
        self.encoding = _encoding(name, state.players, key)
        self.tables = _tables(name, state.players, key)
        self.legal_of = self.tables.legal_of  # asked at every turn: one lookup less
        self.actions = self.tables.actions  # and these at every move
        self.moves_of = self.tables.moves_of(state.players)
        #: the player to move, OpenSpiel's way (a seat, chance or terminal), kept after every move
        self.player = _player(state)
        # the seat to move, read straight off the state when the game says where it is kept
        self.to_move: Callable[[State[Any, Any]], int | None] = attrgetter(
            type(state).to_move_attribute or "to_move"
        )
        self.legal: list[int] | None = None  # this step's legal action numbers
        self.chance: list[tuple[int, float]] | None = None  # this step's chance outcomes
        self.spec: ChanceSpec | None = None  # and the chance they resolve
        # the state's version (the length of its history) when `legal` or `chance` were made:
        # they are trusted only while it is the same
        self.version = -1
        self.copied: _Box | None = None  # the last copy made, until its `_Seat` is copied

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        other = self.copied = _Box(self.name, self.options, self.state.clone(), self.prefix)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Box, (self.name, self.options, self.state, self.prefix))

    def moves(self) -> list[PlayerMove]:
        """Every move of the game so far, the prefix included."""
        return [*self.prefix, *moves(self.state)]


class _Seat(partial):  # type: ignore[type-arg]
    """`CampfireState.current_player`, which C++ asks at every `apply_action`: a call made in C
    (`getattr(box, "player")`) instead of a Python method's frame. It is kept in the state's
    `__dict__`: pybind11 finds an override with `getattr`, which finds the instance's own
    attribute before the class's method (and would take a builtin function for no override).

    OpenSpiel clones a Python state by deep-copying each attribute of its `__dict__` apart, the
    box first: the copy of a `_Seat` reads the box copied just before it, not a second copy.
    """

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Seat:
        box: _Box = self.args[0]
        copied = box.copied
        box.copied = None
        if copied is None:  # copied alone, not as part of a state
            copied = copy.deepcopy(box, memo)
            box.copied = None
        return _Seat(getattr, copied, "player")


class _Tables:
    """Numbers to moves and back for one encoding, made once: at every step OpenSpiel hands an
    action or chance number to apply and asks for the numbers of the legal moves."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.actions = [encoding.action(i) for i in range(encoding.num_actions)]
        # the outcome of each (chance kind, label, number): outcomes are immutable values
        self.outcomes: dict[tuple[str, str, int], ChanceOutcome] = {}
        self.draws: list[Draw | None] = [None] * encoding.num_chance_outcomes
        # the numbered form of each (outcome, probability) pair the kernel handed out, by the
        # pair's id (the pair kept alive beside it, so its id stays its own)
        self.pairs: dict[int, tuple[ChanceOutcome, float]] = {}
        self.numbered: dict[int, Pair] = {}
        # the sorted numbers of a shared legal-action tuple (kept alive beside them)
        self.legal: dict[int, tuple[Sequence[Any], list[int]]] = {}
        # the tables of each set of items a stack held, by the id of its shared `Draw`s
        self.layouts: dict[int, _DrawLayout] = {}
        # the sorted legal numbers of a state: the encoding's own reading of the state when it
        # has one, else its legal actions numbered
        self.legal_of: Callable[[State[Any, Any]], list[int]] = getattr(
            encoding, "legal_numbers", self.numbered_legal
        )
        self.last = _DrawLayout((), encoding)  # the tables of the last draw
        self.moves: dict[int, list[list[PlayerMove]]] = {}

    def moves_of(self, players: int) -> list[list[PlayerMove]]:
        """The history entry of each seat's each action number (immutable, so shared: a move
        appends one without making it)."""
        moves = self.moves.get(players)
        if moves is None:
            moves = self.moves[players] = [
                [PlayerMove(seat, action) for action in self.actions] for seat in range(players)
            ]
        return moves

    def outcome(self, number: int, spec: ChanceSpec) -> ChanceOutcome:
        kind = spec.kind
        if kind == "draw" and 0 <= number < len(self.draws):
            known = self.draws[number]
            if known is not None:
                return known
        key = (kind, spec.label, number)
        outcome = self.outcomes.get(key)
        if outcome is None:
            outcome = self.encoding.chance_outcome(number, spec)
            if isinstance(outcome, Draw):
                outcome = self.draws[number] = drawn(outcome.item)
            self.outcomes[key] = outcome
        return outcome

    def chance_pairs(self, spec: ChanceSpec) -> list[Pair]:
        """The outcomes of `spec` as `(number, probability)`, sorted by number.

        A draw (the usual chance node) is listed straight from the stack's counts
        (`DrawSpec.tally`) through a table made once per set of items and stack size, already
        in number order: nothing is built, looked up one by one or sorted at the draw."""
        if type(spec) is DrawSpec:
            return self.draw_pairs(*spec.tally)
        outcomes = spec.outcomes()
        try:
            numbered = list(map(self.numbered.__getitem__, map(id, outcomes)))
        except KeyError:
            numbered = [self._numbered(pair) for pair in outcomes]
        numbered.sort()
        return numbered

    def draw_pairs(self, draws: tuple[Draw, ...], numbers: Sequence[int], size: int) -> list[Pair]:
        """The outcomes of a draw from a stack of `size` items, `numbers[i]` of them `draws[i]`
        (`DrawSpec.tally`, `Stack.tally`), as `(number, probability)` sorted by number."""
        known = self.last
        if known.draws is not draws:
            known = self._layout(draws)
        try:
            rows = known.rows[size]
        except IndexError:  # a stack larger than any seen of these items
            rows = None
        if rows is None:
            rows = known.make_rows(size)
        ordered = known.order(numbers)
        return list(compress(map(getitem, rows, ordered), ordered))

    def _layout(self, draws: tuple[Draw, ...]) -> _DrawLayout:
        known = self.layouts.get(id(draws))
        if known is None or known.draws is not draws:
            if len(self.layouts) >= _LAYOUTS_KEPT:
                self.layouts.clear()
            known = self.layouts[id(draws)] = _DrawLayout(draws, self.encoding)
        self.last = known  # stacks keep their items for many draws: likely the next one's
        return known

    def _numbered(self, pair: tuple[ChanceOutcome, float]) -> Pair:
        known = self.numbered.get(id(pair))
        if known is not None:
            return known
        number = (self.encoding.chance_index(pair[0]), pair[1])
        if type(pair[0]) is Draw:  # draws are few and shared; picks are made anew
            if len(self.pairs) >= _PAIRS_KEPT:
                self.pairs.clear()
                self.numbered.clear()
            self.pairs[id(pair)] = pair
            self.numbered[id(pair)] = number
        return number

    def numbered_legal(self, state: State[Any, Any]) -> list[int]:
        return self.legal_numbers(state.legal_actions())

    def legal_numbers(self, legal: Sequence[Any]) -> list[int]:
        if type(legal) is tuple:  # a shared tuple of a common position: seen before, likely
            known = self.legal.get(id(legal))
            if known is not None and known[0] is legal:
                return known[1]
            numbers = sorted(self.encoding.legal_indices(legal))
            if len(self.legal) >= _LEGAL_KEPT:
                self.legal.clear()
            self.legal[id(legal)] = (legal, numbers)
            return numbers
        return sorted(self.encoding.legal_indices(legal))


_first = itemgetter(0)
#: the chance a draw listed from its stack resolves (`Stack.tally`, no `DrawSpec` made)
_DRAW = ChanceSpec("draw")
_new_tuple = tuple.__new__
_LEGAL_KEPT = 4096  # more shared legal-action tuples than a game hands out
_LAYOUTS_KEPT = 1024  # more sets of items than a game's stacks hold


class _DrawLayout:
    """The numbered outcomes of draws from stacks of one set of items (`draws`, sorted by
    item as the kernel keeps them): `order` puts a stack's counts in number order, and
    `rows[size][i][n]` is `(number, probability)` of the i-th item in number order when n of
    the `size` items left are that item."""

    __slots__ = ("draws", "numbers", "order", "rows")

    def __init__(self, draws: tuple[Draw, ...], encoding: Encoding) -> None:
        self.draws = draws  # kept alive, so its id stays its own
        indices = [encoding.chance_index(draw) for draw in draws]
        positions = sorted(range(len(draws)), key=indices.__getitem__)
        self.numbers = [indices[i] for i in positions]
        self.order: Callable[[Sequence[int]], Sequence[int]]
        if len(positions) > 1:
            self.order = itemgetter(*positions)
        elif positions:
            only = positions[0]
            self.order = lambda counts: (counts[only],)
        else:
            self.order = lambda counts: ()
        self.rows: list[list[tuple[Pair, ...]] | None] = []  # by stack size

    def make_rows(self, size: int) -> list[tuple[Pair, ...]]:
        share = 1 / size  # the kernel's probabilities, to the bit: n * (1 / size)
        rows = [tuple((number, n * share) for n in range(size + 1)) for number in self.numbers]
        if size >= len(self.rows):
            self.rows.extend([None] * (size + 1 - len(self.rows)))
        self.rows[size] = rows
        return rows


_PAIRS_KEPT = 65536  # more (draw, probability) pairs than the kernel keeps
Pair = tuple[int, float]


@cache
def _tables(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> _Tables:
    return _Tables(_encoding(name, players, options))


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
        self.initial: State[Any, Any] | None = None
        self.perfect_recall: PowwowInfostate | WakatankaInfostate | None = None

    def new_initial_state(self, state: State[Any, Any] | None = None) -> CampfireState:
        if state is None:
            # every game starts alike (draw mode: the first chance is a draw), and OpenSpiel
            # starts a new state for every clone: a copy of the first one is cheaper
            if self.initial is None:
                self.initial = self.campfire.new_state(
                    self.players, self.options, chance="draw", narrate=False
                )
            state = self.initial.clone()
        return CampfireState(self, state)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ViewObserver | InfostateObserver | PrivateObserver:
        if params:
            raise ValueError(
                Refusal(
                    N_("observer parameters are not supported, got {params}"),
                    params=str(dict(params)),
                )
            )
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = kind.private_info
        single = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not kind.public_info and single and not kind.perfect_recall:
            return PrivateObserver(self.encoding, self.campfire_name)
        if not kind.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                Refusal(
                    N_(
                        "observations come from one seat's view, the public view, or (without"
                        " the public part and perfect recall) what one seat alone sees"
                    )
                )
            )
        if kind.perfect_recall:
            return InfostateObserver(self.infostate(), single)
        return ViewObserver(self.encoding, single)

    def infostate(self) -> PowwowInfostate | WakatankaInfostate:
        """The perfect-recall information state of this game (`campfire.envs.infostate`)."""
        if self.perfect_recall is None:
            if self.campfire_name == "powwow":
                self.perfect_recall = PowwowInfostate(self.encoding)
            else:
                self.perfect_recall = WakatankaInfostate(self.encoding, self.max_game_length())
        return self.perfect_recall


def _player(state: State[Any, Any]) -> int:
    seat = state.to_move
    if seat is not None:
        return seat
    return _TERMINAL if state.is_terminal else _CHANCE


class CampfireState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around a draw-mode Campfire state.

    OpenSpiel calls back into Python several times a step (for the player to move alone: when
    asked for the legal actions, whether it is a chance node, and when applying a move), so the
    player to move is kept on the box (`box.player`) after every move and the legal actions and
    chance outcomes of the step are kept until the next move. `current_player`, which C++ asks
    at every move, is an attribute (`_Seat`) that reads it without a Python frame.
    """

    current_player: Callable[[], int]
    is_terminal: Callable[[], bool]
    is_chance_node: Callable[[], bool]

    def __init__(self, game: CampfireGame, state: State[Any, Any]) -> None:
        super().__init__(game)
        self.box = _Box(game.campfire_name, game.options, state)
        self.current_player = _Seat(getattr, self.box, "player")
        self._kind(self.box.player)

    def _kind(self, player: int) -> None:
        """Set `is_terminal` and `is_chance_node` for `player` to move: each an answer made in
        C (`_YES`, `_NO`) in the state's `__dict__`, which the loop of a Python caller asks at
        every step and C++ finds before the class's method (as `current_player`). Only a move
        that changes the kind of node changes them."""
        self.is_terminal = _YES if player == _TERMINAL else _NO
        self.is_chance_node = _YES if player == _CHANCE else _NO

    @property
    def campfire(self) -> State[Any, Any]:
        """The Campfire state (draw mode)."""
        return self.box.state

    @property
    def player(self) -> int:
        """The player to move, OpenSpiel's way (a seat, chance or terminal)."""
        return self.box.player

    # A Python caller reaches these without a round trip through C++ (which would call back
    # into Python up to five times for one list of legal actions); C++ callers get the same
    # answers through `current_player`, `_legal_actions`, `chance_outcomes` and `is_terminal`.
    def is_player_node(self) -> bool:
        return self.box.player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action numbers of `player` (default: the player to move), sorted; at a
        chance node the chance outcomes' numbers, whoever asks, as OpenSpiel's own does."""
        box = self.box
        current = box.player
        if current >= 0 and (player is None or player == current):  # the usual question
            legal = box.legal
            if legal is None:
                state = box.state
                legal = box.legal = box.legal_of(state)
                box.version = len(state.history)
            return legal.copy()  # a copy: the caller may change it
        if current == _TERMINAL:
            return []
        if current == _CHANCE:
            return [number for number, _ in self.chance_outcomes()]
        if player is not None and player < 0:
            raise ValueError(
                Refusal(N_("legal actions of pseudo-player {player} asked"), player=player)
            )
        return []

    def _legal_actions(self, player: int) -> list[int]:
        box = self.box
        if player != box.player:
            return []
        legal = box.legal
        if legal is None:
            state = box.state
            legal = box.legal = box.legal_of(state)
            box.version = len(state.history)
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        box = self.box
        outcomes = box.chance
        if outcomes is None:
            state = box.state
            stack = state.due_stack()
            if stack is not None:  # a draw, the usual chance node: no spec made
                # `Stack.tally()` and `_Tables.draw_pairs`, inlined: a Python call is a fair
                # share of a chance step's cost
                draws = stack._layout.draws
                numbers = stack._numbers
                size = stack.size
                tables = box.tables
                known = tables.last
                if known.draws is not draws:
                    known = tables._layout(draws)
                try:
                    rows = known.rows[size]
                except IndexError:  # a stack larger than any seen of these items
                    rows = None
                if rows is None:
                    rows = known.make_rows(size)
                ordered = known.order(numbers)
                outcomes = box.chance = list(compress(map(getitem, rows, ordered), ordered))
                box.spec = _DRAW
            else:
                spec = state.chance_due()
                if spec is None:
                    raise ValueError(Refusal(N_("no chance outcome is due")))
                outcomes = box.chance = box.tables.chance_pairs(spec)
                box.spec = spec
            box.version = len(state.history)
        # a copy: the caller may change it (OpenSpiel's MCTS shuffles it in place), and the
        # fast path trusts only what this state listed
        return outcomes.copy()

    def _apply_action(self, action: int) -> None:
        """Apply an action or chance number. A number among the legal ones (or the chance
        outcomes) this step already handed out, for this very state, is known to be legal: it
        goes straight to the rules (`State.apply` less its checks, which would only find it
        legal again); any other number goes through `State.apply`, which refuses it with its
        reason. `tests/envs/test_openspiel_fast_path.py` holds both paths to the same states."""
        box = self.box
        state = box.state
        player = box.player
        if player >= 0:
            legal = box.legal
            try:  # handed out as legal this step (sorted), for this very state: no checks
                known = (
                    legal[bisect_left(legal, action)] == action  # type: ignore[arg-type,index]
                    and box.version == len(state.history)
                )
            except (TypeError, IndexError):  # none handed out, or past the last
                known = False
            if known:
                move = box.moves_of[player][action]  # the history entry, made once
                state.history.append(move)
                state._act(move[1])
                box.legal = None
                seat = box.to_move(state)  # the player to move, kept (`_player`, inlined)
                if seat is None:  # a player's node no more
                    seat = _TERMINAL if state.is_terminal else _CHANCE
                    self._kind(seat)
                box.player = seat
                return
            actions = box.actions
            if not 0 <= action < len(actions):
                raise ValueError(
                    Refusal(
                        N_("action {action} is not in 0..{last}"),
                        action=action,
                        last=len(actions) - 1,
                    )
                )
            state.apply(actions[action])
            box.legal = None
        else:
            spec = box.spec
            chance = box.chance
            box.chance = box.spec = None
            if spec is not None and chance is not None and box.version == len(state.history):
                at = bisect_left(chance, action, key=_first)
                if at < len(chance) and chance[at][0] == action:  # a listed outcome: no checks
                    draws = box.tables.draws  # a draw's outcome is one of these, once made
                    outcome: ChanceOutcome | None = draws[action] if spec.kind == "draw" else None
                    if outcome is None:
                        outcome = box.tables.outcome(action, spec)
                    state.history.append(outcome)
                    state._resolve(outcome)
                    seat = box.to_move(state)  # the player to move, kept (`_player`, inlined)
                    if seat is None:
                        if state.is_terminal:
                            box.player = _TERMINAL
                            self._kind(_TERMINAL)
                        return  # else a chance node again
                    box.player = seat
                    self.is_chance_node = _NO  # a player's node
                    return
            spec = state.chance_due()
            assert spec is not None  # the player is kept as the state says
            state.apply(box.tables.outcome(action, spec))
        box.player = _player(state)
        self._kind(box.player)

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.box.state
        encoding = self.box.encoding
        if player == _CHANCE:
            spec = state.chance_due()
            if spec is not None:
                return _entry_text(state.game, encoding.chance_outcome(int(action), spec))
            return f"chance outcome {action}"
        return state.game.text.command(encoding.action(int(action)))

    def returns(self) -> list[float]:
        return self.box.state.returns()

    def resample_from_infostate(self, player: int, sampler: Any) -> CampfireState:
        """A state `player` cannot tell from this one, what it cannot see drawn at random."""
        state = self.box.state
        if state.to_move is None:
            raise ValueError(Refusal(N_("a state can be resampled only when a player is to act")))
        game = self.get_game()
        rng = random.Random(int(sampler() * 2**53))
        sample = state.game.sample_state(state.view(player), rng, chance="draw")
        resampled = CampfireState(game, sample)
        resampled.box.prefix = tuple(self.box.moves())  # the sample's history starts empty
        return resampled

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


class PrivateObserver:
    """What one seat sees and some other seat does not (OpenSpiel's private observation, the
    factored half its playthroughs show): in Pow Wow the feathers it sees on the others' heads
    (the `worn` section), in Waka Tanka its hand and its own face-down cards on each tile."""

    def __init__(self, encoding: Encoding, name: str) -> None:
        self.encoding = encoding
        self.name = name
        offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for section, size in encoding.sections:
            offsets[section] = (at, size)
            at += size
        self.parts: list[tuple[str, list[int]]] = []
        if name == "powwow":
            start, size = offsets["worn"]
            self.parts.append(("worn", list(range(start, start + size))))
        else:
            start, size = offsets["hand"]
            self.parts.append(("hand", list(range(start, start + size))))
            start, size = offsets["stacks"]
            tile = size // 6  # per tile: its size, own cards by kind, cards by placer
            own = [start + t * tile + 1 + card for t in range(6) for card in range(7)]
            self.parts.append(("placed", own))
        self.indices = np.array([i for _, part in self.parts for i in part], np.int64)
        self.tensor = np.zeros(len(self.indices), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for section, part in self.parts:
            self.dict[section] = self.tensor[at : at + len(part)]
            at += len(part)

    def set_from(self, state: CampfireState, player: int) -> None:
        observed = np.frombuffer(self.encoding.observe(state.box.state.view(player)), np.float32)
        self.tensor[:] = observed[self.indices]

    def string_from(self, state: CampfireState, player: int) -> str:
        view = state.box.state.view(player)
        if self.name == "powwow":
            shown: dict[str, Any] = {"seat": player, "feathers": [list(f) for f in view.feathers]}
        else:
            placed = {t: [s.card for s in slots if s.card] for t, slots in view.stacks.items()}
            shown = {"seat": player, "hand": list(view.hand or ()), "placed": placed}
        return json.dumps(shown, separators=(",", ":"))


class InfostateObserver:
    """OpenSpiel's observer protocol for perfect-recall information states: the tensor and the
    string of `campfire.envs.infostate` (the view, and for Pow Wow the turns of past rounds)."""

    def __init__(self, infostate: PowwowInfostate | WakatankaInfostate, private: bool) -> None:
        self.infostate = infostate
        self.private = private
        self.tensor = np.zeros(infostate.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in infostate.sections:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def _parts(self, state: CampfireState, player: int) -> tuple[Any, list[list[tuple[int, int]]]]:
        box = state.box
        view = box.state.view(player if self.private else None)
        return view, self.infostate.past_rounds(box.moves())

    def set_from(self, state: CampfireState, player: int) -> None:
        self.tensor[:] = self.infostate.tensor(*self._parts(state, player))

    def string_from(self, state: CampfireState, player: int) -> str:
        return json.dumps(self.infostate.string(*self._parts(state, player)), separators=(",", ":"))


class CampfireBot(pyspiel.Bot):  # type: ignore[misc]
    """A Campfire bot of any level seated in a pyspiel loop, as OpenSpiel's own bots are:

        bot = CampfireBot(game, player=1, level="hard", seed=7)
        action = bot.step(state)  # an action number, legal in `state`

    `level` is any level the game offers (`campfire.bots.levels`) or `module:factory`. The bot
    sees `state` only through `player`'s seat view, as at a table; `step` asks it for a move at
    `player`'s turn and numbers it with the game's encoding.
    """

    def __init__(
        self, game: CampfireGame, player: int, level: str, seed: int | None = None
    ) -> None:
        pyspiel.Bot.__init__(self)
        from campfire.bots import make_bot

        if not isinstance(game, CampfireGame):
            raise TypeError(
                Refusal(N_("a CampfireBot plays a Campfire game, not {game}"), game=str(game))
            )
        if not 0 <= player < game.players:
            raise ValueError(
                Refusal(
                    N_("there is no player {player} in a game of {players}"),
                    player=player,
                    players=game.players,
                )
            )
        self.game = game
        self.player = player
        self.level = level
        self.bot = make_bot(game.campfire, level, seed, imports=True)

    def step(self, state: CampfireState) -> int:
        inner = state.box.state
        if inner.to_move != self.player:
            raise ValueError(Refusal(N_("it is not player {player}'s turn"), player=self.player))
        action = self.bot.choose(inner.view(self.player), inner.legal_actions())
        return int(state.box.encoding.action_index(action))

    def restart_at(self, state: CampfireState) -> None:
        return None  # the bot reads the whole seat view at every step

    def inform_action(self, state: CampfireState, player: int, action: int) -> None:
        return None

    def provides_policy(self) -> bool:
        return False


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
