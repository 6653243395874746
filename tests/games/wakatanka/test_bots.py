"""Waka Tanka's bots: card tracking, and what each level does where the right play is clear.
Strength is measured by the arena (`benchmarks/arena.py`), not here."""

from __future__ import annotations

import random

import pytest

from campfire.bots import make_bot
from campfire.games.wakatanka import GAME
from campfire.games.wakatanka.actions import ACCEPT, CALL, Action, Play, Spell
from campfire.games.wakatanka.bots import EasyBot, HardBot, MediumBot, standing, world_weight
from campfire.games.wakatanka.cards import CARD_INDEX, CARDS, TILES, deck, neighbours
from campfire.games.wakatanka.state import WakatankaState
from campfire.games.wakatanka.tracking import at_least, track
from campfire.games.wakatanka.view import WakatankaView
from campfire.kernel import Pick, Shuffle


def dealt(hands: list[list[str]], marker: str) -> WakatankaState:
    """A 4-player game whose deal gives seat s exactly `hands[s]` (cards go round one by one)."""
    order: list[str] = []
    for i in range(max(len(h) for h in hands)):
        order.extend(h[i] for h in hands if i < len(h))
    state = GAME.new_state(4)
    state.apply(Shuffle(tuple(order)))
    state.apply(Pick("marker", marker))
    return state


def hands_with(first: list[str], second: list[str] | None = None) -> list[list[str]]:
    """Hands for 4 players: seat 0 gets `first`, seat 1 `second`, the rest share the deck."""
    rest = list(deck(4))
    for card in first + (second or []):
        rest.remove(card)
    random.Random(0).shuffle(rest)
    sizes = [9, 9, 9, 8]
    hands = [first, second or []]
    for s in range(4):
        if s >= len(hands):
            hands.append([])
        while len(hands[s]) < sizes[s]:
            hands[s].append(rest.pop())
    return hands


def test_every_level_is_registered() -> None:
    assert list(GAME.bot_levels()) == ["random", "easy", "medium", "hard", "expert"]
    state = dealt(hands_with([]), "owl")
    for level in GAME.bot_levels():
        bot = make_bot(GAME, level, 1)
        assert bot.choose(state.view(0), state.legal_actions()) in state.legal_actions()


def test_at_least_is_the_poisson_binomial_tail() -> None:
    assert at_least(2, [0.5, 0.5]) == pytest.approx(0.25)
    assert at_least(2, [0.5, 0.5, 0.5]) == pytest.approx(0.5)
    assert at_least(1, [0.2, 0.5]) == pytest.approx(1 - 0.8 * 0.5)
    assert at_least(0, []) == 1.0 and at_least(3, [1.0, 1.0]) == 0.0


def test_a_play_of_an_animal_whose_cards_are_all_in_my_hand_is_a_sure_bluff() -> None:
    hands = hands_with(["mouse"] * 4 + ["bear"] * 5, ["coyote"] * 5 + ["puma"] * 4)
    state = dealt(hands, "eagle")  # seat 0 must play on buffalo or coyote
    state.apply(Play("coyote", "mouse"), seat=0)
    mine = track(state.view(1))
    assert mine.pool[0] == 0  # no coyote is unaccounted for
    assert mine.bluff_chance(state.view(1)) == 1.0
    assert MediumBot(0).choose(state.view(1), state.legal_actions()) == CALL
    assert HardBot(0).choose(state.view(1), state.legal_actions()) == CALL  # as medium, at first
    assert HardBot(0, trust=None).choose(state.view(1), state.legal_actions()) == CALL  # searching


def test_two_true_cards_of_my_own_make_a_sure_spell() -> None:
    hands = hands_with(["puma", "puma", "mouse", "mouse", "mouse", "owl", "owl", "eagle", "eagle"])
    state = dealt(hands, "coyote")
    state.apply(Play("puma", "puma"), seat=0)
    for seat, tile in ((1, "bear"), (2, "puma"), (3, "bear")):
        state.apply(Play(tile, some_card(state, seat)), seat=seat)
    state.apply(Play("puma", "puma"), seat=0)
    for seat in (1, 2, 3):
        marker = state.marker
        assert marker is not None
        tile = next(TILES[t] for t in neighbours(marker) if TILES[t] != "puma")
        state.apply(Play(tile, some_card(state, seat)), seat=seat)
    view = state.view(0)
    assert track(view).spell_chance(view, "puma") == 1.0
    assert track(view, public=True).spell_chance(view, "puma") < 1.0  # the others cannot know
    assert MediumBot(0).choose(view, state.legal_actions()) == Spell("puma")


def some_card(state: WakatankaState, seat: int) -> str:
    return next(CARDS[c] for c in range(7) if state.hands[seat][c])


def with_one_card(state: WakatankaState, seat: int, card: str) -> None:
    """Leave `seat` holding only `card`; the rest of its hand leaves the game (in view)."""
    for c in range(7):
        keep = 1 if CARDS[c] == card else 0
        state.removed.extend([CARDS[c]] * (state.hands[seat][c] - keep))
        state.hands[seat][c] = keep
    state.hand_size[seat] = 1
    state.removed.sort()


def test_every_bot_but_easy_calls_a_last_card() -> None:
    state = dealt(hands_with(["owl"]), "bear")
    with_one_card(state, 0, "owl")
    state.apply(Play("owl", "owl"), seat=0)
    assert state.last_card and state.legal_actions() == [CALL, ACCEPT]
    view = state.view(1)
    assert MediumBot(0).choose(view, [CALL, ACCEPT]) == CALL
    assert HardBot(0).choose(view, [CALL, ACCEPT]) == CALL
    easy = [EasyBot(s).choose(view, [CALL, ACCEPT]) for s in range(40)]
    assert CALL in easy and set(easy) <= {CALL, ACCEPT}


