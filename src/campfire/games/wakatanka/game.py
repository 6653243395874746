"""Waka Tanka as a kernel `Game`: options, record codecs, narration and determinization."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from campfire.games.wakatanka import actions, narration
from campfire.games.wakatanka.cards import CARD_INDEX, CARDS, TILE_INDEX, TILES, deck
from campfire.games.wakatanka.options import WakatankaOptions
from campfire.games.wakatanka.state import PLAY, WakatankaState
from campfire.games.wakatanka.view import WakatankaView
from campfire.i18n import N_
from campfire.kernel.bots import BotFactory
from campfire.kernel.chance import ChanceMode
from campfire.kernel.encoding import Encoding
from campfire.kernel.errors import OptionError, Refusal
from campfire.kernel.events import Event
from campfire.kernel.options import parse_options
from campfire.kernel.state import Game
from campfire.kernel.text import TextInterface


class Wakatanka(Game[WakatankaState]):
    name = "wakatanka"
    title = "Waka Tanka"
    min_players = 3
    max_players = 6
    default_players = 4
    pick_fields = {"marker": "tile"}

    def new_state(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        chance: ChanceMode = "shuffle",
        narrate: bool = True,
    ) -> WakatankaState:
        n = self.seated(self.default_players if players is None else players)
        return WakatankaState(n, self.options(n, options), chance, narrate)

    def options(self, players: int, raw: Mapping[str, Any] | None) -> WakatankaOptions:
        parsed = parse_options(WakatankaOptions, raw)
        if parsed.first_player >= players:
            raise OptionError(
                Refusal(
                    N_("option 'first_player': there is no seat {seat} with {players} players"),
                    seat=parsed.first_player,
                    players=players,
                )
            )
        if parsed.max_turns is not None and parsed.max_turns < players:
            raise OptionError(
                Refusal(
                    N_(
                        "option 'max_turns': every one of the {players} players needs a turn,"
                        " not {turns}"
                    ),
                    players=players,
                    turns=parsed.max_turns,
                )
            )
        return parsed

    def default_options(self) -> dict[str, Any]:
        return WakatankaOptions().model_dump()

    def action_from_json(self, data: Mapping[str, Any]) -> actions.Action:
        return actions.from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return actions.to_json(action)

    def summary(self, state: WakatankaState) -> dict[str, Any]:
        return {
            "tokens": list(state.tokens),
            "hands": [state._hand(s) for s in range(state.players)],
            "stacks": {TILES[t]: [CARDS[c] for c, _ in state.stacks[t]] for t in range(6)},
            "removed": sorted(state.removed),
            "marker": None if state.marker is None else TILES[state.marker],
        }

    def describe(self, event: Event, seat: int | None, lang: str = "en") -> str:
        return narration.describe(event, seat, lang)

    def sample_state(
        self,
        view: WakatankaView,
        rng: random.Random,
        *,
        chance: ChanceMode = "draw",
        narrate: bool = False,
    ) -> WakatankaState:
        """A state `view.seat` cannot tell from the real one.

        Cards a player was seen taking stay with them until a reveal shows one leaving (a lower
        bound kept per player); every other unseen card is dealt at random among the other hands
        and the face-down cards the viewer did not place.
        """
        if view.to_move is None:
            raise ValueError(Refusal(N_("a view can be filled in only when a player is to move")))
        me = view.seat
        known: list[Counter[str]] = [Counter() for _ in range(view.players)]
        for reveal in view.reveals:
            for placer, card in reveal.cards:
                if known[placer][card] > 0:
                    known[placer][card] -= 1
            if reveal.taker is not None:
                known[reveal.taker].update(card for _, card in reveal.cards)
        options = view.options
        pool = Counter(deck(view.players, options.cards, options.animals))
        pool.subtract(view.removed)
        if view.hand is not None:
            pool.subtract(view.hand)
        slots_of: list[list[tuple[int, int]]] = [[] for _ in range(view.players)]
        for name, slots in view.stacks.items():
            for i, slot in enumerate(slots):
                if slot.card is not None:
                    pool[slot.card] -= 1
                else:
                    slots_of[slot.placer].append((TILE_INDEX[name], i))
        others = [s for s in range(view.players) if s != me]
        for s in others:
            known[s] = known[s] & Counter({c: n for c, n in pool.items() if n > 0})
            pool.subtract(known[s])
        rest = list(pool.elements())
        rng.shuffle(rest)
        state = WakatankaState(view.players, view.options, chance, narrate)
        state.history = []
        state.stack.set_order(())
        stacks: list[list[tuple[int, int]]] = [
            [
                (CARD_INDEX[s.card], s.placer) if s.card is not None else (-1, s.placer)
                for s in view.stacks[t]
            ]
            for t in TILES
        ]
        for s in others:
            size = view.hand_sizes[s] + len(slots_of[s])
            own = list(known[s].elements())
            while len(own) < size:
                own.append(rest.pop())
            rng.shuffle(own)
            for t, i in slots_of[s]:
                stacks[t][i] = (CARD_INDEX[own.pop()], s)
            hand = [0] * 7
            for card in own:
                hand[CARD_INDEX[card]] += 1
            state.hands[s] = hand
        if me is not None:
            hand = [0] * 7
            for card in view.hand or ():
                hand[CARD_INDEX[card]] += 1
            state.hands[me] = hand
        if rest:
            raise ValueError(Refusal(N_("the view does not account for every card")))
        state.hand_size = list(view.hand_sizes)
        state.stacks = [tuple(pile) for pile in stacks]
        state.marker = None if view.marker is None else TILE_INDEX[view.marker]
        state.tokens = list(view.tokens)
        state.removed = list(view.removed)
        state.turns = list(view.turns)
        state.reveals = list(view.reveals)
        state.last_play = (
            None if view.last_play is None else (view.last_play[0], TILE_INDEX[view.last_play[1]])
        )
        state.last_card = view.last_card
        state.turn = view.to_move
        state.phase = PLAY
        return state

    def encoding(self, players: int, options: Mapping[str, Any] | None = None) -> Encoding:
        from campfire.games.wakatanka.encoding import encoding

        return encoding(players, options)

    def bot_levels(self) -> dict[str, BotFactory]:
        from campfire.games.wakatanka.bots import EasyBot, ExpertBot, HardBot, MediumBot

        return {
            **super().bot_levels(),
            "easy": EasyBot,
            "medium": MediumBot,
            "hard": HardBot,
            "expert": ExpertBot,
        }

    def tally(self, state: WakatankaState) -> dict[str, int]:
        calls = sum(1 for r in state.reveals if r.action == "call")
        return {
            "rounds": -(-len(state.turns) // state.players),
            "calls": calls,
            "spells": len(state.reveals) - calls,
        }

    @cached_property
    def text(self) -> TextInterface:
        from campfire.games.wakatanka.text import WakatankaText

        return WakatankaText(self)

    def text_in(self, lang: str) -> TextInterface:
        from campfire.games.wakatanka.text import WakatankaText

        return WakatankaText(self, lang) if lang != "en" else self.text


GAME = Wakatanka()
WakatankaState.game = GAME
