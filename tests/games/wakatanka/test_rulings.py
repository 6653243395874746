"""One test (or a few) per Waka Tanka ruling, W1 to W6, on positions built on purpose."""

from __future__ import annotations

from collections import Counter

import pytest

from campfire.games.wakatanka import (
    ACCEPT,
    CALL,
    GAME,
    TILES,
    Play,
    Spell,
    WakatankaState,
    deck,
)
from campfire.kernel import IllegalAction, OptionError, Pick, Shuffle
from tests.builders import deal_order, split_deck, wakatanka


def hand(state: WakatankaState, seat: int) -> Counter[str]:
    return Counter(state.view(seat).hand or ())


# --- W1 players and cards ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "size", "each"), [(3, 28, 4), (4, 35, 5), (5, 42, 6), (6, 42, 6)]
)
def test_w1_deck_per_player_count(players: int, size: int, each: int) -> None:
    cards = deck(players)
    assert len(cards) == size
    assert Counter(cards) == Counter({c: each for c in [*TILES, "mouse"]})
    spec = GAME.new_state(players).chance_due()
    assert spec is not None and Counter(spec.items) == Counter(cards)


@pytest.mark.parametrize("players", [2, 7, 0])
def test_w1_three_to_six_players(players: int) -> None:
    with pytest.raises(OptionError, match="3 to 6 players"):
        GAME.new_state(players)


# --- W2 layout --------------------------------------------------------------------------------
def test_w2_tiles_in_their_circle() -> None:
    assert TILES == ("coyote", "puma", "bear", "owl", "buffalo", "eagle")


def test_w2_marker_is_a_chance_outcome_right_after_the_shuffle() -> None:
    state = GAME.new_state(4)
    state.apply(Shuffle(tuple(deck(4))))
    spec = state.chance_due()
    assert spec is not None and spec.kind == "pick" and spec.label == "marker"
    assert sorted(spec.items) == sorted(TILES)
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 6)] * 6
    with pytest.raises(IllegalAction, match="not a possible marker"):
        state.apply(Pick("marker", "wolf"))
    state.apply(Pick("marker", "owl"))
    assert state.view(None).marker == "owl"


@pytest.mark.parametrize(
    ("marker", "neighbours"),
    [("eagle", {"buffalo", "coyote"}), ("coyote", {"eagle", "puma"}), ("owl", {"bear", "buffalo"})],
)
def test_w2_eagle_and_coyote_are_neighbours(marker: str, neighbours: set[str]) -> None:
    state = wakatanka(split_deck(4, []), marker=marker)
    tiles = {a.tile for a in state.legal_actions() if isinstance(a, Play)}
    assert tiles == neighbours


# --- W3 deal ----------------------------------------------------------------------------------
def test_w3_dealt_one_at_a_time_from_the_first_player_clockwise() -> None:
    state = GAME.new_state(4)
    order = tuple(deck(4))  # sorted: bear*5, buffalo*5, coyote*5, ...
    state.apply(Shuffle(order))
    state.apply(Pick("marker", "owl"))
    for seat in range(4):
        assert Counter(state.view(seat).hand or ()) == Counter(order[seat::4])
    assert state.view(0).hand_sizes == (9, 9, 9, 8)
    assert state.to_move == 0


def test_w3_first_player_option_deals_first_and_plays_first() -> None:
    state = GAME.new_state(4, {"first_player": 2})
    order = tuple(deck(4))
    state.apply(Shuffle(order))
    state.apply(Pick("marker", "owl"))
    assert Counter(state.view(2).hand or ()) == Counter(order[0::4])
    assert state.view(0).hand_sizes == (9, 8, 9, 9)
    assert state.to_move == 2


def test_w3_first_player_must_be_a_seat() -> None:
    with pytest.raises(OptionError, match="no seat 5"):
        GAME.new_state(5, {"first_player": 5})


