"""Pow Wow's rules: one state, mutated by actions and chance outcomes (RULINGS P1-P12)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain, compress
from typing import Any

from campfire.games.powwow.actions import (
    AGREE,
    DISPUTE,
    GUESSES,
    REVERSE,
    Action,
    Agree,
    Dispute,
    Guess,
    Reverse,
    extra_guesses,
)
from campfire.games.powwow.feathers import GUESS_MIN, count, total
from campfire.games.powwow.options import PowwowOptions
from campfire.games.powwow.view import PowwowView, RoundResult
from campfire.i18n import N_
from campfire.kernel.chance import ChanceMode, ChanceOutcome, ChanceSpec, Draw, Shuffle, Shuffled
from campfire.kernel.chance import Stack as FeatherStack
from campfire.kernel.errors import Refusal
from campfire.kernel.events import Event
from campfire.kernel.state import State

# Phases. Between player turns the state runs on its own until a player or chance is due.
SHUFFLE = 0  # a shuffle of `_shuffle_items` (a chance outcome in shuffle mode)
ROUND = 1  # a new round starts
DEAL = 2  # feathers are dealt, one per active player
PLAY = 3  # a player is to act
EXTRA = 4  # a tomahawk's extra feather is drawn
TURNOVER = 5  # `?` turns over the top feather
OVER = 6

_SHUFFLE_REASONS = {"start", "zero", "short", "empty"}
_new_tuple = tuple.__new__
#: whether a phase draws from the stack (DEAL, EXTRA, TURNOVER), by phase
_DRAWING = (False, False, True, False, True, True, False)
#: the legal actions when no tomahawk can be used, by the lowest legal guess (its index in
#: `GUESSES`), without and with a standing guess: shared tuples, as a search asks for them at
#: every turn
_PLAIN_OPENING: tuple[Action, ...] = GUESSES
_PLAIN: tuple[tuple[Action, ...], ...] = tuple(
    (*GUESSES[start:], DISPUTE) for start in range(len(GUESSES) + 1)
)


@cache
def _seating(players: int) -> tuple[tuple[frozenset[int], ...], tuple[tuple[int, ...], ...]]:
    """For each seat: everyone else (who may see its feathers), and the seats clockwise from it
    (the deal order). The same for every game of `players`, so made once."""
    others = tuple(frozenset(s for s in range(players) if s != seat) for seat in range(players))
    clockwise = tuple(tuple((f + i) % players for i in range(players)) for f in range(players))
    return others, clockwise


class PowwowState(State[Action, PowwowView]):
    options: PowwowOptions

    def __init__(
        self,
        players: int,
        options: PowwowOptions,
        mode: ChanceMode = "shuffle",
        narrate: bool = True,
    ) -> None:
        self.players = players
        self.options = options
        self.mode = mode
        self.narrate = narrate
        self.history = []
        self.stack = FeatherStack()
        self.used: list[str] = []
        self.worn: list[list[str]] = [[] for _ in range(players)]
        self.buzzards = [0] * players
        self.out: list[int] = []
        self.active = [True] * players
        self.round = 0
        self.first = options.first_player
        self.turn: int | None = None
        self.direction = 1
        self.guess: int | None = None
        self.owner: int | None = None
        self.agreed = False
        self.ready = [True] * players
        self.turns: list[tuple[int, Action]] = []
        self.rounds: list[RoundResult] = []
        self.turned: str | None = None
        self.disputer: int | None = None
        self.phase = SHUFFLE
        self._shuffle_items: tuple[str, ...] = options.feather_set()
        # a research variant (a guess range, fewer guesses): legal actions worked out in full
        self.variant = options.narrows_guesses
        self._shuffle_reason = "start"
        self._after_shuffle = ROUND
        self._deal_order: list[int] = []
        self._deal_next = 0
        self._question = False  # `?` is worn this round
        self._extra_target = 0
        self._after_extra = 0
        self._winners: list[int] = []
        self._others, self._clockwise = _seating(players)
        self.opening_events = self._advance([])

    # --- kernel API ------------------------------------------------------------------------
    to_move_attribute = "turn"

    @property
    def to_move(self) -> int | None:
        return self.turn

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def chance_due(self) -> ChanceSpec | None:
        phase = self.phase
        if phase == SHUFFLE:
            return ChanceSpec("shuffle", self._shuffle_items) if self.mode == "shuffle" else None
        if DEAL <= phase <= TURNOVER and phase != PLAY:
            stack = self.stack
            if not stack.order and stack.size > 0:  # `stack.needs_draw`, inlined: every draw
                return stack.draw_spec()
        return None

    def due_stack(self) -> FeatherStack | None:
        if _DRAWING[self.phase]:  # OpenSpiel's adapter asks at every chance step
            stack = self.stack
            if not stack.order and stack.size > 0:
                return stack
        return None

    def winners(self) -> list[int]:
        return list(self._winners)

    def legal_actions(self) -> Sequence[Action]:
        if self.phase != PLAY:
            return ()
        seat = self.turn
        assert seat is not None
        if self.variant:
            return self._variant_legal(seat)
        guess = self.guess
        start = 0 if guess is None else guess + 1 - GUESS_MIN
        plain = _PLAIN_OPENING if guess is None else _PLAIN[start]
        if not (self.options.tomahawks and self.ready[seat]):
            return plain
        actions = list(plain)
        if guess is not None and not self.agreed:
            actions.append(AGREE)
        actions.append(REVERSE)
        for target in self.extra_targets(seat):
            actions.extend(extra_guesses(target)[start:])
        return actions

    def _variant_legal(self, seat: int) -> Sequence[Action]:
        """The legal actions of a research variant: guesses within its range, none once the
        round holds its most guesses."""
        options = self.options
        guess = self.guess
        low, end = options.guess_min - GUESS_MIN, options.guess_max - GUESS_MIN + 1
        start = low if guess is None else max(low, guess + 1 - GUESS_MIN)
        capped = self._guesses_left() == 0
        actions: list[Action] = [] if capped else list(GUESSES[start:end])
        if guess is not None:
            actions.append(DISPUTE)
        if not (options.tomahawks and self.ready[seat]):
            return actions
        if guess is not None and not self.agreed:
            actions.append(AGREE)
        actions.append(REVERSE)
        if not capped:
            for target in self.extra_targets(seat):
                actions.extend(extra_guesses(target)[start:end])
        return actions

    def _guesses_left(self) -> int | None:
        """How many more guesses this round may hold (None: no limit)."""
        limit = self.options.max_guesses
        if limit is None:
            return None
        return limit - sum(1 for _, action in self.turns if type(action) is Guess)

    def extra_targets(self, seat: int) -> list[int]:
        """Who may receive an extra feather from `seat`: other active players wearing one."""
        return [
            s
            for s in range(self.players)
            if s != seat and self.active[s] and len(self.worn[s]) == 1
        ]

    def _refusal(self, action: Any) -> str | None:
        kind = type(action)
        if kind is Guess:
            value = action.value
            if not isinstance(value, int) or isinstance(value, bool):
                return Refusal(N_("a guess is a whole number, not {value}"), value=repr(value))
            low, high = self.options.guess_min, self.options.guess_max
            if not low <= value <= high:
                # the range that is legal now: above the standing guess, when there is one
                lowest = low if self.guess is None else max(low, self.guess + 1)
                if lowest > high:
                    return Refusal(
                        N_("no guess is higher than the standing guess {guess}: dispute it"),
                        guess=self.guess,
                    )
                return Refusal(
                    N_("a guess must be between {lowest} and {highest}, not {value}"),
                    lowest=lowest,
                    highest=high,
                    value=value,
                )
            if self.guess is not None and value <= self.guess:
                return Refusal(
                    N_("a guess must be higher than the standing guess {guess}, not {value}"),
                    guess=self.guess,
                    value=value,
                )
            if self._guesses_left() == 0:
                return Refusal(
                    N_(
                        "this round already holds {count} guesses, the most this game allows: "
                        "dispute"
                    ),
                    count=self.options.max_guesses,
                )
            target = action.extra_feather_to
            if target is None:
                return None
            problem = self._tomahawk_refusal("an extra feather")
            if problem:
                return problem
            if not isinstance(target, int) or not 0 <= target < self.players:
                return Refusal(
                    N_("there is no seat {target} to take an extra feather"), target=repr(target)
                )
            if target == self.turn:
                return Refusal(N_("the extra feather must go to another player"))
            if not self.active[target]:
                return Refusal(N_("seat {target} is out and wears no feather"), target=target)
            if len(self.worn[target]) != 1:
                return Refusal(
                    N_("seat {target} already wears two feathers (two at most)"), target=target
                )
            return None
        if kind is Dispute:
            return Refusal(N_("there is no guess to dispute yet")) if self.guess is None else None
        if kind is Agree:
            problem = self._tomahawk_refusal("agree")
            if problem:
                return problem
            if self.guess is None:
                return Refusal(N_("there is no guess to agree with yet"))
            if self.agreed:
                return (
                    f"seat {self.owner} took the standing guess by agreeing: "
                    "it cannot be agreed with again"
                )
            return None
        if kind is Reverse:
            return self._tomahawk_refusal("reverse")
        return f"{action!r} is not a Pow Wow action"

    def _tomahawk_refusal(self, what: str) -> str | None:
        if not self.options.tomahawks:
            return f"{what} needs a tomahawk, and tomahawks are not in play in this game"
        assert self.turn is not None
        if not self.ready[self.turn]:
            return f"{what} needs a tomahawk, and yours is spent this round"
        return None

    def _act(self, action: Action) -> list[Event]:
        seat: int = self.turn  # type: ignore[assignment]  # a seat: a player acts
        events: list[Event] = []
        self.turns.append((seat, action))
        if type(action) is Guess:
            self.guess = action.value
            self.owner = seat
            self.agreed = False
            target = action.extra_feather_to
            if self.narrate:
                events.append(
                    Event(
                        "guess", {"seat": seat, "value": action.value, "extra_feather_to": target}
                    )
                )
            # the next seat in play (`_step`, inlined for the usual move: a guess)
            following = (seat + self.direction) % self.players
            if not self.active[following]:
                following = self._step(seat, self.direction)
            if target is None:
                self.turn = following
                return events
            self.ready[seat] = False
            self.turn = None
            self.phase = EXTRA
            self._extra_target = target
            self._after_extra = following
            return self._advance(events)
        if isinstance(action, Dispute):
            self.disputer = seat
            self.turn = None
            if self.narrate:
                events.append(
                    Event("dispute", {"seat": seat, "owner": self.owner, "guess": self.guess})
                )
                events.append(Event("reveal", {"worn": [list(w) for w in self.worn]}))
            if self._question:
                self.phase = TURNOVER
            else:
                self._settle(events)
            return self._advance(events)
        self.ready[seat] = False
        if isinstance(action, Agree):
            self.owner = seat
            self.agreed = True
            if self.narrate:
                events.append(Event("agree", {"seat": seat, "guess": self.guess}))
            self.turn = self._step(seat, self.direction)
            return events
        self.direction = -self.direction
        self.turn = self._step(seat, self.direction, skip=self.owner)
        if self.narrate:
            events.append(Event("reverse", {"seat": seat, "direction": self.direction}))
        return events

    def _resolve(self, outcome: ChanceOutcome) -> list[Event]:
        events: list[Event] = []
        if type(outcome) is Draw:  # draw mode's usual chance: checked first
            item = outcome.item
            stack = self.stack
            # `stack.take(item)`, inlined: a draw is a third of a game's steps
            stack._numbers[stack._layout.position[item]] -= 1
            stack.size -= 1
            stack._spec = None
            if self.phase == DEAL and not self.narrate:
                # `_drawn` less its narration, inlined: most of a game's draws are a deal's
                order = self._deal_order
                dealt = self._deal_next
                self.worn[order[dealt]].append(item)
                if item == "?":
                    self._question = True
                self._deal_next = dealt = dealt + 1
                if dealt == len(order):
                    self.phase = PLAY
                    self.turn = self.first
                    return events
                if stack.size and not stack.order:
                    return events  # the deal goes on with another draw (`_advance` would say so)
                return self._advance(events)
            self._drawn(item, events)
            phase = self.phase
            if phase == PLAY:
                return events  # a feather dealt or an extra one, then a turn
            if phase == DEAL and stack.size and not stack.order:
                return events  # the deal goes on with another draw (`_advance` would say so)
            return self._advance(events)
        if isinstance(outcome, Shuffle):
            self.stack.set_order(outcome.order)
            if self.narrate:
                events.append(self._shuffle_event())
            self.phase = self._after_shuffle
        else:
            assert isinstance(outcome, Draw)
            self.stack.take(outcome.item)
            self._drawn(outcome.item, events)
            if self.phase == PLAY:
                return events  # the usual draw: a feather dealt or an extra one, then a turn
        return self._advance(events)

    # --- the automatic part of the game ----------------------------------------------------
    def _advance(self, events: list[Event]) -> list[Event]:
        """Run every step that needs no decision, until a player or chance is due."""
        while True:
            phase = self.phase
            if phase == SHUFFLE:
                if self.mode == "shuffle":
                    return events
                self.stack.set_unordered(self._shuffle_items)
                self.history.append(Shuffled(self._shuffle_items))
                if self.narrate:
                    events.append(self._shuffle_event())
                self.phase = self._after_shuffle
            elif phase == ROUND:
                self._start_round(events)
            elif phase == DEAL and self.stack.order:
                self._deal(events)
            elif phase in (DEAL, EXTRA, TURNOVER):
                if self.stack.size == 0:
                    self._begin_shuffle("empty", phase)
                elif self.stack.order:
                    self._drawn(self.stack.pop(), events)
                else:
                    return events  # draw mode: the draw is a chance outcome
            else:
                return events

    def _begin_shuffle(self, reason: str, then: int) -> None:
        """Shuffle the stack and the used pile together (P4, P7, P8, P11)."""
        self._shuffle_items = tuple(sorted([*self.stack.items(), *self.used]))
        self.used = []
        self.stack.set_order(())
        self._shuffle_reason = reason
        self._after_shuffle = then
        self.phase = SHUFFLE

    def _shuffle_event(self) -> Event:
        return Event("shuffle", {"reason": self._shuffle_reason, "count": len(self._shuffle_items)})

    def _start_round(self, events: list[Event]) -> None:
        """Set up a round (the feathers of the last one are already on the used pile)."""
        self.round += 1
        self.turns = []
        self.guess = self.owner = self.turned = self.disputer = None
        self.agreed = self._question = False
        self.direction = 1
        self.ready = [True] * self.players
        clockwise = self._clockwise[self.first]
        if self.out:  # the seats still in, clockwise (`compress`: no comprehension's frame)
            self._deal_order = list(compress(clockwise, map(self.active.__getitem__, clockwise)))
        else:  # everyone, the usual round
            self._deal_order = list(clockwise)
        self._deal_next = 0
        if self.narrate:
            events.append(Event("round", {"round": self.round, "first_player": self.first}))
        if self.stack.size < len(self._deal_order):
            self._begin_shuffle("short", DEAL)
        else:
            self.phase = DEAL

    def _deal(self, events: list[Event]) -> None:
        """Deal the rest of the round from an ordered stack (the round start made sure it holds
        enough), without going through the chance machinery feather by feather."""
        pop, wear = self.stack.pop, self._wear
        for seat in self._deal_order[self._deal_next :]:
            wear(seat, pop(), False, events)
        self._deal_next = len(self._deal_order)
        self.phase = PLAY
        self.turn = self.first

    def _drawn(self, feather: str, events: list[Event]) -> None:
        """Give the feather just drawn to whoever the current step draws for."""
        phase = self.phase
        if phase == DEAL:
            seat = self._deal_order[self._deal_next]
            self._deal_next += 1
            if self.narrate:
                self._wear(seat, feather, False, events)
            else:  # `_wear` less its narration: a draw-mode deal makes a chance step of each
                self.worn[seat].append(feather)
                if feather == "?":
                    self._question = True
            if self._deal_next == len(self._deal_order):
                self.phase = PLAY
                self.turn = self.first
        elif phase == EXTRA:
            self._wear(self._extra_target, feather, True, events)
            self.phase = PLAY
            self.turn = self._after_extra
        else:
            self.turned = feather
            if self.narrate:
                events.append(Event("turn_over", {"feather": feather}))
            self._settle(events)

    def _wear(self, seat: int, feather: str, extra: bool, events: list[Event]) -> None:
        self.worn[seat].append(feather)
        if feather == "?":
            self._question = True
        if self.narrate:
            events.append(Event("extra_feather" if extra else "deal", {"seat": seat}))
            data = {"seat": seat, "feather": feather, "extra": extra}
            events.append(Event("feather", data, self._others[seat]))

    def _settle(self, events: list[Event]) -> None:
        """Count the round, give the buzzard, and set up what comes next (P6-P10)."""
        guess, owner, disputer = self.guess, self.owner, self.disputer
        assert guess is not None and owner is not None and disputer is not None
        in_play = list(chain.from_iterable(self.worn))  # no comprehension's frame
        if self.turned is not None:
            in_play.append(self.turned)
        if self.narrate:
            counted = count(in_play)
            result = counted.total
            if "max0" in in_play:
                events.append(Event("max0", {"removed": counted.removed}))
            if counted.doubled:
                events.append(Event("x2", {"green_sum": counted.green_sum}))
        else:
            result = total(in_play)  # the total alone: no `Count` made
        loser = disputer if result >= guess else owner
        # RoundResult(...) without the named tuple's Python constructor, in its fields' order
        worn = tuple(map(tuple, self.worn))
        fields = (self.first, worn, self.turned, result, guess, owner, disputer, loser)
        self.rounds.append(_new_tuple(RoundResult, fields))
        self.used.extend(in_play)
        for feathers in self.worn:  # emptied in place: each list is this state's own (`clone`)
            feathers.clear()
        self.turned = None
        self.buzzards[loser] += 1
        if self.narrate:
            totals = {
                "total": result,
                "guess": guess,
                "owner": owner,
                "disputer": disputer,
                "loser": loser,
            }
            events.append(Event("total", totals))
            events.append(Event("buzzard", {"seat": loser, "buzzards": self.buzzards[loser]}))
        if self.buzzards[loser] >= self.options.buzzards:
            self.active[loser] = False
            self.out.append(loser)
            if self.narrate:
                events.append(Event("out", {"seat": loser}))
            limit = self.options.end_after_eliminations
            remaining = [s for s in range(self.players) if self.active[s]]
            if len(remaining) == 1 or (limit is not None and len(self.out) >= limit):
                fewest = min(self.buzzards[s] for s in remaining)
                self._winners = [s for s in remaining if self.buzzards[s] == fewest]
                self.phase = OVER
                self.turn = None
                events.append(Event("game_over", {"winners": list(self._winners)}))
                return
        self.first = loser if self.active[loser] else self._step(loser, 1)
        if "zero" in in_play:
            self._begin_shuffle("zero", ROUND)
        else:
            self.phase = ROUND

    def _step(self, seat: int, direction: int, skip: int | None = None) -> int:
        """The next active player from `seat` in `direction`, passing over `skip`."""
        n = self.players
        nxt = seat
        while True:
            nxt = (nxt + direction) % n
            if nxt == seat:
                return seat
            if self.active[nxt] and nxt != skip:
                return nxt

    # --- information -----------------------------------------------------------------------
    def view(self, seat: int | None) -> PowwowView:
        feathers: tuple[tuple[str | None, ...], ...]
        if seat is None:
            feathers = tuple([(None,) * len(w) for w in self.worn])
        else:
            feathers = tuple(
                [(None,) * len(w) if s == seat else tuple(w) for s, w in enumerate(self.worn)]
            )
        # The fields in their order, not by keyword: matching twenty keywords was a third of
        # the cost of a view, which a learner's environment makes at every step.
        return PowwowView(
            seat,
            self.players,
            self.options,
            self.round,
            self.first,  # first_player
            self.turn,  # to_move
            self.direction,
            feathers,
            tuple(self.buzzards),
            tuple(self.out),
            # tomahawks: ready ones by seat; none at all when they are not in play
            tuple(self.ready) if self.options.tomahawks else (False,) * self.players,
            self.guess,
            self.owner,
            self.agreed,
            tuple(self.turns),
            tuple(self.used),
            self.stack.size,  # stack_size
            tuple(self.rounds),
            self.phase == OVER,  # terminal
            tuple(self._winners),
        )

    def clone(self) -> PowwowState:
        other = object.__new__(PowwowState)
        other.__dict__.update(self.__dict__)
        other.history = self.history.copy()
        other.stack = self.stack.copy()
        other.used = self.used.copy()
        other.worn = [w.copy() for w in self.worn]
        other.buzzards = self.buzzards.copy()
        other.out = self.out.copy()
        other.active = self.active.copy()
        other.ready = self.ready.copy()
        other.turns = self.turns.copy()
        other.rounds = self.rounds.copy()
        other._deal_order = self._deal_order.copy()
        other._winners = self._winners.copy()
        return other

    def all_feathers(self) -> list[str]:
        """Every feather wherever it is: stack, used pile, heads, or a shuffle in progress."""
        out = [*self.stack.items(), *self.used]
        for worn in self.worn:
            out.extend(worn)
        if self.phase == SHUFFLE and self.mode == "shuffle":
            out.extend(self._shuffle_items)
        return sorted(out)