def test_a_true_last_card_is_played() -> None:
    state = dealt(hands_with(["owl"]), "bear")
    with_one_card(state, 0, "owl")
    for bot in (MediumBot(0), HardBot(0, worlds=4, trust=None)):
        assert bot.choose(state.view(0), state.legal_actions()) == Play("owl", "owl")


def test_medium_plays_a_true_card_when_it_can_and_bluffs_with_a_mouse_when_it_must() -> None:
    hands = hands_with(
        ["owl", "mouse", "mouse", "eagle", "eagle", "coyote", "coyote", "puma", "puma"]
    )
    state = dealt(hands, "bear")  # neighbours: puma and owl
    action = MediumBot(0).choose(state.view(0), state.legal_actions())
    assert isinstance(action, Play) and action.card == action.tile
    hands = hands_with(
        ["mouse", "mouse", "eagle", "eagle", "coyote", "coyote", "bear", "bear", "bear"]
    )
    state = dealt(hands, "bear")  # nothing true for puma or owl
    action = MediumBot(0).choose(state.view(0), state.legal_actions())
    assert action == Play("puma", "mouse") or action == Play("owl", "mouse")


def test_world_weights_doubt_needless_bluffs() -> None:
    state = dealt(hands_with(["mouse"] * 4 + ["bear"] * 5), "eagle")
    state.apply(Play("coyote", "mouse"), seat=0)
    state.apply(Play("puma", some_card(state, 1)), seat=1)
    view = state.view(2)
    mine = track(view)
    puma, mouse = CARD_INDEX["puma"], CARD_INDEX["mouse"]
    bluffed, honest = state.clone(), state.clone()
    # seat 1's card on puma: a mouse while holding a puma (a needless bluff), or a puma
    bluffed.stacks[puma] = [(mouse, 1)]
    bluffed.hands[1][puma] = max(1, bluffed.hands[1][puma])
    honest.stacks[puma] = [(puma, 1)]
    assert world_weight(bluffed, view, mine) < world_weight(honest, view, mine)


def test_hard_worlds_all_fit_the_view() -> None:
    state = GAME.new_state(4)
    rng = random.Random(5)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    bots = [MediumBot(s) for s in range(4)]
    for _ in range(14):
        seat = state.to_move
        if seat is None or state.is_terminal:
            break
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    if state.to_move is None:
        pytest.skip("the game ended before the position wanted")  # pragma: no cover
    view = state.view(state.to_move)
    hard = HardBot(2, worlds=6)
    worlds = hard.deal(view, track(view))
    assert len(worlds) == 6
    assert all(world.view(view.seat) == view for world, _ in worlds)


def test_standing_favours_the_player_nearest_to_winning() -> None:
    assert standing([3, 0, 0, 0], [5, 5, 5, 5], 0, 1.5) > 0.5
    assert standing([0, 0, 0, 0], [1, 8, 8, 8], 0, 1.5) > standing(
        [0, 0, 0, 0], [1, 8, 8, 8], 1, 1.5
    )
    assert sum(standing([1, 2, 0], [4, 6, 3], s, 1.5) for s in range(3)) == pytest.approx(1.0)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_whole_games_end(level: str) -> None:
    levels = [level, "medium", "easy"]
    state = GAME.new_state(3)
    rng = random.Random(11)
    bots: list[object] = [
        HardBot(0, worlds=3, options=3, horizon=3, trust=None)
        if name == "hard"
        else make_bot(GAME, name, 1)
        for name in levels
    ]
    turns = 0
    while not state.is_terminal and turns < 2000:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        action: Action = bots[seat].choose(state.view(seat), state.legal_actions())  # type: ignore[attr-defined]
        state.apply(action)
        turns += 1
    assert state.is_terminal and state.winners()


def test_easy_spells_and_calls_now_and_then() -> None:
    state = GAME.new_state(4)
    rng = random.Random(2)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    kinds = set()
    for seed in range(300):
        bot = EasyBot(seed)
        seat = state.to_move
        if state.is_terminal or seat is None:
            break
        action = bot.choose(state.view(seat), state.legal_actions())
        kinds.add(type(action))
        state.apply(action)
        while state.to_move is None and not state.is_terminal:
            state.apply(state.sample_chance(rng))
    assert Play in kinds and (Spell in kinds or type(CALL) in kinds)


def hard_game(hard: HardBot, others: list[object], seed: int) -> WakatankaView:
    """A whole 4-player game, hard in seat 0; the last view hard was shown."""
    state = GAME.new_state(4)
    rng = random.Random(seed)
    bots = [hard, *others]
    last = None
    while not state.is_terminal:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(seat)
        if seat == 0:
            last = view
        state.apply(bots[seat].choose(view, state.legal_actions()))  # type: ignore[attr-defined]
    assert last is not None
    return last


def test_hard_trusts_its_model_only_where_the_others_fit_it() -> None:
    trusting = HardBot(1, worlds=3, options=3, horizon=3)
    last = hard_game(trusting, [MediumBot(s) for s in range(3)], 5)
    fit = trusting.model_fit(last)
    assert fit is not None and fit >= trusting.trust  # type: ignore[operator]
    wary = HardBot(1, worlds=3, options=3, horizon=3)
    last = hard_game(wary, [EasyBot(s) for s in range(3)], 5)
    fit = wary.model_fit(last)
    assert fit is not None and fit < wary.trust  # type: ignore[operator]
