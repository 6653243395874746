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


def per_kind(players: int) -> int:
    """Cards of each kind in play: 4 with 3 players, 5 with 4, all 6 with 5 or 6."""
    return {3: 4, 4: 5}.get(players, 6)


def deck(players: int) -> tuple[str, ...]:
    """The deck for a player count, sorted."""
    return tuple(card for card in sorted(CARDS) for _ in range(per_kind(players)))


def neighbours(tile: int) -> tuple[int, int]:
    return ((tile - 1) % 6, (tile + 1) % 6)