# --- W4 a turn --------------------------------------------------------------------------------
def test_w4_play_moves_the_marker_to_a_neighbour_and_places_the_card() -> None:
    state = wakatanka(split_deck(4, [["mouse"]]), marker="owl")
    state.apply(Play("bear", "mouse"))
    view = state.view(0)
    assert view.marker == "bear"
    assert [(s.placer, s.card) for s in view.stacks["bear"]] == [(0, "mouse")]
    assert [(s.placer, s.card) for s in state.view(1).stacks["bear"]] == [(0, None)]
    assert view.hand_sizes[0] == 8 and state.to_move == 1


def test_w4_the_marker_must_move_to_a_neighbouring_tile() -> None:
    state = wakatanka(split_deck(4, [["owl", "mouse"]]), marker="owl")
    with pytest.raises(IllegalAction, match="moves to bear or buffalo"):
        state.apply(Play("owl", "owl"))
    with pytest.raises(IllegalAction, match="moves to bear or buffalo"):
        state.apply(Play("eagle", "owl"))


def test_w4_only_cards_in_hand() -> None:
    hands = split_deck(4, [["owl"] * 5])
    state = wakatanka(hands, marker="owl")
    missing = next(
        c for c in ["coyote", "puma", "bear", "buffalo", "eagle", "mouse"] if c not in hands[0]
    )
    with pytest.raises(IllegalAction, match=f"no {missing} in hand"):
        state.apply(Play("bear", missing))
    with pytest.raises(IllegalAction, match="not a card"):
        state.apply(Play("bear", "wolf"))


def test_w4_call_only_right_after_a_play() -> None:
    state = wakatanka(split_deck(4, [["owl"]]), marker="coyote")
    assert CALL not in state.legal_actions()
    with pytest.raises(IllegalAction, match="right after a play"):
        state.apply(CALL)


def test_w4_call_on_a_true_card_the_caller_takes_the_stack() -> None:
    state = wakatanka(split_deck(4, [["puma"], ["mouse"], ["puma"]]), marker="coyote")
    state.apply(Play("puma", "puma"))  # seat 0, true
    state.apply(Play("coyote", "mouse"))  # seat 1 bluffs on coyote
    state.apply(Play("puma", "puma"))  # seat 2, true: puma's stack is [puma, puma]
    before = state.view(None).hand_sizes
    state.apply(CALL)  # seat 3 calls seat 2's card
    reveal = state.reveals[-1]
    assert reveal.tile == "puma" and reveal.taker == 3 and reveal.success is False
    assert reveal.cards == ((0, "puma"), (2, "puma"))
    assert state.view(None).hand_sizes[3] == before[3] + 2
    assert state.tokens == [0, 0, 0, 0]
    assert state.view(None).stacks["puma"] == ()
    assert state.view(None).marker == "puma" and state.to_move == 0


def test_w4_call_on_a_bluff_the_player_takes_the_stack_and_the_caller_gains_a_token() -> None:
    state = wakatanka(split_deck(4, [["owl"], ["mouse"]]), marker="coyote")
    state.apply(Play("puma", "owl"))  # seat 0: an owl on puma, a bluff
    state.apply(CALL)  # seat 1 calls
    assert state.tokens == [0, 1, 0, 0]
    assert state.reveals[-1].taker == 0 and state.reveals[-1].success is True
    assert state.view(None).hand_sizes[0] == 9
    assert hand(state, 0)["owl"] >= 1
    assert state.to_move == 2 and state.view(None).marker == "puma"
    assert state.view(None).stacks["puma"] == ()


def test_w4_spell_with_fewer_than_two_fails_and_the_caster_takes_the_cards() -> None:
    hands = split_deck(4, [["bear", "bear"], ["bear"]])
    state = wakatanka(hands, marker="puma")
    state.apply(Play("bear", "bear"))  # seat 0 on bear
    state.apply(Spell("bear"))  # seat 1: one bear only
    assert state.reveals[-1].success is False and state.reveals[-1].taker == 1
    assert hand(state, 1)["bear"] == Counter(hands[1])["bear"] + 1
    assert state.tokens == [0, 0, 0, 0] and state.to_move == 2


