"""The cards and the circle of tiles (RULINGS W1, W2)."""

from __future__ import annotations

#: the six tiles in their circle: eagle and coyote are neighbours
TILES: tuple[str, ...] = ("coyote", "puma", "bear", "owl", "buffalo", "eagle")
#: card kinds: the six animals and the mouse, which no tile wants
CARDS: tuple[str, ...] = (*TILES, "mouse")
TILE_INDEX = {tile: i for i, tile in enumerate(TILES)}
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}
MOUSE = 6
TOKENS_TO_WIN = 4


def per_kind(players: int, cards: int | None = None) -> int:
    """Cards of each kind in play: 4 with 3 players, 5 with 4, all 6 with 5 or 6 (`cards`: a
    research variant's own number)."""
    if cards is not None:
        return cards
    return {3: 4, 4: 5}.get(players, 6)


def deck(players: int, cards: int | None = None, animals: int = 6) -> tuple[str, ...]:
    """The deck for a player count, sorted (a research variant: `cards` of each kind, the first
    `animals` tiles' animals and the mouse)."""
    kinds = sorted((*TILES[:animals], "mouse"))
    return tuple(card for card in kinds for _ in range(per_kind(players, cards)))


def neighbours(tile: int, animals: int = 6) -> tuple[int, int]:
    """The two tiles next to `tile` in the circle of the first `animals` tiles."""
    return ((tile - 1) % animals, (tile + 1) % animals)
