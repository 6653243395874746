"""The kernel's two abstractions: a `Game` (rules, codecs, options) and its `State`.

The shape is the field's usual one (OpenSpiel's State): who acts or whether chance is due, the
legal actions, apply, terminal, returns, plus seat views and narrated events. Interfaces, bots and
adapters are written against this module only, never against one game's internals.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, Self, TypeVar, cast

from campfire.i18n import N_
from campfire.kernel.chance import (
    ChanceMode,
    ChanceOutcome,
    ChanceSpec,
    Draw,
    Pick,
    Shuffle,
    Shuffled,
    Stack,
)
from campfire.kernel.errors import IllegalAction, OptionError, Refusal
from campfire.kernel.options import Options

if TYPE_CHECKING:
    from campfire.kernel.bots import Bot, BotFactory
    from campfire.kernel.encoding import Encoding
    from campfire.kernel.events import Event
    from campfire.kernel.text import TextInterface


class View(Protocol):
    """What one seat may know, and nothing more. Every view is plain data."""

    @property
    def seat(self) -> int | None: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def terminal(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    def to_json(self) -> dict[str, Any]: ...


class PlayerMove(NamedTuple):
    """A history entry: `seat` took `action`."""

    seat: int
    action: Any


Entry = PlayerMove | Shuffle | Draw | Pick | Shuffled

ActionT = TypeVar("ActionT")
ViewT = TypeVar("ViewT", bound=View)
StateT = TypeVar("StateT", bound="State[Any, Any]")

# Applying a move is the engine's innermost step: chance outcomes are told apart by their exact
# type (the three classes are final) and history entries are made without NamedTuple's slower
# constructor.
_CHANCE_TYPES = frozenset((Shuffle, Draw, Pick))
_new_tuple = tuple.__new__


class State(ABC, Generic[ActionT, ViewT]):
    """A position of one game, mutated in place by `apply` (use `clone` to branch).

    Subclasses implement the rules through `_refusal` (why an action is illegal) and `_act` /
    `_resolve` (carry out a legal action / a chance outcome), so that `apply` can promise that a
    refused move leaves the state exactly as it was.
    """

    game: ClassVar[Game[Any]]
    players: int
    options: Options
    mode: ChanceMode
    history: list[Entry]
    #: the plain attribute `to_move` only reads, when it only reads one: an adapter's hot loop
    #: reads it directly (OpenSpiel's asks after every move), sparing the property's call
    to_move_attribute: ClassVar[str | None] = None

    # --- who acts --------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to act; None when the game is over or a chance outcome is due."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def chance_due(self) -> ChanceSpec | None:
        """The chance outcome the state waits for, if any."""

    def due_stack(self) -> Stack | None:
        """The unordered (draw-mode) stack the due chance draws from, when `chance_due()` is its
        `draw_spec()`; else None (None is always a right answer: no shortcut). OpenSpiel's
        adapter asks this at every chance node and lists a draw's outcomes from the stack's
        counts (`Stack.tally`) without making the spec."""
        return None

    @property
    def is_chance(self) -> bool:
        return self.chance_due() is not None

    # --- moves -----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> Sequence[ActionT]:
        """Every legal action of the seat to move (empty at chance and terminal states).

        Games may hand out one shared tuple for a common position (a search asks at every
        turn), so treat the sequence as read-only.
        """

    @abstractmethod
    def _refusal(self, action: Any) -> str | None:
        """Why `action` is illegal for the seat to move now, or None when it is legal."""

    @abstractmethod
    def _act(self, action: ActionT) -> list[Event]:
        """Carry out a legal action."""

    @abstractmethod
    def _resolve(self, outcome: ChanceOutcome) -> list[Event]:
        """Carry out a chance outcome that matches `chance_due()`."""

    def apply(self, move: ActionT | ChanceOutcome, *, seat: int | None = None) -> list[Event]:
        """Apply a player action (for `seat`, when given) or a chance outcome.

        Raises `IllegalAction` with the reason, leaving the state unchanged.
        """
        if type(move) in _CHANCE_TYPES:
            outcome = cast(ChanceOutcome, move)
            spec = self.chance_due()
            if spec is None:
                raise IllegalAction(self._not_chance_reason())
            problem = spec.check(outcome)
            if problem is not None:
                raise IllegalAction(problem)
            self.history.append(outcome)
            return self._resolve(outcome)
        who = self.to_move
        if who is None:
            if self.is_terminal:
                raise IllegalAction(Refusal(N_("the game is over")))
            raise IllegalAction(
                f"{self.chance_due() or 'a chance outcome'} is due before anyone acts"
            )
        if seat is not None and seat != who:
            raise IllegalAction(
                Refusal(N_("it is seat {who}'s turn, not seat {seat}'s"), who=who, seat=seat)
            )
        problem = self._refusal(move)
        if problem is not None:
            raise IllegalAction(problem)
        self.history.append(_new_tuple(PlayerMove, (who, move)))  # PlayerMove(who, move), faster
        return self._act(cast(ActionT, move))

    def _not_chance_reason(self) -> str:
        if self.is_terminal:
            return Refusal(N_("the game is over"))
        return Refusal(N_("no chance outcome is due: it is seat {seat}'s turn"), seat=self.to_move)

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        """Every outcome of the chance due now, with its probability (draw mode)."""
        spec = self.chance_due()
        if spec is None:
            raise IllegalAction(self._not_chance_reason())
        return spec.outcomes()

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        spec = self.chance_due()
        if spec is None:
            raise IllegalAction(self._not_chance_reason())
        return spec.sample(rng)

    # --- information -----------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> ViewT:
        """What `seat` may know; `None` gives the spectator's (public) view."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats once the game is over (several on a tie), else empty."""

    def returns(self) -> list[float]:
        """Zero-sum results: +1 for each winner and −1 for the rest, scaled to sum to zero."""
        n = self.players
        won = self.winners() if self.is_terminal else []
        k = len(won)
        if k == 0 or k == n:
            return [0.0] * n
        if k <= n - k:
            win, lose = 1.0, -k / (n - k)
        else:
            win, lose = (n - k) / k, -1.0
        return [win if s in won else lose for s in range(n)]

    @abstractmethod
    def clone(self) -> Self: ...

    def play_out(self, bots: Sequence[Bot], rng: random.Random) -> None:
        """Play to the end: `bots[s]` acts for seat s, `rng` settles chance."""
        while not self.is_terminal:
            seat = self.to_move
            if seat is None:
                self.apply(self.sample_chance(rng))
            else:
                self.apply(bots[seat].choose(self.view(seat), self.legal_actions()))