def test_w4_spell_with_two_succeeds_a_token_and_the_cards_leave_the_game() -> None:
    hands = split_deck(4, [["bear", "bear"], ["bear"], ["mouse"]])
    state = wakatanka(hands, marker="owl")
    state.apply(Play("bear", "bear"))  # seat 0
    state.apply(Play("owl", "bear"))  # seat 1: a bear on owl
    state.apply(Play("bear", "mouse"))  # seat 2: bear stack = [bear, mouse]
    state.apply(Play("owl", hands[3][0]))  # seat 3
    state.apply(Play("bear", "bear"))  # seat 0: bear stack = [bear, mouse, bear]
    state.apply(Spell("bear"))  # seat 1: two bears
    assert state.tokens[1] == 1
    assert state.reveals[-1].success is True and state.reveals[-1].taker is None
    assert Counter(state.view(None).removed) == Counter(["bear", "mouse", "bear"])
    assert state.view(None).stacks["bear"] == ()
    assert state.view(None).marker == "bear" and state.to_move == 2


def test_w4_spell_on_any_non_empty_tile_not_only_neighbours() -> None:
    state = wakatanka(split_deck(4, [["owl"], ["mouse"]]), marker="bear")
    state.apply(Play("owl", "owl"))  # seat 0
    state.apply(Play("buffalo", "mouse"))  # seat 1
    spells = {a.tile for a in state.legal_actions() if isinstance(a, Spell)}
    assert spells == {"owl", "buffalo"}
    with pytest.raises(IllegalAction, match="no cards on coyote"):
        state.apply(Spell("coyote"))
    state.apply(Spell("owl"))  # seat 2: one owl only -> takes it
    assert state.reveals[-1].taker == 2


def test_w4_after_a_spell_no_call() -> None:
    state = wakatanka(split_deck(4, [["owl"]]), marker="bear")
    state.apply(Play("owl", "owl"))
    state.apply(Spell("owl"))
    assert CALL not in state.legal_actions()


# --- W5 winning -------------------------------------------------------------------------------
def test_w5_fourth_token_wins_at_once() -> None:
    state = wakatanka(split_deck(4, [["owl"], ["mouse"]]), marker="coyote")
    state.tokens[1] = 3
    state.apply(Play("puma", "owl"))  # seat 0 bluffs
    state.apply(CALL)  # seat 1's fourth token
    assert state.is_terminal and state.winners() == [1]
    assert state.legal_actions() == []


def test_w5_fourth_token_by_a_spell_wins() -> None:
    state = wakatanka(split_deck(4, [["puma", "puma"], ["mouse"]]), marker="coyote")
    state.apply(Play("puma", "puma"))  # 0
    state.apply(Play("coyote", "mouse"))  # 1
    state.apply(Play("puma", state.view(2).hand[0]))  # type: ignore[index]
    state.tokens[3] = 3
    state.stacks[1] = [(1, 0), (1, 2)]  # two pumas on puma, placed by seats 0 and 2
    state.apply(Spell("puma"))
    assert state.is_terminal and state.winners() == [3]


def last_card_position() -> WakatankaState:
    """Seat 0 holds one card, an owl, the marker on bear: playing it empties seat 0's hand."""
    state = wakatanka(split_deck(4, [["owl"]]), marker="bear")
    state.hands[0] = [0, 0, 0, 1, 0, 0, 0]
    state.hand_size[0] = 1
    return state


def test_w5_last_card_next_player_may_only_call_or_accept() -> None:
    state = last_card_position()
    events = state.apply(Play("owl", "owl"))
    assert any(e.kind == "last_card" for e in events)
    assert state.legal_actions() == [CALL, ACCEPT]
    with pytest.raises(IllegalAction, match="call or accept"):
        state.apply(Spell("owl"))
    assert not state.is_terminal


def test_w5_accept_ends_the_game_the_empty_handed_player_wins() -> None:
    state = last_card_position()
    state.apply(Play("owl", "owl"))
    state.apply(ACCEPT)
    assert state.is_terminal and state.winners() == [0]


