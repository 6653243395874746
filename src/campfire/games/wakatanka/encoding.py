"""Waka Tanka for learning libraries: numbered actions and a fixed-size view vector.

Actions: ``7 * tile + card``: play `card` on `tile` (0 … 41, tiles and cards in `TILES` and
`CARDS` order), ``42``: call, ``43 + tile``: spell on `tile`, ``49``: accept.

Chance outcomes (draw mode): the starting marker's tile (a pick: its position in `TILES`) and each
dealt card (a draw: its position in `CARDS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.games.wakatanka.actions import ACCEPT, CALL, PLAYS, SPELLS, Accept, Call, Play, Spell
from campfire.games.wakatanka.cards import (
    CARD_INDEX,
    CARDS,
    TILE_INDEX,
    TILES,
    TOKENS_TO_WIN,
    deck,
    per_kind,
)
from campfire.games.wakatanka.options import WakatankaOptions
from campfire.games.wakatanka.view import Reveal, WakatankaView
from campfire.kernel.chance import ChanceOutcome, ChanceSpec, Draw, Pick
from campfire.kernel.errors import OptionError

CALL_INDEX = 42
SPELL_BASE = 43
ACCEPT_INDEX = 49
NUM_ACTIONS = 50


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
        self._per_kind = per_kind(players)
        self._known_cache: tuple[int, Reveal | None, list[list[int]]] = (0, None, [])
        self._deck_size = len(deck(players))
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
                raise ValueError(f"{action!r} names an unknown tile or card")
            return 7 * tile + card
        if kind is Spell:
            tile = TILE_INDEX.get(action.tile)
            if tile is None:
                raise ValueError(f"{action.tile!r} is not a tile (tiles: {', '.join(TILES)})")
            return SPELL_BASE + tile
        raise ValueError(f"{action!r} is not a Waka Tanka action")

    def action(self, index: int) -> Play | Call | Spell | Accept:
        if not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action {index!r} is not in 0..{NUM_ACTIONS - 1}")
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

    def mark_legal(self, legal: Sequence[Any], mask: Any) -> None:
        mask[self.legal_indices(legal)] = 1

    # --- chance ----------------------------------------------------------------------------
    def chance_index(self, outcome: ChanceOutcome) -> int:
        if isinstance(outcome, Draw) and outcome.item in CARD_INDEX:
            return CARD_INDEX[outcome.item]
        if isinstance(outcome, Pick) and outcome.kind == "marker" and outcome.value in TILE_INDEX:
            return TILE_INDEX[outcome.value]
        raise ValueError(f"{outcome!r} is not a Waka Tanka draw or marker")

    def chance_outcome(self, index: int, spec: ChanceSpec) -> ChanceOutcome:
        names = CARDS if spec.kind == "draw" else TILES if spec.kind == "pick" else ()
        if not names:
            raise ValueError(f"a {spec.kind} has no numbered outcomes in Waka Tanka")
        if not isinstance(index, int) or not 0 <= index < len(names):
            raise ValueError(f"chance outcome {index!r} is not in 0..{len(names) - 1}")
        if spec.kind == "draw":
            return Draw(CARDS[index])
        return Pick(spec.label, TILES[index])

    # --- observation -----------------------------------------------------------------------
    def observe(self, view: WakatankaView) -> list[float]:
        n = self.players
        per_card = 1.0 / self._deck_size  # shares of the whole deck
        per_kind = 1.0 / self._per_kind  # shares of the cards of one kind
        card_index = CARD_INDEX
        out = [0.0] * self.observation_size
        if view.seat is not None:
            out[view.seat] = 1.0
        if view.to_move is not None:
            out[n + view.to_move] = 1.0
        at = 2 * n
        if view.marker is not None:
            out[at + TILE_INDEX[view.marker]] = 1.0
        at += 6
        for card in view.hand or ():
            out[at + card_index[card]] += per_kind
        at += 7
        out[at : at + n] = [size * per_card for size in view.hand_sizes]
        at += n
        out[at : at + n] = [tokens / TOKENS_TO_WIN for tokens in view.tokens]  # 4 ends the game
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
                    out[base + 1 + card_index[slot.card]] += per_kind
                out[base + 8 + slot.placer] += per_card
        at += 6 * width
        for card in view.removed:
            out[at + card_index[card]] += per_kind
        at += 7
        if view.last_play is not None:
            seat, tile = view.last_play
            out[at + seat] = 1.0
            out[at + n + TILE_INDEX[tile]] = 1.0
        at += n + 6
        out[at] = 1.0 if view.last_card else 0.0
        at += 1
        known = self._known(view.reveals)
        out[at : at + 7 * n] = [count * per_kind for held in known for count in held]
        return out

    def _known(self, reveals: Sequence[Reveal]) -> list[list[int]]:
        """The cards each seat was seen to take and not yet seen to give up, by kind (a lower
        bound of its hand), from the public reveals.

        Reveals only ever grow, and a `Reveal` object sits at one index in one game and its
        clones, so the counts of the last reveals seen are reused when the new view continues
        them (the usual case: the views of one game, one after another)."""
        count, last, cached = self._known_cache
        if count and len(reveals) >= count and reveals[count - 1] is last:
            if len(reveals) == count:
                return cached
            known = [row.copy() for row in cached]
        else:
            known = [[0] * 7 for _ in range(self.players)]
            count = 0
        for reveal in reveals[count:]:
            for placer, card in reveal.cards:
                held = known[placer]
                index = CARD_INDEX[card]
                if held[index]:
                    held[index] -= 1
            if reveal.taker is not None:
                held = known[reveal.taker]
                for _, card in reveal.cards:
                    held[CARD_INDEX[card]] += 1
        if reveals:
            self._known_cache = (len(reveals), reveals[-1], known)
        return known


def encoding(players: int, options: Mapping[str, Any] | None = None) -> WakatankaEncoding:
    from campfire.games.wakatanka.game import GAME

    if not isinstance(players, int) or not GAME.min_players <= players <= GAME.max_players:
        raise OptionError(f"Waka Tanka takes 3 to 6 players, not {players!r}")
    return WakatankaEncoding(players, GAME.options(players, options))
