"""Card tracking from one seat's view (RULINGS W6): where every card may be, and what follows.

A seat knows its own hand and the cards it placed, every revealed card and who took it, and the
cards out of the game. Cards a player was seen taking stay with them (in hand, or placed face
down since) until a reveal shows them again. Every other card is in the unknown pool, spread over
the others' hands and face-down cards.

From that: the chance that a player holds at least one card of an animal, the chance that a
face-down card is what its tile says (players play a true card when they can, with a few
exceptions), and so the chance that the last card is a bluff and that a spell succeeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from campfire.games.wakatanka.cards import CARD_INDEX, MOUSE, TILE_INDEX, TILES, per_kind
from campfire.games.wakatanka.view import WakatankaView

#: how often a player who could play a true card does (the rest of the time: any card), before
#: their revealed cards say otherwise; PRIOR is how many revealed cards that belief is worth
HONESTY = 0.85
PRIOR = 4.0


@dataclass(frozen=True, slots=True)
class Tracker:
    """What one seat can work out about the cards it cannot see."""

    me: int  # -1: nobody's private cards are counted (the public point of view)
    players: int
    hand: tuple[int, ...]  # my hand, counts by card index
    pool: tuple[int, ...]  # cards whose place I do not know, by card index
    known: tuple[tuple[int, ...], ...]  # cards each player surely holds or placed face down
    reservoir: tuple[int, ...]  # each player's hand size plus their face-down cards
    mine_on: tuple[tuple[int, ...], ...]  # my face-down cards, by tile, as card indexes
    honesty: tuple[float, ...]  # each player's honesty, judged from their revealed cards
    # worked out once: the chances below ask for them many times over
    pool_size: int = field(init=False, repr=False, compare=False)
    _unknown: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pool_size", sum(self.pool))
        unknown = tuple(max(0, r - sum(k)) for r, k in zip(self.reservoir, self.known, strict=True))
        object.__setattr__(self, "_unknown", unknown)

    def unknown_share(self, seat: int) -> int:
        """How many of `seat`'s cards (hand and face down) come from the unknown pool."""
        return self._unknown[seat]

    def holds_one(self, seat: int, card: int) -> float:
        """P(`seat` has at least one `card` among its hand and face-down cards)."""
        if seat == self.me:
            mine = self.hand[card] + sum(row.count(card) for row in self.mine_on)
            return 1.0 if mine else 0.0
        if self.known[seat][card]:
            return 1.0
        size = self.pool_size
        draw = min(self.unknown_share(seat), size)
        missing = size - self.pool[card]
        if draw > missing:
            return 1.0
        return 1.0 - comb(missing, draw) / comb(size, draw) if size else 0.0

    def expected(self, seat: int, card: int) -> float:
        """The expected number of `card` among `seat`'s hand and face-down cards."""
        size = self.pool_size
        share = self.pool[card] / size if size else 0.0
        return self.known[seat][card] + self.unknown_share(seat) * share

    def true_chance(self, placer: int, tile: int) -> float:
        """P(a face-down card `placer` put on `tile` is the tile's animal)."""
        if self.reservoir[placer] == 0:
            return 0.0
        could = self.holds_one(placer, tile)
        any_card = min(1.0, self.expected(placer, tile) / self.reservoir[placer])
        honesty = self.honesty[placer]
        return honesty * could + (1 - honesty) * any_card

    def bluff_chance(self, view: WakatankaView) -> float:
        """P(the card just played is a bluff), from this seat's point of view."""
        if view.last_play is None:
            return 0.0
        placer, name = view.last_play
        slot = view.stacks[name][-1]
        if placer == self.me and slot.card is not None:
            return 0.0 if slot.card == name else 1.0
        return 1.0 - self.true_chance(placer, TILE_INDEX[name])

    def spell_chance(self, view: WakatankaView, name: str) -> float:
        """P(a spell on tile `name` finds at least two of its animal)."""
        tile = TILE_INDEX[name]
        sure = 0
        chances = []
        for slot in view.stacks[name]:
            if slot.card is not None and slot.placer == self.me:
                sure += slot.card == name
            else:
                chances.append(self.true_chance(slot.placer, tile))
        return at_least(2 - sure, chances)


