"""Waka Tanka, the plain way (RULINGS W1-W6), as a reference for the differential test.

Actions are tuples: ("play", tile, card), ("call",), ("spell", tile), ("accept",). Stacks are
lists of (card, placer), bottom first. After a shuffle (`waiting` holds the sorted deck) comes
the marker's tile (`waiting_marker`), then the deal.
"""

from __future__ import annotations

from typing import Any

ANIMALS = ["coyote", "puma", "bear", "owl", "buffalo", "eagle"]  # the circle, in order
Move = tuple[Any, ...]


def the_deck(players: int) -> list[str]:
    if players == 3:
        each = 4
    elif players == 4:
        each = 5
    else:
        each = 6
    cards = []
    for kind in [*ANIMALS, "mouse"]:
        cards.extend([kind] * each)
    return cards


def beside(tile: str) -> list[str]:
    i = ANIMALS.index(tile)
    return [ANIMALS[(i - 1) % 6], ANIMALS[(i + 1) % 6]]


class RefWakatanka:
    def __init__(self, players: int, first_player: int = 0) -> None:
        self.players = players
        self.first = first_player
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stacks: dict[str, list[tuple[str, int]]] = {tile: [] for tile in ANIMALS}
        self.marker: str | None = None
        self.tokens = [0] * players
        self.removed: list[str] = []
        self.reveals: list[dict[str, Any]] = []
        self.turns: list[tuple[int, Move]] = []
        self.last_play: tuple[int, str] | None = None
        self.last_card = False
        self.turn: int | None = None
        self.over = False
        self.winners: list[int] = []
        self.waiting: list[str] | None = sorted(the_deck(players))
        self.waiting_marker = False
        self.order: list[str] = []
        self.taken: list[str] = []  # every card drawn from the deck, in order

    def shuffle(self, order: list[str]) -> str | None:
        if self.waiting is None:
            return "no shuffle is due"
        if sorted(order) != self.waiting:
            return "not a permutation of the deck"
        self.order = list(order)
        self.waiting = None
        self.waiting_marker = True
        return None

    def place_marker(self, tile: str) -> str | None:
        if not self.waiting_marker:
            return "no marker is due"
        if tile not in ANIMALS:
            return "not a tile"
        self.marker = tile
        self.waiting_marker = False
        seat = self.first
        for card in self.order:
            self.hands[seat].append(card)
            self.taken.append(card)
            seat = (seat + 1) % self.players
        self.turn = self.first
        return None

    def legal(self) -> list[Move]:
        if self.over or self.turn is None:
            return []
        if self.last_card:
            return [("call",), ("accept",)]
        assert self.marker is not None
        moves: list[Move] = []
        for tile in beside(self.marker):
            for card in sorted(set(self.hands[self.turn])):
                moves.append(("play", tile, card))
        if self.last_play is not None:
            moves.append(("call",))
        for tile in ANIMALS:
            if len(self.stacks[tile]) > 0:
                moves.append(("spell", tile))
        return moves

    def win(self, seat: int) -> None:
        self.winners = [seat]
        self.over = True
        self.turn = None

    def act(self, move: Move) -> None:
        seat = self.turn
        assert seat is not None
        self.turns.append((seat, move))
        nxt = (seat + 1) % self.players
        if move[0] == "play":
            tile, card = move[1], move[2]
            self.hands[seat].remove(card)
            self.stacks[tile].append((card, seat))
            self.marker = tile
            self.last_play = (seat, tile)
            self.last_card = len(self.hands[seat]) == 0
            self.turn = nxt
        elif move[0] == "accept":
            assert self.last_play is not None
            self.win(self.last_play[0])
        elif move[0] == "call":
            assert self.last_play is not None
            player, tile = self.last_play
            was_last_card = self.last_card
            cards = self.stacks[tile]
            self.stacks[tile] = []
            top_card = cards[len(cards) - 1][0]
            bluff = top_card != tile
            taker = player if bluff else seat
            for card, _ in cards:
                self.hands[taker].append(card)
            self.reveals.append(
                {"seat": seat, "action": "call", "tile": tile, "cards": cards, "success": bluff}
                | {"taker": taker}
            )
            self.last_play = None
            self.last_card = False
            self.turn = nxt
            if bluff:
                self.tokens[seat] = self.tokens[seat] + 1
                if self.tokens[seat] == 4:
                    self.win(seat)
            elif was_last_card:
                self.win(player)
        else:
            tile = move[1]
            cards = self.stacks[tile]
            self.stacks[tile] = []
            matching = 0
            for card, _ in cards:
                if card == tile:
                    matching = matching + 1
            success = matching >= 2
            if success:
                for card, _ in cards:
                    self.removed.append(card)
            else:
                for card, _ in cards:
                    self.hands[seat].append(card)
            self.reveals.append(
                {"seat": seat, "action": "spell", "tile": tile, "cards": cards, "success": success}
                | {"taker": None if success else seat}
            )
            self.last_play = None
            self.turn = nxt
            if success:
                self.tokens[seat] = self.tokens[seat] + 1
                if self.tokens[seat] == 4:
                    self.win(seat)
