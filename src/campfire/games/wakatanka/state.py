"""Waka Tanka's rules: one state, mutated by actions and chance outcomes (RULINGS W1-W6)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import compress
from operator import itemgetter
from typing import Any

from campfire.games.wakatanka.actions import (
    ACCEPT,
    CALL,
    PLAYS,
    SPELLS,
    Accept,
    Action,
    Call,
    Play,
    Spell,
)
from campfire.games.wakatanka.cards import (
    CARD_INDEX,
    CARDS,
    TILE_INDEX,
    TILES,
    deck,
    neighbours,
)
from campfire.games.wakatanka.options import WakatankaOptions
from campfire.games.wakatanka.view import Reveal, Slot, Turn, WakatankaView
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
from campfire.kernel.errors import Refusal
from campfire.kernel.events import Event
from campfire.kernel.state import State

SHUFFLE, MARKER, DEAL, PLAY, OVER = range(5)
#: a tile's stack: (card index, placer) pairs, bottom first
Pile = Sequence[tuple[int, int]]
#: card indices in the order of the cards' names, so a hand comes out sorted
_BY_NAME = sorted(range(len(CARDS)), key=CARDS.__getitem__)
_MARKER_SPEC = ChanceSpec("pick", TILES, "marker")


@cache
def _marker(animals: int) -> ChanceSpec:
    """The starting marker's chance of a research variant with fewer tiles."""
    return ChanceSpec("pick", TILES[:animals], "marker")


