"""Waka Tanka for learning libraries: numbered actions and a fixed-size view vector.

Actions: ``7 * tile + card``: play `card` on `tile` (0 … 41, tiles and cards in `TILES` and
`CARDS` order), ``42``: call, ``43 + tile``: spell on `tile`, ``49``: accept.

Chance outcomes (draw mode): the starting marker's tile (a pick: its position in `TILES`) and each
dealt card (a draw: its position in `CARDS`).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any

from campfire.games.wakatanka.actions import ACCEPT, CALL, PLAYS, SPELLS, Accept, Call, Play, Spell
from campfire.games.wakatanka.cards import (
    CARD_INDEX,
    CARDS,
    TILE_INDEX,
    TILES,
    deck,
    neighbours,
    per_kind,
)
from campfire.games.wakatanka.options import WakatankaOptions
from campfire.games.wakatanka.state import PLAY, WakatankaState
from campfire.games.wakatanka.view import Reveal, WakatankaView
from campfire.i18n import N_
from campfire.kernel.chance import ChanceOutcome, ChanceSpec, Draw, Pick
from campfire.kernel.errors import Refusal

CALL_INDEX = 42
SPELL_BASE = 43
ACCEPT_INDEX = 49
NUM_ACTIONS = 50
#: the numbers of the plays on each tile, in card order, and of the spells
_PLAY_NUMBERS = tuple(tuple(range(7 * tile, 7 * tile + 7)) for tile in range(len(TILES)))
_SPELL_NUMBERS = tuple(range(SPELL_BASE, SPELL_BASE + len(TILES)))


class WakatankaEncoding:
    """Waka Tanka's action numbers and observation for `players` seats.

    The observation (all values between 0 and 1), in `sections` order: the viewer's seat and the
    seat to move (one-hot), the marker's tile (one-hot), the viewer's hand (count of each card
    over the cards of a kind), every hand's size and every seat's tokens, then for each tile the
    stack's size, the viewer's own face-down cards there by kind and the face-down cards there by
    placer; the cards out of the game by kind; the last play (its seat and tile, one-hot) and
    whether it was a last card; and the cards each seat was seen to take and has not been seen to
    give up since (by kind).
    """

    num_actions = NUM_ACTIONS
    num_chance_outcomes = len(CARDS)

    def __init__(self, players: int, options: WakatankaOptions) -> None:
        self.players = players
        self.options = options
        n = players
        self.sections: tuple[tuple[str, int], ...] = (
            ("seat", n),
            ("to_move", n),
            ("marker", 6),
            ("hand", 7),
            ("hand_sizes", n),
            ("tokens", n),
            ("stacks", 6 * (1 + 7 + n)),
            ("removed", 7),
            ("last_play", n + 6),
            ("last_card", 1),
            ("known", n * 7),
        )
        self.observation_size = sum(size for _, size in self.sections)
        cards = deck(players, options.cards, options.animals)
        self._deck_share = 1.0 / len(cards)  # one card, as a share of the whole deck
        self._kind_share = 1.0 / per_kind(players, options.cards)  # one card, of its kind
        self._tokens = options.tokens_to_win
        self._animals = options.animals
        # the play numbers on the marker's two neighbouring tiles, lower tile first, by marker
        self._sides = [
            tuple(_PLAY_NUMBERS[side] for side in sorted(neighbours(tile, options.animals)))
            for tile in range(options.animals)
        ]
        self._blank = array("f", [0.0]) * self.observation_size
        # `_known`'s reveals last seen (how many, the last one) and its counts and shares
        self._known_cache: tuple[int, Reveal | None, list[int], array[float]] = (
            0,
            None,
            [0] * (7 * players),
            self._blank[: 7 * players],
        )
        # Legal actions are the canonical objects of the action tables: look them up by identity.
        by_id = {id(play): 7 * t + c for t, row in enumerate(PLAYS) for c, play in enumerate(row)}
        by_id.update({id(spell): SPELL_BASE + t for t, spell in enumerate(SPELLS)})
        by_id[id(CALL)] = CALL_INDEX
        by_id[id(ACCEPT)] = ACCEPT_INDEX
        self._by_id = by_id

    # --- actions ---------------------------------------------------------------------------
    def action_index(self, action: Any) -> int:
        known = self._by_id.get(id(action))
        if known is not None:
            return known
        kind = type(action)
        if kind is Call:
            return CALL_INDEX
        if kind is Accept:
            return ACCEPT_INDEX
        if kind is Play:
            tile, card = TILE_INDEX.get(action.tile), CARD_INDEX.get(action.card)
            if tile is None or card is None:
                raise ValueError(
                    Refusal(N_("{action} names an unknown tile or card"), action=repr(action))
                )
            return 7 * tile + card
        if kind is Spell:
            tile = TILE_INDEX.get(action.tile)
            if tile is None:
                raise ValueError(
                    Refusal(
                        N_("{tile} is not a tile (tiles: {tiles})"),
                        tile=repr(action.tile),
                        tiles=", ".join(TILES),
                    )
                )
            return SPELL_BASE + tile
        raise ValueError(
            Refusal(N_("{action} is not a {game} action"), action=repr(action), game="Waka Tanka")
        )

    def action(self, index: int) -> Play | Call | Spell | Accept:
        if not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
            raise ValueError(
                Refusal(
                    N_("action {index} is not in 0..{last}"),
                    index=repr(index),
                    last=NUM_ACTIONS - 1,
                )
            )
        if index < CALL_INDEX:
            return PLAYS[index // 7][index % 7]
        if index == CALL_INDEX:
            return CALL
        if index == ACCEPT_INDEX:
            return ACCEPT
        return SPELLS[index - SPELL_BASE]

    def legal_indices(self, legal: Sequence[Any]) -> list[int]:
        try:
            return list(map(self._by_id.__getitem__, map(id, legal)))
        except KeyError:  # an action that is not one of the canonical objects
            return [self.action_index(action) for action in legal]

    def legal_numbers(self, state: WakatankaState) -> list[int]:
        """`sorted(legal_indices(state.legal_actions()))` read straight off the state (the
        same rule as `WakatankaState.legal_actions`, with numbers for actions): OpenSpiel asks
        for the legal numbers at every turn, and this spares making the actions to number them."""
        if state.phase != PLAY:
            return []
        if state.last_card:
            return [CALL_INDEX, ACCEPT_INDEX]
        # in play, `turn` and `marker` are set (no asserts: this runs at every OpenSpiel turn)
        hand = state.hands[state.turn]  # type: ignore[index]
        left, right = self._sides[state.marker]  # type: ignore[index]
        numbers = [*compress(left, hand), *compress(right, hand)]
        if state.last_play is not None:
            numbers.append(CALL_INDEX)
        numbers += compress(_SPELL_NUMBERS, state.stacks)
        return numbers

    def legal_mask(self, legal: Sequence[Any]) -> bytearray:
        mask = bytearray(NUM_ACTIONS)
        by_id = self._by_id
        try:
            for action in legal:
                mask[by_id[id(action)]] = 1
        except KeyError:  # an action that is not one of the canonical objects
            for action in legal:
                mask[self.action_index(action)] = 1
        return mask

    # --- chance ----------------------------------------------------------------------------
    def chance_index(self, outcome: ChanceOutcome) -> int:
        if isinstance(outcome, Draw) and outcome.item in CARD_INDEX:
            return CARD_INDEX[outcome.item]
        if isinstance(outcome, Pick) and outcome.kind == "marker" and outcome.value in TILE_INDEX:
            return TILE_INDEX[outcome.value]
        raise ValueError(
            Refusal(
                N_("{outcome} is not a {game} draw or marker"),
                outcome=repr(outcome),
                game="Waka Tanka",
            )
        )

    def chance_outcome(self, index: int, spec: ChanceSpec) -> ChanceOutcome:
        names = CARDS if spec.kind == "draw" else TILES if spec.kind == "pick" else ()
        if not names:
            raise ValueError(
                Refusal(
                    N_("a {kind} has no numbered outcomes in {game}"),
                    kind=spec.kind,
                    game="Waka Tanka",
                )
            )
        if not isinstance(index, int) or not 0 <= index < len(names):
            raise ValueError(
                Refusal(
                    N_("chance outcome {index} is not in 0..{last}"),
                    index=repr(index),
                    last=len(names) - 1,
                )
            )
        if spec.kind == "draw":
            return Draw(CARDS[index])
        return Pick(spec.label, TILES[index])

    # --- observation -----------------------------------------------------------------------
    def observe(self, view: WakatankaView) -> array[float]:
        n = self.players
        per_card = self._deck_share
        per_kind = self._kind_share
        card_index = CARD_INDEX
        out = self._blank[:]
        # Cards are counted, and a count written times its share: summing shares in float32
        # would round differently.
        counts = [0] * self.observation_size
        if view.seat is not None:
            out[view.seat] = 1.0
        if view.to_move is not None:
            out[n + view.to_move] = 1.0
        at = 2 * n
        if view.marker is not None:
            out[at + TILE_INDEX[view.marker]] = 1.0
        at += 6
        for card in view.hand or ():
            i = at + card_index[card]
            counts[i] += 1
            out[i] = counts[i] * per_kind
        at += 7
        for seat, size in enumerate(view.hand_sizes):
            out[at + seat] = size * per_card
        at += n
        for seat, tokens in enumerate(view.tokens):
            out[at + seat] = tokens / self._tokens  # 4 ends the game
        at += n
        width = 1 + 7 + n
        stacks = view.stacks
        for t, tile in enumerate(TILES):
            slots = stacks[tile]
            if not slots:
                continue
            base = at + t * width
            out[base] = len(slots) * per_card
            for slot in slots:
                if slot.card is not None:
                    i = base + 1 + card_index[slot.card]
                    counts[i] += 1
                    out[i] = counts[i] * per_kind
                i = base + 8 + slot.placer
                counts[i] += 1
                out[i] = counts[i] * per_card
        at += 6 * width
        for card in view.removed:
            i = at + card_index[card]
            counts[i] += 1
            out[i] = counts[i] * per_kind
        at += 7
        if view.last_play is not None:
            seat, tile = view.last_play
            out[at + seat] = 1.0
            out[at + n + TILE_INDEX[tile]] = 1.0
        at += n + 6
        out[at] = 1.0 if view.last_card else 0.0
        at += 1
        out[at : at + 7 * n] = self._known(view.reveals)
        return out

    def _known(self, reveals: Sequence[Reveal]) -> array[float]:
        """The cards each seat was seen to take and not yet seen to give up, by kind (a lower
        bound of its hand), from the public reveals, as shares of a kind.

        Reveals only ever grow, and a `Reveal` object sits at one index in one game and its
        clones, so the counts of the last reveals seen are updated in place when the new view
        continues them (the usual case: the views of one game, one after another). The caller
        copies the result."""
        count, last, known, shares = self._known_cache
        if count > len(reveals) or (count and reveals[count - 1] is not last):
            count, known, shares = 0, [0] * len(known), self._blank[: len(known)]
        if count == len(reveals):
            return shares
        per_kind = self._kind_share
        for reveal in reveals[count:]:
            for placer, card in reveal.cards:
                i = 7 * placer + CARD_INDEX[card]
                if known[i]:
                    known[i] -= 1
                    shares[i] = known[i] * per_kind
            if reveal.taker is not None:
                for _, card in reveal.cards:
                    i = 7 * reveal.taker + CARD_INDEX[card]
                    known[i] += 1
                    shares[i] = known[i] * per_kind
        self._known_cache = (len(reveals), reveals[-1], known, shares)
        return shares


def encoding(players: int, options: Mapping[str, Any] | None = None) -> WakatankaEncoding:
    from campfire.games.wakatanka.game import GAME

    GAME.seated(players)
    return WakatankaEncoding(players, GAME.options(players, options))
