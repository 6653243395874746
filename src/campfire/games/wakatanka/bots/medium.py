"""Medium: card tracking, then the option with the best expected gain (`Style`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from campfire.games.wakatanka.actions import CALL, Action, Play, Spell
from campfire.games.wakatanka.bots.legal import pick_legal
from campfire.games.wakatanka.cards import CARD_INDEX, TILE_INDEX, TILES, neighbours
from campfire.games.wakatanka.models import called_chance
from campfire.games.wakatanka.tracking import Tracker, at_least, track_pair
from campfire.games.wakatanka.view import Slot, WakatankaView


@dataclass(frozen=True, slots=True)
class Style:
    """What medium weighs: every option is scored in cards (a card less in hand is worth 1)."""

    token: float = 3.0  # a token of mine, in cards
    rival_token: float = 1.5  # a token for someone else
    call_at: float = 0.5  # the others call a card they think a bluff this likely
    spell_at: float = 0.55  # the others cast a spell that works this likely
    keep_animal: float = 0.3  # the worth of keeping an animal card rather than a mouse
    honesty: float = 0.8  # how likely the others think a card of mine is true


MEDIUM = Style()


def scored_options(
    view: WakatankaView,
    mine: Tracker,
    public: Tracker,
    style: Style = MEDIUM,
    next_call_rate: float | None = None,
) -> list[tuple[float, Action]]:
    """Every sensible option with the gain medium expects from it.

    `next_call_rate`: how often the next player (the one who may call this seat's play) calls
    when they can, as their record shows (None: as medium assumes everyone does).
    """
    me = view.seat
    assert me is not None and view.marker is not None
    if view.last_card:
        return [(0.0, CALL)]  # accepting hands the game over; a call may not
    out: list[tuple[float, Action]] = []
    if view.last_play is not None:
        _, name = view.last_play
        bluff = mine.bluff_chance(view)
        size = len(view.stacks[name])
        out.append((bluff * style.token - (1 - bluff) * size, CALL))
    for name in TILES:
        size = len(view.stacks[name])
        if size:
            works = mine.spell_chance(view, name)
            out.append((works * style.token - (1 - works) * size, Spell(name)))
    hand = view.hand or ()
    kinds = sorted(set(hand), key=CARD_INDEX.__getitem__)
    last = len(hand) == 1
    for tile in neighbours(TILE_INDEX[view.marker], view.options.animals):
        name = TILES[tile]
        stack = view.stacks[name]
        for card in kinds:
            if card == name:
                gain = 100.0 if last else 1.0 - _spell_risk(stack, tile, me, mine, public, style)
                gain -= style.keep_animal * 0.5
                if next_call_rate is not None and not last:
                    # a loose caller calls true cards too, and takes the stack for it
                    wrong = max(0.0, called_chance(0.1, next_call_rate) - 0.1)
                    gain += wrong * 0.3 * (len(stack) + 1)
            else:
                doubted = 1 - public.true_chance(me, tile) >= style.call_at
                called = 1.0 if last or doubted else 0.1
                if next_call_rate is not None and not last:
                    called = called_chance(called, next_call_rate)
                gain = 1.0 - called * (len(stack) + 1 + style.rival_token)
                if card != "mouse":
                    gain -= style.keep_animal
            out.append((gain, Play(name, card)))
    return out


def _spell_risk(
    stack: Sequence[Slot], tile: int, me: int, mine: Tracker, public: Tracker, style: Style
) -> float:
    """What a true card on `stack` may cost: the next player's spell on it, if it works."""
    looks = [style.honesty if s.placer == me else public.true_chance(s.placer, tile) for s in stack]
    if at_least(2, [*looks, style.honesty]) < style.spell_at:
        return 0.0
    sure = 1 + sum(1 for s in stack if s.card == TILES[tile])
    unsure = [mine.true_chance(s.placer, tile) for s in stack if s.card is None]
    return at_least(2 - sure, unsure) * style.rival_token


def medium_action(view: WakatankaView, style: Style = MEDIUM) -> Action:
    options = scored_options(view, *track_pair(view), style)
    return max(options, key=lambda item: item[0])[1]


class MediumBot:
    """Card tracking, then the option with the best expected gain (see `Style`)."""

    def __init__(self, seed: int | None = None, style: Style = MEDIUM) -> None:
        self.rng = random.Random(seed)
        self.style = style

    def choose(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        return pick_legal(medium_action(view, self.style), legal)