class WakatankaState(State[Action, WakatankaView]):
    options: WakatankaOptions

    def __init__(
        self,
        players: int,
        options: WakatankaOptions,
        mode: ChanceMode = "shuffle",
        narrate: bool = True,
    ) -> None:
        self.players = players
        self.options = options
        self.mode = mode
        self.narrate = narrate
        self.history = []
        self.deck = deck(players, options.cards, options.animals)
        self.animals = options.animals
        self._marker_spec = _MARKER_SPEC if options.animals == 6 else _marker(options.animals)
        self.stack = Stack()  # the deck while it is dealt
        self.hands = [[0] * 7 for _ in range(players)]  # counts by card index
        self.hand_size = [0] * players
        self.stacks: list[Pile] = [() for _ in TILES]  # (card, placer), bottom first
        self.marker: int | None = None
        self.tokens = [0] * players
        self.removed: list[str] = []
        self.turns: list[Turn] = []  # public: cards stay face down here
        self.reveals: list[Reveal] = []
        self.last_play: tuple[int, int] | None = None  # (seat, tile index)
        self.last_card = False
        self.turn: int | None = None
        self.phase = SHUFFLE
        self._deal_next = 0
        self._winners: list[int] = []
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
            return ChanceSpec("shuffle", self.deck) if self.mode == "shuffle" else None
        if phase == MARKER:
            return self._marker_spec
        if phase == DEAL:
            return self.stack.draw_spec()
        return None

    def due_stack(self) -> Stack | None:
        # draw mode's deal (in shuffle mode, `_advance` deals the ordered deck at once)
        if self.phase == DEAL and not self.stack.order:
            return self.stack
        return None

    def winners(self) -> list[int]:
        return list(self._winners)

    def legal_actions(self) -> list[Action]:
        if self.phase != PLAY:
            return []
        if self.last_card:
            return [CALL, ACCEPT]
        assert self.turn is not None and self.marker is not None
        hand = self.hands[self.turn]  # a count per card: `compress` keeps the cards held
        left, right = neighbours(self.marker, self.animals)
        actions: list[Action] = [*compress(PLAYS[left], hand), *compress(PLAYS[right], hand)]
        if self.last_play is not None:
            actions.append(CALL)
        actions += compress(SPELLS, self.stacks)  # the tiles whose stack is not empty
        return actions

    def _refusal(self, action: Any) -> str | None:
        kind = type(action)
        seat = self.turn
        assert seat is not None and self.marker is not None
        if self.last_card and kind is not Call and kind is not Accept:
            who = self.last_play[0] if self.last_play else "?"
            return Refusal(N_("seat {seat} played their last card: call or accept"), seat=who)
        if kind is Play:
            tile = TILE_INDEX.get(action.tile)
            if tile is None:
                return f"{action.tile!r} is not a tile (tiles: {', '.join(TILES)})"
            card = CARD_INDEX.get(action.card)
            if card is None:
                return f"{action.card!r} is not a card (cards: {', '.join(CARDS)})"
            if tile not in neighbours(self.marker, self.animals):
                left, right = (TILES[t] for t in neighbours(self.marker, self.animals))
                return Refusal(
                    N_("the marker is on {tile}: it moves to {left} or {right}, not {asked}"),
                    tile=TILES[self.marker],
                    left=left,
                    right=right,
                    asked=action.tile,
                )
            if not self.hands[seat][card]:
                return Refusal(N_("seat {seat} has no {card} in hand"), seat=seat, card=action.card)
            return None
        if kind is Call:
            if self.last_play is None:
                return Refusal(N_("a call must come right after a play"))
            return None
        if kind is Spell:
            tile = TILE_INDEX.get(action.tile)
            if tile is None:
                return f"{action.tile!r} is not a tile (tiles: {', '.join(TILES)})"
            if not self.stacks[tile]:
                return Refusal(
                    N_("there are no cards on {tile} to cast a spell on"), tile=action.tile
                )
            return None
        if kind is Accept:
            if not self.last_card:
                return Refusal(N_("accept only when the previous player played their last card"))
            return None
        return f"{action!r} is not a Waka Tanka action"

    def _act(self, action: Action) -> list[Event]:
        # the turn's kind picked here, not in a helper: OpenSpiel's loop calls this at every
        # turn, and a Python call is a fair share of a turn's cost (no assert either: a legal
        # action means a seat is to move)
        seat: int = self.turn  # type: ignore[assignment]
        if type(action) is Play:  # the usual turn: its rules here, narration apart
            tile = TILE_INDEX[action.tile]
            card = CARD_INDEX[action.card]
            self.turns.append(_PLAY_TURNS[seat][tile])
            self.hands[seat][card] -= 1
            left = self.hand_size[seat] = self.hand_size[seat] - 1
            self.stacks[tile] = (*self.stacks[tile], (card, seat))
            self.marker = tile
            self.last_play = (seat, tile)
            self.last_card = left == 0
            self.turn = (seat + 1) % self.players
            events = self._play_events(seat, tile, card) if self.narrate else []
        elif type(action) is Spell:
            tile = TILE_INDEX[action.tile]
            self.turns.append(_SPELL_TURNS[seat][tile])
            events = self._spell(seat, tile)
        elif type(action) is Call:
            self.turns.append(_CALL_TURNS[seat])
            events = self._call(seat)
        else:
            events = self._accept(seat)
        limit = self.options.max_turns
        if limit is not None and self.phase != OVER and len(self.turns) >= limit:
            # a research variant's last turn: the most tokens win, then the fewest cards
            best = max(self.tokens)
            most = [s for s in range(self.players) if self.tokens[s] == best]
            fewest = min(self.hand_size[s] for s in most)
            winners = [s for s in most if self.hand_size[s] == fewest]
            self._end(winners, "turns", events)
        return events

    def _accept(self, seat: int) -> list[Event]:
        self.turns.append(_ACCEPT_TURNS[seat])
        assert self.last_play is not None
        winner = self.last_play[0]
        events = [Event("accept", {"seat": seat, "player": winner})]
        self._end([winner], "last card", events)
        return events

    def _play_events(self, seat: int, tile: int, card: int) -> list[Event]:
        """What a play narrates (the rules of a play are in `_act`)."""
        events = [
            Event("play", {"seat": seat, "tile": TILES[tile], "hand_size": self.hand_size[seat]}),
            Event(
                "placed",
                {"seat": seat, "tile": TILES[tile], "card": CARDS[card]},
                frozenset((seat,)),
            ),
        ]
        if self.last_card:
            events.append(Event("last_card", {"seat": seat}))
        return events

    def _call(self, seat: int) -> list[Event]:
        assert self.last_play is not None
        player, tile = self.last_play
        last_card = self.last_card
        cards = self.stacks[tile]  # turned face up (`_reveal`, inlined)
        self.stacks[tile] = ()
        shown = tuple(map(_named, cards))
        bluff = cards[-1][0] != tile
        taker = player if bluff else seat
        hand = self.hands[taker]  # the taker takes the stack (inlined: no call)
        for card, _ in cards:
            hand[card] += 1
        self.hand_size[taker] += len(cards)
        self.reveals.append(_new_tuple(Reveal, (seat, "call", TILES[tile], shown, bluff, taker)))
        events: list[Event] = []
        if self.narrate:
            data = {
                "seat": seat,
                "player": player,
                "tile": TILES[tile],
                "cards": [c for _, c in shown],
                "bluff": bluff,
                "taker": taker,
            }
            events.append(Event("call", data))
        self.last_play = None
        self.last_card = False
        if bluff:
            if self._gain_token(seat, events):
                return events
        elif last_card:
            self._end([player], "last card", events)
            return events
        self.turn = (seat + 1) % self.players
        return events

    def _spell(self, seat: int, tile: int) -> list[Event]:
        cards = self.stacks[tile]  # turned face up (`_reveal`, inlined)
        self.stacks[tile] = ()
        shown = tuple(map(_named, cards))
        success = list(map(_card_of, cards)).count(tile) >= 2
        taker = None if success else seat
        if success:
            self.removed.extend(map(_name_of, shown))
            self.removed.sort()
        else:
            hand = self.hands[seat]  # the caster takes the stack back (inlined: no call)
            for card, _ in cards:
                hand[card] += 1
            self.hand_size[seat] += len(cards)
        self.reveals.append(_new_tuple(Reveal, (seat, "spell", TILES[tile], shown, success, taker)))
        events: list[Event] = []
        if self.narrate:
            data = {
                "seat": seat,
                "tile": TILES[tile],
                "cards": [c for _, c in shown],
                "success": success,
                "taker": taker,
            }
            events.append(Event("spell", data))
        self.last_play = None
        if success and self._gain_token(seat, events):
            return events
        self.turn = (seat + 1) % self.players
        return events

    def _gain_token(self, seat: int, events: list[Event]) -> bool:
        """Give `seat` a token; True when it is their fourth and the game is won."""
        self.tokens[seat] += 1
        if self.narrate:
            events.append(Event("token", {"seat": seat, "tokens": self.tokens[seat]}))
        if self.tokens[seat] >= self.options.tokens_to_win:
            self._end([seat], "tokens", events)
            return True
        return False

    def _end(self, winners: list[int], reason: str, events: list[Event]) -> None:
        self._winners = winners
        self.phase = OVER
        self.turn = None
        events.append(Event("game_over", {"winners": winners, "reason": reason}))

    # --- chance ----------------------------------------------------------------------------
    def _resolve(self, outcome: ChanceOutcome) -> list[Event]:
        events: list[Event] = []
        if type(outcome) is Draw:  # the deal's draws: most chance steps in draw mode
            item = outcome.item
            stack = self.stack
            stack.take(item)
            seat = (self.options.first_player + self._deal_next) % self.players  # `_deal_one`
            self._deal_next += 1
            self.hands[seat][CARD_INDEX[item]] += 1
            self.hand_size[seat] += 1
            if stack.size:  # more to deal (`_advance` would find nothing to do)
                return events
            return self._advance(events)
        if isinstance(outcome, Shuffle):
            self.stack.set_order(outcome.order)
            if self.narrate:
                events.append(Event("shuffle", {"count": len(self.deck)}))
            self.phase = MARKER
        elif isinstance(outcome, Pick):
            self.marker = TILE_INDEX[outcome.value]
            if self.narrate:
                events.append(Event("marker", {"tile": outcome.value}))
            self.phase = DEAL
        else:
            assert isinstance(outcome, Draw)
            self.stack.take(outcome.item)
            self._deal_one(outcome.item)
        return self._advance(events)

    def _advance(self, events: list[Event]) -> list[Event]:
        if self.phase == SHUFFLE and self.mode == "draw":
            self.stack.set_unordered(self.deck)
            self.history.append(Shuffled(self.deck))
            if self.narrate:
                events.append(Event("shuffle", {"count": len(self.deck)}))
            self.phase = MARKER
        if self.phase == DEAL:
            while self.stack.order:
                self._deal_one(self.stack.pop())
            if self.stack.size == 0:
                self.phase = PLAY
                self.turn = self.options.first_player
                if not self.narrate:
                    return events
                events.append(Event("deal", {"hand_sizes": list(self.hand_size)}))
                for seat in range(self.players):
                    events.append(
                        Event("hand", {"seat": seat, "cards": self._hand(seat)}, frozenset((seat,)))
                    )
        return events

    def _deal_one(self, card: str) -> None:
        seat = (self.options.first_player + self._deal_next) % self.players
        self._deal_next += 1
        self.hands[seat][CARD_INDEX[card]] += 1
        self.hand_size[seat] += 1

    # --- information -----------------------------------------------------------------------
    def _hand(self, seat: int) -> list[str]:
        return list(_hand_names(tuple(self.hands[seat])))

    def view(self, seat: int | None) -> WakatankaView:
        seen = _SEEN[seat]
        last_play = self.last_play
        # The fields in their order, not by keyword: matching sixteen keywords was a sixth of
        # the cost of a view, which a learner's environment makes at every step.
        return WakatankaView(
            seat,
            self.players,
            self.options,
            self.turn,  # to_move
            None if self.marker is None else TILES[self.marker],
            None if seat is None else _hand_names(self.hands[seat]),
            tuple(self.hand_size),
            tuple(self.tokens),
            {  # stacks
                TILES[t]: tuple([seen[placer][card] for card, placer in pile]) if pile else ()
                for t, pile in enumerate(self.stacks)
            },
            tuple(self.removed),
            self._seen_turns(),
            self._seen_reveals(),
            None if last_play is None else (last_play[0], TILES[last_play[1]]),
            self.last_card,
            self.phase == OVER,  # terminal
            tuple(self._winners),
        )

    # The turns and reveals only grow during a game, and every seat's view of one position
    # shows the same ones: one tuple is made per position and shared by all its views (a
    # server shows each move to every seat), so that their JSON is made once too
    # (`view._json_list`). A list assigned anew (a clone, a sampled state) is another object.
    _turns_seen: tuple[list[Turn], tuple[Turn, ...]] | None = None
    _reveals_seen: tuple[list[Reveal], tuple[Reveal, ...]] | None = None

    def _seen_turns(self) -> tuple[Turn, ...]:
        seen, turns = self._turns_seen, self.turns
        if seen is None or seen[0] is not turns or len(seen[1]) != len(turns):
            seen = self._turns_seen = (turns, tuple(turns))
        return seen[1]

    def _seen_reveals(self) -> tuple[Reveal, ...]:
        seen, reveals = self._reveals_seen, self.reveals
        if seen is None or seen[0] is not reveals or len(seen[1]) != len(reveals):
            seen = self._reveals_seen = (reveals, tuple(reveals))
        return seen[1]

    def clone(self) -> WakatankaState:
        other = object.__new__(WakatankaState)
        other.__dict__.update(self.__dict__)
        other.history = self.history.copy()
        other.stack = self.stack.copy()
        other.hands = [h.copy() for h in self.hands]
        other.hand_size = self.hand_size.copy()
        other.stacks = self.stacks.copy()  # of tuples
        other.tokens = self.tokens.copy()
        other.removed = self.removed.copy()
        other.turns = self.turns.copy()
        other.reveals = self.reveals.copy()
        other._winners = self._winners.copy()
        return other

    def all_cards(self) -> list[str]:
        """Every card wherever it is: deck, hands, tiles, out of the game."""
        out = [*self.stack.items(), *self.removed]
        if self.phase == SHUFFLE and self.mode == "shuffle":
            out.extend(self.deck)
        for seat in range(self.players):
            out.extend(self._hand(seat))
        for stack in self.stacks:
            out.extend(CARDS[card] for card, _ in stack)
        return sorted(out)