def at_least(k: int, chances: list[float]) -> float:
    """P(at least k of independent events with these chances happen)."""
    if k <= 0:
        return 1.0
    if k > len(chances):
        return 0.0
    # dist[j] = P(exactly j so far) for j < k; dist[k] = P(k or more)
    dist = [1.0] + [0.0] * k
    for p in chances:
        new = [0.0] * (k + 1)
        for j in range(k):
            new[j] += dist[j] * (1 - p)
            new[j + 1] += dist[j] * p
        new[k] += dist[k]
        dist = new
    return dist[k]


def track(view: WakatankaView, public: bool = False) -> Tracker:
    """Everything `view.seat` can work out about the cards it cannot see.

    `public`: what everyone else can work out, leaving this seat's own hand and face-down cards
    out (how the others judge this seat's plays). A spectator's view is always public.
    """
    me = -1 if public or view.seat is None else view.seat
    return _tracker(view, me, _Counts.of(view))


def track_pair(view: WakatankaView) -> tuple[Tracker, Tracker]:
    """`track(view)` and `track(view, public=True)`, counting the public record once (bots
    want both at every decision, and their playouts at every turn)."""
    counts = _Counts.of(view)
    me = -1 if view.seat is None else view.seat
    return _tracker(view, me, counts), _tracker(view, -1, counts)


@dataclass(frozen=True, slots=True)
class _Counts:
    """What the public record says, the same for every seat: the cards out of the game, who
    was seen taking what, each player's face-down cards and revealed honesty."""

    pool: tuple[int, ...]  # by card index, less the cards out of the game
    taken: tuple[tuple[int, ...], ...]  # by seat: cards seen taken and not shown again since
    facedown: tuple[int, ...]
    honesty: tuple[float, ...]

    @classmethod
    def of(cls, view: WakatankaView) -> _Counts:
        n = view.players
        pool = [per_kind(n, view.options.cards)] * 7
        for animal in TILES[view.options.animals :]:  # a research variant's missing animals
            pool[CARD_INDEX[animal]] = 0
        for name in view.removed:
            pool[CARD_INDEX[name]] -= 1
        facedown = [0] * n
        for name in TILES:
            for slot in view.stacks[name]:
                facedown[slot.placer] += 1
        known = [[0] * 7 for _ in range(n)]
        shown = [0] * n
        true = [0] * n
        for reveal in view.reveals:
            for placer, name in reveal.cards:
                shown[placer] += 1
                true[placer] += name == reveal.tile
                card = CARD_INDEX[name]
                if known[placer][card] > 0:
                    known[placer][card] -= 1
            if reveal.taker is not None:
                for _, name in reveal.cards:
                    known[reveal.taker][CARD_INDEX[name]] += 1
        return cls(
            tuple(pool),
            tuple(tuple(row) for row in known),
            tuple(facedown),
            tuple((PRIOR * HONESTY + true[s]) / (PRIOR + shown[s]) for s in range(n)),
        )


def _tracker(view: WakatankaView, me: int, counts: _Counts) -> Tracker:
    n = view.players
    pool = list(counts.pool)
    hand = [0] * 7
    if me >= 0 and view.hand is not None:
        for name in view.hand:
            hand[CARD_INDEX[name]] += 1
    mine_on: list[tuple[int, ...]] = []
    for name in TILES:
        row = []
        if me >= 0:
            for slot in view.stacks[name]:
                if slot.card is not None:
                    row.append(CARD_INDEX[slot.card])
                    pool[row[-1]] -= 1
        mine_on.append(tuple(row))
    known = [list(row) for row in counts.taken]
    if me >= 0:
        known[me] = [0] * 7
        for c in range(7):
            pool[c] -= hand[c]
    for seat in range(n):
        if seat == me or not any(known[seat]):
            continue  # nothing of theirs is known: the pool keeps every card
        for c in range(7):
            keep = min(known[seat][c], max(0, pool[c]))
            known[seat][c] = keep
            pool[c] -= keep
    pool = [max(0, x) for x in pool]
    reservoir = [view.hand_sizes[s] + counts.facedown[s] for s in range(n)]
    return Tracker(
        me,
        n,
        tuple(hand),
        tuple(pool),
        tuple(tuple(row) for row in known),
        tuple(reservoir),
        tuple(mine_on),
        counts.honesty,
    )


__all__ = ["HONESTY", "MOUSE", "Tracker", "at_least", "track", "track_pair"]