def test_w5_accept_only_after_a_last_card() -> None:
    state = wakatanka(split_deck(4, [["owl"]]), marker="bear")
    state.apply(Play("owl", "owl"))
    assert ACCEPT not in state.legal_actions()
    with pytest.raises(IllegalAction, match="last card"):
        state.apply(ACCEPT)


def test_w5_true_last_card_called_the_caller_takes_and_the_player_wins() -> None:
    state = last_card_position()
    state.apply(Play("owl", "owl"))
    size = state.hand_size[1]
    state.apply(CALL)
    assert state.is_terminal and state.winners() == [0]
    assert state.hand_size[1] == size + 1


def test_w5_bluffed_last_card_called_play_goes_on() -> None:
    state = last_card_position()
    state.apply(Play("puma", "owl"))  # a bluff on puma
    state.apply(CALL)
    assert not state.is_terminal
    assert state.hand_size[0] == 1 and state.tokens[1] == 1
    assert state.to_move == 2 and state.legal_actions() != [CALL, ACCEPT]


def test_w5_bluffed_last_card_called_for_a_fourth_token_wins() -> None:
    state = last_card_position()
    state.tokens[1] = 3
    state.apply(Play("puma", "owl"))
    state.apply(CALL)
    assert state.is_terminal and state.winners() == [1]


# --- W6 who sees what -------------------------------------------------------------------------
def test_w6_a_seat_sees_its_hand_sizes_its_own_face_down_cards_and_the_public_part() -> None:
    hands = split_deck(4, [["owl"], ["mouse"]])
    state = wakatanka(hands, marker="bear")
    state.apply(Play("owl", "owl"))
    state.apply(Play("buffalo", "mouse"))
    v0, v1, spectator = state.view(0), state.view(1), state.view(None)
    assert Counter(v0.hand or ()) == Counter(hands[0]) - Counter(["owl"])
    assert v0.stacks["owl"][0].card == "owl" and v0.stacks["buffalo"][0].card is None
    assert v1.stacks["owl"][0].card is None and v1.stacks["buffalo"][0].card == "mouse"
    assert spectator.hand is None
    assert all(s.card is None for slots in spectator.stacks.values() for s in slots)
    for view in (v0, v1, spectator):
        assert view.hand_sizes == (8, 8, 9, 8) and view.marker == "buffalo"
        assert [t.to_json() for t in view.turns] == [
            {"player": 0, "action": "play", "tile": "owl"},
            {"player": 1, "action": "play", "tile": "buffalo"},
        ]


def test_w6_revealed_cards_and_who_took_them_are_public() -> None:
    state = wakatanka(split_deck(4, [["owl"], ["mouse"]]), marker="bear")
    state.apply(Play("puma", "owl"))
    state.apply(CALL)
    for seat in (None, 0, 1, 2, 3):
        reveal = state.view(seat).reveals[-1]
        assert (reveal.seat, reveal.action, reveal.tile, reveal.cards, reveal.taker) == (
            1,
            "call",
            "puma",
            ((0, "owl"),),
            0,
        )


def test_w6_deal_events_tell_each_seat_only_its_own_hand() -> None:
    state = GAME.new_state(3)
    state.apply(Shuffle(deal_order(split_deck(3, []))))
    events = state.apply(Pick("marker", "owl"))
    hands = [e for e in events if e.kind == "hand"]
    assert [sorted(e.to or ()) for e in hands] == [[0], [1], [2]]
    assert all(e.data["seat"] == next(iter(e.to or ())) for e in hands)


def test_w6_a_play_tells_the_card_to_its_player_only() -> None:
    state = wakatanka(split_deck(4, [["owl"]]), marker="bear")
    events = state.apply(Play("owl", "owl"))
    public = [e for e in events if e.to is None]
    assert all("card" not in e.data for e in public)
    private = [e for e in events if e.to is not None]
    assert [(e.kind, e.to, e.data["card"]) for e in private] == [("placed", frozenset({0}), "owl")]