# Slots and turns are immutable and few: the view and the turn list share one object of each
# instead of building them anew at every call (the seat view is on every learner's hot path).
_HIDDEN = tuple(Slot(placer, None) for placer in range(6))
_SHOWN = tuple(tuple(Slot(placer, card) for card in CARDS) for placer in range(6))
#: the slot `seat` sees for a card placed by `placer`: ``_SEEN[seat][placer][card]``
_SEEN = {
    seat: tuple(
        _SHOWN[placer] if placer == seat else (_HIDDEN[placer],) * len(CARDS) for placer in range(6)
    )
    for seat in (None, *range(6))
}
_PLAY_TURNS = tuple(tuple(Turn(seat, "play", tile) for tile in TILES) for seat in range(6))
_SPELL_TURNS = tuple(tuple(Turn(seat, "spell", tile) for tile in TILES) for seat in range(6))
_CALL_TURNS = tuple(Turn(seat, "call") for seat in range(6))
#: a named tuple made without its Python-level constructor (a reveal at every call and spell)
_new_tuple = tuple.__new__
#: what a reveal shows of a placed card, by the pile's `(card index, placer)`: (placer, name)
_NAMED: dict[tuple[int, int], tuple[int, str]] = {
    (c, placer): (placer, CARDS[c]) for c in range(len(CARDS)) for placer in range(6)
}
_named = _NAMED.__getitem__
_card_of = itemgetter(0)
_name_of = itemgetter(1)
_ACCEPT_TURNS = tuple(Turn(seat, "accept") for seat in range(6))


#: each card's name repeated 0, 1, 2 ... times (up to the most cards of a kind in any deck)
_RUNS = tuple(
    tuple((card,) * k for k in range(max(map(deck(6).count, CARDS)) + 1)) for card in CARDS
)


def _hand_names(counts: Sequence[int]) -> tuple[str, ...]:
    """A hand (a count per card) as its sorted card names, joined from ready-made runs: cheaper
    than a cache, which the many different hands of a game kept missing."""
    names: tuple[str, ...] = ()
    for c in _BY_NAME:
        if counts[c]:
            names += _RUNS[c][counts[c]]
    return names