class Game(ABC, Generic[StateT]):
    """One game: its rules (through `new_state`), options, codecs, narration and text table."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    #: the record field that carries the value of each `Pick` kind, e.g. {"marker": "tile"}
    pick_fields: ClassVar[Mapping[str, str]] = {}

    def seated(self, players: object) -> int:
        """`players` when the game seats that many; `OptionError` (in the table's words)
        otherwise. Every way to a new game or its encoding asks this one question."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise OptionError(
                Refusal(
                    N_("{game} takes {least} to {most} players, not {players}"),
                    game=self.title,
                    least=self.min_players,
                    most=self.max_players,
                    players=repr(players),
                )
            )
        return players

    @abstractmethod
    def new_state(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        chance: ChanceMode = "shuffle",
        narrate: bool = True,
    ) -> StateT:
        """A new game; raises `OptionError` for bad players or options.

        `narrate=False` makes `apply` return no events (search and learning need none, and
        skipping them is a good part of a move's cost)."""

    @abstractmethod
    def default_options(self) -> dict[str, Any]:
        """Every option with its default value."""

    @abstractmethod
    def action_from_json(self, data: Mapping[str, Any]) -> Any:
        """The action of a record entry (without its `player` key); ValueError says why not."""

    @abstractmethod
    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    @abstractmethod
    def summary(self, state: StateT) -> dict[str, Any]:
        """The game's own keys of `campfire replay --json` (see the record format)."""

    @abstractmethod
    def describe(self, event: Event, seat: int | None, lang: str = "en") -> str:
        """One line of narration of `event` as `seat` (None: a spectator) would hear it, in
        `lang`; empty when the event is better shown by the table than told."""

    @abstractmethod
    def sample_state(
        self, view: Any, rng: random.Random, *, chance: ChanceMode = "draw", narrate: bool = False
    ) -> StateT:
        """A full state that `view`'s seat cannot tell from the real one, hidden parts drawn at
        random. Search bots use it to determinize (hence no narration by default); tests use it
        to prove views hide nothing."""

    def tally(self, state: StateT) -> dict[str, int]:
        """Counts that describe a finished game's length (rounds, ...), for summaries."""
        return {}

    @property
    @abstractmethod
    def text(self) -> TextInterface:
        """How the game is drawn and commanded in a terminal."""

    def text_in(self, lang: str) -> TextInterface:
        """`text` in the language `lang` (a game that speaks only English returns `text`)."""
        return self.text

    def encoding(self, players: int, options: Mapping[str, Any] | None = None) -> Encoding:
        """The game's action numbers and observation vector for a player count and options
        (what `campfire.envs` adapts to PettingZoo, Gymnasium and OpenSpiel)."""
        raise NotImplementedError(f"{self.title} has no encoding for learning libraries")

    def bot_levels(self) -> dict[str, BotFactory]:
        """Bot classes by level name; every game has at least `random`."""
        from campfire.kernel.bots import RandomBot

        return {"random": RandomBot}

    def __repr__(self) -> str:
        return f"<Game {self.name}>"
